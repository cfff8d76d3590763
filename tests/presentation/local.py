"""Any registered game played in memory through the table decider, as the
service would play it: the dealer draws chance, and every seat picks its
moves from its own redacted fold (its view and legal actions). Each event
is kept with every viewer's copy and state just before it, so narrators
can be checked against exactly what a viewer had."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from google.protobuf.message import Message

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import DEALER, GUEST, SPECTATOR, Actor, Event, Viewer
from cardroom.domain.presentation import Strategy
from cardroom.v1 import table_pb2 as tpb

NAMES = ("Ada", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Hal")
MAX_COMMANDS = 5_000


@dataclass(frozen=True)
class Seen:
    """One event as one viewer got it, and that viewer's table before it."""

    viewer: Viewer
    before: tables.Table
    event: Event


@dataclass
class LocalGame:
    kind: str
    seats: int
    seed: int
    options: Message | None = None
    # A command legal but not listed among the legal actions (Smile Life's
    # journalist announcements, SL-35) that a seat says now, if any.
    talk: Callable[[LocalGame], tuple[int, Message] | None] | None = None
    full: tables.Table = field(init=False)
    folds: dict[Viewer, tables.Table] = field(init=False)
    log: list[Event] = field(init=False)
    seen: list[list[Seen]] = field(init=False)  # per event, one per viewer
    commands: int = 0

    def __post_init__(self) -> None:
        game = registry.game(self.kind)
        self.rng = random.Random(self.seed)
        options = self.options if self.options is not None else game.options_type()
        created = tables.create(game, options, self.seats, set_deal=False)
        self.full = tables.initial(game, created.public)  # type: ignore[arg-type]
        self.viewers = [*(Viewer.of_seat(s) for s in range(self.seats)), SPECTATOR]
        self.folds = {v: self.full for v in self.viewers}
        self.log, self.seen = [created], []
        for seat in range(self.seats):
            take = tpb.TakeSeat(player_name=NAMES[seat % len(NAMES)], token_sha256=bytes(32))
            self._apply(GUEST, take)
        self._apply(Actor.of_seat(0), tpb.StartGame())

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n or "" for n in self.full.player_names)

    @property
    def over(self) -> bool:
        return self.full.finished

    def fork(self) -> LocalGame:
        """An independent copy from here on (the states are immutable)."""
        twin = copy.copy(self)
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        twin.folds, twin.log, twin.seen = dict(self.folds), list(self.log), list(self.seen)
        return twin

    def send(self, seat: int, command: Message) -> list[list[Seen]]:
        """A seat's command; each new event as every viewer got it."""
        before = len(self.seen)
        self._apply(Actor.of_seat(seat), command)
        return self.seen[before:]

    def chance(self) -> bool:
        """The dealer draws, when the game waits for chance."""
        if tables.chance_needed(self.full) is None:
            return False
        self._apply(DEALER, tables.sample_chance(self.full, self.rng))
        return True

    def movers(self) -> list[tuple[int, list[Message]]]:
        return [(s, legal) for s in range(self.seats) if (legal := self.legal(s))]

    def _apply(self, actor: Actor, command: Message) -> None:
        for e in tables.decide(self.full, actor, command):
            self.full = tables.evolve(self.full, e)
            copies = []
            for viewer in self.viewers:
                mine = e.redact(viewer)
                copies.append(Seen(viewer, self.folds[viewer], mine))
                self.folds[viewer] = tables.evolve(self.folds[viewer], mine)
            self.log.append(e)
            self.seen.append(copies)
        self.commands += 1

    def view(self, seat: int) -> Message:
        return tables.view(self.folds[Viewer.of_seat(seat)], Viewer.of_seat(seat))

    def legal(self, seat: int) -> list[Message]:
        return tables.legal_actions(self.folds[Viewer.of_seat(seat)], seat)

    def step(self, strategies: Sequence[Strategy], rngs: Sequence[random.Random]) -> None:
        if self.chance():
            return
        said = self.talk(self) if self.talk is not None else None
        if said is not None:
            self._apply(Actor.of_seat(said[0]), said[1])
            return
        movers = self.movers()
        assert movers, "nobody can move in an unfinished game"
        seat, legal = self.rng.choice(movers)
        choice = strategies[seat].choose(self.view(seat), legal, seat, rngs[seat])
        assert choice in legal, f"{type(strategies[seat]).__name__} chose an illegal action"
        self._apply(Actor.of_seat(seat), choice)

    def play(
        self,
        strategies: Sequence[Strategy],
        max_commands: int = MAX_COMMANDS,
        resign: tuple[int, int] | None = None,
    ) -> LocalGame:
        """Play to the end; ``resign`` = (command count, seat): that seat
        resigns once that many commands were played (T-RESIGN)."""
        rngs = [random.Random(self.seed * 31 + s) for s in range(self.seats)]
        while not self.over:
            assert self.commands < max_commands, f"{self.kind} did not end in {max_commands}"
            if resign is not None and self.commands >= resign[0]:
                self._apply(Actor.of_seat(resign[1]), tpb.Resign())
                resign = None
                continue
            self.step(strategies, rngs)
        return self

    @property
    def winners(self) -> tuple[int, ...]:
        return self.full.winners
