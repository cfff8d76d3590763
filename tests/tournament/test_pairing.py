"""Pairing properties (TN-SWISS, TN-ROBIN, TN-BYE, TN-DRAW), checked over
many fields, table sizes and results drawn by hypothesis."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.domain.tournament import pairing
from cardroom.domain.tournament.rules import draw_round
from tests.tournament.builder import ROUND_ROBIN, SEED, closed, key, played

fields = st.tuples(
    st.integers(2, 6),  # table size
    st.integers(0, 14),  # players beyond one table
    st.integers(1, 4),  # rounds
    st.integers(0, 10**6),  # results
)


@settings(max_examples=40)
@given(fields)
def test_every_player_is_seated_once_a_round_or_has_a_bye(field: tuple[int, int, int, int]) -> None:
    size, extra, rounds, results = field
    driver = played(size + extra, size, rounds, results)
    for paired in driver.state.rounds:
        seated = [k for t in paired.tables for k in t.seats]
        assert all(len(t.seats) == size for t in paired.tables)
        assert Counter(seated + list(paired.byes)) == Counter(driver.state.field)
        assert len(paired.byes) == len(driver.state.field) % size


@settings(max_examples=40)
@given(fields)
def test_byes_go_to_players_with_the_fewest_byes(field: tuple[int, int, int, int]) -> None:
    """Nobody has a second bye while a player at a table has none."""
    size, extra, rounds, results = field
    driver = played(size + extra, size, rounds, results)
    had: Counter[bytes] = Counter()
    for paired in driver.state.rounds:
        if paired.byes:
            seated = [k for t in paired.tables for k in t.seats]
            assert max(had[k] for k in paired.byes) <= min(had[k] for k in seated)
        had.update(paired.byes)


@settings(max_examples=15)
@given(st.integers(2, 6), st.integers(0, 2), st.integers(0, 10**6))
def test_round_two_repeats_no_meeting_when_a_table_can_draw_from_as_many_tables(
    size: int, more: int, results: int
) -> None:
    """With at least ``size`` tables in round 1, a round 2 without repeats
    exists (each table takes one player from each of ``size`` tables); the
    search finds it."""
    driver = played(size * (size + more), size, 2, results)
    met = pairing.meetings([t.seats for r in driver.state.rounds for t in r.tables])
    assert max(met.values()) == 1


@settings(max_examples=15)
@given(st.integers(2, 8), st.integers(0, 10**6), st.data())
def test_two_seat_tables_never_repeat_while_half_the_field_is_unmet(
    half: int, results: int, data: st.DataObject
) -> None:
    """At tables of 2 the unmet pairs after r - 1 rounds form a graph of
    degree P - r, which has a perfect matching while P - r >= P / 2 (Dirac):
    the search finds one every round."""
    rounds = data.draw(st.integers(2, half))
    driver = played(2 * half, 2, rounds, results)
    met = pairing.meetings([t.seats for r in driver.state.rounds for t in r.tables])
    assert max(met.values()) == 1


@settings(max_examples=15)
@given(st.integers(2, 6), st.integers(0, 10), st.integers(0, 10**6))
def test_a_round_is_a_function_of_the_seed_and_the_results(
    size: int, extra: int, results: int
) -> None:
    first = played(size + extra, size, 2, results)
    again = played(size + extra, size, 2, results)
    assert first.events == again.events


def test_another_seed_draws_another_round() -> None:
    state = closed(12, table_size=3).state
    assert draw_round(state, SEED) != draw_round(state, bytes(32))
    assert draw_round(state, SEED) == draw_round(state, SEED)


@settings(max_examples=15)
@given(st.integers(2, 12), st.integers(0, 10**6))
def test_a_round_robin_of_two_seats_meets_every_pair_exactly_once(
    players: int, results: int
) -> None:
    driver = played(players, 2, 0, results, ROUND_ROBIN)
    met = pairing.meetings([t.seats for r in driver.state.rounds for t in r.tables])
    assert set(met) == {frozenset(p) for p in combinations(driver.state.field, 2)}
    assert set(met.values()) == {1}
    byes = Counter(k for r in driver.state.rounds for k in r.byes)
    assert set(byes.values()) <= {1} and len(byes) == (players % 2) * players


@settings(max_examples=5)
@given(st.integers(0, 10**6))
def test_a_round_robin_of_nine_at_threes_meets_every_pair_once(results: int) -> None:
    """9 players at tables of 3 in 4 rounds: every pair meets exactly once."""
    driver = played(9, 3, 0, results, ROUND_ROBIN)
    met = pairing.meetings([t.seats for r in driver.state.rounds for t in r.tables])
    assert len(driver.state.rounds) == 4
    assert set(met.values()) == {1}
    assert len(met) == len(list(combinations(driver.state.field, 2)))


def test_the_swiss_seats_the_leaders_together() -> None:
    driver = closed(9, table_size=3, rounds=2)
    first = driver.play_round(1)
    winners = {t.seats[0] for t in first.tables}  # seat 0 wins (by_seat)
    second = driver.pair(2)
    assert set(second.tables[0].seats) == winners


def test_the_fallback_minimises_repeats_when_none_can_be_avoided() -> None:
    players = [key(i) for i in range(4)]
    met = pairing.meetings([(players[0], players[1]), (players[2], players[3])])
    met.update(pairing.meetings([(players[0], players[2]), (players[1], players[3])]))
    met.update(pairing.meetings([(players[0], players[3]), (players[1], players[2])]))
    assert pairing.group(players, 2, met) == [(players[0], players[1]), (players[2], players[3])]
    assert pairing.greedy(players, 2, Counter()) == [
        (players[0], players[1]),
        (players[2], players[3]),
    ]


def test_the_circle_turns_everyone_but_the_first() -> None:
    order = [key(i) for i in range(4)]
    assert pairing.circle(order, 1).tables == ((order[0], order[3]), (order[1], order[2]))
    assert pairing.circle(order, 2).tables == ((order[0], order[2]), (order[3], order[1]))


def test_the_fallback_swaps_players_while_a_swap_removes_repeats() -> None:
    a, b, c, d = (key(i) for i in range(4))
    met = pairing.meetings([(a, b), (c, d)])
    assert pairing.improved([(a, b), (c, d)], met) == [(c, b), (a, d)]
    assert pairing.improved([(a, c), (b, d)], met) == [(a, c), (b, d)]


def test_a_wide_swiss_of_tables_of_four_repeats_no_meeting_in_ten_rounds() -> None:
    """64 players at 4: the search, else the fallback and its swaps, keep
    every meeting new for 10 rounds (measured; a regression guard)."""
    driver = played(64, 4, 10, 1)
    met = pairing.meetings([t.seats for r in driver.state.rounds for t in r.tables])
    assert max(met.values()) == 1


def test_a_full_field_is_paired_without_deep_recursion() -> None:
    """1,024 players (the most a tournament takes) at tables of 2: the
    search is iterative, so no field reaches Python's recursion limit."""
    driver = closed(1024, table_size=2, rounds=2)
    paired = driver.play_round(1)
    assert len(paired.tables) == 512
    second = driver.pair(2)
    met = pairing.meetings([t.seats for t in (*paired.tables, *second.tables)])
    assert max(met.values()) == 1
