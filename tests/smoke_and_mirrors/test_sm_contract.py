"""The kernel contract: metadata, options, chance, command shape and errors."""

from __future__ import annotations

import random

import pytest

from cardroom.domain.kernel import (
    AUDITOR,
    DEALER,
    OPERATOR,
    Actor,
    Event,
    MalformedCommand,
    NotYourTurn,
    RuleViolation,
    Viewer,
    event,
)
from cardroom.domain.smoke_and_mirrors import GAME
from cardroom.domain.smoke_and_mirrors.cards import card_to_pb
from cardroom.domain.smoke_and_mirrors.state import Phase
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as pb

from .support import (
    SKULL_5,
    SKULL_M,
    STAR_1,
    STAR_M,
    SWIRL_1,
    SWIRL_2,
    SWIRL_3,
    Table,
    act,
    deal_command,
    options,
    view_of,
)

HANDS = [[STAR_1, SWIRL_2, SKULL_M], [STAR_M, SWIRL_1, SKULL_5], [STAR_1, SWIRL_3, SKULL_5]]


def dealt(start: int = 0) -> Table:
    table = Table(3)
    table.deal(HANDS, start)
    return table


class TestTheGameModule:
    @pytest.mark.parametrize("seats", [0, 1, 6])
    def test_it_takes_two_to_five_players(self, seats: int) -> None:
        with pytest.raises(RuleViolation):
            GAME.initial_state(pb.Options(), seats)

    def test_it_rejects_options_of_another_game(self) -> None:
        with pytest.raises(MalformedCommand):
            GAME.initial_state(pb.View(), 3)

    def test_default_options_follow_the_rulebook(self) -> None:
        settings = GAME.initial_state(pb.Options(), 2).settings
        assert settings.rounds_to_win == 4
        assert settings.turn_cap == 0
        assert settings.remove_swirl5 is True

    def test_a_new_game_waits_for_the_deal(self) -> None:
        state = GAME.initial_state(pb.Options(), 4)
        assert GAME.chance_needed(state) is pb.DealRound
        assert GAME.winners(state) is None
        assert all(GAME.legal_actions(state, seat) == [] for seat in range(4))
        assert view_of(state, AUDITOR).phase == pb.PHASE_DEALING
        with pytest.raises(NotYourTurn):
            GAME.decide(state, Actor.of_seat(0), act(STAR_1))


class TestCommandShape:
    @pytest.mark.parametrize("command", [pb.View(), pb.DealRound(), pb.BlindPick(), pb.Card()])
    def test_a_seat_sends_only_game_commands(self, command: object) -> None:
        with pytest.raises(MalformedCommand):
            GAME.decide(dealt().state, Actor.of_seat(0), command)  # type: ignore[arg-type]

    @pytest.mark.parametrize("command", [pb.Challenge(), act(STAR_1), pb.View()])
    def test_the_dealer_sends_only_chance_outcomes(self, command: object) -> None:
        with pytest.raises(MalformedCommand):
            GAME.decide(dealt().state, DEALER, command)  # type: ignore[arg-type]

    @pytest.mark.parametrize(
        "card",
        [
            pb.Card(),
            pb.Card(pile=pb.PILE_STARS, value=3),
            pb.Card(pile=pb.PILE_SKULLS, value=1),
            pb.Card(pile=7, value=1),  # type: ignore[arg-type]
            pb.Card(pile=pb.PILE_SWIRLS, value=6),
        ],
    )
    def test_a_card_that_does_not_exist_is_malformed(self, card: pb.Card) -> None:
        table = dealt()
        with pytest.raises(MalformedCommand):
            table.by(0, pb.PerformAct(cards=[card]))
        with pytest.raises(MalformedCommand):
            table.by(0, pb.GiveCard(card=card))

    def test_a_give_without_a_card_is_malformed(self) -> None:
        with pytest.raises(MalformedCommand):
            dealt().by(0, pb.GiveCard())

    def test_the_swap_of_rules_version_1_is_malformed(self) -> None:
        with pytest.raises(MalformedCommand, match="no longer accepted"):
            dealt().by(0, pb.Swap(give=pb.Card(pile=pb.PILE_STARS, value=1)))

    def test_a_deal_with_an_impossible_card_is_malformed(self) -> None:
        command = deal_command(HANDS, 0)
        command.stars[0].value = 4
        with pytest.raises(MalformedCommand):
            Table(3).send(DEALER, command)

    @pytest.mark.parametrize(
        "actor", [OPERATOR, Actor.of_seat(3), Actor.of_seat(-1), Actor("seat")]
    )
    def test_only_seated_players_send_commands(self, actor: Actor) -> None:
        with pytest.raises(NotYourTurn):
            GAME.decide(dealt().state, actor, act(STAR_1))


class TestTurnBeforeCards:
    """Errors never depend on what the actor cannot see: the turn comes first."""

    def test_acting_out_of_turn_is_not_your_turn_even_with_cards_you_do_not_hold(self) -> None:
        table = dealt()
        refusal = table.refusal(1, act(SWIRL_3))
        assert isinstance(refusal, NotYourTurn)
        assert refusal.message == "it is seat 0's turn"

    def test_the_same_out_of_turn_message_whatever_the_cards(self) -> None:
        table = dealt()
        messages = {
            str(table.refusal(2, command))
            for command in (act(STAR_1), act(SKULL_M), act(), act(STAR_1, SWIRL_1, SKULL_5, STAR_M))
        }
        assert len(messages) == 1

    def test_an_eliminated_player_has_no_turn(self) -> None:
        table = dealt()
        table.act(0, STAR_1)
        table.act(1, SKULL_5)
        table.challenge(2)
        table.decline(2)
        assert isinstance(table.refusal(1, act(STAR_M)), NotYourTurn)
        assert table.legal(1) == []


class TestTheDeal:
    def test_a_deal_must_use_exactly_the_right_cards(self) -> None:
        command = deal_command(HANDS, 0)
        command.skulls[1].value = 0  # two Skull mirrors, one Skull 5 short
        assert Table(3).refusal(DEALER, command).rule == "rulebook: Setup"

    def test_a_deal_must_use_every_card_of_each_pile(self) -> None:
        command = deal_command(HANDS, 0)
        del command.swirls[-1]
        assert Table(3).refusal(DEALER, command).rule == "rulebook: Setup"

    def test_a_deal_must_start_at_a_real_seat(self) -> None:
        assert Table(3).refusal(DEALER, deal_command(HANDS, 3)).rule == "SM-08"

    def test_no_deal_during_a_round(self) -> None:
        assert dealt().refusal(DEALER, deal_command(HANDS, 1)).rule == "rulebook: Setup"

    def test_each_seat_gets_the_top_card_of_each_pile_at_its_index(self) -> None:
        table = dealt()
        for seat, hand in enumerate(HANDS):
            assert table.hand(seat) == sorted(hand)
        assert len(table.state.set_aside) == 9

    def test_hands_are_dealt_secretly_and_the_rest_is_set_aside_for_auditors(self) -> None:
        (round_dealt,) = dealt().log
        audiences = [s.audience for s in round_dealt.secrets]
        assert audiences == [{0}, {1}, {2}, frozenset()]
        public = round_dealt.public
        assert list(public.seats) == [0, 1, 2]  # type: ignore[attr-defined]
        assert public.set_aside_count == 9  # type: ignore[attr-defined]

    def test_the_dealer_shuffles_each_pile_with_the_given_rng(self) -> None:
        state = GAME.initial_state(pb.Options(), 4)
        one = GAME.sample_chance(state, random.Random(5))
        two = GAME.sample_chance(state, random.Random(5))
        assert one == two
        Table(4).send(DEALER, one)  # and the outcome is a valid deal


class TestTheBlindPick:
    def swap_pending(self) -> Table:
        table = dealt()
        table.act(0, STAR_1)
        table.challenge(1)
        table.take_blind(0)
        return table

    def test_the_blind_pick_is_due_only_after_a_swap(self) -> None:
        table = dealt()
        assert table.refusal(DEALER, pb.BlindPick(index=0)).rule == "SM-06"
        assert GAME.chance_needed(table.state) is None
        with pytest.raises(RuleViolation):
            GAME.sample_chance(table.state, random.Random(1))

    def test_the_pick_must_point_into_the_eliminated_players_hand(self) -> None:
        table = self.swap_pending()
        assert table.refusal(DEALER, pb.BlindPick(index=3)).rule == "SM-06"

    def test_the_dealer_draws_an_index_into_that_hand(self) -> None:
        table = self.swap_pending()
        rng = random.Random(11)
        picks = {GAME.sample_chance(table.state, rng).index for _ in range(60)}  # type: ignore[attr-defined]
        assert picks == {0, 1, 2}

    def test_nobody_moves_while_the_pick_is_pending(self) -> None:
        table = self.swap_pending()
        assert table.state.phase is Phase.BLIND_PICK
        assert all(table.legal(seat) == [] for seat in range(3))
        assert isinstance(table.refusal(0, pb.DeclineSwap()), NotYourTurn)
        assert table.view().phase == pb.PHASE_SWAP


class TestEvolve:
    def test_evolve_refuses_events_of_another_game(self) -> None:
        with pytest.raises(MalformedCommand):
            GAME.evolve(GAME.initial_state(pb.Options(), 2), Event(pb.View()))

    def test_the_full_log_folds_back_to_the_state(self) -> None:
        table = dealt()
        table.act(0, STAR_1)
        table.challenge(1)
        table.swap(0, 2, SKULL_M)
        assert table.fold() == table.state

    def test_a_swap_of_rules_version_1_still_folds(self) -> None:
        """Games played under smoke-and-mirrors/1 (give named first, then the
        blind pick) can still be read: their swap events fold as they did."""
        table = dealt()
        table.act(0, STAR_1)
        table.challenge(1)  # seat 1 (Star M, Swirl 1, Skull 5) loses; seat 0 swaps
        v1 = [
            event(
                pb.SwapOffered(seat=0, eliminated=1),
                ({0}, pb.SwapChoice(seat=0, give=card_to_pb(SKULL_M))),
            ),
            event(
                pb.CardsSwapped(seat=0, eliminated=1),
                ({0, 1}, pb.SwapDetail(taken=card_to_pb(SWIRL_1), given=card_to_pb(SKULL_M))),
            ),
            event(pb.PlayerEliminated(seat=1, cards_removed=3)),
        ]
        full, seat2 = table.state, table.fold(Viewer.of_seat(2))
        for e in v1:
            full = GAME.evolve(full, e)
            seat2 = GAME.evolve(seat2, e.redact(Viewer.of_seat(2)))
        assert full.seats[0].hand == (SWIRL_1, SWIRL_2) and SKULL_M in full.out
        assert seat2.seats[0].hand == (None, None)
        assert full.phase is Phase.TURN and full.turn_seat == 2


def test_the_options_helper_sets_the_flag_only_when_given() -> None:
    assert not options().HasField("two_player_remove_swirl5")
    assert options(remove_swirl5=False).HasField("two_player_remove_swirl5")
