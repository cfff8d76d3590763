"""The 18 cards of Smoke & Mirrors and what an act made of them can be worth.

A card is identified by its pile and value (a mirror has value 0). Cards with
the same pile and value (say, the five Star 1s) are interchangeable, so hands
and acts are multisets and are kept sorted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from itertools import combinations
from typing import NamedTuple

from cardroom.domain.kernel import MalformedCommand
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as pb

STARS: int = pb.PILE_STARS
SWIRLS: int = pb.PILE_SWIRLS
SKULLS: int = pb.PILE_SKULLS
PILES: tuple[int, ...] = (STARS, SWIRLS, SKULLS)
PILE_NAMES = {STARS: "Stars", SWIRLS: "Swirls", SKULLS: "Skulls"}

MIRROR = 0
# SM-09: the largest total any act can make (5, 5 and a mirror copying both).
MAX_ACHIEVABLE = 20


class Card(NamedTuple):
    pile: int
    value: int

    @property
    def is_mirror(self) -> bool:
        return self.value == MIRROR

    def __str__(self) -> str:
        face = "mirror" if self.value == MIRROR else str(self.value)
        return f"{PILE_NAMES.get(self.pile, '?')} {face}"


# Quick Reference: Stars = 1,1,1,1,1,M; Swirls = 1,2,3,4,5,M; Skulls = 5,5,5,5,5,M.
PILE_CARDS: dict[int, tuple[Card, ...]] = {
    STARS: tuple(Card(STARS, v) for v in (1, 1, 1, 1, 1, MIRROR)),
    SWIRLS: tuple(Card(SWIRLS, v) for v in (1, 2, 3, 4, 5, MIRROR)),
    SKULLS: tuple(Card(SKULLS, v) for v in (5, 5, 5, 5, 5, MIRROR)),
}
DECK: tuple[Card, ...] = tuple(c for p in PILES for c in PILE_CARDS[p])
SWIRL_FIVE = Card(SWIRLS, 5)
# Every distinct card there is (10 of them).
CARD_KINDS: tuple[Card, ...] = tuple(sorted(set(DECK)))


def removed_cards(seat_count: int, remove_swirl5: bool) -> tuple[Card, ...]:
    """Cards taken out before the deal: the Swirl 5 in a 2-player game (4.1)."""
    return (SWIRL_FIVE,) if seat_count == 2 and remove_swirl5 else ()


def piles_for(seat_count: int, remove_swirl5: bool) -> dict[int, tuple[Card, ...]]:
    """The three piles as they are shuffled and dealt for this table."""
    piles = dict(PILE_CARDS)
    for card in removed_cards(seat_count, remove_swirl5):
        rest = list(piles[card.pile])
        rest.remove(card)
        piles[card.pile] = tuple(rest)
    return piles


# ------------------------------------------------------------- SM-01 totals


@cache
def _totals(values: tuple[int, ...]) -> frozenset[int]:
    plain = [v for v in values if v != MIRROR]
    mirrors = len(values) - len(plain)
    if not plain:
        return frozenset({0})  # only mirrors: worth 0
    if mirrors == 0:
        return frozenset({sum(plain)})
    if len(plain) == 1:
        (a,) = plain
        return frozenset({a * (1 + mirrors)})  # {a,M} = 2a, {a,M,M} = 3a
    a, b = plain  # {a,b,M}: the mirror copies a, b or both
    return frozenset({2 * a + b, a + 2 * b, 2 * a + 2 * b})


def achievable_totals(values: Iterable[int]) -> frozenset[int]:
    """SM-01: every total an act of these card values (0 = mirror) can make.

    A mirror played with other cards must copy one of them or both; on its own
    (or with only mirrors) the act is worth 0.
    """
    key = tuple(sorted(values))
    if not 1 <= len(key) <= 3:
        raise ValueError("an act has 1 to 3 cards")
    return _totals(key)


def act_is_true(cards: Iterable[Card], claim: int) -> bool:
    """SM-02: an act is true iff its claim is one of its achievable totals."""
    return claim in achievable_totals(c.value for c in cards)


def distinct_acts(
    owned: Sequence[Card], sizes: Iterable[int] = (1, 2, 3)
) -> list[tuple[Card, ...]]:
    """Every distinct multiset of ``sizes`` cards out of ``owned``, sorted."""
    return list(_distinct_acts(tuple(sorted(owned)), tuple(sizes)))


@lru_cache(maxsize=4096)
def _distinct_acts(owned: tuple[Card, ...], sizes: tuple[int, ...]) -> tuple[tuple[Card, ...], ...]:
    found: list[tuple[Card, ...]] = []
    for k in sizes:
        seen = sorted(set(combinations(owned, k)))
        found.extend(seen)
    return tuple(found)


def claimable(hand: Sequence[Card]) -> frozenset[int]:
    """Every positive claim some act out of ``hand`` could truly make."""
    totals: set[int] = set()
    for act in distinct_acts(hand, range(1, min(3, len(hand)) + 1)):
        totals |= achievable_totals(c.value for c in act)
    totals.discard(0)
    return frozenset(totals)


def is_submultiset(part: Iterable[Card], whole: Iterable[Card | None]) -> bool:
    rest = list(whole)
    for card in part:
        if card not in rest:
            return False
        rest.remove(card)
    return True


# ------------------------------------------------------------- protobuf


_VALID = {(c.pile, c.value) for c in DECK}


def card_from_pb(msg: pb.Card) -> Card:
    """A command's card, or MalformedCommand when no such card exists."""
    key = (msg.pile, msg.value)
    if key not in _VALID:
        raise MalformedCommand(f"no such card: pile {msg.pile}, value {msg.value}")
    return Card(*key)


_PB_CARDS = {c: pb.Card(pile=c.pile, value=c.value) for c in CARD_KINDS}  # type: ignore[arg-type]


def card_to_pb(card: Card) -> pb.Card:
    """A fresh message for ``card``."""
    msg = pb.Card()
    msg.CopyFrom(_PB_CARDS[card])
    return msg


def cards_to_pb(cards: Iterable[Card]) -> list[pb.Card]:
    """Messages to put in a repeated field (protobuf copies them there)."""
    return [_PB_CARDS[c] for c in cards]


_CARDS = {(c.pile, c.value): c for c in CARD_KINDS}


def cards_from_event(msgs: Iterable[pb.Card]) -> tuple[Card, ...]:
    """Cards in an event we produced ourselves (already valid), sorted."""
    return tuple(sorted([_CARDS[m.pile, m.value] for m in msgs]))
