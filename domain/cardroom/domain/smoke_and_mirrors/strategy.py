"""A sensible Smoke & Mirrors player (cardroom.domain.presentation, ``Strategy``).

It sees only its seat's view: its own three cards, the acts revealed to it,
and public counts. It acts truthfully when it can, takes its Break rather
than bluff, and otherwise bluffs with the number of cards that makes the
claim look most plausible. It challenges an act when the cards it cannot
see make that act unlikely to be true, more readily when it could not make
the next claim itself.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product

from google.protobuf.message import Message

from cardroom.domain.smoke_and_mirrors.cards import (
    DECK,
    MAX_ACHIEVABLE,
    PILES,
    Card,
    achievable_totals,
    act_is_true,
    cards_from_event,
    distinct_acts,
)
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as pb

Triple = tuple[Card, ...]


@cache
def true_acts(owned: Triple, claim: int) -> tuple[int, int, int]:
    """How many distinct acts of 1, 2 and 3 of these cards make ``claim`` truly."""
    counts = [0, 0, 0]
    for act in distinct_acts(owned, [1, 2, 3]):
        if claim in achievable_totals(c.value for c in act):
            counts[len(act) - 1] += 1
    return counts[0], counts[1], counts[2]


def chance_true(unseen: Counter[Card], claim: int, size: int) -> float:
    """How likely an act of ``size`` cards claiming ``claim`` is true. Its
    maker holds one unseen card of each pile (as dealt), acts truly whenever
    it can (any true act alike), and otherwise bluffs with any number of cards."""
    piles = [[(c, k) for c, k in unseen.items() if c.pile == p and k > 0] for p in PILES]
    truly = falsely = 0.0
    for combo in product(*piles):
        weight = 1.0
        for _, k in combo:
            weight *= k
        counts = true_acts(tuple(sorted(c for c, _ in combo)), claim)
        if sum(counts):
            truly += weight * counts[size - 1] / sum(counts)
        else:
            falsely += weight / 3
    return truly / (truly + falsely) if truly + falsely else 0.0


@cache
def looks_true(claim: int, size: int) -> float:
    """How plausible an act of ``size`` cards claiming ``claim`` looks to
    someone who knows nothing of its maker's cards."""
    return chance_true(Counter(DECK), claim, size)


def _cards(msgs: Sequence[pb.Card]) -> list[Card]:
    return list(cards_from_event(msgs))


# How much a card helps make claims: mirrors copy, fives reach far.
WORTH = {0: 6.0, 5: 5.0, 4: 4.0, 3: 3.0, 2: 2.0, 1: 1.0}


@dataclass(frozen=True)
class SmokeAndMirrorsStrategy:
    # Challenge an act whose chance of being true is below this...
    doubt: float = 0.4
    # ...or below this when the next claim would force a bluff.
    cornered_doubt: float = 0.75

    def choose(
        self, view: Message, legal: Sequence[Message], seat: int, rng: random.Random
    ) -> Message:
        assert isinstance(view, pb.View)
        by_type: dict[type, list[Message]] = {}
        for action in legal:
            by_type.setdefault(type(action), []).append(action)
        me = view.seats[seat]
        owned = tuple(sorted(_cards(me.hand) + _cards(me.act)))
        if pb.DeclineSwap in by_type:
            return self._swap(view, seat, by_type)
        if pb.GiveCard in by_type:
            return self._give(by_type)
        claim = view.next_claim
        acts = [a for a in by_type.get(pb.PerformAct, []) if isinstance(a, pb.PerformAct)]
        true_acts = [a for a in acts if act_is_true(cards_from_event(a.cards), claim)]
        if pb.Challenge in by_type and self._doubts(view, seat, owned, bool(true_acts)):
            return by_type[pb.Challenge][0]
        if true_acts:
            return rng.choice(true_acts)
        if pb.TakeBreak in by_type:
            return by_type[pb.TakeBreak][0]
        if acts:  # a bluff: with as many cards as make the claim look likeliest
            size = len(max(acts, key=lambda a: looks_true(claim, len(a.cards))).cards)
            return rng.choice([a for a in acts if len(a.cards) == size])
        return rng.choice(list(legal))

    def _unseen(self, view: pb.View, seat: int) -> Counter[Card]:
        """The deck less every card this seat can see."""
        unseen = Counter(DECK)
        for s in view.seats:
            for card in _cards(s.hand) + _cards(s.act):
                if unseen[card] > 0:
                    unseen[card] -= 1
        return unseen

    def _doubts(self, view: pb.View, seat: int, owned: Triple, can_follow: bool) -> bool:
        if not view.HasField("last_actor"):
            return False
        claim = view.next_claim - 1
        if claim > MAX_ACHIEVABLE:
            return True
        actor = view.seats[view.last_actor]
        if len(actor.act) == actor.act_count:  # revealed to this seat earlier
            return not act_is_true(_cards(actor.act), claim)
        p_true = chance_true(self._unseen(view, seat), claim, actor.act_count)
        cornered = not can_follow and view.seats[seat].break_used
        return p_true < (self.cornered_doubt if cornered else self.doubt)

    def _swap(self, view: pb.View, seat: int, by_type: dict[type, list[Message]]) -> Message:
        """Take blind when a blind card is likely better than the weakest
        card in hand, which it will then give (SM-10)."""
        unseen = self._unseen(view, seat)
        count = sum(unseen.values())
        expected = sum(WORTH[c.value] * k for c, k in unseen.items()) / count if count else 0.0
        hand = _cards(view.seats[seat].hand)
        if hand and pb.TakeBlind in by_type:
            weakest = min(WORTH[c.value] for c in hand)
            if weakest + 1.0 < expected:
                return by_type[pb.TakeBlind][0]
        return by_type[pb.DeclineSwap][0]

    def _give(self, by_type: dict[type, list[Message]]) -> Message:
        """Give back the weakest card held before the take."""
        gives = [a for a in by_type[pb.GiveCard] if isinstance(a, pb.GiveCard)]
        return min(gives, key=lambda a: WORTH[a.card.value])


STRATEGY = SmokeAndMirrorsStrategy()
