"""The kernel contract: metadata, options (the sl.* flags), chance outcomes
from the dealer, command shape, whose decision it is, the order of checks,
and the views."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from google.protobuf.message import Message

from cardroom.domain.kernel import (
    AUDITOR,
    DEALER,
    OPERATOR,
    SPECTATOR,
    Actor,
    MalformedCommand,
    NotYourTurn,
    RuleViolation,
    Viewer,
)
from cardroom.domain.smile_life import GAME
from cardroom.domain.smile_life.cards import DECK_COUNTS
from cardroom.smile_life.v1 import smile_life_pb2 as pb

from .support import PETS, TRIPS, Table, after_draw, deck, given, life, malus, options, person


class TestTheGameModule:
    @pytest.mark.parametrize("seats", [0, 1, 6, 7])
    def test_it_is_for_two_to_five_players(self, seats: int) -> None:
        with pytest.raises(RuleViolation) as caught:
            GAME.initial_state(pb.Options(), seats)
        assert caught.value.rule == "DECISIONS 3.1"

    def test_six_players_need_the_option(self) -> None:
        table = Table(6, options(allow_six_players=True), seed=2)
        assert [len(h) for h in table.state.hands] == [5] * 6

    def test_it_rejects_options_of_another_game(self) -> None:
        with pytest.raises(MalformedCommand):
            GAME.initial_state(pb.View(), 3)

    def test_default_options_follow_the_flags_table(self) -> None:
        settings = GAME.initial_state(pb.Options(), 3).settings
        assert not settings.allow_six_players and not settings.river
        assert settings.architect_free_houses == 1 and settings.grand_prof_salary_max == 4
        assert settings.draw_pile_size is None
        assert settings.start_tiebreak == pb.START_TIEBREAK_LOWEST_SEAT

    @pytest.mark.parametrize(
        ("opts", "rule"),
        [
            (options(grand_prof_salary_max=2), "SL-01"),
            (options(architect_free_houses=6), "SL-15"),
            (options(draw_pile_size=0), "SL-36"),
            (options(draw_pile_size=186), "SL-36"),
            (options(draw_pile_size=183, river_variant=True), "SL-36"),
        ],
    )
    def test_options_the_game_cannot_be_played_with_are_refused(
        self, opts: pb.Options, rule: str
    ) -> None:
        with pytest.raises(RuleViolation) as caught:
            GAME.initial_state(opts, 3)
        assert caught.value.rule == rule

    def test_an_unknown_tiebreak_is_malformed(self) -> None:
        with pytest.raises(MalformedCommand):
            GAME.initial_state(options(start_tiebreak=7), 3)  # type: ignore[arg-type]

    def test_a_shorter_game_sets_the_rest_of_the_pile_aside_unseen(self) -> None:
        table = Table(3, options(draw_pile_size=20), seed=4)
        assert len(table.state.pile) == 20 and len(table.state.set_aside) == 200 - 15 - 20
        assert set(table.fold(0).set_aside) == {None}


class TestChance:
    def test_a_new_game_waits_for_the_shuffle(self) -> None:
        state = GAME.initial_state(pb.Options(), 4)
        assert GAME.chance_needed(state) is pb.ShuffleDeck
        assert GAME.legal_actions(state, 0) == [] and GAME.winners(state) is None
        with pytest.raises(NotYourTurn):
            GAME.decide(state, Actor.of_seat(0), pb.DrawCard())

    def test_the_shuffle_is_drawn_with_the_given_generator(self) -> None:
        state = GAME.initial_state(pb.Options(), 3)
        one = GAME.sample_chance(state, random.Random(7))
        assert one == GAME.sample_chance(state, random.Random(7))
        assert isinstance(one, pb.ShuffleDeck) and Counter(one.cards) == DECK_COUNTS
        assert one != GAME.sample_chance(state, random.Random(8))

    @pytest.mark.parametrize(
        "bad",
        [
            pb.ShuffleDeck(cards=["pet_cat"] * 200),
            pb.ShuffleDeck(cards=list(deck([]).cards)[:199]),
        ],
    )
    def test_a_shuffle_must_be_the_200_cards(self, bad: pb.ShuffleDeck) -> None:
        state = GAME.initial_state(pb.Options(), 3)
        with pytest.raises(RuleViolation):
            GAME.decide(state, DEALER, bad)

    def test_a_shuffle_naming_an_unknown_card_is_malformed(self) -> None:
        state = GAME.initial_state(pb.Options(), 3)
        with pytest.raises(MalformedCommand):
            GAME.decide(state, DEALER, pb.ShuffleDeck(cards=["joker"]))

    def test_the_dealer_sends_only_the_outcome_due_now(self) -> None:
        table = Table(3, seed=1)
        assert GAME.chance_needed(table.state) is None
        for outcome in (deck([]), pb.RedealHands(), pb.PickBarterCards()):
            with pytest.raises(RuleViolation):
                GAME.decide(table.state, DEALER, outcome)
        with pytest.raises(MalformedCommand):
            GAME.decide(table.state, DEALER, pb.DrawCard())

    def test_seats_and_the_operator_send_no_chance_outcomes(self) -> None:
        table = Table(3, seed=1)
        for actor in (Actor.of_seat(0), OPERATOR):
            with pytest.raises(MalformedCommand):
                GAME.decide(table.state, actor, deck([]))

    def test_a_barter_and_a_tsunami_wait_for_the_dealer(self) -> None:
        table = given([["special_barter", *PETS], TRIPS])
        after_draw(table)
        table.apply(GAME.decide(table.state, Actor.of_seat(0), life("special_barter")))
        table.apply(GAME.decide(table.state, Actor.of_seat(0), pb.ChooseBarterPartner(partner=1)))
        assert GAME.chance_needed(table.state) is pb.PickBarterCards
        assert table.legal(0) == table.legal(1) == []
        with pytest.raises(NotYourTurn):
            GAME.decide(table.state, Actor.of_seat(0), pb.Decline())
        with pytest.raises(RuleViolation):
            GAME.decide(
                table.state,
                DEALER,
                pb.PickBarterCards(from_initiator="salary_4", from_partner="trip_rio"),
            )
        pick = GAME.sample_chance(table.state, random.Random(1))
        table.apply(GAME.decide(table.state, DEALER, pick))
        assert GAME.chance_needed(table.state) is None

    def test_a_redeal_must_give_back_the_gathered_cards_as_many_each(self) -> None:
        table = given([["special_tsunami", *PETS], TRIPS])
        after_draw(table)
        table.apply(GAME.decide(table.state, Actor.of_seat(0), life("special_tsunami")))
        assert GAME.chance_needed(table.state) is pb.RedealHands
        swapped = pb.RedealHands(
            hands=[pb.HandCards(seat=0, cards=TRIPS), pb.HandCards(seat=1, cards=table.hand(0))]
        )
        with pytest.raises(RuleViolation):
            GAME.decide(table.state, DEALER, swapped)
        with pytest.raises(MalformedCommand):
            GAME.decide(table.state, DEALER, pb.RedealHands(hands=[pb.HandCards(seat=1)]))


class TestCommandShape:
    @pytest.mark.parametrize(
        "command",
        [
            pb.PlayCard(),
            pb.PlayCard(card="joker", destination=pb.DESTINATION_LIFE),
            pb.PlayCard(card="pet_cat"),
            pb.PlayCard(card="pet_cat", destination=9),  # type: ignore[arg-type]
            pb.PlayCard(card="pet_cat", destination=pb.DESTINATION_LIFE, target=1),
            pb.PlayCard(card="malus_accident", destination=pb.DESTINATION_MALUS),
            pb.PlayCard(card="malus_accident", destination=pb.DESTINATION_MALUS, target=5),
            malus("malus_terrorist_attack", 5),
            pb.PlayCard(card="malus_terrorist_attack", destination=pb.DESTINATION_LIFE, target=1),
            pb.Announce(seat=5, card="pet_cat"),
            pb.Announce(seat=1, card="joker"),
            pb.Announce(seat=1),
            pb.PlayCard(card="pet_cat", destination=pb.DESTINATION_LIFE, payment=pb.Payment()),
            pb.PlayCard(card="trip_rio", destination=pb.DESTINATION_LIFE),
            life("trip_rio", 5),
            pb.PlayCard(
                card="trip_rio",
                destination=pb.DESTINATION_LIFE,
                payment=pb.Payment(salary_levels=[2, 1]),
            ),
            pb.PlayCard(card="pet_cat", destination=pb.DESTINATION_LIFE, steal_from=1),
            pb.PlayCard(card="flirt_bar", destination=pb.DESTINATION_LIFE, steal_from=4),
            pb.TakeRiverCard(),
            pb.Resign(discard="joker"),
            pb.ChooseLuckCard(card=""),
            pb.TakeFromDiscard(card="joker"),
            pb.ChooseBarterPartner(partner=2),
            pb.TakeRevenge(malus="malus_accident", target=3),
            pb.GiveSalary(level=5),
            pb.DiscardFromHand(),
            pb.View(),
            pb.Options(),
        ],
        ids=lambda c: f"{type(c).__name__}({c})".replace("\n", " "),
    )
    def test_a_malformed_command_is_refused_before_any_rule(self, command: Message) -> None:
        table = given([[*PETS, "salary_1"], TRIPS])
        for seat in (0, 1):  # whose turn it is or not
            with pytest.raises(MalformedCommand):
                GAME.decide(table.state, Actor.of_seat(seat), command)

    def test_a_seat_outside_the_table_cannot_play(self) -> None:
        table = given([[*PETS, "salary_1"], TRIPS])
        with pytest.raises(MalformedCommand):
            GAME.decide(table.state, Actor.of_seat(2), pb.DrawCard())


class TestWhoseDecision:
    def test_only_the_current_seat_acts_at_the_start_of_a_turn(self) -> None:
        table = given([[*PETS, "salary_1"], [*TRIPS, "salary_2"]])
        with pytest.raises(NotYourTurn):
            GAME.decide(table.state, Actor.of_seat(1), pb.DrawCard())
        assert table.legal(1) == []

    def test_inside_a_step_only_its_seat_acts_and_only_with_its_commands(self) -> None:
        table = given([["special_rainbow", *PETS], [*TRIPS, "salary_2"]])
        after_draw(table).send(0, life("special_rainbow"))
        with pytest.raises(NotYourTurn):
            GAME.decide(table.state, Actor.of_seat(1), pb.Decline())
        assert table.refused(0, pb.DrawCard()).rule == "SL-16"
        assert table.refused(0, pb.StopAdultery()).rule == "SL-16"

    def test_nothing_is_accepted_once_the_game_is_over(self) -> None:
        table = given(
            [[*PETS, "salary_1"], [*TRIPS, "salary_2"]], pile=["pet_unicorn"], only_pile=True
        )
        after_draw(table).send(0, life("pet_unicorn"))
        for seat in (0, 1):
            assert table.legal(seat) == []
            assert table.refused(seat, pb.DrawCard()).rule == "SL-05"


class TestOrderOfChecks:
    def test_whose_turn_it_is_comes_before_the_actors_cards(self) -> None:
        table = given([[*PETS, "salary_1"], [*TRIPS, "salary_2"]])
        with pytest.raises(NotYourTurn):
            GAME.decide(table.state, Actor.of_seat(1), life("house_villa"))

    def test_a_player_is_told_only_about_its_own_cards(self) -> None:
        table = after_draw(given([[*PETS, "salary_1"], [*TRIPS, "salary_2"]]))
        error = table.refused(0, life("salary_2"))
        assert error.rule == "SL-03" and error.message == "you hold no salary_2"


class TestViews:
    def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others(self) -> None:
        table = given([[*PETS, "salary_1"], [*TRIPS, "salary_2"]], [person(job="writer"), person()])
        view = table.view(Viewer.of_seat(1))
        mine, other = view.seats[1], view.seats[0]
        assert mine.hand_visible and sorted(mine.hand) == sorted([*TRIPS, "salary_2"])
        assert not other.hand_visible and list(other.hand) == [] and other.hand_count == 5
        assert other.life.job == "writer" and other.smiles == 2 and other.life.salary_max == 1
        assert (
            list(view.awaiting) == [0] and view.current_seat == 0 and view.stage == pb.STAGE_START
        )

    def test_a_spectator_sees_no_card_of_any_hand_nor_of_the_pile(self) -> None:
        table = Table(3, seed=5)
        view = table.view(SPECTATOR)
        assert not any(s.hand_visible or s.hand or s.known_cards for s in view.seats)
        assert not view.known_pile and view.draw_pile_count == 185
        assert view.options.grand_prof_salary_max == 4 and view.options.architect_free_houses == 1

    def test_the_auditor_sees_everything(self) -> None:
        table = Table(3, seed=5)
        view = table.view(AUDITOR)
        assert all(s.hand_visible for s in view.seats) and len(view.known_pile) == 185

    def test_the_view_before_the_deal_shows_the_options(self) -> None:
        state = GAME.initial_state(options(river_variant=True, draw_pile_size=30), 3)
        view = GAME.view(state, SPECTATOR)
        assert isinstance(view, pb.View)
        assert view.phase == pb.PHASE_SETUP and view.options.river_variant
        assert view.options.draw_pile_size == 30 and not view.HasField("current_seat")


def test_every_rule_the_engine_names_is_in_the_rules_document() -> None:
    root = Path(__file__).resolve().parents[2]
    source = "\n".join(
        p.read_text() for p in (root / "domain" / "cardroom" / "domain" / "smile_life").glob("*.py")
    )
    named = set(re.findall(r'"((?:CR-)?SL-\d\d|rulebook: [a-z ]+|DECISIONS \d\.\d)"', source))
    assert {"SL-06", "SL-27", "rulebook: setup", "DECISIONS 3.1"} <= named
    document = (root / "docs" / "rules" / "smile-life.md").read_text()
    assert [rule for rule in sorted(named) if rule not in document] == []
