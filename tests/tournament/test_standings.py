"""Points per rank, shared ties, Buchholz, byes and the digest a round is
drawn from (TN-POINTS, TN-TIEBREAK, TN-BYE, TN-DRAW)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.domain.tournament import standings
from cardroom.domain.tournament.state import Round, Table
from cardroom.v1 import tournament_pb2 as tnpb
from tests.tournament.builder import SEED, key, played


@pytest.mark.parametrize(
    ("ranks", "half_points"),
    [
        ([1, 2], [2, 0]),
        ([2, 1, 3], [2, 4, 0]),
        ([1, 2, 2, 4], [6, 3, 3, 0]),
        ([1, 1, 3, 4], [5, 5, 2, 0]),
        ([1, 1, 1], [2, 2, 2]),
        ([1, 2, 2, 2, 5], [8, 4, 4, 4, 0]),
    ],
)
def test_points_for_ranks_share_ties(ranks: list[int], half_points: list[int]) -> None:
    assert standings.half_points_for_ranks(ranks) == half_points


@given(st.lists(st.integers(1, 6), min_size=2, max_size=6))
def test_a_game_always_hands_out_the_same_points_in_whole_halves(ranks: list[int]) -> None:
    size = len(ranks)
    points = standings.half_points_for_ranks(ranks)
    assert sum(points) == size * (size - 1)  # 0 + 1 + ... + (N - 1) points, doubled
    for a in range(size):
        for b in range(size):
            if ranks[a] < ranks[b]:
                assert points[a] > points[b]
            if ranks[a] == ranks[b]:
                assert points[a] == points[b]


def played_round() -> Round:
    a, b, c, d, e = (key(i) for i in range(5))
    return Round(
        1,
        (Table(1, "g1", (a, b)), Table(2, "g2", (c, d))),
        (e,),
        b"",
        results={1: (1, 2), 2: (2, 1)},
        completed=True,
    )


def test_buchholz_sums_the_opponents_points_and_a_bye_scores_its_points() -> None:
    a, b, c, d, e = (key(i) for i in range(5))
    lines = standings.lines([a, b, c, d, e], [], [played_round()], bye_half_points=1)
    assert [lines[k].half_points for k in (a, b, c, d, e)] == [2, 0, 0, 2, 1]
    assert [lines[k].buchholz_half_points for k in (a, b, c, d, e)] == [0, 2, 2, 0, 0]
    assert lines[e].byes == 1 and lines[e].games == 0
    ranked = standings.ordered(lines, lambda k: k)
    assert {ranked[0].public_key, ranked[1].public_key} == {a, d}
    assert ranked[2].public_key == e


def test_the_draw_breaks_ties_that_the_tie_breaks_leave() -> None:
    a, b = key(0), key(1)
    lines = standings.lines([a, b], [], [], 0)
    assert [x.public_key for x in standings.ordered(lines, lambda k: k)] == sorted([a, b])
    backwards = standings.ordered(lines, lambda k: bytes(255 - x for x in k))
    assert [x.public_key for x in backwards] == sorted([a, b], reverse=True)


def test_the_digest_follows_every_value_and_not_the_order_of_rows() -> None:
    keys = [key(i) for i in range(5)]
    lines = standings.lines(keys, [], [played_round()], 1)
    again = standings.lines(list(reversed(keys)), [], [played_round()], 1)
    assert standings.digest(lines) == standings.digest(again)
    lines[keys[4]].wins += 1
    assert standings.digest(lines) != standings.digest(again)
    withdrawn = standings.lines(keys, [keys[1]], [played_round()], 1)
    assert standings.digest(withdrawn) != standings.digest(again)


@settings(max_examples=25)
@given(st.integers(2, 5), st.integers(0, 9), st.integers(1, 4), st.integers(0, 10**6))
def test_the_final_standings_are_ordered_by_the_stated_tie_breaks(
    size: int, extra: int, rounds: int, results: int
) -> None:
    driver = played(size + extra, size, rounds, results)
    [finished] = driver.do(tnpb.FinishTournament(seed=SEED))
    assert isinstance(finished.public, tnpb.TournamentFinished)
    lines = list(finished.public.standings)
    assert [s.place for s in lines] == list(range(1, len(driver.state.field) + 1))
    keys = [(-s.half_points, -s.buchholz_half_points, -s.wins) for s in lines]
    assert keys == sorted(keys)
    games = sum(len(r.tables) for r in driver.state.rounds)
    byes = sum(len(r.byes) for r in driver.state.rounds)
    total = games * size * (size - 1) + byes * driver.state.bye_half_points
    assert sum(s.half_points for s in lines) == total
