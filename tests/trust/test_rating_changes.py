"""Rating changes re-derived from a game and the ratings before it
(cardroom.trust.rating_changes): a server's histories that follow from the
games pass; every way of bending them is named."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.domain import ratings as rules
from cardroom.trust.rating_changes import RatedEntry, check_changes

KIND = "smiles-and-daggers"
KEYS = [bytes([n]) * 32 for n in range(1, 6)]
NAMES = {key: f"P{n}" for n, key in enumerate(KEYS, 1)}


def result(game: str, ranks: dict[bytes, int], why: str = "") -> rules.Result:
    placings = tuple(
        rules.Placing(seat, key, NAMES[key], rank) for seat, (key, rank) in enumerate(ranks.items())
    )
    return rules.Result(game, KIND, placings, why)


def served(results: list[rules.Result]) -> dict[bytes, list[RatedEntry]]:
    """The histories an honest server serves: every rated game applied in order."""
    ratings: dict[tuple[bytes, str], rules.Rating] = {}
    histories: dict[bytes, list[RatedEntry]] = {key: [] for key in KEYS}
    for r in results:
        for (key, kind), after in rules.apply(ratings, r).items():
            rank = next(p.rank for p in r.placings if p.public_key == key)
            histories[key].append(RatedEntry(r.game_id, kind, rank, after))
    return histories


GAMES = [
    result("g1", {KEYS[0]: 1, KEYS[1]: 2, KEYS[2]: 2}),
    result("g2", {KEYS[1]: 1, KEYS[2]: 3, KEYS[3]: 2}),
    result("g3", {KEYS[0]: 2, KEYS[3]: 1}, why="the operator set the deal"),
    result("g4", {KEYS[0]: 1, KEYS[2]: 1, KEYS[3]: 2}),
]


def test_histories_that_follow_from_the_games_pass() -> None:
    assert check_changes(GAMES, served(GAMES)) == []
    # The tournament's games alone, among games outside it (g1, g2).
    assert check_changes(GAMES[3:], served(GAMES)) == []


def test_a_changed_rating_is_named_with_what_the_game_gives() -> None:
    histories = served(GAMES)
    entry = histories[KEYS[2]][-1]
    histories[KEYS[2]][-1] = replace(entry, after=replace(entry.after, mu=entry.after.mu + 0.5))
    (problem,) = check_changes(GAMES[3:], histories)
    assert problem.startswith("game g4: P3 (")
    assert "rating after it is" in problem and "the result gives" in problem


def test_a_rated_game_left_out_of_a_history_is_named() -> None:
    histories = served(GAMES)
    histories[KEYS[3]] = [e for e in histories[KEYS[3]] if e.game_id != "g4"]
    assert check_changes(GAMES[3:], histories) == [
        f"game g4: P4 ({_id(KEYS[3])})'s history lacks it"
    ]


def test_an_earlier_game_dropped_shows_in_the_next_change() -> None:
    """A server that forgot g2 for P3 serves a rating before g4 that g4's
    change does not follow from."""
    histories = served(GAMES)
    histories[KEYS[2]] = [e for e in histories[KEYS[2]] if e.game_id != "g2"]
    problems = check_changes(GAMES[3:], histories)
    # P3's wrong rating before g4 moves every player's change in it.
    assert len(problems) == 3 and all(p.startswith("game g4: ") for p in problems)
    assert any(p.startswith("game g4: P3") for p in problems)


def test_a_game_rated_twice_a_changed_rank_and_an_unrated_game_rated_are_named() -> None:
    histories = served(GAMES)
    histories[KEYS[0]].append(histories[KEYS[0]][-1])
    assert "game g4 is rated twice for P1" in check_changes(GAMES[3:], histories)[0]

    histories = served(GAMES)
    histories[KEYS[1]][0] = replace(histories[KEYS[1]][0], rank=1 + histories[KEYS[1]][0].rank)
    assert "ranks 2 by its events, 3 by the server" in check_changes(GAMES[:1], histories)[0]

    histories = served(GAMES)
    histories[KEYS[3]].insert(1, RatedEntry("g3", KIND, 1, rules.Rating()))
    (problem,) = check_changes(GAMES[2:3], histories)
    assert problem.startswith("game g3 is not rated (the operator set the deal)")


def test_another_kinds_history_is_not_this_kinds() -> None:
    histories = served(GAMES)
    histories[KEYS[0]] = [replace(e, kind="silver-dagger") for e in histories[KEYS[0]]]
    assert check_changes(GAMES[3:], histories)[0].startswith("game g4: P1")


def _id(key: bytes) -> str:
    from cardroom.trust.players import player_id

    return player_id(key)[:12]


RANKS = st.lists(
    st.dictionaries(st.sampled_from(KEYS), st.integers(1, 3), min_size=2, max_size=5),
    min_size=1,
    max_size=12,
)


@settings(max_examples=40, deadline=None)
@given(RANKS, st.data())
def test_any_changed_rating_of_any_game_is_caught(
    ranked: list[dict[bytes, int]], data: st.DataObject
) -> None:
    games = [result(f"g{i}", ranks) for i, ranks in enumerate(ranked)]
    histories = served(games)
    assert check_changes(games, histories) == []
    key = data.draw(st.sampled_from([k for k in KEYS if histories[k]]))
    at = data.draw(st.integers(0, len(histories[key]) - 1))
    entry = histories[key][at]
    bent = data.draw(st.sampled_from(["mu", "sigma", "games"]))
    changed = {
        "mu": replace(entry.after, mu=entry.after.mu + 1e-6),
        "sigma": replace(entry.after, sigma=entry.after.sigma * 0.99),
        "games": replace(entry.after, games=entry.after.games + 1),
    }[bent]
    histories[key][at] = replace(entry, after=changed)
    assert any(p.startswith(f"game {entry.game_id}:") for p in check_changes(games, histories))
