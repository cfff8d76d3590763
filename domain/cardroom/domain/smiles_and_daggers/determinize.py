"""Complete states a seat cannot tell from its own fold, for the search bot
(``cardroom.domain.search``).

Every card movement in Smiles & Daggers is public but a commitment: the
only thing a seat may not know is the card an opponent committed to the
challenge on the table (SD-06), until the reveal. Its rank is one of the
cards that opponent still holds in hand (``in_play`` less the Knights it
bet), each card alike; its orientation is either side. A sample fills in
just that, so everything else the seat sees is the same.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from cardroom.domain.smiles_and_daggers.cards import (
    KNIGHT,
    ORIENTATIONS,
    Card,
    add,
    ranks_in,
)
from cardroom.domain.smiles_and_daggers.state import State, derive


class Determinizer:
    def sample(self, state: State, seat: int, rng: random.Random) -> State:
        challenge = state.challenge
        if challenge is None or None not in challenge.cards:
            return state
        cards = list(challenge.cards)
        for role, holder in enumerate(challenge.seats):
            if cards[role] is not None or not challenge.committed[role]:
                continue
            if challenge.eliminated_role == role:
                continue
            hand = state.in_play[holder]
            knights = sum(
                1
                for bet in challenge.bets
                if bet.seat == holder and bet.shape is not None and bet.correct is not False
            )
            hand = add(hand, KNIGHT, -knights) if knights else hand
            cards[role] = Card(rng.choice(ranks_in(hand)), rng.choice(ORIENTATIONS))
        return derive(state, challenge=derive(challenge, cards=(cards[0], cards[1])))

    def score(self, state: State) -> Sequence[float] | None:
        """A game cut short: the coins so far, softly (SD-09)."""
        weights = [math.exp(c / 2) for c in state.coins]
        total = sum(weights)
        return [w / total for w in weights]


DETERMINIZER = Determinizer()
