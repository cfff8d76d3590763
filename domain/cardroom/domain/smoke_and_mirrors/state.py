"""The folded state of a Smoke & Mirrors game, as one viewer knows it.

Hidden information is a type: a card the viewer has not seen is ``None``. The
same state classes hold the auditor's full knowledge and a seat's or a
spectator's partial one; only the number of cards in each place is always
known. Everything here is immutable: ``evolve`` builds new objects.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from cardroom.domain.frozen import Record
from cardroom.domain.smoke_and_mirrors.cards import Card

Holding = tuple[Card | None, ...]


class Phase(enum.Enum):
    DEALING = "dealing"  # waiting for the dealer's DealRound
    TURN = "turn"  # the turn seat challenges (step 1), acts or breaks (step 2)
    SWAP = "swap"  # the remaining player takes blind or declines (SM-06)
    BLIND_PICK = "blind pick"  # waiting for the dealer's BlindPick
    GIVE = "give"  # the remaining player gives a card back (SM-10)
    # Transient, only between the events of one decision:
    ELIMINATING = "eliminating"  # PlayerEliminated comes next
    ROUND_OVER = "round over"  # RoundWon comes next
    OVER = "over"  # somebody has won the game


@dataclass(frozen=True, slots=True)
class Settings:
    seat_count: int
    rounds_to_win: int = 4
    turn_cap: int = 0  # SM-09: 0 = no cap
    remove_swirl5: bool = True  # 4.1: only matters with 2 players


@dataclass(frozen=True)
class SeatState(Record):
    hand: Holding = ()
    act: Holding = ()  # the face-down act on the table
    act_claim: int = 0  # what that act claimed (0: no act)
    active: bool = False  # still in the current round
    break_used: bool = False  # SM-07, reset every round
    round_wins: int = 0

    @property
    def owned(self) -> Holding:
        """Hand plus act: the cards an act may use (SM-04)."""
        return self.hand + self.act


@dataclass(frozen=True)
class State(Record):
    settings: Settings
    seats: tuple[SeatState, ...]
    phase: Phase = Phase.DEALING
    round: int = 0
    start_seat: int | None = None
    turn_seat: int | None = None
    # The turn seat has made its step-1 challenge and is now in step 2.
    challenged: bool = False
    # The number the last act claimed (0 before the opening act) and its actor.
    last_claim: int = 0
    last_actor: int | None = None
    acts_this_round: int = 0
    set_aside: Holding = ()
    out: Holding = ()  # cards that left the round with eliminated players
    # A challenge being resolved (SM-06).
    challenger: int | None = None
    eliminated: int | None = None
    swapper: int | None = None
    # SM-10: the card taken blind, while the give is due (known to the two
    # players of the swap and auditors).
    swap_taken: Card | None = None
    # Rules version smoke-and-mirrors/1 only: the card to give, named first.
    swap_give: Card | None = None
    # Seats that left the game (the table's SeatResigned; SM-11).
    departed: frozenset[int] = frozenset()

    @property
    def opening(self) -> bool:
        """SM-03: nobody has acted yet this round."""
        return self.last_claim == 0

    @property
    def active_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.active]

    @property
    def dealt_in(self) -> list[int]:
        """The seats the next round is dealt to: every seat still in the
        game (SM-11)."""
        return [i for i in range(len(self.seats)) if i not in self.departed]

    def next_start(self) -> int | None:
        """SM-08: the seat that starts the next round, left of the previous
        start player among the seats dealt in; None before round 1 (the
        dealer draws it)."""
        if self.start_seat is None:
            return None
        n, dealt = len(self.seats), self.dealt_in
        for step in range(1, n + 1):
            candidate = (self.start_seat + step) % n
            if candidate in dealt:
                return candidate
        return (self.start_seat + 1) % n

    def next_active(self, seat: int) -> int:
        """The first active seat to the left (clockwise, increasing index)."""
        n = len(self.seats)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if self.seats[candidate].active:
                return candidate
        return seat


def normalized(cards: Iterable[Card | None]) -> Holding:
    """Known cards sorted, then the unknown ones: a holding's canonical order."""
    items = list(cards)
    known = sorted(c for c in items if c is not None)
    return (*known, *([None] * (len(items) - len(known))))


def removing(holding: Holding, cards: Iterable[Card]) -> Holding:
    """``holding`` without ``cards``; an unseen entry stands in for a card the
    viewer did not know was there."""
    rest = list(holding)
    for card in cards:
        if card in rest:
            rest.remove(card)
        elif None in rest:
            rest.remove(None)
        else:
            raise ValueError(f"{card} is not in {holding}")
    return normalized(rest)


def unknown(count: int) -> Holding:
    return (None,) * count
