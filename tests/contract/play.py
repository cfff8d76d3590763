"""Any registered game played at the game level, the way the service plays
it: the dealer draws every chance outcome, each seat chooses from its own
redacted fold, and every viewer (each seat, a spectator) folds its own
copy of the stream with the game's ``evolve``. After every command a check
sees the full state and every fold."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import Message

from cardroom.domain import registry
from cardroom.domain.kernel import DEALER, SPECTATOR, Actor, Event, Game, Viewer
from cardroom.domain.presentation import Strategy
from tests.bounded import steps

COMMAND_CAP = 20_000


@dataclass
class Played:
    """One game in progress: the full state, the log and every viewer's fold."""

    kind: str
    seats: int
    seed: int
    options: Message | None = None
    game: Game[Any] = field(init=False)
    state: Any = field(init=False)
    folds: dict[Viewer, Any] = field(init=False)
    log: list[Event] = field(init=False)
    commands: int = 0

    def __post_init__(self) -> None:
        self.game = registry.game(self.kind)
        self.rng = random.Random(self.seed)
        options = self.options if self.options is not None else self.game.options_type()
        self.state = self.game.initial_state(options, self.seats)
        self.viewers = [*(Viewer.of_seat(s) for s in range(self.seats)), SPECTATOR]
        self.folds = dict.fromkeys(self.viewers, self.state)
        self.log = []

    @property
    def over(self) -> bool:
        return self.game.winners(self.state) is not None

    def fold(self, seat: int) -> Any:
        return self.folds[Viewer.of_seat(seat)]

    def legal(self, seat: int) -> list[Message]:
        """What the seat may do, from its own fold (as its client asks)."""
        return self.game.legal_actions(self.fold(seat), seat)

    def movers(self) -> list[tuple[int, list[Message]]]:
        return [(s, legal) for s in range(self.seats) if (legal := self.legal(s))]

    def apply(self, actor: Actor, command: Message) -> list[Event]:
        events = self.game.decide(self.state, actor, command)
        for e in events:
            self.state = self.game.evolve(self.state, e)
            for viewer in self.viewers:
                self.folds[viewer] = self.game.evolve(self.folds[viewer], e.redact(viewer))
        self.log.extend(events)
        self.commands += 1
        return events

    def step(self, strategies: Sequence[Strategy | None] = ()) -> tuple[Actor, Message]:
        """One command: the dealer's draw when chance is due, else a move of
        a seat that may act (its strategy's, or a uniform pick)."""
        if self.game.chance_needed(self.state) is not None:
            actor, command = DEALER, self.game.sample_chance(self.state, self.rng)
        else:
            movers = self.movers()
            assert movers, f"{self.kind}: nobody may act in an unfinished game"
            seat, legal = self.rng.choice(movers)
            chooser = strategies[seat] if seat < len(strategies) else None
            if chooser is None:
                command = self.rng.choice(legal)
            else:
                view = self.game.view(self.fold(seat), Viewer.of_seat(seat))
                command = chooser.choose(view, legal, seat, self.rng)
                assert command in legal, f"{type(chooser).__name__} chose an illegal action"
            actor = Actor.of_seat(seat)
        self.apply(actor, command)
        return actor, command

    def play(
        self,
        after: Callable[[Played], None] | None = None,
        strategies: Sequence[Strategy | None] = (),
    ) -> Played:
        if after is not None:
            after(self)
        for _ in steps(COMMAND_CAP, f"a game of {self.kind}"):
            if self.over:
                break
            self.step(strategies)
            if after is not None:
                after(self)
        return self
