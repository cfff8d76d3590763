"""What a viewer knows about a game of Smiles & Daggers.

The same types hold the full state and a viewer's state: a state folded from
a redacted stream simply has ``None`` where the viewer cannot see a value
(a challenge card committed by someone else, before the reveal).

Every seat's cards are counted per rank in three places: ``in_play`` (in
hand or on the table), ``eliminated`` (out of the game, recoverable under the
optional rule) and ``lost`` (out of the game for good). All card movements
are public except a commitment, so only a committed card can be unknown; the
hand is ``in_play`` minus what that seat has on the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from cardroom.domain.smiles_and_daggers.cards import (
    EMPTY,
    FULL_FAMILY,
    KNIGHT,
    LADY,
    LORD,
    BetShape,
    Card,
    Family,
    Hand,
    add,
    count,
    recovery_cost,
)

TARGET_COINS = 9  # SD-09

T = TypeVar("T")


def derive(obj: T, **changes: Any) -> T:
    """A copy of a frozen dataclass with some fields changed, like
    ``dataclasses.replace`` but without re-running ``__init__`` (several
    times faster; evolve runs once per event per viewer)."""
    fields = obj.__dict__
    assert fields.keys() >= changes.keys(), f"unknown fields {changes.keys() - fields.keys()}"
    new = object.__new__(type(obj))
    new.__dict__.update(fields)
    new.__dict__.update(changes)
    return new


class Phase(Enum):
    START = "start"  # waiting for the start seat (the dealer)
    FAMILIES = "families"
    TURN = "turn"  # the current player may recover, skip or challenge
    COMMIT = "commit"
    BETTING = "betting"
    OVER = "over"


class EndReason(Enum):
    NINE_COINS = "nine coins"  # SD-09
    NO_CHALLENGE_POSSIBLE = "no challenge possible"  # SD-05(c)(d)
    ALL_SKIPPED = "all skipped"  # CR-SD-03
    NO_COINS_POSSIBLE = "no coins possible"  # CR-SD-04
    STALEMATE = "stalemate"  # SD-15(a)
    OVERTIME = "overtime"  # SD-15(b)
    TURN_CAP = "turn cap"  # SD-15(d)


@dataclass(frozen=True, slots=True)
class Settings:
    allow_two_players: bool = False  # SD-12
    come_back: bool = False  # SD-11
    recover_lost_bet_knights: bool = True  # SD-04
    # sd.overtime_turns (SD-15(b)): None = 2 x seats still playing, 0 = no limit.
    overtime_turns: int | None = None
    turn_cap: int = 0  # sd.turn_cap (SD-15(d)): 0 = none


@dataclass(frozen=True, slots=True)
class Bet:
    seat: int
    shape: BetShape | None  # None for a pass
    # None until settled; then True (kept, paid) or False (Knight lost).
    correct: bool | None = None


@dataclass(frozen=True)
class Challenge:
    """The challenge on the table. Roles: 0 = current player, 1 = opponent."""

    seats: tuple[int, int]
    committed: tuple[bool, bool] = (False, False)
    # A committed card, when this state's viewer may see it.
    cards: tuple[Card | None, Card | None] = (None, None)
    revealed: bool = False
    # Set once both cards are down (SD-06).
    bettors: tuple[int, ...] | None = None
    bets: tuple[Bet, ...] = ()
    # The role whose card was eliminated (SD-01), once resolved.
    eliminated_role: int | None = None

    def role_of(self, seat: int) -> int | None:
        if seat == self.seats[0]:
            return 0
        if seat == self.seats[1]:
            return 1
        return None

    @property
    def next_bettor(self) -> int | None:
        if self.bettors is None or len(self.bets) >= len(self.bettors):
            return None
        return self.bettors[len(self.bets)]


@dataclass(frozen=True)
class State:
    seat_count: int
    settings: Settings
    phase: Phase
    coins: tuple[int, ...]
    in_play: tuple[Hand, ...]
    eliminated: tuple[Hand, ...]
    lost: tuple[Hand, ...]
    families: tuple[Family | None, ...]
    start_seat: int | None = None
    current: int | None = None  # the tile holder
    turn: int = 0
    recovered: bool = False  # SD-11: this turn's recovery is used
    challenge: Challenge | None = None
    # CR-SD-03: seats that skipped their turn since the last challenge.
    skipped: frozenset[int] = frozenset()
    winners: tuple[int, ...] | None = None
    end_reason: EndReason | None = None
    # Seats that left the game (the table's SeatResigned; SD-16).
    departed: frozenset[int] = frozenset()
    # SD-15: whether this turn gained or paid a coin, or eliminated, lost or
    # recovered a card; how many turns in a row ended without; and the turn
    # that ended with a seat still playing at 9 coins or more, first.
    turn_changed: bool = False
    quiet_turns: int = 0
    overtime_from: int | None = None

    # ------------------------------------------------------------ queries

    @property
    def playing(self) -> list[int]:
        """The seats that have not left the game (G-03, SD-16); every seat
        if all of them left (T-RESIGN)."""
        active = [s for s in range(self.seat_count) if s not in self.departed]
        return active or list(range(self.seat_count))

    def most_coins(self) -> list[int]:
        """The seats still playing with the most coins (G-03)."""
        playing = self.playing
        best = max(self.coins[s] for s in playing)
        return [s for s in playing if self.coins[s] == best]

    def overtime_limit(self) -> int:
        """SD-15(b): the turns of overtime (0: no limit)."""
        if self.settings.overtime_turns is not None:
            return self.settings.overtime_turns
        return 2 * len(self.playing)

    def overtime_left(self) -> int | None:
        """Turns of overtime left after the current one; None outside it
        (or with no limit)."""
        limit = self.overtime_limit()
        if self.overtime_from is None or not limit:
            return None
        return max(0, limit - (self.turn - self.overtime_from))

    def holds_cards(self, seat: int) -> bool:
        """SD-05 with SD-16: a seat that holds a card and has not left (a
        departed seat counts as holding none: never challenged, no bets)."""
        return seat not in self.departed and self.hand_count(seat) > 0

    @property
    def family_chooser(self) -> int | None:
        if self.phase is not Phase.FAMILIES or self.start_seat is None:
            return None
        chosen = sum(f is not None for f in self.families)
        return (self.start_seat + chosen) % self.seat_count

    def _on_table(self, seat: int) -> tuple[Card | None, int, bool]:
        """``seat``'s cards on the table: its challenge card (None when it has
        none there or this state's viewer cannot see it), how many cards in
        all, and whether they are all known."""
        challenge = self.challenge
        if challenge is None:
            return None, 0, True
        card, n, known = None, 0, True
        role = challenge.role_of(seat)
        if role is not None and challenge.committed[role] and challenge.eliminated_role != role:
            card = challenge.cards[role]
            n, known = 1, card is not None
        for bet in challenge.bets:
            if bet.seat == seat and bet.shape is not None and bet.correct is not False:
                n += 1  # a betting Knight
        return card, n, known

    def hand(self, seat: int) -> Hand | None:
        """The seat's hand by rank, or None where this state cannot know it."""
        mine = self.in_play[seat]
        if self.challenge is None:
            return mine
        card, n, known = self._on_table(seat)
        if not known:
            return None
        if card is not None:
            mine = add(mine, card.rank, -1)
        knights = n - (card is not None)
        return add(mine, KNIGHT, -knights) if knights else mine

    def table_count(self, seat: int) -> int:
        return self._on_table(seat)[1] if self.challenge is not None else 0

    def hand_count(self, seat: int) -> int:
        return sum(self.in_play[seat]) - self.table_count(seat)

    def may_recover(self, seat: int) -> bool:
        """SD-11: the optional rule is on, a card is recoverable and the seat
        can pay for it (cost by hand size before recovering); never a seat
        that left the game (SD-16)."""
        return (
            self.settings.come_back
            and seat not in self.departed
            and sum(self.eliminated[seat]) > 0
            and self.coins[seat] >= recovery_cost(self.hand_count(seat))
        )

    def can_act(self, seat: int) -> bool:
        """SD-05 with CR-SD-02 and SD-16: a turn is possible when some
        opponent holds a card and the seat holds one or can recover one (a
        departed seat's turns pass)."""
        if not any(self.holds_cards(q) for q in range(self.seat_count) if q != seat):
            return False
        return self.holds_cards(seat) or self.may_recover(seat)

    def coins_can_change(self) -> bool:
        """CR-SD-04: some coin can still be won or spent: a Lord or Lady is
        held while a challenge is possible (it may smile and survive), three
        players hold cards (a bet is possible), or someone may recover."""
        holders = [s for s in range(self.seat_count) if self.holds_cards(s)]
        if len(holders) >= 3:
            return True
        paying = (LORD, LADY)
        if len(holders) == 2 and any(count(self.in_play[s], r) for s in holders for r in paying):
            return True
        return any(self.may_recover(s) for s in range(self.seat_count))


def new_state(settings: Settings, seat_count: int) -> State:
    return State(
        seat_count=seat_count,
        settings=settings,
        phase=Phase.START,
        coins=(0,) * seat_count,
        in_play=(FULL_FAMILY,) * seat_count,
        eliminated=(EMPTY,) * seat_count,
        lost=(EMPTY,) * seat_count,
        families=(None,) * seat_count,
    )
