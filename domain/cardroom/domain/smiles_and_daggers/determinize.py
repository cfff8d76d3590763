"""Complete states a seat cannot tell from its own fold, for the search bot
(``cardroom.domain.search``).

Every card movement in Smiles & Daggers is public but a commitment: the
only thing a seat may not know is the card an opponent committed to the
challenge on the table (SD-06), until the reveal. Its rank is one of the
cards that opponent still holds in hand (``in_play`` less the Knights it
bet). A sample fills in just that, so everything else the seat sees is the
same: the card the game's heuristic player would have committed in that
opponent's place (``strategy.py``, from that opponent's view before it
committed; nothing in it is hidden from the seat but the card itself), or,
when that is not one it could have, any of its ranks, either side up.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from cardroom.domain.kernel import Viewer
from cardroom.domain.smiles_and_daggers import GAME
from cardroom.domain.smiles_and_daggers.cards import (
    KNIGHT,
    ORIENTATIONS,
    Card,
    Rank,
    add,
    ranks_in,
)
from cardroom.domain.smiles_and_daggers.state import Phase, State, derive
from cardroom.domain.smiles_and_daggers.strategy import STRATEGY
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb


def _as_played(state: State, role: int, ranks: Sequence[Rank], rng: random.Random) -> Card | None:
    """The card the heuristic player in ``role`` commits, from its view of
    the challenge before it committed, if it is one of ``ranks``."""
    challenge = state.challenge
    assert challenge is not None
    committed = list(challenge.committed)
    committed[role] = False
    before = derive(
        state,
        phase=Phase.COMMIT,
        challenge=derive(
            challenge,
            committed=(committed[0], committed[1]),
            cards=(None, None),
            bettors=None,
            bets=(),
        ),
    )
    holder = challenge.seats[role]
    legal = [
        a
        for a in GAME.legal_actions(before, holder)
        if isinstance(a, pb.CommitCard) and a.rank in ranks
    ]
    if not legal:
        return None
    move = STRATEGY.choose(GAME.view(before, Viewer.of_seat(holder)), legal, holder, rng)
    assert isinstance(move, pb.CommitCard)
    return Card(move.rank, move.orientation)


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
            ranks = list(ranks_in(hand))
            played = _as_played(state, role, ranks, rng)
            cards[role] = played or Card(rng.choice(ranks), rng.choice(ORIENTATIONS))
        return derive(state, challenge=derive(challenge, cards=(cards[0], cards[1])))

    def score(self, state: State) -> Sequence[float] | None:
        """A game cut short: the coins so far, softly (SD-09)."""
        weights = [math.exp(c / 2) for c in state.coins]
        total = sum(weights)
        return [w / total for w in weights]


DETERMINIZER = Determinizer()
