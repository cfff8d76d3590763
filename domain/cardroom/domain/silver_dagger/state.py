"""What a viewer knows about a game of Silver Dagger.

Every card lies in a *spot*: a village position, the deck, a private deck,
the current player's hand. A :class:`Spot` holds the card's slot (a public
number the card got when it landed there), its orientation, the seats that
know it and whether everyone does: all of that is public, since who looked
where is public. Only ``card`` depends on the viewer: the auditor's state has
every card, a seat's fold has the cards that seat knows (``None`` elsewhere),
a spectator's the public ones. The same types hold all of them; ``evolve``
fills ``card`` from the secrets a viewer receives.

The discard pile is public (every card in it went there face up).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from cardroom.domain.silver_dagger.cards import (
    APPROXIMATOR,
    FLIPPER,
    MAGICIAN,
    MAGICIAN_ABILITIES,
    RENFIELD,
    REVERSER,
    SENTINEL,
    SPY,
    ZOMBIE,
    Card,
)
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

EVERYONE = tuple(frozenset(range(n)) for n in range(5))

ROUNDS = 4  # SV-21
CALL_LIMIT = 4  # SV-04: a call needs four or fewer village cards

T = TypeVar("T")


def derive(obj: T, **changes: Any) -> T:
    """A copy of a frozen dataclass with some fields changed, without
    re-running ``__init__`` (evolve runs once per event per viewer)."""
    new = object.__new__(type(obj))
    fields = getattr(obj, "__dict__", None)
    if fields is not None:
        fields = fields.copy()
        fields.update(changes)
        object.__setattr__(new, "__dict__", fields)
        return new
    for name in obj.__slots__:  # type: ignore[attr-defined]
        object.__setattr__(new, name, changes.get(name, getattr(obj, name)))
    return new


def put(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*values[:index], value, *values[index + 1 :])


class Phase(Enum):
    DEAL = "deal"  # waiting for the dealer's DealRound
    LOOK = "look"  # seats look at two of their cards
    TURN = "turn"  # the current seat draws, takes, calls or gives a Zombie
    HOLDING = "holding"  # the current seat holds a drawn or taken card
    SELECTING = "selecting"  # a multiple exchange being selected
    ABILITY = "ability"  # an ability being resolved
    # A turn's action is complete (or every seat has looked): the next turn,
    # ``State.to_play``'s, is implied and begins with its first event.
    TURN_OVER = "turn over"
    ROUND_OVER = "round over"  # transient: the round is being scored
    OVER = "over"


class Source(Enum):
    DECK = "deck"
    PRIVATE_DECK = "private deck"
    DISCARD = "discard pile"


class Step(Enum):
    APPROXIMATOR_SELECT = pb.ABILITY_STEP_APPROXIMATOR_SELECT
    FLIPPER_VILLAGE = pb.ABILITY_STEP_FLIPPER_VILLAGE
    ELUSIVE_SEER_VIEW = pb.ABILITY_STEP_ELUSIVE_SEER_VIEW
    MYSTIC_SEER_VIEW = pb.ABILITY_STEP_MYSTIC_SEER_VIEW
    MASTER_THIEF_VIEW = pb.ABILITY_STEP_MASTER_THIEF_VIEW
    MASTER_THIEF_SWITCH = pb.ABILITY_STEP_MASTER_THIEF_SWITCH
    MAGICIAN_TARGET = pb.ABILITY_STEP_MAGICIAN_TARGET
    MAGICIAN_CHOICE = pb.ABILITY_STEP_MAGICIAN_CHOICE


# What a turn starts without (its reversals decide who plays next, so they
# last until then: SV-02).
TURN_RESET: dict[str, Any] = {
    "held": None,
    "source": None,
    "selection": (),
    "ability": None,
    "chain": frozenset(),
    "peeks": 0,
    "reversals": 0,
    "dagger_turned": False,
}


@dataclass(frozen=True, slots=True)
class Settings:
    penalty_threshold: int = 3  # sv.mismatch_penalty_threshold (SV-06)
    furry_sequential: bool = True  # sv.furry_sequential_plus50 (SV-16)


@dataclass(frozen=True, slots=True)
class Spot:
    """One card where it lies. ``card`` is None where this state's viewer
    does not know it; everything else is public."""

    slot: int
    card: Card | None
    up: bool
    knowers: frozenset[int]
    public: bool


@dataclass(frozen=True, slots=True)
class Ability:
    """An ability being resolved by the current seat."""

    card: Card
    step: Step | None  # None: Renfield and Reverser resolve at once
    via_magician: bool = False
    viewed: tuple[int, ...] = ()  # slots viewed by this ability
    target: tuple[int, int] | None = None  # (seat, position): Thief's card, Magician's card


@dataclass(frozen=True)
class State:
    seat_count: int
    settings: Settings
    totals: tuple[int, ...]
    phase: Phase = Phase.DEAL
    round: int = 0
    start_seat: int | None = None
    current: int | None = None
    turn: int = 0
    clockwise: bool = True
    caller: int | None = None
    dagger: int | None = None  # the holder
    dagger_usable: bool = False  # SV-18: received through a successful call
    dagger_used: bool = False  # this round
    looked: frozenset[int] = frozenset()
    villages: tuple[tuple[Spot, ...], ...] = ()
    deck: tuple[Spot, ...] = ()  # bottom first: the top card is the last
    private: tuple[tuple[Spot, ...], ...] = ()  # bottom first
    discard: tuple[Card, ...] = ()  # bottom first
    out: tuple[Spot, ...] = ()  # sets without a player, this round
    next_slot: int = 0
    # The current turn.
    held: Spot | None = None
    source: Source | None = None
    selection: tuple[int, ...] = ()
    ability: Ability | None = None
    chain: frozenset[int] = frozenset()  # slots a Magician targeted this turn (SV-25(a))
    peeks: int = 0
    reversals: int = 0
    dagger_turned: bool = False
    # Results.
    round_points: tuple[tuple[int, ...], ...] = ()
    last_round: pb.RoundScored | None = None
    winners: tuple[int, ...] | None = None
    # Seats that left the game (the table's SeatResigned; SV-28).
    departed: frozenset[int] = frozenset()

    # ------------------------------------------------------------ seats

    @property
    def direction(self) -> int:
        return 1 if self.clockwise else -1

    def predecessor(self, seat: int) -> int:
        """SV-08 Z6: the seat before ``seat`` in the direction of play (in a
        2-player game always the opponent)."""
        return (seat - self.direction) % self.seat_count

    def next_seat(self) -> int:
        """Who plays after the current turn (SV-02, SV-18: in 2-player, each
        reversal this turn skips the opponent)."""
        assert self.current is not None
        if self.seat_count == 2:
            return self.current if self.reversals % 2 else 1 - self.current
        return (self.current + self.direction) % self.seat_count

    @property
    def to_play(self) -> int | None:
        """The seat whose turn it is (or, between turns, comes next)."""
        if self.phase is Phase.TURN_OVER:
            return self.start_seat if self.current is None else self.next_seat()
        if self.phase in (Phase.TURN, Phase.HOLDING, Phase.SELECTING, Phase.ABILITY):
            return self.current
        return None

    def round_end(self) -> pb.RoundEndReason | None:
        """Between turns: why the round ends instead of the next turn
        (SV-03 before SV-04), or None."""
        nxt = self.to_play
        if self.phase is not Phase.TURN_OVER or nxt is None:
            return None
        if not self.deck and not self.private[nxt]:
            return pb.ROUND_END_REASON_DECK_DEPLETED
        if self.caller is not None and nxt == self.caller:
            return pb.ROUND_END_REASON_CALL
        return None

    def begun(self) -> State:
        """The state with the implied next turn begun (itself during a turn)."""
        if self.phase is not Phase.TURN_OVER:
            return self
        return derive(
            self, phase=Phase.TURN, current=self.to_play, turn=self.turn + 1, **TURN_RESET
        )

    # --------------------------------------------------------- villages

    def village(self, seat: int) -> tuple[Spot, ...]:
        return self.villages[seat]

    def protected(self, seat: int, actor: int) -> bool:
        """SV-15: ``seat``'s village is closed to ``actor``'s switches,
        removals and additions (a face-up Sentinel; never against its owner)."""
        return seat != actor and any(s.up and s.card == SENTINEL for s in self.villages[seat])

    def face_up_count(self, seat: int, card: Card) -> int:
        return sum(1 for s in self.villages[seat] if s.up and s.card == card)

    def peeks_left(self, seat: int) -> int:
        """SV-14: one peek per face-up Spy, per turn."""
        return self.face_up_count(seat, SPY) - self.peeks

    def face_down(self) -> Iterator[tuple[int, int, Spot]]:
        """(seat, position, spot) of every face-down village card."""
        for seat, village in enumerate(self.villages):
            for position, spot in enumerate(village):
                if not spot.up:
                    yield seat, position, spot

    def has_face_down(self, exclude: tuple[int, ...] = ()) -> bool:
        return any(spot.slot not in exclude for _, _, spot in self.face_down())

    # -------------------------------------------------------- abilities

    def ability_has_effect(self, card: Card, seat: int) -> bool:
        """Whether ``card``'s draw/discard ability can do anything now. One
        that cannot is still used, without effect (SV-24), but for the
        Approximator, which needs two village cards by rule (SV-09)."""
        if card == APPROXIMATOR:  # SV-09
            return len(self.villages[seat]) >= 2
        if card == FLIPPER:
            return any(self.villages)
        if card == MAGICIAN:
            return any(self.magician_targets(seat))
        if card == RENFIELD:  # SV-13
            return bool(self.deck)
        if card == REVERSER:
            return True
        return self.has_face_down()  # Elusive Seer, Mystic Seer, Master Thief

    def magician_targets(self, seat: int) -> Iterator[tuple[int, int]]:
        """SV-10: any card of another village, but not one a Magician already
        targeted this turn (SV-25(a): no endless Magician chains)."""
        for target, village in enumerate(self.villages):
            if target == seat:
                continue
            for position, spot in enumerate(village):
                if spot.slot not in self.chain:
                    yield target, position

    def may_switch(self, first: int, second: int, actor: int) -> bool:
        """SV-11/SV-15: cards of villages ``first`` and ``second`` may trade
        places at ``actor``'s hand."""
        return not (self.protected(first, actor) or self.protected(second, actor))

    def thief_switches(self, seat: int) -> Iterator[tuple[int, int]]:
        """SV-11: every card the viewed card may switch with."""
        ability = self.ability
        assert ability is not None and ability.target is not None
        home = ability.target[0]
        for other, village in enumerate(self.villages):
            if other != home and self.may_switch(home, other, seat):
                for position in range(len(village)):
                    yield other, position

    def magician_may_use(self, seat: int) -> bool:
        ability = self.ability
        assert ability is not None and ability.target is not None
        target, position = ability.target
        card = self.villages[target][position].card
        assert card is not None  # face up by now
        return card in MAGICIAN_ABILITIES  # SV-24: even one that can do nothing

    def magician_may_switch(self, seat: int) -> bool:
        ability = self.ability
        assert ability is not None and ability.target is not None
        return bool(self.villages[seat]) and self.may_switch(ability.target[0], seat, seat)

    def step_has_choice(self) -> bool:
        """Whether the ability in progress still waits for a choice."""
        ability, seat = self.ability, self.current
        if ability is None or seat is None:
            return False
        step = ability.step
        if step is Step.ELUSIVE_SEER_VIEW:
            return self.has_face_down(ability.viewed)
        if step is Step.MYSTIC_SEER_VIEW:
            return len(ability.viewed) < 2 and self.has_face_down(ability.viewed)
        if step is Step.MASTER_THIEF_SWITCH:
            return any(self.thief_switches(seat))
        if step is Step.MAGICIAN_CHOICE:
            return self.magician_may_use(seat) or self.magician_may_switch(seat)
        return True

    # ------------------------------------------------------------ turns

    def may_call(self, seat: int) -> bool:
        """SV-04/SV-14/SV-18: four or fewer cards, nobody has called, and
        nothing else done this turn."""
        return (
            self.caller is None
            and len(self.villages[seat]) <= CALL_LIMIT
            and not self.peeks
            and not self.dagger_turned
        )

    def may_turn_dagger(self, seat: int) -> bool:
        return self.dagger == seat and self.dagger_usable and not self.dagger_used

    def zombie_target(self, seat: int) -> int | None:
        """The seat a face-up Zombie may go to, unless its Sentinel forbids it."""
        target = self.predecessor(seat)
        return None if self.protected(target, seat) else target

    def holds_zombie(self) -> bool:
        return self.held is not None and self.held.card == ZOMBIE

    def cards_in_villages(self) -> int:
        return sum(len(v) for v in self.villages)


def new_state(settings: Settings, seat_count: int) -> State:
    return State(seat_count=seat_count, settings=settings, totals=(0,) * seat_count)
