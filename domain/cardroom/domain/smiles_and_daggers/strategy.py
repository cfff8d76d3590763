"""A sensible Smiles & Daggers player (cardroom.domain.presentation, ``Strategy``).

Every card movement but a commitment is public, so the strategy knows what
each seat holds (its family less what it lost). It weighs each card it could
play against what the other challenger might play: coins a smile brings in,
the worth of a card a dagger takes out, the worth of its own card at risk.
It challenges the opponent it expects to gain most against (leaning towards
the leader), and it bets a Knight only when the orientations it predicts
are likely enough to be worth the Knight.

The model of the others: each plays one of the ranks it holds, alike, and
smiles with a Lord or a Lady more often than with a Knight.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from google.protobuf.message import Message

from cardroom.domain.smiles_and_daggers.cards import (
    FULL_FAMILY,
    KNIGHT,
    LADY,
    LORD,
    ORIENTATIONS,
    PREDICTIONS,
    RANKS,
    SMILE,
    Card,
    Rank,
    settle_challenge,
)
from cardroom.domain.smiles_and_daggers.state import TARGET_COINS
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb

# How much keeping a card is worth, in coins.
WORTH: dict[Rank, float] = {LORD: 1.6, LADY: 1.0, KNIGHT: 0.7}
# How likely another player smiles with each rank.
SMILES: dict[Rank, float] = {LORD: 0.7, LADY: 0.6, KNIGHT: 0.35}


def holding(seat: pb.SeatView) -> list[Rank]:
    """The ranks a seat may still play: its family less what left the game.
    (Its cards on the table are counted in; only a commitment is unknown.)"""
    left = list(FULL_FAMILY)
    for rank in [*seat.eliminated, *seat.lost]:
        left[rank - 1] -= 1
    return [rank for rank in RANKS if left[rank - 1] > 0]


def their_plays(ranks: Sequence[Rank]) -> list[tuple[Card, float]]:
    """What another challenger may commit, with how likely each is."""
    if not ranks:
        return []
    share = 1.0 / len(ranks)
    return [
        (
            Card(rank, orientation),
            share * (SMILES[rank] if orientation == SMILE else 1 - SMILES[rank]),
        )
        for rank in ranks
        for orientation in ORIENTATIONS
    ]


def rivalry(mine: int, theirs: int) -> float:
    """How much the other challenger's gains are my losses: a little; fully
    once they are in the race for 9 coins and close; more than my own gains
    when they are level with me or ahead near the end (smiling alike would
    only keep them level, and a tie never ends the game: SD-09)."""
    if theirs >= TARGET_COINS - 2 and theirs >= mine:
        return 1.5
    return 1.0 if theirs >= 5 and theirs >= mine - 1 else 0.3


def gain(mine: Card, theirs: Card, i_am_current: bool, rival: float) -> float:
    """Coins in, less the worth of my card lost; their coins and their card
    taken count as much as the rivalry says."""
    current, opponent = (mine, theirs) if i_am_current else (theirs, mine)
    outcome = settle_challenge(current, opponent)
    me, them = (0, 1) if i_am_current else (1, 0)
    value = outcome.coins[me] - rival * outcome.coins[them]
    if outcome.eliminated[me]:
        value -= WORTH[mine.rank]
    if outcome.eliminated[them]:
        value += (0.6 + rival) * WORTH[theirs.rank]
    return value


def expected(
    mine: Card, plays: Sequence[tuple[Card, float]], i_am_current: bool, rival: float
) -> float:
    return sum(p * gain(mine, theirs, i_am_current, rival) for theirs, p in plays)


def smile_chance(ranks: Sequence[Rank]) -> float:
    return sum(SMILES[r] for r in ranks) / len(ranks) if ranks else 0.5


@dataclass(frozen=True)
class SmilesAndDaggersStrategy:
    # Bet only when the bet's expected coins beat the Knight's worth by this.
    bet_margin: float = 0.1
    # How far below the best a card may score and still be played now and then.
    temperature: float = 0.2

    def choose(
        self, view: Message, legal: Sequence[Message], seat: int, rng: random.Random
    ) -> Message:
        assert isinstance(view, pb.View)
        kinds = {type(a) for a in legal}
        if pb.ChooseFamily in kinds:
            return rng.choice(list(legal))
        if pb.CommitCard in kinds:
            return self._commit(view, legal, seat, rng)
        if pb.PassBet in kinds:
            return self._bet(view, legal, rng)
        return self._turn(view, legal, seat, rng)

    def _turn(
        self, view: pb.View, legal: Sequence[Message], seat: int, rng: random.Random
    ) -> Message:
        recover = [a for a in legal if isinstance(a, pb.RecoverCard)]
        if recover and view.seats[seat].hand_count <= 1:
            return min(recover, key=lambda a: RANKS.index(a.rank))  # a Lord first
        targets = [a for a in legal if isinstance(a, pb.ChallengeOpponent)]
        if not targets:
            return rng.choice(list(legal))
        mine = list(view.seats[seat].hand)

        def worth(action: pb.ChallengeOpponent) -> float:
            target = view.seats[action.target]
            plays = their_plays(holding(target))
            rival = rivalry(view.seats[seat].coins, target.coins)
            best = max(
                expected(Card(r, o), plays, True, rival) for r in set(mine) for o in ORIENTATIONS
            )
            return best + 0.1 * target.coins + rng.random() * 0.01

        return max(targets, key=worth)

    def _commit(
        self, view: pb.View, legal: Sequence[Message], seat: int, rng: random.Random
    ) -> Message:
        challenge = view.challenge
        i_am_current = challenge.current.seat == seat
        other = challenge.opponent.seat if i_am_current else challenge.current.seat
        plays = their_plays(holding(view.seats[other]))
        rival = rivalry(view.seats[seat].coins, view.seats[other].coins)
        commits = [a for a in legal if isinstance(a, pb.CommitCard)]
        scored = [
            (expected(Card(a.rank, a.orientation), plays, i_am_current, rival), a) for a in commits
        ]
        # Mostly the best card, sometimes a nearly as good one: a player who
        # always plays the same card can be read, and two such players can
        # stay level for ever (SD-09 needs strictly more coins).
        top = max(score for score, _ in scored)
        weights = [math.exp((score - top) / self.temperature) for score, _ in scored]
        return rng.choices([a for _, a in scored], weights)[0]

    def _bet(self, view: pb.View, legal: Sequence[Message], rng: random.Random) -> Message:
        challenge = view.challenge
        p_current = smile_chance(holding(view.seats[challenge.current.seat]))
        p_opponent = smile_chance(holding(view.seats[challenge.opponent.seat]))
        best: tuple[float, Message] = (
            self.bet_margin,
            next(a for a in legal if isinstance(a, pb.PassBet)),
        )
        for action in legal:
            if not isinstance(action, pb.PlaceBet):
                continue
            chance, paid = 1.0, 0
            for predicted, p_smile in zip(
                PREDICTIONS[action.shape], (p_current, p_opponent), strict=True
            ):
                if predicted is None:
                    continue
                chance *= p_smile if predicted == SMILE else 1 - p_smile
                paid += 1
            value = chance * paid - (1 - chance) * WORTH[KNIGHT]
            if value > best[0]:
                best = (value, action)
        return best[1]


STRATEGY = SmilesAndDaggersStrategy()
