"""Rulings SM-02..SM-10 and the 2-player setup, each from a set deal."""

from __future__ import annotations

import random

import pytest

from cardroom.domain.kernel import (
    AUDITOR,
    DEALER,
    SPECTATOR,
    Actor,
    Event,
    MalformedCommand,
    NotYourTurn,
    Viewer,
)
from cardroom.domain.smoke_and_mirrors import GAME
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as pb
from cardroom.v1 import table_pb2 as tpb

from .support import (
    ALL_CARDS,
    SKULL_5,
    SKULL_M,
    STAR_1,
    STAR_M,
    SWIRL_1,
    SWIRL_2,
    SWIRL_3,
    SWIRL_4,
    SWIRL_5,
    SWIRL_M,
    Table,
    accounted_cards,
    act,
    as_cards,
    canonical,
    deal_command,
    give,
    kinds,
    old_swap,
    only,
    options,
)

# Three hands used throughout: seat 0 holds the rulebook's {1, 2, M}.
HAND_0 = [STAR_1, SWIRL_2, SKULL_M]
HAND_1 = [STAR_M, SWIRL_1, SKULL_5]
HAND_2 = [STAR_1, SWIRL_3, SKULL_5]


def three_players(start: int = 0, turn_cap: int = 0) -> Table:
    table = Table(3, options(turn_cap=turn_cap))
    table.deal([HAND_0, HAND_1, HAND_2], start)
    return table


def two_players(start: int = 0, rounds_to_win: int = 0) -> Table:
    table = Table(2, options(rounds_to_win=rounds_to_win))
    table.deal([HAND_0, [STAR_1, SWIRL_4, SKULL_5]], start)
    return table


def seen_by(table: Table, viewer: Viewer, kind: type) -> bool:
    return any(e.secret(kind) is not None for e in (e.redact(viewer) for e in table.log))


class TestSM02TrueActs:
    def test_a_mirror_act_that_can_make_its_claim_is_true_and_the_challenger_leaves(self) -> None:
        # Given seat 0 holds {1, 2, M} in a 2-player game
        table = two_players()
        table.act(0, STAR_1)  # claims 1
        table.act(1, STAR_1)  # claims 2 (false)
        table.act(0, STAR_1, SWIRL_2)  # claims 3
        table.act(1, SWIRL_4)  # claims 4
        # When seat 0 claims 5 with 1, 2 and a mirror copying the 2, and seat 1 challenges
        table.act(0, STAR_1, SWIRL_2, SKULL_M)
        events = table.challenge(1)
        # Then the act was true: the challenger is eliminated and seat 0 wins the round
        challenged = only(events, pb.ActChallenged)
        assert challenged.claim == 5
        assert challenged.act_was_true
        assert challenged.eliminated == 1
        assert only(events, pb.RoundWon).seat == 0

    def test_an_act_that_cannot_make_its_claim_is_false_and_the_actor_leaves(self) -> None:
        table = two_players()
        table.act(0, STAR_1)
        table.act(1, SKULL_5)  # claims 2 with a 5
        events = table.challenge(0)
        challenged = only(events, pb.ActChallenged)
        assert not challenged.act_was_true
        assert challenged.eliminated == 1
        assert only(events, pb.RoundWon).seat == 0

    def test_the_public_act_says_only_how_many_cards_and_the_claim(self) -> None:
        table = two_players()
        events = table.act(0, STAR_1)
        performed = only(events, pb.ActPerformed)
        assert (performed.seat, performed.claim, performed.card_count) == (0, 1, 1)
        (secret,) = events[0].secrets
        assert secret.audience == {0}
        shown = events[0].secret(pb.ActCards)
        assert shown is not None and as_cards(shown.cards) == [STAR_1]


class TestSM03OpeningTurn:
    def test_the_opening_act_is_one_card_claiming_one(self) -> None:
        table = three_players()
        assert only(table.act(0, SWIRL_2), pb.ActPerformed).claim == 1

    def test_the_opening_act_may_not_use_two_cards(self) -> None:
        table = three_players()
        assert table.refusal(0, act(STAR_1, SWIRL_2)).rule == "SM-03"

    def test_there_is_nothing_to_challenge_on_the_opening_turn(self) -> None:
        assert three_players().refusal(0, pb.Challenge()).rule == "SM-03"

    def test_no_break_on_the_opening_turn(self) -> None:
        assert three_players().refusal(0, pb.TakeBreak()).rule == "SM-07"

    def test_the_start_player_may_only_play_one_of_their_cards(self) -> None:
        table = three_players()
        assert [canonical(a) for a in table.legal(0)] == [canonical(act(c)) for c in sorted(HAND_0)]

    def test_the_start_player_is_the_first_to_move(self) -> None:
        table = three_players(start=2)
        assert table.legal(0) == [] and table.legal(1) == []
        assert isinstance(table.refusal(0, act(STAR_1)), NotYourTurn)
        table.act(2, SWIRL_3)
        assert table.view().turn_seat == 0


class TestSM04Claims:
    def test_every_act_claims_one_more_than_the_last(self) -> None:
        table = three_players()
        claims = [
            only(table.act(seat, card), pb.ActPerformed).claim
            for seat, card in [(0, STAR_1), (1, SWIRL_1), (2, SWIRL_3), (0, SWIRL_2)]
        ]
        assert claims == [1, 2, 3, 4]

    def test_a_break_leaves_the_number_unchanged(self) -> None:
        # Rulebook: skip on a 3, and the next player still needs to claim 4.
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SWIRL_1)
        table.act(2, SWIRL_3)
        table.take_break(0)
        assert table.view().next_claim == 4
        assert only(table.act(1, SKULL_5), pb.ActPerformed).claim == 4

    def test_the_actor_picks_up_their_previous_act_first(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SWIRL_1)
        table.act(2, SWIRL_3)
        # Seat 0's Star 1 is on the table; it may be played again with the rest.
        table.act(0, STAR_1, SWIRL_2, SKULL_M)
        st = table.state.seats[0]
        assert st.hand == () and sorted(st.act) == sorted(HAND_0)  # type: ignore[type-var]

    def test_cards_not_played_again_return_to_the_hand(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SWIRL_1)
        table.act(2, SWIRL_3)
        table.act(0, SKULL_M)
        st = table.state.seats[0]
        assert list(st.act) == [SKULL_M]
        assert sorted(st.hand) == [STAR_1, SWIRL_2]  # type: ignore[type-var]

    def test_each_active_player_owns_three_cards_at_all_times(self) -> None:
        table = three_players()
        for seat, card in [(0, STAR_1), (1, SWIRL_1), (2, SWIRL_3), (0, SWIRL_2)]:
            table.act(seat, card)
            assert all(len(st.owned) == 3 for st in table.state.seats)

    @pytest.mark.parametrize("cards", [(), (STAR_1, SWIRL_2, SKULL_M, STAR_1)])
    def test_an_act_has_one_to_three_cards(self, cards: tuple) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SWIRL_1)
        table.act(2, SWIRL_3)
        assert table.refusal(0, act(*cards)).rule == "SM-04"

    def test_you_cannot_play_a_card_you_do_not_hold(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SWIRL_1)
        table.act(2, SWIRL_3)
        refusal = table.refusal(0, act(SKULL_5))
        assert refusal.rule == "SM-04"
        # ...nor the same card twice
        assert table.refusal(0, act(STAR_1, STAR_1)).rule == "SM-04"

    def test_three_different_cards_give_seven_possible_acts(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SWIRL_1)
        table.act(2, SWIRL_3)
        acts = [a for a in table.legal(0) if isinstance(a, pb.PerformAct)]
        assert len(acts) == 7
        assert len({canonical(a) for a in acts}) == 7

    def test_identical_cards_count_once_among_the_possible_acts(self) -> None:
        # Given seat 0 ends up with two Skull 5s after a swap
        table = Table(3)
        table.deal([[STAR_1, SWIRL_2, SKULL_5], [STAR_M, SWIRL_1, SKULL_5], HAND_2], 0)
        table.act(0, STAR_1)  # true
        table.challenge(1)  # seat 1 loses
        table.swap(0, 2, SWIRL_2)  # seat 1's hand is Star M, Swirl 1, Skull 5
        assert sorted(table.state.seats[0].owned) == [STAR_1, SKULL_5, SKULL_5]  # type: ignore[type-var]
        table.take_break(2)
        # Then the distinct acts are {1}, {5}, {1,5}, {5,5}, {1,5,5}
        acts = [a for a in table.legal(0) if isinstance(a, pb.PerformAct)]
        assert len(acts) == 5


class TestSM05WhichActMayBeChallenged:
    def test_after_a_break_the_next_player_may_challenge_the_act_before_it(self) -> None:
        # DECISIONS SM-05: A acts 3, B takes a Break, C may challenge A's act.
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SWIRL_1)
        table.act(2, STAR_1, SWIRL_3)  # A (seat 2) claims 3 with 1 + 3: false
        table.take_break(0)  # B
        assert canonical(pb.Challenge()) in {canonical(a) for a in table.legal(1)}
        events = table.challenge(1)  # C
        challenged = only(events, pb.ActChallenged)
        assert (challenged.actor, challenged.claim, challenged.eliminated) == (2, 3, 2)
        table.decline(1)
        # ...and C would then need to claim 4
        assert only(table.act(1, SKULL_5), pb.ActPerformed).claim == 4

    def test_you_cannot_challenge_your_own_act(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SWIRL_1)
        table.take_break(2)
        table.take_break(0)
        assert table.refusal(1, pb.Challenge()).rule == "SM-05"
        assert not any(isinstance(a, pb.Challenge) for a in table.legal(1))

    def test_only_the_most_recent_act_may_be_challenged(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SWIRL_1)
        challenged = only(table.challenge(2), pb.ActChallenged)
        assert challenged.actor == 1  # not seat 0's older act

    def test_the_act_of_an_eliminated_player_cannot_be_challenged(self) -> None:
        table = Table(4)
        table.deal([HAND_0, HAND_1, HAND_2, [STAR_1, SWIRL_4, SKULL_5]], 0)
        table.act(0, STAR_1)
        table.act(1, SKULL_5)  # claims 2: false
        table.challenge(2)  # seat 1 is eliminated
        table.decline(2)
        table.take_break(2)  # the number stays 2, set by the eliminated seat 1
        refusal = table.refusal(3, pb.Challenge())
        assert refusal.rule == "SM-05"
        assert only(table.act(3, STAR_1), pb.ActPerformed).claim == 3


class TestSM06ResolvingAChallenge:
    def test_a_winning_challenger_goes_on_to_act_or_break(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SKULL_5)  # claims 2: false
        table.challenge(2)
        table.decline(2)
        view = table.view()
        assert (view.turn_seat, view.challenged_this_turn) == (2, True)
        legal = table.legal(2)
        assert not any(isinstance(a, pb.Challenge) for a in legal)
        assert table.refusal(2, pb.Challenge()).rule in {"SM-05", "SM-06"}
        assert any(isinstance(a, pb.TakeBreak) for a in legal)
        # The false claim of 2 still stands: the next act claims 3.
        assert only(table.act(2, SWIRL_3), pb.ActPerformed).claim == 3

    def test_a_losing_challenger_leaves_and_the_next_player_faces_the_same_act(self) -> None:
        table = Table(4)
        table.deal([HAND_0, HAND_1, HAND_2, [STAR_1, SWIRL_4, SKULL_5]], 0)
        table.act(0, STAR_1)  # true
        assert only(table.challenge(1), pb.ActChallenged).eliminated == 1
        table.decline(0)
        # Seat 2 (next after the eliminated challenger) may challenge seat 0 again...
        assert table.view().turn_seat == 2
        assert any(isinstance(a, pb.Challenge) for a in table.legal(2))
        challenged = only(table.challenge(2), pb.ActChallenged)
        # ...which fails, since the act is still true
        assert (challenged.actor, challenged.eliminated) == (0, 2)

    def test_the_revealed_act_is_seen_only_by_challenger_and_actor(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SWIRL_1)
        table.challenge(2)
        assert seen_by(table, Viewer.of_seat(2), pb.ActRevealed)
        assert seen_by(table, Viewer.of_seat(1), pb.ActRevealed)
        assert not seen_by(table, Viewer.of_seat(0), pb.ActRevealed)
        assert not seen_by(table, SPECTATOR, pb.ActRevealed)
        assert seen_by(table, AUDITOR, pb.ActRevealed)

    def test_a_true_act_stays_on_the_table_after_the_challenge(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SWIRL_1)  # claims 2 with a 1: false
        table.act(2, SWIRL_3)  # claims 3: true
        table.challenge(0)  # seat 0 loses
        table.decline(2)
        st = table.state.seats[2]
        assert list(st.act) == [SWIRL_3] and st.act_claim == 3
        # and seat 1, next after seat 0, faces the same act
        assert table.view().turn_seat == 1

    def test_the_losing_challenger_remembers_the_act_it_saw(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SWIRL_1)
        table.act(2, SWIRL_3)
        table.challenge(0)
        table.decline(2)
        seat0 = table.view(Viewer.of_seat(0)).seats[2]
        assert as_cards(seat0.act) == [SWIRL_3]
        assert table.view(Viewer.of_seat(1)).seats[2].act == []

    def test_the_remaining_player_may_take_a_card_blind_and_give_one_back(self) -> None:
        table = three_players()
        table.act(0, STAR_1)  # true
        table.challenge(1)  # seat 1 loses; both hands hold cards
        assert table.view().phase == pb.PHASE_SWAP
        assert table.view().swapper == 0
        assert [canonical(a) for a in table.legal(0)] == [
            canonical(pb.TakeBlind()),
            canonical(pb.DeclineSwap()),
        ]
        assert kinds(table.take_blind(0)) == ["SwapStarted"]
        assert GAME.chance_needed(table.state) is pb.BlindPick
        # The dealer picks blind from seat 1's hand (Star M, Swirl 1, Skull 5)
        events = table.blind_pick(1)
        assert kinds(events) == ["BlindCardTaken"]
        taken = events[0].secret(pb.TakenCard)
        assert taken is not None and events[0].secrets[0].audience == {0, 1}
        assert as_cards([taken.card]) == [SWIRL_1]
        events = table.give(0, SKULL_M)
        assert kinds(events) == ["CardGiven", "PlayerEliminated"]
        given = events[0].secret(pb.GivenCard)
        assert given is not None and events[0].secrets[0].audience == {0, 1}
        assert as_cards([given.card]) == [SKULL_M]
        assert sorted(table.state.seats[0].hand) == [SWIRL_1, SWIRL_2]  # type: ignore[type-var]
        assert list(table.state.seats[0].act) == [STAR_1]
        # The eliminated player's cards, with the one just given, leave unseen.
        assert only(events, pb.PlayerEliminated).cards_removed == 3
        assert SKULL_M in table.state.out
        assert table.view().turn_seat == 2

    def test_the_swap_is_seen_only_by_the_two_players(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.challenge(1)
        table.swap(0, 0, SKULL_M)
        for kind in (pb.TakenCard, pb.GivenCard):
            assert seen_by(table, Viewer.of_seat(1), kind)
            assert not seen_by(table, Viewer.of_seat(2), kind)
            assert not seen_by(table, SPECTATOR, kind)
        # Seat 2 now knows nothing about seat 0's hand but its size
        assert table.fold(Viewer.of_seat(2)).seats[0].hand == (None, None)

    def test_the_swapper_gives_a_card_from_the_hand_not_from_the_act(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.challenge(1)
        table.take_blind(0)
        table.blind_pick(0)
        refusal = table.refusal(0, give(STAR_1))
        assert refusal.rule == "SM-10"

    def test_the_swapper_must_decide_before_anything_else(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SKULL_5)
        table.challenge(2)  # seat 1 loses, seat 2 may swap
        assert table.refusal(2, act(SWIRL_3)).rule == "SM-06"
        assert isinstance(table.refusal(0, act(STAR_1)), NotYourTurn)
        assert isinstance(table.refusal(1, pb.DeclineSwap()), NotYourTurn)
        assert isinstance(table.refusal(1, pb.TakeBlind()), NotYourTurn)

    def test_the_remaining_player_may_decline_the_swap(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.challenge(1)
        events = table.decline(0)
        assert kinds(events) == ["SwapDeclined", "PlayerEliminated"]
        assert sorted(table.state.seats[0].hand) == [SWIRL_2, SKULL_M]  # type: ignore[type-var]
        assert GAME.chance_needed(table.state) is None

    def test_no_swap_when_the_eliminated_player_has_no_hand(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, STAR_M, SWIRL_1, SKULL_5)  # all three cards, claiming 2: false
        events = table.challenge(2)
        assert kinds(events) == ["ActChallenged", "PlayerEliminated"]
        assert table.view().phase == pb.PHASE_TURN
        assert table.view().turn_seat == 2
        assert table.refusal(2, pb.DeclineSwap()).rule == "SM-06"

    def test_no_swap_when_the_remaining_player_has_no_hand(self) -> None:
        table = Table(3)
        table.deal([[STAR_1, SWIRL_2, SKULL_5], HAND_1, [STAR_1, SWIRL_M, SKULL_M]], 0)
        table.act(0, STAR_1)
        table.act(1, SWIRL_1)
        table.act(2, STAR_1, SWIRL_M, SKULL_M)  # 1 copied twice: 3, true
        events = table.challenge(0)
        assert kinds(events) == ["ActChallenged", "PlayerEliminated"]
        assert table.view().turn_seat == 1

    def test_no_swap_when_the_round_just_ended(self) -> None:
        table = two_players()
        table.act(0, STAR_1)
        events = table.challenge(1)
        assert kinds(events) == ["ActChallenged", "PlayerEliminated", "RoundWon"]
        assert GAME.chance_needed(table.state) is pb.DealRound


class TestSM10TheSwapTakesBeforeItGives:
    """SM-10 (replaces CR-SM-04): take one card blind and see it, then give
    one of the cards held before the take; decline only before the take."""

    @staticmethod
    def b_has_caught_c() -> Table:
        """A (0), B (1), C (2): C's false act is caught by B, who may swap."""
        table = Table(3)
        table.deal(
            [[STAR_1, SWIRL_3, SKULL_M], [STAR_M, SWIRL_2, SKULL_5], [STAR_1, SWIRL_4, SKULL_5]],
            0,
        )
        table.act(0, STAR_1)  # 1: true
        table.act(1, SWIRL_2)  # 2: true
        table.act(2, STAR_1)  # 3: false
        table.take_break(0)
        assert only(table.challenge(1), pb.ActChallenged).eliminated == 2
        return table

    def test_b_takes_cs_four_blind_then_gives_the_skull_five(self) -> None:
        # Given B caught C, whose hand is {4~, 5☠}
        table = self.b_has_caught_c()
        # When B takes blind and the dealer's pick is C's 4~
        table.take_blind(1)
        table.blind_pick(0)
        # Then B holds the 4~ and sees it before giving
        assert table.hand(1) == [STAR_M, SWIRL_4, SKULL_5]
        view = table.view(Viewer.of_seat(1))
        assert view.phase == pb.PHASE_SWAP_GIVE and as_cards([view.swap_taken]) == [SWIRL_4]
        # and may give only a card it held before the take
        assert [canonical(a) for a in table.legal(1)] == [
            canonical(give(STAR_M)),
            canonical(give(SKULL_5)),
        ]
        # When B chooses to give the 5☠
        events = table.give(1, SKULL_5)
        # Then B's hand becomes {M★, 4~}, and C leaves with the 5☠ unseen
        assert table.hand(1) == [STAR_M, SWIRL_4]
        eliminated = only(events, pb.PlayerEliminated)
        assert (eliminated.seat, eliminated.cards_removed) == (2, 3)  # two 5☠ and its act
        # and B goes on with step 2 of its turn: claim 4
        assert only(table.act(1, SWIRL_4), pb.ActPerformed).claim == 4

    def test_the_card_just_taken_cannot_be_given_back(self) -> None:
        table = self.b_has_caught_c()
        table.take_blind(1)
        table.blind_pick(0)
        assert table.refusal(1, give(SWIRL_4)).rule == "SM-10"
        assert table.refusal(1, give(SWIRL_2)).rule == "SM-10"  # the act's card

    def test_a_copy_held_before_the_take_may_be_given(self) -> None:
        table = self.b_has_caught_c()
        table.take_blind(1)
        table.blind_pick(1)  # C's 5☠: B held a 5☠ already
        assert table.hand(1) == [STAR_M, SKULL_5, SKULL_5]
        assert canonical(give(SKULL_5)) in [canonical(a) for a in table.legal(1)]
        table.give(1, SKULL_5)
        assert table.hand(1) == [STAR_M, SKULL_5]

    def test_declining_is_possible_before_the_take_only(self) -> None:
        table = self.b_has_caught_c()
        table.take_blind(1)
        assert isinstance(table.refusal(1, pb.DeclineSwap()), NotYourTurn)  # the dealer's pick
        table.blind_pick(0)
        assert table.refusal(1, pb.DeclineSwap()).rule == "SM-10"
        assert table.refusal(1, pb.TakeBlind()).rule == "SM-10"
        assert table.refusal(1, act(STAR_M)).rule == "SM-10"

    def test_giving_before_taking_is_refused(self) -> None:
        table = self.b_has_caught_c()
        assert table.refusal(1, give(SKULL_5)).rule == "SM-10"

    def test_the_card_taken_is_seen_by_the_two_players_of_the_swap_only(self) -> None:
        table = self.b_has_caught_c()
        table.take_blind(1)
        table.blind_pick(0)
        for viewer, sees in ((Viewer.of_seat(1), True), (Viewer.of_seat(2), True)):
            assert as_cards([table.view(viewer).swap_taken]) == ([SWIRL_4] if sees else [])
        for viewer in (Viewer.of_seat(0), SPECTATOR):
            view = table.view(viewer)
            assert not view.HasField("swap_taken")
            # the sizes are public: B holds three cards until it gives one
            assert [s.hand_count for s in view.seats] == [2, 3, 1]

    def test_a_timed_out_swapper_gives_back_its_lowest_card_held_before(self) -> None:
        table = self.b_has_caught_c()
        table.take_blind(1)
        table.blind_pick(0)  # B holds M★, 4~ (just taken) and 5☠
        fold = table.fold(Viewer.of_seat(1))
        assert GAME.default_action(fold, 1, departed=False) == give(STAR_M)

    def test_a_swapper_that_leaves_after_its_take_leaves_the_round_with_it(self) -> None:
        table = self.b_has_caught_c()
        table.take_blind(1)
        table.blind_pick(0)
        resigned = Event(tpb.SeatResigned(seat=1, reason=tpb.SeatResigned.REASON_RESIGNED))
        table.state = GAME.evolve(table.state, resigned)
        table.log.append(resigned)
        leave = GAME.default_action(table.fold(Viewer.of_seat(1)), 1, departed=True)
        events = table.by(1, leave)
        assert kinds(events) == ["PlayerLeftRound", "PlayerEliminated", "RoundWon"]
        assert only(events, pb.PlayerLeftRound).cards_removed == 4  # with the card taken
        assert only(events, pb.RoundWon).seat == 0
        assert accounted_cards(table.state) == ALL_CARDS

    def test_the_old_swap_that_named_the_card_first_is_no_longer_accepted(self) -> None:
        table = self.b_has_caught_c()
        with pytest.raises(MalformedCommand, match="SM-10"):
            GAME.decide(table.state, Actor.of_seat(1), old_swap(SKULL_5))


class TestSM07Break:
    def test_a_break_is_allowed_once_per_round(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.take_break(1)
        table.act(2, SWIRL_3)
        table.act(0, SWIRL_2)
        assert table.refusal(1, pb.TakeBreak()).rule == "SM-07"
        assert not any(isinstance(a, pb.TakeBreak) for a in table.legal(1))

    def test_a_break_keeps_the_previous_act_on_the_table(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SWIRL_1)
        table.act(2, SWIRL_3)
        table.take_break(0)
        st = table.state.seats[0]
        assert list(st.act) == [STAR_1] and st.act_claim == 1 and st.break_used

    def test_a_break_may_follow_a_winning_challenge(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SKULL_5)
        table.challenge(2)
        table.decline(2)
        assert kinds(table.take_break(2)) == ["BreakTaken"]

    def test_the_break_comes_back_next_round(self) -> None:
        table = two_players()
        table.act(0, STAR_1)
        table.take_break(1)
        table.act(0, SWIRL_2)
        table.challenge(1)  # 2 claimed with a 2: true, seat 1 loses
        table.deal([HAND_0, [STAR_1, SWIRL_4, SKULL_5]], 1)
        table.act(1, STAR_1)
        assert kinds(table.take_break(0)) == ["BreakTaken"]


class TestSM08RoundsAndGame:
    def test_the_first_round_may_start_at_any_seat(self) -> None:
        for start in range(3):
            table = Table(3)
            table.deal([HAND_0, HAND_1, HAND_2], start)
            assert table.view().turn_seat == start

    def test_the_next_round_starts_left_of_the_previous_start_player(self) -> None:
        table = two_players(start=1)
        table.act(1, STAR_1)
        table.challenge(0)
        hands = [HAND_0, [STAR_1, SWIRL_4, SKULL_5]]
        refusal = table.refusal(DEALER, deal_command(hands, 1))
        assert refusal.rule == "SM-08"
        table.deal(hands, 0)
        assert table.view().start_seat == 0

    def test_the_dealer_draws_a_random_start_and_then_rotates_it(self) -> None:
        rng = random.Random(7)
        table = Table(2)
        table.send(DEALER, GAME.sample_chance(table.state, rng))
        first = table.view().start_seat
        table.act(first, table.state.seats[first].hand[0])  # type: ignore[arg-type]
        table.challenge(1 - first)  # the round ends either way
        deal = GAME.sample_chance(table.state, rng)
        assert isinstance(deal, pb.DealRound) and deal.start_seat == 1 - first

    def test_every_player_rejoins_each_round_with_a_fresh_deal(self) -> None:
        table = three_players()
        table.act(0, STAR_1)
        table.act(1, SKULL_5)
        table.take_break(2)
        table.challenge(0)  # seat 1 out
        table.decline(0)
        table.take_break(0)
        table.act(2, SWIRL_3)
        table.act(0, STAR_1)
        events = table.challenge(2)  # seat 0 (claim 4 with a 1) out; seat 2 wins
        assert only(events, pb.RoundWon).seat == 2
        table.deal([HAND_1, HAND_2, HAND_0], 1)
        view = table.view()
        assert view.round == 2
        assert all(s.active and s.hand_count == 3 and not s.break_used for s in view.seats)
        assert [s.round_wins for s in view.seats] == [0, 0, 1]

    def test_four_round_wins_take_the_game(self) -> None:
        table = Table(2)
        hands = [HAND_0, [STAR_1, SWIRL_4, SKULL_5]]
        for rnd in range(4):
            start = rnd % 2
            table.deal(hands, start)
            if start == 0:
                table.act(0, STAR_1)  # true
                events = table.challenge(1)
            else:
                table.act(1, SKULL_5)  # false
                events = table.challenge(0)
            assert only(events, pb.RoundWon).seat == 0
            assert (GAME.winners(table.state) is None) == (rnd < 3)
        assert GAME.winners(table.state) == [0]
        assert GAME.chance_needed(table.state) is None
        view = table.view()
        assert view.phase == pb.PHASE_OVER and view.winner == 0
        assert table.refusal(1, act(STAR_1)).rule == "SM-08"
        assert table.refusal(DEALER, deal_command(hands, 0)).rule == "SM-08"
        assert table.legal(0) == [] and table.legal(1) == []

    def test_rounds_to_win_is_an_option(self) -> None:
        table = two_players(rounds_to_win=1)
        table.act(0, STAR_1)
        table.challenge(1)
        assert GAME.winners(table.state) == [0]


class TestTwoPlayerSetup:
    def test_the_swirl_5_is_set_aside_in_a_two_player_game(self) -> None:
        table = two_players()
        dealt = only(table.log, pb.RoundDealt)
        assert dealt.set_aside_count == 12
        aside = table.log[0].secret(pb.CardsSetAside)
        assert aside is not None and SWIRL_5 in as_cards(aside.cards)
        assert table.log[0].secrets[-1].audience == frozenset()

    def test_a_two_player_deal_containing_the_swirl_5_is_refused(self) -> None:
        table = Table(2)
        command = deal_command([HAND_0, HAND_1], 0, remove_swirl5=False)
        assert table.refusal(DEALER, command).rule == "rulebook: Setup"

    def test_the_swirl_5_may_stay_when_the_option_is_off(self) -> None:
        table = Table(2, options(remove_swirl5=False))
        table.deal([[STAR_1, SWIRL_5, SKULL_M], HAND_1], 0, remove_swirl5=False)
        assert only(table.log, pb.RoundDealt).set_aside_count == 12
        assert SWIRL_5 in table.state.seats[0].hand
        refused = deal_command([HAND_0, HAND_1], 0)
        assert Table(2, options(remove_swirl5=False)).refusal(DEALER, refused).rule == (
            "rulebook: Setup"
        )

    def test_the_dealer_never_deals_the_swirl_5_to_two_players(self) -> None:
        rng = random.Random(3)
        for _ in range(50):
            table = Table(2)
            table.send(DEALER, GAME.sample_chance(table.state, rng))
            assert all(SWIRL_5 not in st.hand for st in table.state.seats)


class TestSM09TurnCap:
    def test_a_round_with_turn_cap_acts_ends_without_a_winner(self) -> None:
        table = three_players(turn_cap=3)
        table.act(0, STAR_1)
        table.take_break(1)  # breaks do not count
        table.act(2, SWIRL_3)
        events = table.act(0, SWIRL_2)
        won = only(events, pb.RoundWon)
        assert not won.HasField("seat")
        assert [s.round_wins for s in table.view().seats] == [0, 0, 0]
        assert GAME.chance_needed(table.state) is pb.DealRound
        assert GAME.winners(table.state) is None
        table.deal([HAND_0, HAND_1, HAND_2], 1)
        assert table.view().round == 2

    def test_no_cap_by_default(self) -> None:
        table = two_players()
        for claim in range(1, 40):
            seat = (claim - 1) % 2
            cards = table.state.seats[seat].owned
            table.act(seat, cards[0])  # type: ignore[arg-type]
        assert only(table.log[-1:], pb.ActPerformed).claim == 39
        # and a claim of 21 or more is always false (SM-09)
        assert only(table.challenge(1), pb.ActChallenged).act_was_true is False
