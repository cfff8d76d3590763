"""The rulings of DECISIONS.md section 1 (each with its DECISIONS test where
it has one) and the engine's own CR-SD rulings."""

from __future__ import annotations

import pytest

from cardroom.domain.kernel import Actor, NotYourTurn, RuleViolation, Viewer
from cardroom.domain.smiles_and_daggers import GAME
from cardroom.domain.smiles_and_daggers.state import EndReason, Phase
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb
from tests.bounded import steps

from .support import (
    DAGGER,
    KNIGHT,
    LADY,
    LORD,
    SMILE,
    Table,
    bet,
    challenge,
    commit,
    given,
    key,
    options,
    recover,
)

FULL = (1, 2, 3)
NOTHING = (0, 0, 0)
COME_BACK = options(come_back=True)


def keys(actions: list) -> set:
    return {key(a) for a in actions}


def lose_a_bet(table: Table) -> None:
    """Seat 2 bets that seat 0 smiles; seat 0 plays a dagger."""
    table.play_challenge(1, (KNIGHT, DAGGER), (KNIGHT, SMILE), bets={2: pb.BET_SHAPE_SMILE_CURRENT})


class TestSD04EliminatedCardsAndLostKnights:
    def test_given_the_optional_rule_when_p_recovers_a_lost_knight_then_p_pays_two(
        self,
    ) -> None:
        # DECISIONS SD-04 test: P holds 4 cards and has 5 coins; a Knight was
        # lost on a bad bet. P recovers it for 2: 5 cards, 3 coins; then
        # challenges normally.
        table = given([(1, 2, 1), FULL, FULL], [5, 0, 0], opts=COME_BACK)
        table.send(0, recover(KNIGHT))
        [recovered] = table.events_of(pb.CardRecovered)
        assert (recovered.seat, recovered.rank, recovered.cost) == (0, KNIGHT, 2)
        assert table.state.coins[0] == 3
        assert table.state.hand(0) == (1, 2, 2)
        assert keys(table.legal(0)) == keys([challenge(1), challenge(2)])
        table.play_challenge(1, (LORD, SMILE), (LORD, SMILE))
        assert table.state.coins[:2] == (5, 2)

    def test_a_knight_lost_on_a_bet_joins_the_eliminated_pile_by_default(self) -> None:
        table = Table(3, COME_BACK)
        lose_a_bet(table)
        assert table.state.eliminated[2] == (0, 0, 1)
        assert table.state.lost[2] == NOTHING
        assert table.view(Viewer.of_seat(0)).seats[2].eliminated == [KNIGHT]

    def test_with_the_flag_off_a_lost_knight_is_out_for_good(self) -> None:
        table = Table(3, options(come_back=True, recover_knights=False))
        lose_a_bet(table)
        assert table.state.eliminated[2] == NOTHING
        assert table.state.lost[2] == (0, 0, 1)

    def test_with_the_flag_off_a_lost_knight_cannot_be_recovered(self) -> None:
        opts = options(come_back=True, recover_knights=False)
        lost = [(0, 0, 1), NOTHING, NOTHING]
        table = given([(1, 2, 2), FULL, FULL], [5, 0, 0], opts=opts, lost=lost)
        assert table.refused(0, recover(KNIGHT)).rule == "SD-04"
        assert not any(isinstance(a, pb.RecoverCard) for a in table.legal(0))

    def test_an_eliminated_challenge_card_can_be_recovered_too(self) -> None:
        table = given([FULL] * 3, [3, 0, 0], opts=COME_BACK)
        table.play_challenge(1, (LADY, SMILE), (LORD, DAGGER))  # 0's Lady is eliminated
        table.play_challenge(2, (KNIGHT, SMILE), (KNIGHT, SMILE))
        table.play_challenge(0, (KNIGHT, SMILE), (KNIGHT, SMILE))
        assert table.state.current == 0
        table.send(0, recover(LADY))
        assert table.state.coins[0] == 0  # 5 cards in hand: 3 coins
        assert table.state.hand(0) == FULL


class TestSD05OutOfCards:
    def test_a_player_with_no_cards_cannot_be_challenged(self) -> None:
        table = given([FULL, NOTHING, FULL], [0, 0, 0])
        error = table.refused(0, challenge(1))
        assert error.rule == "SD-05"
        assert keys(table.legal(0)) == keys([challenge(2)])

    def test_a_player_with_no_cards_does_not_bet(self) -> None:
        table = given([FULL, FULL, NOTHING, FULL], [0, 0, 0, 0])
        table.send(0, challenge(1))
        table.send(0, commit(LORD, SMILE))
        table.send(1, commit(LORD, SMILE))
        [opened] = table.events_of(pb.BettingOpened)
        assert list(opened.bettors) == [3]

    def test_given_no_cards_and_no_recovery_then_the_turn_is_skipped(self) -> None:
        # (b) with the optional rule off: seat 1 is passed over.
        table = given([FULL, NOTHING, FULL], [0, 0, 0])
        table.play_challenge(2, (LORD, SMILE), (LORD, SMILE))
        assert table.state.current == 2

    def test_given_no_cards_but_a_recovery_then_the_player_may_recover_or_skip(self) -> None:
        # (b) with the optional rule on, seat 1 has its turn and may decline.
        table = given([FULL, NOTHING, FULL], [0, 1, 0], opts=COME_BACK)
        table.play_challenge(2, (LORD, SMILE), (LORD, SMILE))
        assert table.state.current == 1
        assert keys(table.legal(1)) == keys(
            [recover(LORD), recover(LADY), recover(KNIGHT), pb.SkipTurn()]
        )
        table.send(1, pb.SkipTurn())
        assert table.events_of(pb.TurnSkipped)[0].seat == 1
        assert table.state.current == 2

    def test_dec_test_given_only_one_player_holds_cards_then_the_game_ends_at_once(
        self,
    ) -> None:
        # (c) DECISIONS SD-05 test: A 3 cards 7 coins, B 0 cards 4 coins,
        # C 0 cards 8 coins, optional rule off: the game ends, C wins.
        # Reached by eliminating B's last card.
        table = given([(1, 1, 1), (0, 1, 0), NOTHING], [7, 4, 8])
        table.play_challenge(1, (LORD, DAGGER), (LADY, SMILE))
        state = table.state
        assert [state.hand_count(s) for s in range(3)] == [3, 0, 0]
        assert state.coins == (7, 4, 8)
        assert state.phase is Phase.OVER
        assert GAME.winners(state) == (2,)
        assert state.end_reason is EndReason.NO_CHALLENGE_POSSIBLE

    def test_given_a_tie_for_most_coins_when_no_challenge_is_possible_then_both_win(
        self,
    ) -> None:
        table = given([(1, 1, 1), (0, 1, 0), NOTHING], [8, 4, 8])
        table.play_challenge(1, (LORD, DAGGER), (LADY, SMILE))
        assert GAME.winners(table.state) == (0, 2)

    def test_given_a_possible_recovery_then_the_game_goes_on(self) -> None:
        table = given([(1, 1, 1), (0, 1, 0), NOTHING], [7, 4, 8], opts=COME_BACK)
        table.play_challenge(1, (LORD, DAGGER), (LADY, SMILE))
        assert table.state.phase is Phase.TURN
        assert table.state.current == 1  # B may recover and challenge A

    def test_given_the_next_player_holds_cards_but_no_opponent_does_then_the_game_ends(
        self,
    ) -> None:
        # (d) seat 1 would get the tile holding a Lord, but nobody else holds
        # a card: treated like (c).
        table = given([(0, 1, 0), (1, 0, 0), NOTHING], [1, 5, 2])
        table.play_challenge(1, (LADY, SMILE), (LORD, DAGGER))
        state = table.state
        assert [state.hand_count(s) for s in range(3)] == [0, 1, 0]
        assert state.phase is Phase.OVER and GAME.winners(state) == (1,)
        assert state.end_reason is EndReason.NO_CHALLENGE_POSSIBLE


class TestSD06BettingOrder:
    def test_dec_test_l0_challenges_l2_then_l1_l3_l4_l5_bet(self) -> None:
        table = Table(6)
        table.send(0, challenge(2))
        table.send(2, commit(LADY, SMILE))
        table.send(0, commit(LADY, SMILE))
        order = []
        for _ in steps(10, "the betting"):
            if table.state.phase is not Phase.BETTING:
                break
            ch = table.state.challenge
            assert ch is not None and ch.next_bettor is not None
            order.append(ch.next_bettor)
            table.send(ch.next_bettor, pb.PassBet())
        assert order == [1, 3, 4, 5]

    def test_the_order_wraps_around_the_table(self) -> None:
        table = Table(6, start=4)
        table.send(4, challenge(1))
        table.send(4, commit(LADY, SMILE))
        table.send(1, commit(LADY, SMILE))
        [opened] = table.events_of(pb.BettingOpened)
        assert list(opened.bettors) == [5, 0, 2, 3]

    def test_a_player_without_a_knight_is_skipped(self) -> None:
        table = given([FULL, FULL, (1, 2, 0), FULL], [0, 0, 0, 0])
        table.send(0, challenge(1))
        table.send(0, commit(LADY, SMILE))
        table.send(1, commit(LADY, SMILE))
        [opened] = table.events_of(pb.BettingOpened)
        assert list(opened.bettors) == [3]

    def test_earlier_bets_are_public_to_later_bettors(self) -> None:
        table = Table(4)
        table.send(0, challenge(1))
        table.send(0, commit(LADY, SMILE))
        table.send(1, commit(LADY, SMILE))
        table.send(2, bet(pb.BET_SHAPE_DAGGER_BOTH))
        for viewer in table.folds:
            view = table.view(viewer)
            assert [(b.seat, b.shape, b.passed) for b in view.challenge.bets] == [
                (2, pb.BET_SHAPE_DAGGER_BOTH, False)
            ]
        assert keys(table.legal(3)) == keys([bet(s) for s in range(1, 9)] + [pb.PassBet()])

    def test_each_bettor_bets_at_most_once(self) -> None:
        table = Table(4)
        table.send(0, challenge(1))
        table.send(0, commit(LADY, SMILE))
        table.send(1, commit(LADY, SMILE))
        table.send(2, bet(pb.BET_SHAPE_SMILE_BOTH))
        with pytest.raises(NotYourTurn):
            GAME.decide(table.state, Actor.of_seat(2), bet(pb.BET_SHAPE_SMILE_BOTH))


class TestSD09WinAtEndOfTurn:
    def test_nine_coins_and_strictly_the_most_wins(self) -> None:
        table = given([FULL] * 3, [7, 0, 0])
        table.play_challenge(1, (LORD, SMILE), (KNIGHT, SMILE))
        assert GAME.winners(table.state) == (0,)
        assert table.state.end_reason is EndReason.NINE_COINS

    def test_eight_coins_alone_do_not_win(self) -> None:
        table = given([FULL] * 3, [6, 0, 0])
        table.play_challenge(1, (LORD, SMILE), (KNIGHT, SMILE))
        assert table.state.coins[0] == 8
        assert GAME.winners(table.state) is None

    def test_a_tie_at_nine_or_more_does_not_win_and_play_goes_on(self) -> None:
        table = given([FULL] * 3, [8, 8, 0])
        table.play_challenge(1, (LORD, SMILE), (LORD, SMILE))
        assert table.state.coins == (10, 10, 0)
        assert GAME.winners(table.state) is None
        assert table.state.current == 1

    def test_a_bettor_can_win_at_the_end_of_someone_elses_turn(self) -> None:
        table = given([FULL] * 3, [0, 0, 7])
        table.play_challenge(1, (KNIGHT, SMILE), (KNIGHT, SMILE), bets={2: pb.BET_SHAPE_SMILE_BOTH})
        assert GAME.winners(table.state) == (2,)


class TestSD11Recovery:
    def test_dec_test_hand_3_and_1_coin_costs_1_leaving_0_coins_and_4_cards(self) -> None:
        table = given([(1, 1, 1), FULL, FULL], [1, 0, 0], opts=COME_BACK)
        table.send(0, recover(LADY))
        assert table.state.coins[0] == 0
        assert table.state.hand_count(0) == 4

    @pytest.mark.parametrize(
        ("hand", "cost"),
        [((1, 2, 2), 3), ((1, 2, 1), 2), ((1, 1, 1), 1), ((0, 0, 1), 1), ((0, 0, 0), 1)],
    )
    def test_the_cost_is_measured_on_the_hand_before_recovery(
        self, hand: tuple[int, int, int], cost: int
    ) -> None:
        table = given([hand, FULL, FULL], [5, 0, 0], opts=COME_BACK)
        table.send(0, recover(KNIGHT))
        assert table.events_of(pb.CardRecovered)[0].cost == cost
        assert table.state.coins[0] == 5 - cost

    def test_not_enough_coins_means_no_recovery(self) -> None:
        table = given([(1, 2, 1), FULL, FULL], [1, 0, 0], opts=COME_BACK)
        error = table.refused(0, recover(KNIGHT))
        assert error.rule == "SD-11" and "costs 2" in error.message
        assert not any(isinstance(a, pb.RecoverCard) for a in table.legal(0))

    def test_only_one_card_per_turn(self) -> None:
        table = given([(1, 1, 1), FULL, FULL], [5, 0, 0], opts=COME_BACK)
        table.send(0, recover(LADY))
        assert table.refused(0, recover(KNIGHT)).rule == "SD-11"
        assert keys(table.legal(0)) == keys([challenge(1), challenge(2)])

    def test_only_before_choosing_the_opponent(self) -> None:
        table = given([(1, 1, 1), FULL, FULL], [5, 0, 0], opts=COME_BACK)
        table.send(0, challenge(1))
        assert table.refused(0, recover(LADY)).rule == "SD-11"

    def test_only_the_current_player_recovers(self) -> None:
        table = given([FULL, (1, 1, 1), FULL], [0, 5, 0], opts=COME_BACK)
        with pytest.raises(NotYourTurn):
            GAME.decide(table.state, Actor.of_seat(1), recover(LADY))

    def test_only_cards_that_were_eliminated(self) -> None:
        table = given([(1, 1, 3), FULL, FULL], [5, 0, 0], opts=COME_BACK)
        error = table.refused(0, recover(KNIGHT))
        assert error.rule == "SD-11" and "knight" in error.message

    def test_not_without_the_optional_rule(self) -> None:
        table = given([(1, 1, 1), FULL, FULL], [5, 0, 0])
        assert table.refused(0, recover(LADY)).rule == "SD-11"
        assert keys(table.legal(0)) == keys([challenge(1), challenge(2)])

    def test_the_recovery_allowance_is_renewed_every_turn(self) -> None:
        table = given([(1, 1, 1), (1, 1, 1), FULL], [5, 5, 0], opts=COME_BACK)
        table.send(0, recover(LADY))
        table.play_challenge(2, (KNIGHT, SMILE), (KNIGHT, SMILE))
        assert table.state.current == 1
        assert table.state.recovered is False
        table.send(1, recover(LADY))


class TestSD12TwoPlayers:
    def test_two_players_are_refused_by_default(self) -> None:
        with pytest.raises(RuleViolation) as caught:
            GAME.initial_state(pb.Options(), 2)
        assert caught.value.rule == "SD-12"

    def test_with_the_variant_the_betting_phase_is_always_empty(self) -> None:
        table = Table(2, options(two=True))
        table.send(0, challenge(1))
        table.send(0, commit(LORD, SMILE))
        table.send(1, commit(LADY, SMILE))
        [opened] = table.events_of(pb.BettingOpened)
        assert list(opened.bettors) == []
        assert table.state.coins == (2, 1)
        assert table.state.current == 1


class TestSD13MustChallenge:
    def test_a_player_holding_cards_cannot_skip(self) -> None:
        table = Table(3)
        assert table.refused(0, pb.SkipTurn()).rule == "SD-13"
        assert keys(table.legal(0)) == keys([challenge(1), challenge(2)])

    def test_a_player_cannot_challenge_themself(self) -> None:
        table = Table(3)
        assert table.refused(0, challenge(0)).rule == "SD-13"


class TestSD14StartAndFamilies:
    def test_families_are_chosen_clockwise_from_the_start_player(self) -> None:
        table = Table(4, start=3, families=False)
        choosers = []
        for family in (pb.FAMILY_GRIFFIN, pb.FAMILY_DRAGON, pb.FAMILY_HYDRA, pb.FAMILY_KRAKEN):
            chooser = table.state.family_chooser
            assert chooser is not None
            assert keys(table.legal(chooser)) >= keys([pb.ChooseFamily(family=family)])
            choosers.append(chooser)
            table.send(chooser, pb.ChooseFamily(family=family))
        assert choosers == [3, 0, 1, 2]
        assert table.state.families == (
            pb.FAMILY_DRAGON,
            pb.FAMILY_HYDRA,
            pb.FAMILY_KRAKEN,
            pb.FAMILY_GRIFFIN,
        )
        [started] = table.events_of(pb.TurnStarted)
        assert (started.seat, started.turn) == (3, 1)

    def test_families_must_be_distinct(self) -> None:
        table = Table(3, families=False)
        table.send(0, pb.ChooseFamily(family=pb.FAMILY_HYDRA))
        assert table.refused(1, pb.ChooseFamily(family=pb.FAMILY_HYDRA)).rule == "SD-14"
        assert len(table.legal(1)) == 5


class TestCrSdRulings:
    def test_cr_sd_02_the_tile_returns_to_the_only_player_who_can_act(self) -> None:
        table = given([NOTHING, (1, 0, 0), NOTHING], [3, 0, 0], opts=COME_BACK)
        table.send(0, recover(LADY))
        table.play_challenge(1, (LADY, SMILE), (LORD, DAGGER))  # the Lady is eliminated again
        assert table.state.coins == (2, 0, 0)
        assert table.state.current == 0 and table.state.turn == 2

    def test_cr_sd_03_when_everyone_who_could_act_skips_the_game_ends(self) -> None:
        table = given([FULL, NOTHING, NOTHING], [2, 3, 1], tile=1, opts=COME_BACK)
        table.send(1, pb.SkipTurn())
        assert table.state.current == 2
        table.send(2, pb.SkipTurn())
        assert table.state.phase is Phase.OVER
        assert table.state.end_reason is EndReason.ALL_SKIPPED
        assert GAME.winners(table.state) == (1,)

    def test_cr_sd_03_a_challenge_clears_the_skips(self) -> None:
        table = given([FULL, NOTHING, NOTHING], [2, 3, 1], tile=1, opts=COME_BACK)
        table.send(1, pb.SkipTurn())
        table.send(2, recover(LORD))
        assert keys(table.legal(2)) == keys([challenge(0)])
        table.play_challenge(0, (LORD, SMILE), (LORD, SMILE))
        assert table.state.skipped == frozenset()
        assert table.state.phase is Phase.TURN

    def test_cr_sd_04_two_players_holding_only_knights_end_the_game(self) -> None:
        table = given([(0, 0, 2), (0, 0, 3)], [3, 5])
        table.play_challenge(1, (KNIGHT, SMILE), (KNIGHT, DAGGER))
        assert table.state.phase is Phase.OVER
        assert table.state.end_reason is EndReason.NO_COINS_POSSIBLE
        assert GAME.winners(table.state) == (1,)

    def test_cr_sd_04_a_lady_in_play_keeps_the_game_going(self) -> None:
        table = given([(0, 0, 2), (0, 1, 2)], [3, 5])
        table.play_challenge(1, (KNIGHT, SMILE), (KNIGHT, DAGGER))
        assert table.state.phase is Phase.TURN

    def test_cr_sd_04_three_players_holding_knights_can_still_bet(self) -> None:
        table = given([(0, 0, 2), (0, 0, 3), (0, 0, 1)], [3, 5, 0])
        table.play_challenge(1, (KNIGHT, SMILE), (KNIGHT, DAGGER))
        assert table.state.phase is Phase.TURN

    def test_cr_sd_04_a_possible_recovery_keeps_the_game_going(self) -> None:
        table = given([(0, 0, 2), (0, 0, 3)], [3, 5], opts=options(two=True, come_back=True))
        table.play_challenge(1, (KNIGHT, SMILE), (KNIGHT, DAGGER))
        assert table.state.phase is Phase.TURN
