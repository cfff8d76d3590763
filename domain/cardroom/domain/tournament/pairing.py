"""Each round's tables, drawn from the committed seed and the standings
before the round (docs/rules/tournaments.md, TN-DRAW, TN-SWISS, TN-ROBIN,
TN-BYE). Everything is a function of its arguments, so an auditor who holds
the revealed seed re-derives every round.

Every draw is an HMAC-SHA256, so another language re-derives it bytewise:

* round key = HMAC(seed, u32be(round) || standings digest);
* a player's draw = HMAC(round key, "order" || public key), lowest first;
* a player's seat draw = HMAC(round key, "seat" || public key): a table's
  seats in increasing order of it;
* the round robin's circle = the players in increasing
  HMAC(seed, "round-robin" || public key).
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

# Nodes the search for a round without repeat meetings may visit before the
# stated fallback takes over (TN-SWISS): a count, not a time, so the result
# is the same on every machine.
SEARCH_BUDGET = 20_000


@dataclass(frozen=True)
class Pairing:
    """A round's tables (each a tuple of keys in seat order, top table first)
    and its byes."""

    tables: tuple[tuple[bytes, ...], ...]
    byes: tuple[bytes, ...]


def _hmac(key: bytes, message: bytes) -> bytes:
    return hmac.new(key, message, hashlib.sha256).digest()


def round_key(seed: bytes, round_number: int, standings_digest: bytes) -> bytes:
    return _hmac(seed, struct.pack(">I", round_number) + standings_digest)


def draw(key: bytes, public_key: bytes) -> bytes:
    return _hmac(key, b"order" + public_key)


def seat_draw(key: bytes, public_key: bytes) -> bytes:
    return _hmac(key, b"seat" + public_key)


def circle_order(seed: bytes, players: Sequence[bytes]) -> list[bytes]:
    return sorted(players, key=lambda k: _hmac(seed, b"round-robin" + k))


def meetings(tables: Sequence[Sequence[bytes]]) -> Counter[frozenset[bytes]]:
    """How many times each pair of players shared a table."""
    met: Counter[frozenset[bytes]] = Counter()
    for table in tables:
        for a, b in combinations(table, 2):
            met[frozenset((a, b))] += 1
    return met


def choose_byes(
    ranked: Sequence[bytes], count: int, byes_so_far: dict[bytes, int]
) -> tuple[bytes, ...]:
    """TN-BYE: the lowest-standing players among those with the fewest byes."""
    if count == 0:
        return ()
    position = {key: i for i, key in enumerate(ranked)}
    chosen = sorted(ranked, key=lambda k: (byes_so_far.get(k, 0), -position[k]))[:count]
    return tuple(sorted(chosen, key=position.__getitem__))


def seat_order(key: bytes, table: Sequence[bytes]) -> tuple[bytes, ...]:
    return tuple(sorted(table, key=lambda k: seat_draw(key, k)))


def swiss(
    key: bytes,
    ranked: Sequence[bytes],
    table_size: int,
    met: Counter[frozenset[bytes]],
    byes_so_far: dict[bytes, int],
) -> Pairing:
    """TN-SWISS. ``ranked``: the players to seat, best first (standings,
    then the round's draw). Byes first (TN-BYE); then the first grouping,
    in standing order, with no repeat meeting (:func:`group`)."""
    byes = choose_byes(ranked, len(ranked) % table_size, byes_so_far)
    seated = [k for k in ranked if k not in set(byes)]
    tables = group(seated, table_size, met)
    return Pairing(tuple(seat_order(key, t) for t in tables), byes)


def group(
    players: Sequence[bytes], size: int, met: Counter[frozenset[bytes]]
) -> list[tuple[bytes, ...]]:
    """Split ``players`` (best first, a multiple of ``size``) into tables.

    Depth first, in standing order: the best player still unseated opens a
    table and takes companions one at a time, each the best-placed one who
    met nobody at the table before; the first complete split found wins.
    When none is found within SEARCH_BUDGET candidates, :func:`greedy` and
    :func:`improved` instead. Iterative (a generator per table), so a field
    of any size stays within Python's recursion limit.
    """
    visited = 0

    def clean(candidate: bytes, table: Sequence[bytes]) -> bool:
        return all(not met[frozenset((candidate, other))] for other in table)

    def tables_opened_by(remaining: Sequence[bytes]) -> Iterator[tuple[bytes, ...]]:
        """Every clean table of remaining[0] and later players, companions
        in lexicographic order of their places."""
        nonlocal visited
        rest = remaining[1:]
        table, chosen, i = [remaining[0]], [], 0
        while True:
            if len(table) == size:
                yield tuple(table)
            elif i < len(rest):
                visited += 1
                if visited > SEARCH_BUDGET:
                    raise _Exhausted
                if clean(rest[i], table):
                    table.append(rest[i])
                    chosen.append(i)
                i += 1
                continue
            if not chosen:
                return
            i = chosen.pop() + 1
            table.pop()

    levels = [(tables_opened_by(players), list(players))] if players else []
    split: list[tuple[bytes, ...]] = []
    try:
        while levels:
            tables, remaining = levels[-1]
            del split[len(levels) - 1 :]
            found = next(tables, None)
            if found is None:
                levels.pop()
                continue
            split.append(found)
            left = [k for k in remaining if k not in found]
            if not left:
                return split
            levels.append((tables_opened_by(left), left))
    except _Exhausted:
        pass
    if not players:
        return []
    return improved(greedy(players, size, met), met)


class _Exhausted(Exception):
    pass


def greedy(
    players: Sequence[bytes], size: int, met: Counter[frozenset[bytes]]
) -> list[tuple[bytes, ...]]:
    """The fallback (TN-SWISS): the best unseated player opens a table; each
    next seat goes to the unseated player with the fewest earlier meetings
    with those already at the table, the best-placed among equals."""
    remaining = list(players)
    tables = []
    while remaining:
        table = [remaining.pop(0)]
        while len(table) < size:
            best = min(
                range(len(remaining)),
                key=lambda i: (sum(met[frozenset((remaining[i], o))] for o in table), i),
            )
            table.append(remaining.pop(best))
        tables.append(tuple(table))
    return tables


def improved(
    tables: list[tuple[bytes, ...]], met: Counter[frozenset[bytes]]
) -> list[tuple[bytes, ...]]:
    """The fallback's second step (TN-SWISS): while some swap of two
    players at different tables lowers the number of repeat meetings, make
    the first such swap (tables in order, then seats in order), at most
    SEARCH_BUDGET swaps tried."""
    seated = [list(t) for t in tables]

    def repeats(table: Sequence[bytes]) -> int:
        return sum(met[frozenset((a, b))] for a, b in combinations(table, 2))

    tried = 0
    better = True
    while better and tried < SEARCH_BUDGET:
        better = False
        for i, j in combinations(range(len(seated)), 2):
            if not repeats(seated[i]) and not repeats(seated[j]):
                continue
            before = repeats(seated[i]) + repeats(seated[j])
            for a, b in ((a, b) for a in range(len(seated[i])) for b in range(len(seated[j]))):
                tried += 1
                seated[i][a], seated[j][b] = seated[j][b], seated[i][a]
                if repeats(seated[i]) + repeats(seated[j]) < before:
                    better = True
                    break
                seated[i][a], seated[j][b] = seated[j][b], seated[i][a]
            if better or tried >= SEARCH_BUDGET:
                break
    return [tuple(t) for t in seated]


def robin_rounds(players: int, table_size: int) -> int:
    """Rounds of a full round robin (TN-ROBIN): the circle's P - 1 (P
    padded to even) at tables of 2; else enough rounds for each player to
    meet the others once if no pair ever met twice, ceil((P - 1) / (N - 1))."""
    if table_size == 2:
        return players - 1 if players % 2 == 0 else players
    return -(-(players - 1) // (table_size - 1))


def circle(order: Sequence[bytes], round_number: int) -> Pairing:
    """TN-ROBIN at tables of 2: the circle method. The first player stays,
    the others turn one place per round; player i meets player P - 1 - i.
    With an odd field a place is empty, and whoever faces it has a bye."""
    places: list[bytes | None] = list(order)
    if len(places) % 2:
        places.append(None)
    fixed, turning = places[0], places[1:]
    shift = (round_number - 1) % len(turning)
    turned = [fixed, *turning[len(turning) - shift :], *turning[: len(turning) - shift]]
    tables = []
    byes: list[bytes] = []
    half = len(turned) // 2
    for i in range(half):
        a, b = turned[i], turned[len(turned) - 1 - i]
        if a is None or b is None:
            byes.extend(k for k in (a, b) if k is not None)
        else:
            tables.append((a, b))
    return Pairing(tuple(tables), tuple(byes))
