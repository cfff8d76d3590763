"""Scoring a round (SV-16), handing the dagger on (SV-17) and the winner of
the game (SV-19): pure arithmetic over what is public once a round ends.

Nothing here knows about events or viewers; the rulebook's worked examples
R1..R5 are tested against these functions directly and through the API.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardroom.domain.silver_dagger.cards import DEBT_COLLECTOR, FURRY, HALFLING, Card, value

JACKPOT = 50
FAILED_CALL_PENALTY = 10


@dataclass(frozen=True, slots=True)
class VillageAtEnd:
    """A village when the round ends: its cards and which were face up."""

    cards: tuple[Card, ...]
    face_up: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class SeatResult:
    base: int
    after_debt_collectors: int
    after_halflings: int
    jackpot: bool
    sum: int
    points: int


def half_up(n: int) -> int:
    """ceil(n / 2): positives round up, negatives toward zero (SV-16 step 4)."""
    return -((-n) // 2)


def _before_furries(village: VillageAtEnd, others_cards: int) -> tuple[int, int, int]:
    """Steps 1..4: base sum, after Debt Collectors, after Halflings."""
    active = [c for c, up in zip(village.cards, village.face_up, strict=True) if up]
    base = sum(
        0 if card == DEBT_COLLECTOR or (card == HALFLING and up) else value(card)
        for card, up in zip(village.cards, village.face_up, strict=True)
    )
    after_debt = base - others_cards * active.count(DEBT_COLLECTOR)
    after_halflings = after_debt
    for _ in range(active.count(HALFLING)):
        after_halflings = half_up(after_halflings)
    return base, after_debt, after_halflings


def score_round(
    villages: Sequence[VillageAtEnd],
    *,
    furry_order: Sequence[int],
    caller: int | None,
    sequential: bool = True,
) -> tuple[list[SeatResult], bool]:
    """Every seat's result and whether the call succeeded (False without a
    caller). ``furry_order`` lists the seats from the dagger holder in the
    dagger's direction (step 5)."""
    n = len(villages)
    total_cards = sum(len(v.cards) for v in villages)
    steps = [_before_furries(v, total_cards - len(v.cards)) for v in villages]
    sums = [after_halflings for _, _, after_halflings in steps]
    holds_furry = [FURRY in v.cards for v in villages]
    jackpots = [False] * n
    if sequential:
        for seat in furry_order:
            if holds_furry[seat] and sums[seat] == JACKPOT:
                jackpots[seat] = True
                sums = [0 if s == seat else x + JACKPOT for s, x in enumerate(sums)]
    else:
        jackpots = [holds_furry[s] and sums[s] == JACKPOT for s in range(n)]
        hits = sum(jackpots)
        sums = [(0 if jackpots[s] else sums[s]) + JACKPOT * (hits - jackpots[s]) for s in range(n)]
    succeeded = caller is not None and all(sums[caller] <= x for x in sums)
    points = list(sums)
    if caller is not None:
        points[caller] = 0 if succeeded else sums[caller] + FAILED_CALL_PENALTY
    results = [
        SeatResult(base, debt, halves, jackpots[s], sums[s], points[s])
        for s, (base, debt, halves) in enumerate(steps)
    ]
    return results, succeeded


def clockwise_from(seat: int, n: int) -> list[int]:
    """``seat``, then the seats to its left in order (G-01)."""
    return [(seat + k) % n for k in range(n)]


def dagger_after_round(
    points: Sequence[int],
    *,
    caller: int | None,
    succeeded: bool,
    holder: int,
    start_seat: int,
) -> tuple[int, bool]:
    """SV-17: who holds the dagger next round, and whether it is usable."""
    n = len(points)
    best = min(points)
    low = [s for s in range(n) if points[s] == best]
    if succeeded and caller in low:
        assert caller is not None
        return caller, True
    if len(low) == 1:
        return low[0], False
    if holder in low:
        return holder, False
    # From the start player's left, clockwise, the start player last.
    order = [*clockwise_from(start_seat, n)[1:], start_seat]
    return next(s for s in order if s in low), False


def winner(totals: Sequence[int], holder: int, playing: Sequence[int] = ()) -> int:
    """SV-19: the fewest points; ties go to the dagger holder, else to the
    first tied seat clockwise from it (the dagger points clockwise after a
    hand-off). Only the seats still ``playing`` are ranked (G-03; every seat
    when none is given or all left), but the search still starts at the
    holder even if it left."""
    ranked = set(playing) or set(range(len(totals)))
    best = min(totals[s] for s in ranked)
    order = clockwise_from(holder, len(totals))
    return next(s for s in order if s in ranked and totals[s] == best)
