"""Test helpers: command shorthands, a table that keeps every viewer's fold,
a builder for "given" positions, and the universe of well-formed commands.

Tests drive the pure decider as the service does: the dealer's start seat
is a command too, every seat's view and legal actions come from a state
folded from that seat's own redacted stream.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest
from google.protobuf.message import Message

from cardroom.domain.kernel import (
    AUDITOR,
    DEALER,
    SPECTATOR,
    Actor,
    Event,
    MalformedCommand,
    RuleViolation,
    Viewer,
)
from cardroom.domain.smiles_and_daggers import GAME
from cardroom.domain.smiles_and_daggers.cards import (
    BET_SHAPES,
    DAGGER,
    EMPTY,
    FAMILIES,
    FULL_FAMILY,
    KNIGHT,
    LADY,
    LORD,
    ORIENTATIONS,
    RANKS,
    SMILE,
    Hand,
)
from cardroom.domain.smiles_and_daggers.state import Phase, State, derive
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb
from tests.bounded import steps

__all__ = ["DAGGER", "KNIGHT", "LADY", "LORD", "SMILE"]

S, D = SMILE, DAGGER
SHAPE = pb.BetShape


def options(
    *,
    two: bool = False,
    come_back: bool = False,
    recover_knights: bool | None = None,
) -> pb.Options:
    opts = pb.Options(allow_two_players=two, optional_come_back=come_back)
    if recover_knights is not None:
        opts.recover_lost_bet_knights = recover_knights
    return opts


def commit(rank: int, orientation: int) -> pb.CommitCard:
    return pb.CommitCard(rank=rank, orientation=orientation)


def bet(shape: int) -> pb.PlaceBet:
    return pb.PlaceBet(shape=shape)


def challenge(target: int) -> pb.ChallengeOpponent:
    return pb.ChallengeOpponent(target=target)


def recover(rank: int) -> pb.RecoverCard:
    return pb.RecoverCard(rank=rank)


def viewers(seat_count: int) -> list[Viewer]:
    return [Viewer.of_seat(s) for s in range(seat_count)] + [SPECTATOR]


def key(message: Message) -> tuple[str, bytes]:
    """A hashable identity for a protobuf message."""
    return message.DESCRIPTOR.full_name, message.SerializeToString(deterministic=True)


def event_key(e: Event) -> tuple[Any, ...]:
    return (key(e.public), tuple((tuple(sorted(s.audience)), key(s.value)) for s in e.secrets))


def command_universe(seat_count: int) -> list[Message]:
    """Every well-formed command a seat could send in a game of this size."""
    return [
        *(pb.ChooseFamily(family=f) for f in FAMILIES),
        *(recover(r) for r in RANKS),
        pb.SkipTurn(),
        *(challenge(t) for t in range(seat_count)),
        *(commit(r, o) for r in RANKS for o in ORIENTATIONS),
        *(bet(s) for s in BET_SHAPES),
        pb.PassBet(),
    ]


def outcome(state: State, seat: int, command: Message) -> tuple[Any, ...]:
    """What ``decide`` answers: the events, or the refusal's type and text."""
    try:
        return ("ok", GAME.decide(state, Actor.of_seat(seat), command))
    except (RuleViolation, MalformedCommand) as error:
        return ("refused", type(error).__name__, str(error))


class Table:
    """A game in progress: the full state, the log, and every viewer's fold."""

    def __init__(
        self,
        seat_count: int,
        opts: pb.Options | None = None,
        *,
        start: int | None = 0,
        families: bool = True,
        state: State | None = None,
    ) -> None:
        self.seat_count = seat_count
        self.state: State = (
            state if state is not None else GAME.initial_state(opts or options(), seat_count)
        )
        self.initial = self.state
        self.log: list[Event] = []
        self.folds: dict[Viewer, State] = {v: self.state for v in viewers(seat_count)}
        self.on_event: list[Callable[[Table, Event], None]] = []
        if state is None and start is not None:
            self.dealer(pb.ChooseStartSeat(seat=start))
            if families:
                for k in range(seat_count):
                    self.send((start + k) % seat_count, pb.ChooseFamily(family=FAMILIES[k]))

    def copy(self) -> Table:
        """A twin to drive separately (states are immutable; logs are not)."""
        twin = Table.__new__(Table)
        twin.seat_count = self.seat_count
        twin.state = self.state
        twin.initial = self.initial
        twin.log = list(self.log)
        twin.folds = dict(self.folds)
        twin.on_event = list(self.on_event)
        return twin

    # ------------------------------------------------------------ driving

    def apply(self, events: Iterable[Event]) -> list[Event]:
        applied = []
        for e in events:
            self.state = GAME.evolve(self.state, e)
            for v in self.folds:
                self.folds[v] = GAME.evolve(self.folds[v], e.redact(v))
            self.log.append(e)
            applied.append(e)
            for check in self.on_event:
                check(self, e)
        return applied

    def dealer(self, command: Message) -> list[Event]:
        return self.apply(GAME.decide(self.state, DEALER, command))

    def send(self, seat: int, command: Message) -> list[Event]:
        return self.apply(GAME.decide(self.state, Actor.of_seat(seat), command))

    def refused(self, seat: int, command: Message) -> RuleViolation:
        with pytest.raises(RuleViolation) as caught:
            GAME.decide(self.state, Actor.of_seat(seat), command)
        return caught.value

    def play_challenge(
        self,
        opponent: int,
        mine: tuple[int, int],
        theirs: tuple[int, int],
        bets: dict[int, int] | None = None,
    ) -> list[Event]:
        """The tile holder challenges ``opponent``; both commit; each bettor
        in turn places ``bets[seat]`` (a BetShape) or passes."""
        current = self.state.current
        assert current is not None
        start = len(self.log)
        self.send(current, challenge(opponent))
        self.send(current, commit(*mine))
        self.send(opponent, commit(*theirs))
        bets = bets or {}
        for _ in steps(10, "the betting"):
            if self.state.phase is not Phase.BETTING:
                break
            ch = self.state.challenge
            assert ch is not None and ch.next_bettor is not None
            seat = ch.next_bettor
            self.send(seat, bet(bets[seat]) if seat in bets else pb.PassBet())
        return self.log[start:]

    # ------------------------------------------------------------ reading

    def fold(self, seat: int | None) -> State:
        return self.folds[SPECTATOR if seat is None else Viewer.of_seat(seat)]

    def view(self, viewer: Viewer) -> pb.View:
        state = self.state if viewer == AUDITOR else self.folds[viewer]
        view = GAME.view(state, viewer)
        assert isinstance(view, pb.View)
        return view

    def legal(self, seat: int) -> list[Message]:
        return GAME.legal_actions(self.fold(seat), seat)

    def events_of(self, kind: type[Message], since: int = 0) -> list[Any]:
        return [e.public for e in self.log[since:] if isinstance(e.public, kind)]


def given(
    hands: Sequence[Hand],
    coins: Sequence[int],
    *,
    tile: int = 0,
    opts: pb.Options | None = None,
    lost: Sequence[Hand] | None = None,
    turn: int = 1,
) -> Table:
    """A table at the start of ``tile``'s turn with these hands and coins.
    Cards missing from a hand are in its eliminated pile unless ``lost``
    lists them. Everything here is public, so every viewer's fold starts
    from the same state."""
    n = len(hands)
    lost = lost or [EMPTY] * n
    base = GAME.initial_state(opts or options(two=n == 2), n)
    eliminated = tuple(
        tuple(f - h - x for f, h, x in zip(FULL_FAMILY, hand, gone, strict=True))
        for hand, gone in zip(hands, lost, strict=True)
    )
    assert all(min(e) >= 0 for e in eliminated)
    state = derive(
        base,
        phase=Phase.TURN,
        start_seat=tile,
        current=tile,
        turn=turn,
        families=FAMILIES[:n],
        coins=tuple(coins),
        in_play=tuple(tuple(h) for h in hands),
        eliminated=eliminated,
        lost=tuple(tuple(x) for x in lost),
    )
    return Table(n, state=state)
