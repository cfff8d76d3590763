"""Cards, the beat cycle, challenge and bet settlement, recovery cost.

Nothing here knows about turns or seats: these are the pure tables of the
rules (SD-01..SD-03, SD-07, SD-11), tested exhaustively on their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb

# The generated protobuf enums are the domain's enums: no mirror to keep in step.
Rank = pb.Rank
Orientation = pb.Orientation
Family = pb.Family
BetShape = pb.BetShape

LORD, LADY, KNIGHT = pb.RANK_LORD, pb.RANK_LADY, pb.RANK_KNIGHT
SMILE, DAGGER = pb.ORIENTATION_SMILE, pb.ORIENTATION_DAGGER

RANKS: tuple[Rank, ...] = (LORD, LADY, KNIGHT)
ORIENTATIONS: tuple[Orientation, ...] = (SMILE, DAGGER)
FAMILIES: tuple[Family, ...] = (
    pb.FAMILY_DRAGON,
    pb.FAMILY_KRAKEN,
    pb.FAMILY_PEGACORN,
    pb.FAMILY_HYDRA,
    pb.FAMILY_CHIMERA,
    pb.FAMILY_GRIFFIN,
)


def label(value: int, kind: Any) -> str:
    """A value's readable name: ``label(LORD, Rank) == "lord"``."""
    name: str = kind.Name(value)
    return name.split("_", 2 if kind is BetShape else 1)[-1].lower().replace("_", " ")


# Coins a SMILE card pays when it survives (SD-02).
VALUE: dict[Rank, int] = {LORD: 2, LADY: 1, KNIGHT: 0}
# Lord beats Lady, Lady beats Knight, Knight beats Lord (section 1.2).
BEATS: dict[Rank, Rank] = {LORD: LADY, LADY: KNIGHT, KNIGHT: LORD}

# ----------------------------------------------------------------- hands

# A multiset of one family's cards: counts of (Lord, Lady, Knight).
Hand = tuple[int, int, int]

FULL_FAMILY: Hand = (1, 2, 3)
EMPTY: Hand = (0, 0, 0)


def add(hand: Hand, rank: Rank, delta: int = 1) -> Hand:
    counts = list(hand)
    counts[rank - 1] += delta
    return (counts[0], counts[1], counts[2])


def count(hand: Hand, rank: Rank) -> int:
    return hand[rank - 1]


def ranks_in(hand: Hand) -> list[Rank]:
    """The hand as a sorted list of ranks (Lords first)."""
    return [rank for rank in RANKS for _ in range(hand[rank - 1])]


# ------------------------------------------------------------- challenge


@dataclass(frozen=True, slots=True)
class Card:
    """A challenge card as played: its rank and which side faces the other."""

    rank: Rank
    orientation: Orientation


@dataclass(frozen=True, slots=True)
class ChallengeOutcome:
    """Per role (current, opponent): whether the card is eliminated, coins paid."""

    eliminated: tuple[bool, bool]
    coins: tuple[int, int]


def eliminates(attacker: Card, defender: Card) -> bool:
    """SD-01: only a DAGGER card eliminates, and only a card it beats."""
    return attacker.orientation == DAGGER and BEATS[attacker.rank] == defender.rank


def settle_challenge(current: Card, opponent: Card) -> ChallengeOutcome:
    """SD-01..SD-03: eliminations first, then surviving SMILE cards pay."""
    lost = (eliminates(opponent, current), eliminates(current, opponent))
    coins = tuple(
        VALUE[card.rank] if card.orientation == SMILE and not gone else 0
        for card, gone in zip((current, opponent), lost, strict=True)
    )
    return ChallengeOutcome(eliminated=lost, coins=(coins[0], coins[1]))


# ------------------------------------------------------------------ bets

# SD-07: each shape predicts the orientation of (current, opponent); None is
# no prediction about that challenger.
PREDICTIONS: dict[BetShape, tuple[Orientation | None, Orientation | None]] = {
    pb.BET_SHAPE_SMILE_CURRENT: (SMILE, None),
    pb.BET_SHAPE_DAGGER_CURRENT: (DAGGER, None),
    pb.BET_SHAPE_SMILE_OPPONENT: (None, SMILE),
    pb.BET_SHAPE_DAGGER_OPPONENT: (None, DAGGER),
    pb.BET_SHAPE_SMILE_BOTH: (SMILE, SMILE),
    pb.BET_SHAPE_DAGGER_BOTH: (DAGGER, DAGGER),
    pb.BET_SHAPE_SMILE_CURRENT_DAGGER_OPPONENT: (SMILE, DAGGER),
    pb.BET_SHAPE_DAGGER_CURRENT_SMILE_OPPONENT: (DAGGER, SMILE),
}

BET_SHAPES: tuple[BetShape, ...] = tuple(PREDICTIONS)


def settle_bet(shape: BetShape, current: Orientation, opponent: Orientation) -> int | None:
    """SD-07: coins won (1 per prediction) when every prediction is right,
    else None: the betting Knight is lost."""
    predictions = PREDICTIONS[shape]
    made = [p for p in predictions if p is not None]
    right = all(
        p is None or p == actual for p, actual in zip(predictions, (current, opponent), strict=True)
    )
    return len(made) if right else None


# -------------------------------------------------------------- recovery


def recovery_cost(hand_size: int) -> int:
    """SD-11: 3 coins with 5 cards in hand, 2 with 4, 1 with 3 or fewer."""
    if hand_size >= 5:
        return 3
    if hand_size == 4:
        return 2
    return 1
