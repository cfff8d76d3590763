"""Rating changes re-derived (docs/rules/table.md, T-RATING; docs/trust.md,
"Tournaments"): a rated game changes its players' ratings by what their
ratings before it and its result give, and an unrated game changes none.

A tournament's record holds its games but not the ratings its players came
in with: those follow from every rated game of theirs, in and out of the
tournament. So the tournament auditor takes the histories the server
serves (``GetPlayer``: each rated game of a player and their rating after
it) and checks, game by game, that each player's rating after a tournament
game is what the model gives from the ratings the same histories show
before it. A server that changed a rating, rated a game twice, left a
rated game out or rated an unrated one is named. Recomputing every rating
from scratch needs every record: ``cardroom audit ratings RECORD...``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from cardroom.domain import ratings as rules
from cardroom.trust.players import player_id

# Ratings travel as doubles, computed by the same code on both sides; the
# margin only absorbs a different float rounding of the model's library.
TOLERANCE = 1e-9


@dataclass(frozen=True)
class RatedEntry:
    """One rated game in a player's history, and their rating after it."""

    game_id: str
    kind: str
    rank: int
    after: rules.Rating


# Each player's rated games, oldest first (all kinds; GetPlayer's order
# reversed).
Histories = Mapping[bytes, Sequence[RatedEntry]]


def check_changes(results: Iterable[rules.Result], histories: Histories) -> list[str]:
    """What does not follow, one line per finding, the games in the order
    given; empty when every rating change follows from its game."""
    problems: list[str] = []
    for result in results:
        if result.rated:
            problems.extend(_rated(result, histories))
        else:
            problems.extend(
                f"game {result.game_id} is not rated ({result.why_unrated}), yet the server's "
                f"history of {_who(p)} rates it"
                for p in result.placings
                if _find(histories.get(p.public_key, ()), result) is not None
            )
    return problems


def _rated(result: rules.Result, histories: Histories) -> list[str]:
    before: dict[bytes, rules.Rating] = {}
    served: dict[bytes, RatedEntry] = {}
    problems: list[str] = []
    for placing in result.placings:
        history = [e for e in histories.get(placing.public_key, ()) if e.kind == result.kind]
        at = _find(history, result)
        if at is None:
            problems.append(f"game {result.game_id}: {_who(placing)}'s history lacks it")
            continue
        if sum(e.game_id == result.game_id for e in history) > 1:
            problems.append(f"game {result.game_id} is rated twice for {_who(placing)}")
        entry = history[at]
        if entry.rank != placing.rank:
            problems.append(
                f"game {result.game_id}: {_who(placing)} ranks {placing.rank} by its events, "
                f"{entry.rank} by the server"
            )
        before[placing.public_key] = history[at - 1].after if at else rules.Rating()
        served[placing.public_key] = entry
    if problems:
        return problems
    derived = rules.rate(before, result.placings)
    for placing in result.placings:
        want, got = derived[placing.public_key], served[placing.public_key].after
        if not (
            math.isclose(want.mu, got.mu, rel_tol=0, abs_tol=TOLERANCE)
            and math.isclose(want.sigma, got.sigma, rel_tol=0, abs_tol=TOLERANCE)
            and want.games == got.games
        ):
            problems.append(
                f"game {result.game_id}: {_who(placing)}'s rating after it is "
                f"{_show(got)} on the server; from {_show(before[placing.public_key])} "
                f"before it the result gives {_show(want)}"
            )
    return problems


def _find(history: Sequence[RatedEntry], result: rules.Result) -> int | None:
    return next((i for i, e in enumerate(history) if e.game_id == result.game_id), None)


def _who(placing: rules.Placing) -> str:
    name = placing.display_name or "a player"
    return f"{name} ({player_id(placing.public_key)[:12]})"


def _show(rating: rules.Rating) -> str:
    return f"mu {rating.mu:.6f}, sigma {rating.sigma:.6f} ({rating.games} games)"
