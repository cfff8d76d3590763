"""The cards and SM-01: what an act of cards can be worth."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

import pytest

from cardroom.domain.smoke_and_mirrors import GAME
from cardroom.domain.smoke_and_mirrors.cards import (
    CARD_KINDS,
    DECK,
    MAX_ACHIEVABLE,
    SKULLS,
    STARS,
    SWIRLS,
    achievable_totals,
    act_is_true,
    claimable,
    piles_for,
    removed_cards,
)

from .support import SKULL_5, SKULL_M, STAR_1, SWIRL_2, SWIRL_3, SWIRL_5, SWIRL_M

M = 0  # a mirror's value
PLAIN = (1, 2, 3, 4, 5)


class TestTheDeck:
    def test_there_are_18_cards_in_three_piles_of_six(self) -> None:
        piles = Counter((c.pile, c.value) for c in DECK)
        assert len(DECK) == 18
        assert piles == Counter(
            [(STARS, 1)] * 5
            + [(STARS, M)]
            + [(SWIRLS, v) for v in (1, 2, 3, 4, 5, M)]
            + [(SKULLS, 5)] * 5
            + [(SKULLS, M)]
        )

    def test_there_are_ten_distinct_cards(self) -> None:
        assert len(CARD_KINDS) == 10

    @pytest.mark.parametrize("seats", [3, 4, 5])
    def test_three_or_more_players_use_every_card(self, seats: int) -> None:
        assert sum(len(p) for p in piles_for(seats, True).values()) == 18
        assert removed_cards(seats, True) == ()

    def test_two_players_remove_the_swirl_5_by_default(self) -> None:
        piles = piles_for(2, True)
        assert SWIRL_5 not in piles[SWIRLS]
        assert len(piles[SWIRLS]) == 5
        assert removed_cards(2, True) == (SWIRL_5,)

    def test_two_players_keep_the_swirl_5_when_the_option_is_off(self) -> None:
        assert SWIRL_5 in piles_for(2, False)[SWIRLS]
        assert removed_cards(2, False) == ()


class TestSM01AchievableTotals:
    """SM-01: the achievable totals of 1 to 3 cards (a, b non-mirrors)."""

    @pytest.mark.parametrize("a", PLAIN)
    def test_a_single_card_is_worth_its_value(self, a: int) -> None:
        assert achievable_totals([a]) == {a}

    @pytest.mark.parametrize("mirrors", [1, 2, 3])
    def test_only_mirrors_are_worth_zero(self, mirrors: int) -> None:
        assert achievable_totals([M] * mirrors) == {0}

    @pytest.mark.parametrize(("a", "b"), list(combinations_with_replacement(PLAIN, 2)))
    def test_two_plain_cards_are_worth_their_sum(self, a: int, b: int) -> None:
        assert achievable_totals([a, b]) == {a + b}

    @pytest.mark.parametrize("a", PLAIN)
    def test_a_card_and_a_mirror_are_worth_double(self, a: int) -> None:
        assert achievable_totals([a, M]) == {2 * a}

    @pytest.mark.parametrize("a", PLAIN)
    def test_a_card_and_two_mirrors_are_worth_triple(self, a: int) -> None:
        assert achievable_totals([a, M, M]) == {3 * a}

    @pytest.mark.parametrize(("a", "b"), list(combinations_with_replacement(PLAIN, 2)))
    def test_a_mirror_with_two_cards_copies_either_or_both(self, a: int, b: int) -> None:
        assert achievable_totals([a, b, M]) == {2 * a + b, a + 2 * b, 2 * a + 2 * b}

    @pytest.mark.parametrize("cards", list(combinations_with_replacement(PLAIN, 3)))
    def test_three_plain_cards_are_worth_their_sum(self, cards: tuple[int, int, int]) -> None:
        assert achievable_totals(cards) == {sum(cards)}

    def test_a_mirror_mixed_with_cards_cannot_count_as_zero(self) -> None:
        assert 3 not in achievable_totals([1, 2, M])
        assert 3 not in achievable_totals([3, M])

    def test_the_order_of_the_cards_does_not_matter(self) -> None:
        assert achievable_totals([M, 2, 1]) == achievable_totals([1, M, 2])

    @pytest.mark.parametrize("count", [0, 4])
    def test_an_act_has_one_to_three_cards(self, count: int) -> None:
        with pytest.raises(ValueError):
            achievable_totals([1] * count)

    def test_reviews_three_with_a_mirror_is_six_and_with_two_mirrors_nine(self) -> None:
        assert achievable_totals([3, M]) == {6}
        assert achievable_totals([3, M, M]) == {9}


class TestTheRulebooksMirrorTable:
    """The rulebook's example hand {1, 2, M}; '(M=1)' means the mirror copies one card."""

    HAND = (STAR_1, SWIRL_2, SKULL_M)

    def test_the_hand_can_claim_exactly_one_to_six(self) -> None:
        assert claimable(self.HAND) == {1, 2, 3, 4, 5, 6}

    @pytest.mark.parametrize("claim", [4, 5, 6])
    def test_the_act_1_2_m_supports_four_five_and_six(self, claim: int) -> None:
        assert act_is_true(self.HAND, claim)

    def test_the_act_1_2_m_does_not_support_three(self) -> None:
        assert not act_is_true(self.HAND, 3)

    def test_seven_is_impossible_with_this_hand(self) -> None:
        assert 7 not in claimable(self.HAND)

    @pytest.mark.parametrize(
        ("cards", "claim"),
        [
            ((STAR_1,), 1),
            ((SWIRL_2,), 2),
            ((STAR_1, SKULL_M), 2),
            ((STAR_1, SWIRL_2), 3),
            ((SWIRL_2, SKULL_M), 4),
            ((STAR_1, SWIRL_2, SKULL_M), 5),
            ((STAR_1, SWIRL_2, SKULL_M), 6),
        ],
    )
    def test_every_row_of_the_table_is_a_true_act(self, cards: tuple, claim: int) -> None:
        assert act_is_true(cards, claim)


class TestSM09MaximumAchievable:
    def test_the_largest_total_of_any_act_is_20(self) -> None:
        best = max(
            max(achievable_totals(c.value for c in combo))
            for k in (1, 2, 3)
            for combo in combinations_with_replacement(CARD_KINDS, k)
        )
        assert best == MAX_ACHIEVABLE == 20

    def test_five_five_and_a_mirror_copying_both_make_20(self) -> None:
        assert max(achievable_totals([SKULL_5.value, SWIRL_5.value, SKULL_M.value])) == 20

    def test_the_game_exposes_max_achievable(self) -> None:
        assert GAME.max_achievable == 20  # type: ignore[attr-defined]

    def test_no_act_can_make_21_or_more(self) -> None:
        for k in (1, 2, 3):
            for combo in combinations_with_replacement(CARD_KINDS, k):
                assert not act_is_true(combo, 21)

    def test_a_3_swirl_with_a_mirror_is_not_a_7(self) -> None:
        assert not act_is_true((SWIRL_3, SWIRL_M), 7)
