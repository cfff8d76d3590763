"""Complete states a seat cannot tell from its own fold, for the search bot
(``cardroom.domain.search``).

The round's 18 cards are all somewhere: hands, face-down acts, the cards set
aside and those out with eliminated players. A seat's fold has every card it
has seen where it saw it (its hand, an act revealed to it, a card taken
from or given to it in a swap) and ``None`` elsewhere, with every count
right. A sample keeps the known cards and deals the rest of the deck at
random into the unseen places; so rendering a sample for the seat shows the
seat exactly what its own view shows, and only unseen cards differ.

One thing play tells: a face-down act claimed a number, and most players
tell the truth most of the time. Uniform deals would make almost every act
a lie and every challenge look good. So the cards of a seat with an unseen
act (its hand and its act) are dealt as the game's heuristic player would
have acted with them (``strategy.py``: a true act whenever one exists, any
alike; a bluff only when none does, and then less often, as a player may
take its Break instead): a deal is kept with the chance that player would
have made an act of that size for that claim, and the act is one it could
have made (rejection sampling, ``TRIES`` deals, then a truthful deal with
probability ``TRUTHFUL``, then any).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

from cardroom.domain.search.pool import Pool
from cardroom.domain.smoke_and_mirrors.cards import DECK, Card, act_is_true, distinct_acts
from cardroom.domain.smoke_and_mirrors.state import Phase, SeatState, State, normalized, unknown
from cardroom.domain.smoke_and_mirrors.strategy import true_acts

TRUTHFUL = 0.8
TRIES = 12
# How likely a bluff is, against a true act, for a player with no true act.
BLUFF = 0.4


def _as_played(
    pool: Pool[Card], st: SeatState, rng: random.Random
) -> tuple[tuple[Card | None, ...], tuple[Card, ...]] | None:
    """A hand and an unseen act for ``st`` as the heuristic player would
    have acted, if a few tries find them: its unseen cards drawn, kept with
    the chance that player makes an act of this size, and the act one of
    its acts of that size out of the drawn cards (truthful when it can be)."""
    known = [c for c in st.hand if c is not None]
    size, claim = len(st.act), st.act_claim
    unseen = len(st.hand) - len(known) + size
    for _ in range(TRIES):
        if len(pool) < unseen:
            return None
        drawn = rng.sample(pool.cards, unseen)
        counts = true_acts(tuple(sorted([*known, *drawn])), claim)
        if sum(counts):
            truthful = [a for a in distinct_acts(drawn, (size,)) if act_is_true(a, claim)]
            if not truthful or rng.random() * sum(counts) >= len(truthful):
                continue
            act = rng.choice(truthful)
        elif rng.random() < BLUFF:
            act = tuple(rng.sample(drawn, size))
        else:
            continue
        pool.remove(drawn)
        rest = list(drawn)
        for card in act:
            rest.remove(card)
        return normalized([*known, *rest]), act
    return None


def _true_act(pool: Pool[Card], size: int, claim: int, rng: random.Random) -> tuple[Card, ...]:
    """``size`` cards of the pool that make ``claim`` true, if a few tries find them."""
    for _ in range(TRIES):
        if len(pool) < size:
            break
        cards = tuple(rng.sample(pool.cards, size))
        if act_is_true(cards, claim):
            pool.remove(cards)
            return cards
    return pool.fill((None,) * size)


class Determinizer:
    def sample(self, state: State, seat: int, rng: random.Random) -> State:
        known = [c for st in state.seats for c in (*st.hand, *st.act)]
        pool = Pool(Counter(DECK), [*known, *state.set_aside, *state.out], rng)
        acts: list[tuple[Card, ...] | None] = [None] * len(state.seats)
        hands: list[tuple[Card | None, ...]] = [st.hand for st in state.seats]
        for i, st in enumerate(state.seats):
            hidden = st.act and st.act_claim and all(c is None for c in st.act)
            if not hidden or i == seat:
                continue
            played = _as_played(pool, st, rng)
            if played is not None:
                hands[i], acts[i] = played
            elif rng.random() < TRUTHFUL:
                acts[i] = _true_act(pool, len(st.act), st.act_claim, rng)
        seats = tuple(
            st.replace(
                hand=normalized(pool.fill(hands[i])),
                act=acts[i] if acts[i] is not None else pool.fill(st.act),
            )
            for i, st in enumerate(state.seats)
        )
        sample = state.replace(
            seats=seats, set_aside=pool.fill(state.set_aside), out=pool.fill(state.out)
        )
        if state.phase is Phase.GIVE and state.swap_taken is None and state.swapper is not None:
            # SM-10: the card taken blind, which the two players of the swap
            # know: one of the swapper's cards this seat has not seen.
            mine = state.seats[state.swapper].hand
            seen = Counter(c for c in mine if c is not None)
            unseen = list(seats[state.swapper].hand)
            for card in seen.elements():
                unseen.remove(card)
            sample = sample.replace(swap_taken=rng.choice(unseen))
        return sample

    def seen_by(self, state: State, seat: int) -> State:
        """A complete state as ``seat``'s bot may read it in a rollout: the
        other seats' hands and acts unseen (the view of a complete state
        would show them all; an act revealed in a challenge is forgotten,
        which only makes the rollout's bots a little more trusting)."""
        seats = tuple(
            st if i == seat else st.replace(hand=unknown(len(st.hand)), act=unknown(len(st.act)))
            for i, st in enumerate(state.seats)
        )
        return state.replace(seats=seats)

    def score(self, state: State) -> Sequence[float] | None:
        """A game cut short: the round wins so far, softly (two more
        round wins are worth about e times the share), and the round under
        way shared among the seats still in it (a seat eliminated from it
        has lost its chance of that round)."""
        active = [st.active for st in state.seats]
        share = 1 / sum(active) if any(active) else 0.0
        weights = [
            math.exp((st.round_wins + (share if st.active else 0.0)) / 2) for st in state.seats
        ]
        total = sum(weights)
        return [w / total for w in weights]


DETERMINIZER = Determinizer()
