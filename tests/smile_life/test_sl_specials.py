"""The ten special cards (SL-16, SL-25, SL-26, CR-SL-14): each is
kept turned over for 0 smiles (the casino stays open in the middle), and
its action, with every choice inside it, is a step of the turn."""

from __future__ import annotations

from cardroom.domain.smile_life.state import Salary
from cardroom.smile_life.v1 import smile_life_pb2 as pb

from .support import HOUSES, PETS, TRIPS, after_draw, bet, discard, draw, given, life, person


def test_birthday_each_other_player_gives_a_face_up_salary_of_their_choice() -> None:
    table = given(
        [["special_birthday", *PETS], TRIPS, HOUSES],
        [
            person(),
            person(salaries=[Salary("salary_3", True)]),
            person(job="bandit", salaries=["salary_1", "salary_4", Salary("salary_2", True)]),
        ],
    )
    after_draw(table).send(0, life("special_birthday"))
    assert table.state.awaiting() == [2]  # seat 1 has no face-up salary: it gives nothing
    assert table.legal(2) == [pb.GiveSalary(level=1), pb.GiveSalary(level=4)]
    assert table.refused(2, pb.GiveSalary(level=2)).rule == "SL-16"
    table.send(2, pb.GiveSalary(level=4))
    assert table.life(0).salaries == (Salary("salary_4"),) and table.state.current == 1
    assert table.life(0).specials == ("special_birthday",) and table.life(0).smiles() == 1


def test_rainbow_plays_up_to_three_cards_then_draws_back_to_five() -> None:
    table = given(
        [["special_rainbow", *PETS], TRIPS], [person(job="writer"), person()], pile=["salary_1"]
    )
    after_draw(table).send(0, life("special_rainbow"))
    assert pb.Decline() in table.legal(0)
    table.send(0, life("pet_cat"))
    table.send(0, discard("salary_1"))
    table.send(0, life("pet_dog"))
    assert table.state.current == 1 and len(table.state.hands[0]) == 5
    assert table.life(0).pets == ("pet_cat", "pet_dog")
    table = given([["special_rainbow", *PETS], TRIPS])
    after_draw(table).send(0, life("special_rainbow"))
    table.send(0, life("pet_cat"))
    table.send(0, pb.Decline())
    assert table.state.current == 1 and len(table.state.hands[0]) == 5


def test_luck_shows_three_cards_to_play_one_and_discard_two_in_your_order() -> None:
    table = given(
        [["special_luck", *PETS], TRIPS],
        pile=["salary_1", "pet_unicorn", "study_single", "flirt_bar"],
    )
    after_draw(table).send(0, life("special_luck"))
    assert table.fold(0).luck == ("pet_unicorn", "study_single", "flirt_bar")
    assert table.fold(1).luck == (None, None, None)
    assert len(table.legal(0)) == 6
    table.send(0, pb.ChooseLuckCard(card="pet_unicorn", top_discard="study_single"))
    assert table.state.discard == (("flirt_bar", 0), ("study_single", 0))
    assert table.legal(0) == [life("pet_unicorn"), discard("pet_unicorn")]
    table.send(0, life("pet_unicorn"))
    assert table.life(0).pets == ("pet_unicorn",) and len(table.state.hands[0]) == 5


def test_shooting_star_takes_any_discard_you_did_not_discard_to_play_at_once() -> None:
    table = given(
        [["special_shooting_star", *PETS], TRIPS],
        discard=[("flirt_zoo", 1), ("salary_1", 1), ("child_luke", 0), ("study_single", 0)],
    )
    after_draw(table).send(0, life("special_shooting_star"))
    assert table.legal(0) == [pb.TakeFromDiscard(card="flirt_zoo")]  # no job, no marriage
    table.send(0, pb.TakeFromDiscard(card="flirt_zoo"))
    table.send(0, life("flirt_zoo"))
    assert table.life(0).flirts == ("flirt_zoo",) and table.state.current == 1
    table = given([["special_shooting_star", *PETS], TRIPS], discard=[("salary_1", 1)])
    after_draw(table).send(0, life("special_shooting_star"))  # nothing to take: kept anyway
    assert table.state.current == 1 and table.life(0).specials == ("special_shooting_star",)


def test_piston_places_any_job_without_studies_then_draws_back_to_five() -> None:
    table = given([["special_piston", "surgeon", *PETS[:3]], TRIPS], pile=["salary_1", "salary_2"])
    after_draw(table).send(0, life("special_piston"))
    assert table.legal(0) == [life("surgeon"), pb.Decline()]
    table.send(0, life("surgeon"))
    assert table.life(0).job == "surgeon" and len(table.state.hands[0]) == 5


def test_barter_swaps_a_random_card_each_way_seen_by_the_two_players_only() -> None:
    table = given([["special_barter", *PETS], ["salary_1"] * 4 + ["salary_2"], HOUSES])
    after_draw(table).send(0, life("special_barter"))
    assert table.legal(0) == [pb.ChooseBarterPartner(partner=p) for p in (1, 2)]
    table.send(0, pb.ChooseBarterPartner(partner=1))
    [swap] = table.events_of(pb.CardsBartered)
    assert swap == pb.CardsBartered(seat=0, partner=1)
    assert sum(c.startswith("salary") for c in table.hand(0)) == 1
    assert sum(c.startswith("pet") for c in table.hand(1)) == 1
    # Each knows the card it gave; a third player knows nothing of either hand.
    assert table.fold(0).hands[1].count(None) == 4 and table.fold(2).hands[1] == (None,) * 5


def test_tsunami_redeals_every_hand_as_many_cards_each() -> None:
    table = given([["special_tsunami", *PETS], TRIPS, HOUSES], pile=["salary_1"])
    held = sorted([*PETS, "salary_1", *TRIPS, *HOUSES])
    after_draw(table).send(0, life("special_tsunami"))
    assert sorted(c for hand in table.state.hands for c in hand if c is not None) == held
    assert [len(hand) for hand in table.state.hands] == [5, 4, 4]
    for seat in range(3):
        assert None not in table.fold(seat).hands[seat]
        assert all(
            c is None for s, hand in enumerate(table.fold(seat).hands) if s != seat for c in hand
        )


def test_revenge_passes_a_received_malus_on_to_another_player() -> None:
    lives = [person(maluses=["malus_accident", "malus_divorce"]), person(job="mechanic"), person()]
    table = given([["special_revenge", *PETS], TRIPS, HOUSES], lives)
    after_draw(table).send(0, life("special_revenge"))
    assert table.legal(0) == [pb.TakeRevenge(malus="malus_accident", target=2)]
    table.send(0, pb.TakeRevenge(malus="malus_accident", target=2))
    assert table.life(0).maluses == ("malus_divorce",) and table.life(2).maluses == (
        "malus_accident",
    )
    assert table.life(2).missed == 1 and table.state.current == 1


def test_casino_a_later_first_bet_by_its_owner_is_that_turns_play() -> None:
    table = given([["special_casino", "salary_2", *PETS[:3]], ["salary_2", *TRIPS], HOUSES])
    after_draw(table).send(0, life("special_casino"))
    table.send(0, pb.Decline())
    assert table.state.casino is not None and table.state.current == 1
    after_draw(table)
    assert table.refused(1, bet("salary_2")).rule == "SL-27"  # the owner bets first
    table.send(1, discard("salary_2"))
    after_draw(table).send(2, discard("house_small_green"))
    after_draw(table).send(0, bet("salary_2"))
    assert table.state.casino.bettor == 0 and len(table.state.hands[0]) == 5  # the turn's play
    assert table.fold(1).casino is not None and table.fold(1).casino.bet is None


def test_inheritance_and_special_cards_score_nothing_and_stay_turned_over() -> None:
    table = given([["special_revenge", *PETS], TRIPS])
    after_draw(table).send(0, life("special_revenge"))  # no malus to pass on: kept anyway
    assert table.life(0).specials == ("special_revenge",) and table.life(0).smiles() == 0


def test_a_special_card_may_open_another_inside_a_rainbow() -> None:
    table = given(
        [["special_rainbow", "special_luck", *PETS[:3]], TRIPS],
        pile=["salary_1", "pet_unicorn", "pet_rabbit", "flirt_bar"],
    )
    after_draw(table).send(0, life("special_rainbow"))
    table.send(0, life("special_luck"))
    table.send(0, pb.ChooseLuckCard(card="pet_unicorn", top_discard="flirt_bar"))
    table.send(0, life("pet_unicorn"))
    assert [s.kind for s in table.state.steps] == [pb.STEP_RAINBOW]
    table.send(0, life("pet_cat"))
    table.send(0, discard("salary_1"))
    assert table.state.current == 1 and len(table.state.hands[0]) == 5
    assert table.life(0).pets == ("pet_unicorn", "pet_cat")
    assert draw() in table.legal(1)
