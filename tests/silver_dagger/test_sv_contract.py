"""The kernel contract: metadata, options and flags, the dealer's shuffle,
command shape, turn order, the order of checks and the views."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

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
from cardroom.domain.silver_dagger import GAME
from cardroom.domain.silver_dagger.cards import DECK
from cardroom.domain.silver_dagger.state import Phase
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

from .scenarios import FLIP, MAGE, SENT, deal
from .support import Table, given, started


class TestTheGameModule:
    @pytest.mark.parametrize("seats", [0, 1, 5])
    def test_it_is_played_by_two_to_four(self, seats: int) -> None:
        with pytest.raises(RuleViolation) as caught:
            GAME.initial_state(pb.Options(), seats)
        assert caught.value.rule == "DECISIONS 2.1"

    def test_it_rejects_options_of_another_game_and_a_threshold_of_one(self) -> None:
        with pytest.raises(MalformedCommand):
            GAME.initial_state(pb.View(), 3)
        with pytest.raises(MalformedCommand):
            GAME.initial_state(pb.Options(mismatch_penalty_threshold=1), 3)

    def test_default_options_follow_the_flags_table(self) -> None:
        settings = GAME.initial_state(pb.Options(), 3).settings
        assert (settings.penalty_threshold, settings.furry_sequential) == (3, True)
        flags = pb.Options(mismatch_penalty_threshold=4, furry_sequential_plus50=False)
        settings = GAME.initial_state(flags, 3).settings
        assert (settings.penalty_threshold, settings.furry_sequential) == (4, False)


class TestTheDeal:
    def test_a_new_game_waits_for_the_shuffle(self) -> None:
        state = GAME.initial_state(pb.Options(), 3)
        assert GAME.chance_needed(state) is pb.DealRound
        assert GAME.legal_actions(state, 0) == [] and GAME.winners(state) is None

    def test_the_shuffle_is_a_permutation_drawn_with_the_given_generator(self) -> None:
        state = GAME.initial_state(pb.Options(), 4)
        draws = [GAME.sample_chance(state, random.Random(seed)) for seed in range(100)]
        assert all(isinstance(d, pb.DealRound) and Counter(d.order) == DECK for d in draws)
        assert {d.start_seat for d in draws} == {0, 1, 2, 3}
        again = GAME.sample_chance(state, random.Random(7))
        assert again == GAME.sample_chance(state, random.Random(7))

    def test_sv01_every_player_count_deals_four_sets_and_31_cards(self) -> None:
        for n in (2, 3, 4):
            table = Table(n, deals=[deal(start=n - 1)])
            table.deal_next()
            state = table.state
            assert [len(v) for v in state.villages] == [5] * n
            assert (len(state.deck), len(state.discard), len(state.out)) == (31, 1, 5 * (4 - n))
            # Set j goes to the start seat plus j.
            assert [s.slot for s in state.villages[n - 1]] == [0, 1, 2, 3, 4]
            assert state.phase is Phase.LOOK and state.dagger == n - 1

    def test_a_deal_must_be_the_52_cards_and_due(self) -> None:
        state = GAME.initial_state(pb.Options(), 3)
        short = deal()
        del short.order[-1]
        with pytest.raises(RuleViolation) as caught:
            GAME.decide(state, DEALER, short)
        assert caught.value.rule == "SV-01"
        with pytest.raises(MalformedCommand):
            GAME.decide(state, DEALER, pb.DealRound(order=[0] * 52))
        with pytest.raises(MalformedCommand):
            GAME.decide(state, DEALER, deal(start=3))
        table = started(3, deal())
        with pytest.raises(RuleViolation) as caught:
            GAME.decide(table.state, DEALER, deal())
        assert caught.value.rule == "SV-01"

    def test_later_rounds_start_with_the_dagger_holder(self) -> None:
        table = given([[SENT] * 4, [MAGE] * 3], deck=[MAGE])
        table.send(0, pb.CallVote())
        table.send(1, pb.DrawCard())
        table.send(1, pb.DiscardDrawn())
        assert table.state.phase is Phase.DEAL and table.state.dagger == 0
        with pytest.raises(RuleViolation) as caught:
            GAME.decide(table.state, DEALER, deal(start=1))
        assert caught.value.rule == "SV-17"
        assert GAME.sample_chance(table.state, random.Random(1)).start_seat == 0  # type: ignore[attr-defined]

    def test_the_dealer_sends_no_seat_commands_and_seats_no_deals(self) -> None:
        table = started(2, deal())
        with pytest.raises(MalformedCommand):
            GAME.decide(table.state, DEALER, pb.DrawCard())
        for actor in (Actor.of_seat(0), OPERATOR):
            with pytest.raises(MalformedCommand):
                GAME.decide(table.state, actor, deal())


class TestCommandShape:
    @pytest.mark.parametrize(
        "command",
        [
            pb.SpyPeek(seat=3, position=0),
            pb.ChooseVillage(seat=7),
            pb.ChooseCard(seat=3, position=0),
            pb.LookAtCards(first=2, second=2),
            pb.LookAtCards(first=3, second=1),
            pb.View(),
            pb.Options(),
        ],
        ids=lambda c: f"{type(c).__name__}({c})".replace("\n", " "),
    )
    def test_a_malformed_command_is_refused_before_any_rule(self, command: object) -> None:
        table = started(3, deal())
        for seat in (0, 1):  # whose turn it is or not
            with pytest.raises(MalformedCommand):
                GAME.decide(table.state, Actor.of_seat(seat), command)  # type: ignore[arg-type]

    def test_a_seat_outside_the_table_cannot_play(self) -> None:
        table = started(3, deal())
        with pytest.raises(MalformedCommand):
            GAME.decide(table.state, Actor.of_seat(3), pb.DrawCard())


class TestTurnOrder:
    def test_before_the_deal_nobody_may_act(self) -> None:
        state = GAME.initial_state(pb.Options(), 3)
        with pytest.raises(NotYourTurn):
            GAME.decide(state, Actor.of_seat(0), pb.LookAtCards(first=0, second=1))

    def test_everyone_looks_first_in_any_order(self) -> None:
        table = Table(3, deals=[deal(start=1)])
        table.deal_next()
        assert table.refused(0, pb.DrawCard()).rule == "SV-01"
        table.send(2, pb.LookAtCards(first=0, second=4))
        with pytest.raises(NotYourTurn):
            GAME.decide(table.state, Actor.of_seat(2), pb.LookAtCards(first=1, second=2))
        table.send(0, pb.LookAtCards(first=0, second=1))
        table.send(1, pb.LookAtCards(first=0, second=1))
        assert table.state.to_play == 1 and table.state.begun().phase is Phase.TURN  # start seat

    def test_only_the_current_player_acts(self) -> None:
        table = started(3, deal())
        for seat in (1, 2):
            with pytest.raises(NotYourTurn):
                GAME.decide(table.state, Actor.of_seat(seat), pb.DrawCard())
            assert table.legal(seat) == []

    def test_each_decision_point_names_what_it_waits_for(self) -> None:
        table = started(2, deal())
        error = table.refused(0, pb.Exchange(position=0))
        assert error.rule == "rulebook: Gameplay" and "draw" in error.message
        table.send(0, pb.DrawCard())
        assert table.refused(0, pb.DrawCard()).rule == "rulebook: Gameplay"
        table.send(0, pb.StartMultipleExchange())
        assert table.refused(0, pb.Exchange(position=0)).rule == "SV-27"

    def test_nothing_is_accepted_once_the_game_is_over(self) -> None:
        from .play import RandomGame, schemer

        table = RandomGame(5, 2, schemer, check=False).play().table
        for seat in range(2):
            assert table.legal(seat) == []
            assert table.refused(seat, pb.DrawCard()).rule == "SV-21"


class TestOrderOfChecks:
    def test_turn_order_is_checked_before_the_actors_cards(self) -> None:
        table = given([[SENT] * 3, [MAGE] * 2], deck=[MAGE, MAGE])
        table.send(0, pb.DrawCard())
        with pytest.raises(NotYourTurn):  # seat 1 holds nothing: it learns only that
            GAME.decide(table.state, Actor.of_seat(1), pb.DiscardDrawn())

    def test_a_refusal_names_only_public_facts_and_the_actors_own_card(self) -> None:
        table = given([[SENT] * 3, [MAGE] * 2], deck=[MAGE, MAGE])
        error = table.refused(0, pb.GiveZombie(position=7))
        assert error.message == "there is no card at position 7: the village has 3"


def test_every_rule_the_engine_names_is_in_the_rules_document() -> None:
    root = Path(__file__).resolve().parents[2]
    document = (root / "docs/rules/silver-dagger.md").read_text()
    named = set()
    for source in (root / "domain/cardroom/domain/silver_dagger").glob("*.py"):
        text = source.read_text()
        named |= set(re.findall(r'RuleViolation\(\s*"([^"]+)"', text))
        named |= set(re.findall(r'^RB_[A-Z]+ = "([^"]+)"', text, re.MULTILINE))
        named |= set(re.findall(r'"(SV-\d\d|CR-SV-\d\d)"', text))
    assert {"SV-01", "SV-27", "rulebook: Gameplay"} <= named
    assert (
        sorted(rule for rule in named if f"`{rule}`" not in document and rule not in document) == []
    )


class TestViews:
    def test_the_view_before_the_deal_shows_the_options(self) -> None:
        state = GAME.initial_state(pb.Options(mismatch_penalty_threshold=5), 3)
        view = GAME.view(state, SPECTATOR)
        assert isinstance(view, pb.View)
        assert view.phase == pb.PHASE_DEAL and view.mismatch_penalty_threshold == 5
        assert view.furry_sequential_plus50 and not view.HasField("start_seat")

    def test_a_seat_sees_the_cards_it_looked_at_and_the_auditor_all(self) -> None:
        table = started(3, deal(), looks=[(0, 1), (3, 4), (1, 2)])
        mine = table.view(Viewer.of_seat(1)).seats[1].village
        assert [c.card != pb.CARD_UNSPECIFIED for c in mine] == [False, False, False, True, True]
        audited = table.view(AUDITOR)
        assert all(c.card != pb.CARD_UNSPECIFIED for s in audited.seats for c in s.village)
        assert list(table.view(SPECTATOR).awaiting) == [0]

    def test_the_view_guards_cards_even_when_given_the_full_state(self) -> None:
        table = started(3, deal())
        for viewer in (SPECTATOR, Viewer.of_seat(1)):
            view = GAME.view(table.state, viewer)
            assert isinstance(view, pb.View)
            shown = [c.card for c in view.seats[0].village]
            assert shown[2:] == [pb.CARD_UNSPECIFIED] * 3

    @pytest.mark.parametrize(
        ("draw", "source"),
        [
            (pb.DrawCard(), ""),
            (pb.DrawCard(private_deck=True), "private deck"),
            (pb.TakeDiscard(), "discard"),
        ],
    )
    def test_every_viewer_is_told_where_the_held_card_came_from(
        self, draw: pb.DrawCard | pb.TakeDiscard, source: str
    ) -> None:
        table = given([[SENT] * 3, [FLIP] * 3], deck=[MAGE], discard=[SENT], private=[[MAGE]])
        table.send(0, draw)
        for viewer in (SPECTATOR, Viewer.of_seat(0), Viewer.of_seat(1), AUDITOR):
            view = table.view(viewer)
            assert view.held_from_private_deck == (source == "private deck")
            assert view.held_from_discard == (source == "discard")
