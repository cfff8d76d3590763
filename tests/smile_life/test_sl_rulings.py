"""The rulings added on 2026-12-01 (DECISIONS.md SL-23..SL-36): each
ruling's own test, played through the pure rules. SL-23 and SL-35 change the
API and also run as scenarios through gRPC (scenarios.py: ATTACK_NAMING,
JOURNALIST); SL-25..SL-34 and SL-36 confirm what the engine did under our
own CR-SL rulings, and refusals now name them."""

from __future__ import annotations

import pytest

from cardroom.domain.kernel import AUDITOR, Viewer
from cardroom.domain.smile_life.state import Casino, Study
from cardroom.smile_life.v1 import smile_life_pb2 as pb
from tests.contract.cases import options_for
from tests.contract.play import Played

from .play import cards_in_view
from .scenarios import ANNOUNCED, JOURNALIST
from .support import (
    HOUSES,
    PETS,
    TRIPS,
    Table,
    after_draw,
    bet,
    discard,
    draw,
    given,
    life,
    malus,
    options,
    person,
    take,
    viewers,
)

ATTACK = "malus_terrorist_attack"
PRIZE = "excellence_prize"
STUDY, DOUBLE = "study_single", "study_double"
J = [*TRIPS, *HOUSES]  # cards nobody wants here: drawn, then discarded


# ------------------------------------------------------------------ SL-23


def attack(target: int | None) -> Table:
    """P1 attacks in a 4-player game where P0 and P3 have a child each."""
    lives = [
        person(flirts=["flirt_hotel"], children=["child_luke"]),
        person(),
        person(),
        person(flirts=["flirt_camping"], children=["child_leia"]),
    ]
    table = given([PETS, [ATTACK, *TRIPS], HOUSES, ["salary_1"] * 4], lives, current=1)
    after_draw(table).send(1, malus(ATTACK, target))
    return table


def test_sl23_an_attack_naming_p3_and_one_naming_nobody_leave_the_same_state() -> None:
    named, unnamed = attack(3), attack(None)
    assert named.state == unnamed.state
    assert named.state.out_of_game == (ATTACK, "child_luke", "child_leia")
    assert named.life(1).attacker and not named.life(3).maluses
    [played] = named.events_of(pb.CardPlayed)
    assert played.target == 3  # the name is on record, and told
    for viewer in viewers(4):
        assert named.folds[viewer] == unnamed.folds[viewer]


def test_sl23_the_attack_may_name_any_other_player_or_none_but_not_oneself() -> None:
    table = given([PETS, [ATTACK, *TRIPS], HOUSES], current=1)
    after_draw(table)
    attacks = [a for a in table.legal(1) if isinstance(a, pb.PlayCard) and a.card == ATTACK]
    named = sorted(a.target if a.HasField("target") else -1 for a in attacks if a.destination == 2)
    assert named == [-1, 0, 2]
    assert table.refused(1, malus(ATTACK, 1)).rule == "SL-23"


def test_sl23_no_attack_at_all_while_a_soldier_is_in_play() -> None:
    soldier = [person(job="soldier"), person(), person()]
    table = given([PETS, [ATTACK, *TRIPS], HOUSES], soldier, current=1)
    after_draw(table)
    assert table.refused(1, malus(ATTACK)).rule == "SL-06"
    assert table.refused(1, malus(ATTACK, 2)).rule == "SL-06"


# ------------------------------------------------------------------ SL-24


def idle(table: Table, seat: int) -> None:
    """A quiet turn: draw, then discard the card drawn."""
    drawn = table.state.pile[0]
    assert drawn is not None
    table.play((seat, draw()), (seat, discard(drawn)))


def test_sl24_one_excellence_prize_per_job_for_the_whole_game() -> None:
    # P0, a writer with 3 study levels, holds both prizes and a journalist
    hands = [[PRIZE, PRIZE, "journalist", "pet_cat", "pet_dog"], ["malus_dismissal", *J[:4]]]
    writer = person(job="writer", studies=[DOUBLE, STUDY])
    table = given(hands, [writer, person()], pile=J[4:])
    # P0 plays a prize; P1 dismisses P0, whose job goes to the discard pile
    after_draw(table).send(0, life(PRIZE))
    after_draw(table).send(1, malus("malus_dismissal", 0))
    assert table.life(0).job is None and table.life(0).distinctions == (PRIZE,)
    # P1 takes the writer from the discard pile, then resigns it: re-discarded by P1
    after_draw(table).send(0, life("pet_cat"))  # the writer stays on top
    table.play((1, take()), (1, life("writer")))
    idle(table, 0)
    table.send(1, pb.Resign())
    assert table.state.discard[-1] == ("writer", 1)
    # P0 becomes a writer again
    table.play((0, take()), (0, life("writer")))
    idle(table, 1)
    # A second prize is refused
    after_draw(table)
    assert table.refused(0, life(PRIZE)).rule == "SL-24"
    assert life(PRIZE) not in table.legal(0)
    table.send(0, life("pet_dog"))
    # As a journalist, P0 may obtain one
    idle(table, 1)
    table.send(0, pb.Resign())
    idle(table, 1)
    after_draw(table).send(0, life("journalist"))
    table.send(0, pb.Decline())  # no announcement (SL-35)
    idle(table, 1)
    after_draw(table).send(0, life(PRIZE))
    mine = table.life(0)
    assert mine.prize_active and mine.prize_jobs == ("writer", "journalist")
    view = table.view(Viewer.of_seat(1))
    assert list(view.seats[0].life.prize_jobs) == ["writer", "journalist"]


# ------------------------------------------------------------ SL-25..SL-34


def test_sl25_a_shooting_star_with_nothing_to_take_still_counts_for_the_unicorn() -> None:
    # The discard pile holds only P0's own discards
    mine = person(pets=["pet_unicorn"], specials=["special_rainbow"])
    table = given(
        [["special_shooting_star", *PETS], TRIPS],
        [mine, person()],
        discard=[("salary_1", 0), ("flirt_bar", 0)],
    )
    after_draw(table).send(0, life("special_shooting_star"))
    # Nothing is taken, the turn is over, the card lies turned over
    assert not table.events_of(pb.StepOpened) and table.state.current == 1
    assert table.life(0).specials == ("special_rainbow", "special_shooting_star")
    # P0's unicorn, with P0's Rainbow also in play, scores 6
    assert table.life(0).smiles() == 6


def test_sl26_a_salary_chosen_with_luck_cannot_be_bet_on_an_open_casino() -> None:
    table = given(
        [["special_luck", *PETS], ["salary_2", *TRIPS]],
        pile=["flirt_bar", "salary_3", "flirt_zoo", "study_single"],
        casino=Casino(owner=1, open_to_all=True),
    )
    after_draw(table).send(0, life("special_luck"))
    table.send(0, pb.ChooseLuckCard(card="salary_3", top_discard="study_single"))
    # The two others went to the discard pile first, as P0's, in P0's order
    assert table.state.discard == (("flirt_zoo", 0), ("study_single", 0))
    assert table.refused(0, bet("salary_3")).rule == "SL-26"
    assert table.legal(0) == [discard("salary_3")]  # no job: no salary to the life


def test_sl27_only_the_owner_bets_first_and_never_against_itself() -> None:
    # Q (P0) plays a Casino without betting
    table = given([["special_casino", "salary_1", "salary_2", *PETS[:2]], ["salary_2", *TRIPS]])
    after_draw(table).send(0, life("special_casino"))
    table.send(0, pb.Decline())
    # R (P1) may not bet on it until Q has bet
    after_draw(table)
    assert table.refused(1, bet("salary_2")).rule == "SL-27"
    table.send(1, discard("trip_london"))
    after_draw(table).send(0, bet("salary_1"))
    # Q may not then bet second
    after_draw(table).send(1, discard("trip_rio"))
    after_draw(table)
    assert table.refused(0, bet("salary_2")).rule == "SL-27"
    assert bet("salary_2") not in table.legal(0)


def test_sl28_no_child_unmarried_for_a_player_who_kept_children() -> None:
    # P0 divorces voluntarily and keeps two children
    married = person(
        flirts=["flirt_camping", "flirt_hotel"],
        marriage="marriage_montcuq",
        children=["child_luke", "child_leia"],
    )
    table = given([["child_mario", *PETS], TRIPS], [married, person()])
    table.send(0, pb.Divorce())
    after_draw(table).send(1, discard("trip_london"))
    # With a hotel flirt on top, P0 may not place a child
    assert table.life(0).flirts[-1] == "flirt_hotel" and table.life(0).children
    assert after_draw(table).refused(0, life("child_mario")).rule == "SL-28"


def test_sl29_the_top_adultery_flirt_of_a_married_player_is_taken() -> None:
    # Q (P1) is married, in adultery, with "bar" on top of the adultery flirts
    q = person(
        flirts=["flirt_zoo"],
        marriage="marriage_montcuq",
        adultery="adultery",
        adultery_flirts=["flirt_park", "flirt_bar"],
    )
    table = given([["flirt_bar", *PETS], TRIPS], [person(), q])
    after_draw(table)
    assert table.legal(0)[0] == life("flirt_bar", steal=1)
    # P0 plays "bar" and takes Q's flirt
    table.send(0, life("flirt_bar", steal=1))
    assert table.life(0).flirts == ("flirt_bar", "flirt_bar")
    assert table.life(1).adultery_flirts == ("flirt_park",)
    assert table.life(1).flirts == ("flirt_zoo",)  # covered by the marriage


def test_sl30_every_named_part_of_a_payment_is_needed() -> None:
    # Face-up salaries {1, 1, 2} and a price of 3
    payer = person(job="designer", salaries=["salary_1", "salary_1", "salary_2"])
    table = given([["trip_rio", *PETS], HOUSES], [payer, person()])
    after_draw(table)
    # paying {1, 1, 2} is refused; paying {1, 2} is legal
    assert table.refused(0, life("trip_rio", 1, 1, 2)).rule == "SL-30"
    table.send(0, life("trip_rio", 1, 2))
    salaries = [(s.card, s.invested) for s in table.life(0).salaries]
    assert salaries == [("salary_1", False), ("salary_1", True), ("salary_2", True)]


def test_sl31_a_repeated_year_takes_the_last_unprotected_study_of_an_ex_doctor() -> None:
    # An ex-doctor has studies [s1, s2 placed as a doctor]
    doctor = person(studies=[Study(STUDY), Study(DOUBLE, protected=True)])
    table = given([["malus_repeated_year", *PETS], TRIPS], [person(), doctor])
    # A repeated year discards s1
    after_draw(table).send(0, malus("malus_repeated_year", 1))
    assert table.life(1).studies == (Study(DOUBLE, protected=True),)
    assert table.state.discard[-1] == (STUDY, 1)


def test_sl32_a_shooting_star_does_not_take_back_a_card_a_malus_discarded() -> None:
    # P0's study card is discarded by a repeated year on P0
    table = given(
        [["special_shooting_star", *PETS], ["malus_repeated_year", *TRIPS]],
        [person(studies=[STUDY]), person()],
        discard=[("flirt_zoo", 1)],
        current=1,
    )
    after_draw(table).send(1, malus("malus_repeated_year", 0))
    assert table.state.discard[-1] == (STUDY, 0)
    # P0's Shooting Star cannot take it (only the zoo flirt, P1's discard)
    after_draw(table).send(0, life("special_shooting_star"))
    assert table.legal(0) == [pb.TakeFromDiscard(card="flirt_zoo")]
    assert table.refused(0, pb.TakeFromDiscard(card=STUDY)).rule == "SL-32"


def test_sl33_a_manager_placed_protects_a_card_a_sitting_one_does_not() -> None:
    # P0 places a sales manager, protects a salary and barters with Q (P1)
    hands = [["sales_manager", "salary_2", "pet_chick", "pet_cat", "pet_dog"], TRIPS]
    pile = [J[4], J[5], "special_barter", *J[6:]]
    table = given(hands, [person(studies=[DOUBLE, STUDY]), person()], pile=pile)
    after_draw(table).send(0, life("sales_manager"))
    table.send(0, pb.ChooseBarterPartner(partner=1, protect="salary_2"))
    # the salary stays in P0's hand
    assert "salary_2" in table.hand(0)
    assert [e.protected for e in table.events_of(pb.BarterStarted)] == [True]
    # a sitting manager who later plays the Barter card protects nothing
    after_draw(table).send(1, discard(table.hand(1)[0]))
    after_draw(table).send(0, life("special_barter"))
    assert table.refused(0, pb.ChooseBarterPartner(partner=1, protect="salary_2")).rule == "SL-33"
    assert table.legal(0) == [pb.ChooseBarterPartner(partner=1)]


def test_sl34_researcher_police_missed_turns_and_a_bet_inside_a_rainbow() -> None:
    # (a) a researcher draws a sixth card as the job is placed
    table = given([["researcher", *PETS], TRIPS], [person(studies=[DOUBLE] * 3), person()])
    after_draw(table).send(0, life("researcher"))
    assert len(table.state.hands[0]) == 6
    # (b) a police officer sends other players' bandit to the discard pile, as theirs
    bandit = person(job="bandit", was_bandit=True)
    table = given([["police_officer", *PETS], TRIPS], [person(studies=[STUDY]), bandit])
    after_draw(table).send(0, life("police_officer"))
    assert table.life(1).job is None and table.life(1).was_bandit
    assert table.state.discard[-1] == ("bandit", 1)
    # (d) a missed turn is skipped as soon as it comes
    table = given([["malus_illness", *PETS], TRIPS, HOUSES])
    after_draw(table).send(0, malus("malus_illness", 1))
    assert table.state.current == 2 and table.events_of(pb.TurnMissed)
    # (e) a casino bet inside a rainbow is one of its plays; its draw back is at once
    casino = Casino(owner=0)
    hands = [["special_rainbow", "salary_1", *PETS[:3]], TRIPS]
    table = given(hands, casino=casino, pile=J[4:])
    after_draw(table).send(0, life("special_rainbow"))
    table.send(0, bet("salary_1"))
    assert table.state.steps[-1].played == 1 and len(table.state.hands[0]) == 4


# ------------------------------------------------------------------ SL-35


def test_sl35_a_false_announcement_is_accepted_and_changes_nothing() -> None:
    table = Table(JOURNALIST.seat_count, JOURNALIST.options, deal=JOURNALIST.chance)
    table.play(*JOURNALIST.stages[0].steps)
    assert "malus_divorce" not in table.hand(2)
    before = (table.state, dict(table.folds))
    legal = [table.legal(s) for s in range(3)]
    # The journalist announces "seat 2 holds a Divorce" when seat 2 holds none
    [announced] = table.send(0, ANNOUNCED)
    assert announced.public == pb.JournalistAnnounced(
        seat=0, about=2, card="malus_divorce", holds=True
    )
    assert not announced.secrets  # public
    # It is accepted, and nothing else changes: no state, no view, no legal action
    assert (table.state, table.folds) == before
    assert [table.legal(s) for s in range(3)] == legal == [[pb.Decline()], [], []]
    # Any number of them, until the journalist is done
    table.send(0, pb.Announce(seat=1, card="pet_cat", holds=False))
    table.send(0, pb.Decline())
    assert table.state.current == 1
    assert table.refused(0, ANNOUNCED).rule == "SL-35"


# ------------------------------------------------------------------ SL-36


def test_sl36_a_shorter_draw_pile_sets_the_rest_aside_unseen() -> None:
    table = Table(3, options(draw_pile_size=10, river_variant=True))
    full = table.view(AUDITOR)
    assert (full.draw_pile_count, full.set_aside_count) == (10, 200 - 15 - 3 - 10)
    for viewer in viewers(3):
        view = table.view(viewer)
        assert view.set_aside_count == 172 and cards_in_view(view) == 200
        assert all(c is None for c in table.folds[viewer].set_aside)
    assert None not in table.state.set_aside  # the auditor's
    assert draw() in table.legal(table.state.current or 0)


def test_a_resolved_casino_opens_both_bets_secrets() -> None:
    """The casino's face-down bets are secrets; CasinoResolved turns both
    face up, so it opens both (the audit then checks each bet against its
    commitment). Played until a casino resolves."""
    for seed in range(200):
        played = Played("smile-life", 3, seed, options_for("smile-life", 3, seed)).play()
        resolved = [e for e in played.log if isinstance(e.public, pb.CasinoResolved)]
        if resolved:
            break
    else:
        pytest.fail("no casino resolved in 200 games")
    bets = [s.value for e in played.log for s in e.secrets if isinstance(s.value, pb.CasinoBet)]
    for event in resolved:
        assert isinstance(event.public, pb.CasinoResolved)
        reveals = played.game.reveals(event)
        assert [reveal.kind for reveal in reveals] == [pb.CasinoBet, pb.CasinoBet]
        for reveal, seat in zip(
            reveals, (event.public.first_seat, event.public.second_seat), strict=True
        ):
            assert [b.seat for b in bets if reveal.match(b)] and all(
                b.seat == seat for b in bets if reveal.match(b)
            )
