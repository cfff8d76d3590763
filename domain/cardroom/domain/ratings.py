"""Ratings: one per (player key, game kind), from finished rated games only,
with OpenSkill's Plackett-Luce model at the library's defaults (mu 25,
sigma 25/3), shown as mu - 3 sigma (docs/rules/table.md, T-RATING).

Pure: a game's result is read from its public events alone (what every
spectator sees once the game is over), and applying results in the order of
their GameFinished notification gives the same ratings wherever it runs, so
an auditor recomputes every rating from the signed records. Nothing hidden
goes in: no card, no secret, only seats, keys, departures and winners.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from google.protobuf.message import Message
from openskill.models import PlackettLuce

from cardroom.v1 import table_pb2 as tpb

MODEL = PlackettLuce()  # library defaults: mu 25, sigma 25/3
# The ranks of a rated game's seats (T-RATING): 1 = best, ties share a rank.
WINNER, PLAYED, DEPARTED = 1, 2, 3


@dataclass(frozen=True)
class Rating:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def display(self) -> float:
        """The rating shown: the ordinal mu - 3 sigma, a cautious estimate
        that starts at 0 and rises as the player's games make it certain."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Placing:
    seat: int
    public_key: bytes
    display_name: str
    rank: int


@dataclass(frozen=True)
class Result:
    """A finished game's public outcome, and whether it is rated (``why``
    says why not)."""

    game_id: str
    kind: str
    placings: tuple[Placing, ...]
    why_unrated: str = ""

    @property
    def rated(self) -> bool:
        return not self.why_unrated


def result_of(game_id: str, public_events: Iterable[Message]) -> Result | None:
    """The result of a game from its public events in order; None while it
    is not finished. Rated (T-RATING) iff it finished after its start (not
    NEVER_STARTED, T-ABSENT), was not dealt by the
    operator (a set deal), has at least two seats, every seat carries a
    player's key (a signed seat, or a server bot's own key) and not every
    seat left. A key holding several seats (two server bots of one level) is
    left out, and the game is rated if at least two players remain. Winners
    rank 1, the other seats still playing 2, seats that left (resigned,
    removed, timed out, absent) 3."""
    created: tpb.GameCreated | None = None
    seats: dict[int, tpb.SeatTaken] = {}
    departed: set[int] = set()
    finished: tpb.GameFinished | None = None
    for event in public_events:
        if isinstance(event, tpb.GameCreated):
            created = event
        elif isinstance(event, tpb.SeatTaken):
            seats[event.seat] = event
        elif isinstance(event, tpb.SeatResigned):
            departed.add(event.seat)
        elif isinstance(event, tpb.GameFinished):
            finished = event
    if created is None or finished is None:
        return None
    winners = set(finished.winners)
    placings = tuple(
        Placing(
            seat,
            bytes(taken.player.public_key),
            taken.player.display_name or taken.player_name,
            DEPARTED if seat in departed else WINNER if seat in winners else PLAYED,
        )
        for seat, taken in sorted(seats.items())
    )
    why = ""
    keys = [p.public_key for p in placings]
    # A key holding several seats (two server bots of one level) is not
    # rated in that game; the other players are, among themselves.
    shared = {key for key in keys if keys.count(key) > 1}
    if finished.reason == tpb.GameFinished.REASON_NEVER_STARTED:
        why = "nobody started the game"  # T-ABSENT: every seat taken, nothing played
    elif created.set_deal:
        why = "the operator set the deal"
    elif len(placings) < 2:
        why = "fewer than two seats"
    elif not all(keys):
        why = "a seat is anonymous"
    elif len(departed) >= len(placings):
        why = "every seat left"
    elif len(keys) - sum(keys.count(key) for key in shared) < 2:
        why = "fewer than two players with a seat of their own"
    rated = tuple(p for p in placings if p.public_key not in shared)
    return Result(game_id, created.kind, rated if not why else placings, why)


def rate(ratings: Mapping[bytes, Rating], placings: Sequence[Placing]) -> dict[bytes, Rating]:
    """The new ratings of a rated game's players (in one kind), from their
    ratings before (absent: a new player at the defaults)."""
    before = [ratings.get(p.public_key, Rating()) for p in placings]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(p.rank) for p in placings])
    return {
        p.public_key: Rating(team[0].mu, team[0].sigma, old.games + 1)
        for p, old, team in zip(placings, before, after, strict=True)
    }


def apply(
    ratings: dict[tuple[bytes, str], Rating], result: Result
) -> dict[tuple[bytes, str], Rating]:
    """Apply one finished game's result to every rating (keyed by player
    key and kind); an unrated game changes nothing. Returns the changed
    entries (also written into ``ratings``)."""
    if not result.rated:
        return {}
    kind = result.kind
    mine = {p.public_key: ratings.get((p.public_key, kind), Rating()) for p in result.placings}
    changed = {(key, kind): r for key, r in rate(mine, result.placings).items()}
    ratings.update(changed)
    return changed
