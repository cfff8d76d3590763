"""Points, tie-breaks and the standings (docs/rules/tournaments.md,
TN-POINTS, TN-TIEBREAK, TN-BYE, TN-LEAVE).

Points are kept in half points: tied ranks share the average of the points
of the places they span, which is always a whole number of halves.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from cardroom.domain.tournament.state import Round
from cardroom.v1 import tournament_pb2 as tnpb


def half_points_for_ranks(ranks: Sequence[int]) -> list[int]:
    """Each seat's half points for one game (TN-POINTS): at a table of N,
    the seat placed p-th (0 best) scores N - 1 - p points; seats that share
    a rank share the average of the places they span."""
    size = len(ranks)
    order = sorted(range(size), key=lambda seat: ranks[seat])
    out = [0] * size
    place = 0
    while place < size:
        tied = [s for s in order[place:] if ranks[s] == ranks[order[place]]]
        total = sum(2 * (size - 1 - p) for p in range(place, place + len(tied)))
        for seat in tied:
            out[seat] = total // len(tied)
        place += len(tied)
    return out


@dataclass
class Line:
    """One player's running totals."""

    public_key: bytes
    half_points: int = 0
    buchholz_half_points: int = 0
    wins: int = 0
    games: int = 0
    byes: int = 0
    withdrawn: bool = False
    # Every opponent met, once per game (with repeats).
    opponents: tuple[bytes, ...] = ()

    def sort_key(self) -> tuple[int, int, int]:
        """Better first: points, then Buchholz, then wins (TN-TIEBREAK)."""
        return (-self.half_points, -self.buchholz_half_points, -self.wins)


def lines(
    keys: Iterable[bytes], withdrawn: Iterable[bytes], rounds: Sequence[Round], bye_half_points: int
) -> dict[bytes, Line]:
    """Every player's totals after the recorded results of ``rounds``. A
    key that withdrew before the field was drawn has no line (TN-FIELD)."""
    table = {key: Line(key) for key in keys}
    for key in withdrawn:
        if key in table:
            table[key].withdrawn = True
    for played in rounds:
        for key in played.byes:
            table[key].byes += 1
            table[key].half_points += bye_half_points
        for paired in played.tables:
            ranks = played.results.get(paired.number)
            if ranks is None:
                continue
            for seat, (key, points) in enumerate(
                zip(paired.seats, half_points_for_ranks(ranks), strict=True)
            ):
                line = table[key]
                line.half_points += points
                line.games += 1
                line.wins += ranks[seat] == 1
                line.opponents += tuple(k for k in paired.seats if k != key)
    for line in table.values():
        line.buchholz_half_points = sum(table[o].half_points for o in line.opponents)
    return table


def digest(table: dict[bytes, Line]) -> bytes:
    """SHA-256 of the standings' values, players in key order (TN-DRAW):
    per player key || u32be(half points) || u32be(Buchholz) || u32be(wins)
    || u32be(games) || u32be(byes) || u8(withdrawn)."""
    h = hashlib.sha256()
    for key in sorted(table):
        line = table[key]
        h.update(key)
        h.update(
            struct.pack(
                ">IIIIIB",
                line.half_points,
                line.buchholz_half_points,
                line.wins,
                line.games,
                line.byes,
                line.withdrawn,
            )
        )
    return h.digest()


def ordered(table: dict[bytes, Line], draw: Callable[[bytes], bytes]) -> list[Line]:
    """Best first: the tie-breaks, then the seeded draw (TN-TIEBREAK)."""
    return sorted(table.values(), key=lambda line: (line.sort_key(), draw(line.public_key)))


def to_messages(ranked: Sequence[Line]) -> list[tnpb.Standing]:
    return [
        tnpb.Standing(
            public_key=line.public_key,
            place=place,
            half_points=line.half_points,
            buchholz_half_points=line.buchholz_half_points,
            wins=line.wins,
            games=line.games,
            byes=line.byes,
            withdrawn=line.withdrawn,
        )
        for place, line in enumerate(ranked, 1)
    ]
