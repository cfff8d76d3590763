"""Complete states a seat cannot tell from its own fold, for the search bot
(``cardroom.domain.search``).

Every one of the 52 cards lies in a spot (a village, the deck, a private
deck, the held card, the sets without a player) or on the public discard
pile. Who knows which spot is public (``Spot.knowers``, ``Spot.public``):
the state records it for every viewer alike, so a sample keeps it exactly,
and with it who-knows-what (which opponent has looked at which card, which
card a Seer showed to whom). Only ``Spot.card`` depends on the viewer: the
seat's fold has the cards it knows, ``None`` elsewhere. A sample keeps every
card the seat knows where it is and deals the cards it cannot place, at
random, into the spots it does not know; so the sample renders to the seat's
own view, and a card an opponent knows but the seat does not is drawn like
any other unseen card (the seat cannot tell which it is).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardroom.domain.search.pool import Pool
from cardroom.domain.silver_dagger.cards import DECK, Card, value
from cardroom.domain.silver_dagger.state import Spot, State, derive


def _spots(state: State) -> list[Spot]:
    spots = [s for village in state.villages for s in village]
    spots += [*state.deck, *(s for private in state.private for s in private), *state.out]
    if state.held is not None:
        spots.append(state.held)
    return spots


class Determinizer:
    def sample(self, state: State, seat: int, rng: random.Random) -> State:
        known: list[Card | None] = [s.card for s in _spots(state)]
        pool: Pool[Card] = Pool(DECK, [*known, *state.discard], rng)

        def fill(spots: tuple[Spot, ...]) -> tuple[Spot, ...]:
            return tuple(s if s.card is not None else derive(s, card=pool.take()) for s in spots)

        held = state.held
        return derive(
            state,
            villages=tuple(fill(v) for v in state.villages),
            deck=fill(state.deck),
            private=tuple(fill(p) for p in state.private),
            out=fill(state.out),
            held=held if held is None or held.card is not None else derive(held, card=pool.take()),
        )

    def score(self, state: State) -> Sequence[float] | None:
        """A game cut short: the fewest points so far, softly (SV-19),
        counting the round under way at its villages' face values (SV-16
        before the Debt Collectors, Halflings and Furries): a rollout cut
        short mid-round still tells a good village from a bad one."""
        if not state.totals:
            return None
        points = list(state.totals)
        for seat, village in enumerate(state.villages[: len(points)]):
            points[seat] += sum(value(s.card) for s in village if s.card is not None)
        best = min(points)
        weights = [0.5 ** ((t - best) / 10) for t in points]
        total = sum(weights)
        return [w / total for w in weights]


DETERMINIZER = Determinizer()
