"""What every determinizer shares: the cards a seat cannot place, shuffled,
handed out to the places it has not seen."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from typing import Generic, TypeVar

C = TypeVar("C", bound=Hashable)


class Inconsistent(ValueError):
    """The fold holds more cards of a kind than the game has, or fewer
    hidden places than unplaced cards: the determinizer cannot agree with it."""


class Pool(Generic[C]):
    """The game's cards less every card the seat knows the place of, in a
    random order; ``take`` hands them out."""

    def __init__(self, universe: Counter[C], known: Iterable[C | None], rng: random.Random) -> None:
        left = Counter(universe)
        left.subtract(c for c in known if c is not None)
        short = [c for c, n in left.items() if n < 0]
        if short:
            raise Inconsistent(f"the fold places more copies than exist of {short[:3]}")
        cards = sorted(left.elements(), key=repr)
        rng.shuffle(cards)
        self.cards: list[C] = cards
        self.rng = rng

    def __len__(self) -> int:
        return len(self.cards)

    def take(self, where: Callable[[C], bool] | None = None) -> C:
        """A random card left (one that satisfies ``where``)."""
        if not self.cards:
            raise Inconsistent("more hidden places than unplaced cards")
        if where is None:
            return self.cards.pop()
        for i in range(len(self.cards) - 1, -1, -1):
            if where(self.cards[i]):
                return self.cards.pop(i)
        raise Inconsistent("no unplaced card fits a hidden place")

    def remove(self, cards: Iterable[C]) -> None:
        """Take these cards out of the pool (placed by the caller)."""
        for card in cards:
            self.cards.remove(card)

    def fill(self, cards: tuple[C | None, ...]) -> tuple[C, ...]:
        """``cards`` with every unseen one (None) drawn from the pool."""
        return tuple(c if c is not None else self.take() for c in cards)

    def done(self) -> None:
        """Every card placed: a consistent fold leaves none over."""
        if self.cards:
            raise Inconsistent(f"{len(self.cards)} cards left with no hidden place to go")
