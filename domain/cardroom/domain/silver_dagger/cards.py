"""The 52 cards, their values and which abilities they carry.

A card is the generated protobuf enum value (``pb.Card``): no mirror to keep
in step. Its worth in werewolves is the enum value minus one; the Halfling
("÷2") counts 2 wherever a number is needed (matching, ordering, a
face-down Halfling at scoring), per §2.2.
"""

from __future__ import annotations

from collections import Counter
from typing import cast

from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

Card = pb.Card  # any value but CARD_UNSPECIFIED

DEBT_COLLECTOR = pb.CARD_DEBT_COLLECTOR
SPY = pb.CARD_SPY
HALFLING = pb.CARD_HALFLING
SENTINEL = pb.CARD_SENTINEL
ZOMBIE = pb.CARD_ZOMBIE
APPROXIMATOR = pb.CARD_APPROXIMATOR
FLIPPER = pb.CARD_FLIPPER
ELUSIVE_SEER = pb.CARD_ELUSIVE_SEER
MAGICIAN = pb.CARD_MAGICIAN
MYSTIC_SEER = pb.CARD_MYSTIC_SEER
RENFIELD = pb.CARD_RENFIELD
REVERSER = pb.CARD_REVERSER
MASTER_THIEF = pb.CARD_MASTER_THIEF
FURRY = pb.CARD_FURRY

CARDS: tuple[Card, ...] = tuple(cast(Card, c) for c in range(DEBT_COLLECTOR, FURRY + 1))

# §2.2: 2 Debt Collectors, 4 of each of 1..12, 2 Furries.
DECK: Counter[Card] = Counter({c: 2 if c in (DEBT_COLLECTOR, FURRY) else 4 for c in CARDS})
DECK_SIZE = 52

# SV-01: always four sets of five, one card to the discard pile, 31 in the deck.
SETS = 4
SET_SIZE = 5
VILLAGE_CARDS = SETS * SET_SIZE
DECK_AFTER_DEAL = DECK_SIZE - VILLAGE_CARDS - 1

# Abilities used when the card is drawn from a deck (5..12, §2.2). A Magician
# can use all of them but the Approximator's (SV-09).
DRAW_ABILITIES = frozenset(c for c in CARDS if APPROXIMATOR <= c <= MASTER_THIEF)
MAGICIAN_ABILITIES = DRAW_ABILITIES - {APPROXIMATOR}

# SV-12: the Elusive Seer stops at the first card of value 4 or lower.
ELUSIVE_STOP = frozenset(c for c in CARDS if c <= ZOMBIE)


def value(card: Card) -> int:
    """Werewolves: 0 for the Debt Collector ... 13 for the Furry; 2 for a Halfling."""
    return card - 1


def label(card: Card) -> str:
    """A card's readable name: ``label(ZOMBIE) == "Zombie (4)"``."""
    name = pb.Card.Name(card).removeprefix("CARD_").replace("_", " ").title()
    shown = "÷2" if card == HALFLING else str(value(card))
    return f"{name} ({shown})"


def discard_order(cards: list[Card]) -> list[Card]:
    """SV-07: several cards discarded at once go lowest on top; the list is
    bottom first."""
    return sorted(cards, key=value, reverse=True)
