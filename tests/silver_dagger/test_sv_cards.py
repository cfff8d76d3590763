"""The card tables and the arithmetic of scoring (SV-16), the dagger's
hand-off (SV-17) and the winner (SV-19), on the pure functions: the
rulebook's worked examples R1..R5 and every ruling's own example."""

from __future__ import annotations

import pytest

from cardroom.domain.silver_dagger.cards import (
    DECK,
    DECK_AFTER_DEAL,
    DRAW_ABILITIES,
    ELUSIVE_STOP,
    MAGICIAN_ABILITIES,
    discard_order,
    label,
    value,
)
from cardroom.domain.silver_dagger.scoring import (
    VillageAtEnd,
    dagger_after_round,
    half_up,
    score_round,
    winner,
)
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

DC, SPY, HALF, SENT, ZOMBIE = (
    pb.CARD_DEBT_COLLECTOR,
    pb.CARD_SPY,
    pb.CARD_HALFLING,
    pb.CARD_SENTINEL,
    pb.CARD_ZOMBIE,
)
FLIP, SEER, MAGE, MYSTIC, RENF, REV, THIEF, FURRY = (
    pb.CARD_FLIPPER,
    pb.CARD_ELUSIVE_SEER,
    pb.CARD_MAGICIAN,
    pb.CARD_MYSTIC_SEER,
    pb.CARD_RENFIELD,
    pb.CARD_REVERSER,
    pb.CARD_MASTER_THIEF,
    pb.CARD_FURRY,
)
APPROX = pb.CARD_APPROXIMATOR


def village(*cards: tuple[int, bool] | int) -> VillageAtEnd:
    """Cards face down unless given as (card, True)."""
    pairs = [c if isinstance(c, tuple) else (c, False) for c in cards]
    return VillageAtEnd(tuple(c for c, _ in pairs), tuple(up for _, up in pairs))


FOUR = village(SPY, SPY, SENT, SENT)  # 4 cards, 8 points
THREE = village(SPY, HALF, SENT)  # 3 cards, 6 points
FIFTY = village(RENF, MAGE, FURRY, SEER, THIEF)  # R4: 10 + 8 + 13 + 7 + 12
EIGHT_CARDS = village(SPY, SPY, SPY, SPY, HALF, HALF, SENT, SENT)  # 14 points


class TestTheDeck:
    def test_it_has_52_cards_two_debt_collectors_two_furries_and_four_of_the_rest(self) -> None:
        assert sum(DECK.values()) == 52
        assert DECK[DC] == DECK[FURRY] == 2
        assert all(DECK[c] == 4 for c in DECK if c not in (DC, FURRY))
        assert len(DECK) == 14 and pb.CARD_UNSPECIFIED not in DECK

    def test_after_the_deal_the_deck_holds_31_cards_at_every_player_count(self) -> None:
        assert DECK_AFTER_DEAL == 31  # SV-01: 4 sets of 5 and the discard pile's card

    def test_values_run_from_0_to_13_and_the_halfling_counts_2(self) -> None:
        assert [value(c) for c in sorted(DECK)] == list(range(14))
        assert value(HALF) == 2 and label(HALF) == "Halfling (÷2)"
        assert label(ZOMBIE) == "Zombie (4)" and label(THIEF) == "Master Thief (12)"

    def test_abilities_by_card(self) -> None:
        assert {APPROX, FLIP, SEER, MAGE, MYSTIC, RENF, REV, THIEF} == DRAW_ABILITIES
        assert DRAW_ABILITIES - {APPROX} == MAGICIAN_ABILITIES  # SV-09
        assert {DC, SPY, HALF, SENT, ZOMBIE} == ELUSIVE_STOP  # SV-12

    def test_several_cards_discarded_at_once_go_lowest_on_top(self) -> None:
        assert discard_order([SPY, ZOMBIE]) == [ZOMBIE, SPY]  # SV-07, SV-08 Z5
        assert discard_order([DC, HALF, FURRY]) == [FURRY, HALF, DC]


class TestTheRulebooksScoringExamples:
    def test_r1_a_debt_collector_takes_one_point_per_card_of_the_other_villages(self) -> None:
        results, _ = score_round(
            [village((DC, True), FLIP, MYSTIC), FOUR, THREE], furry_order=[0, 1, 2], caller=None
        )
        assert (results[0].base, results[0].after_debt_collectors, results[0].points) == (15, 8, 8)

    def test_r2_a_face_up_halfling_halves_rounding_up(self) -> None:
        [result], _ = score_round(
            [village(APPROX, SPY, SEER, (HALF, True))], furry_order=[0], caller=None
        )
        assert (result.base, result.after_halflings, result.points) == (13, 7, 7)

    def test_r3_a_negative_sum_is_halved_toward_zero(self) -> None:
        opponents = village(SPY, SPY, SPY, SENT, SENT)
        results, _ = score_round(
            [village(SPY, (DC, True), (HALF, True)), opponents, opponents],
            furry_order=[0, 1, 2],
            caller=None,
        )
        assert (results[0].after_debt_collectors, results[0].points) == (-9, -4)

    def test_r4_the_furry_jackpot_scores_0_and_gives_everyone_else_50(self) -> None:
        twenty, fifteen = village(FLIP, FLIP, MAGE), village(SEER, MAGE)
        results, _ = score_round([FIFTY, twenty, fifteen], furry_order=[0, 1, 2], caller=None)
        assert [r.points for r in results] == [0, 70, 65]
        assert [r.jackpot for r in results] == [True, False, False]

    def test_r5_a_halfling_can_keep_the_furry_from_50(self) -> None:
        [result], _ = score_round(
            [village(THIEF, REV, THIEF, FURRY, (HALF, True))], furry_order=[0], caller=None
        )
        assert (result.base, result.after_halflings, result.jackpot, result.points) == (
            48,
            24,
            False,
            24,
        )


class TestScoringRulings:
    def test_a_face_down_halfling_counts_2_and_a_face_down_debt_collector_0(self) -> None:
        [result], _ = score_round([village(HALF, DC, SPY)], furry_order=[0], caller=None)
        assert result.points == 3

    def test_two_face_up_halflings_halve_twice(self) -> None:
        [result], _ = score_round(
            [village((HALF, True), (HALF, True), THIEF, MYSTIC)], furry_order=[0], caller=None
        )
        assert result.points == 6  # 21 -> 11 -> 6

    @pytest.mark.parametrize(("n", "half"), [(13, 7), (12, 6), (-9, -4), (-10, -5), (0, 0), (1, 1)])
    def test_half_up_rounds_up_and_toward_zero(self, n: int, half: int) -> None:
        assert half_up(n) == half

    def test_a_successful_caller_scores_0_even_when_tied(self) -> None:
        results, succeeded = score_round([THREE, THREE, FOUR], furry_order=[0, 1, 2], caller=0)
        assert succeeded and [r.points for r in results] == [0, 6, 8]

    def test_a_failed_caller_scores_the_sum_plus_10(self) -> None:
        results, succeeded = score_round([FOUR, THREE], furry_order=[0, 1], caller=0)
        assert not succeeded and [r.points for r in results] == [18, 6]

    def test_a_caller_with_a_debt_collector_may_win_with_a_negative_sum(self) -> None:
        results, succeeded = score_round(
            [village((DC, True), SPY), THREE], furry_order=[0, 1], caller=0
        )
        assert succeeded and results[0].sum == -2 and results[0].points == 0

    def test_furries_resolve_in_turn_so_a_later_village_sees_the_plus_50(self) -> None:
        """SV-16 step 5 (sv.furry_sequential_plus50): seat 0 hits 50 and gives
        every other village +50; seat 2, a Furry at 13 - 13 cards = 0 before,
        now holds 50 and hits too, giving +50 back."""
        zero = village(FURRY, (DC, True))
        results, _ = score_round([FIFTY, EIGHT_CARDS, zero], furry_order=[0, 1, 2], caller=None)
        assert [r.sum for r in results] == [50, 114, 0]
        assert [r.jackpot for r in results] == [True, False, True]

    def test_with_the_flag_off_every_furry_checks_its_own_sum_before_any_plus_50(self) -> None:
        zero = village(FURRY, (DC, True))
        results, _ = score_round(
            [FIFTY, EIGHT_CARDS, zero], furry_order=[0, 1, 2], caller=None, sequential=False
        )
        assert [r.sum for r in results] == [0, 64, 50]
        assert [r.jackpot for r in results] == [True, False, False]

    def test_the_order_starts_with_the_dagger_holder(self) -> None:
        zero = village(FURRY, (DC, True))
        results, _ = score_round([FIFTY, EIGHT_CARDS, zero], furry_order=[2, 0, 1], caller=None)
        # Seat 2 first: 0 is not 50. Then seat 0 hits; seat 2 is not checked again.
        assert [r.sum for r in results] == [0, 64, 50]


class TestTheDagger:
    def test_sv17_the_fewest_points_take_the_dagger_not_usable(self) -> None:
        # The caller's sum -5 (0 points), B's -3: B has the fewest points.
        assert dagger_after_round([0, -3, 4], caller=0, succeeded=True, holder=2, start_seat=2) == (
            1,
            False,
        )

    def test_a_successful_caller_in_the_lowest_takes_it_usable_and_wins_ties(self) -> None:
        assert dagger_after_round([0, 0, 4], caller=1, succeeded=True, holder=0, start_seat=0) == (
            1,
            True,
        )

    def test_a_tie_keeps_it_with_its_holder(self) -> None:
        assert dagger_after_round(
            [5, 5, 9], caller=None, succeeded=False, holder=1, start_seat=2
        ) == (1, False)

    def test_otherwise_the_first_tied_seat_left_of_the_start_player(self) -> None:
        # Start seat 1: check 2, 3, 0, then 1 last.
        assert dagger_after_round(
            [5, 5, 9, 5], caller=None, succeeded=False, holder=2, start_seat=1
        ) == (3, False)
        assert dagger_after_round(
            [9, 5, 9, 9], caller=None, succeeded=False, holder=2, start_seat=1
        ) == (1, False)

    def test_sv19_ties_go_to_the_holder_else_clockwise_from_it(self) -> None:
        assert winner([30, 40, 30, 45], holder=1) == 2  # C
        assert winner([30, 40, 30, 45], holder=2) == 2
        assert winner([30, 40, 31, 45], holder=3) == 0
