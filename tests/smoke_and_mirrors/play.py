"""Random complete games, played the way the service plays them.

The auditor's state decides; every seat keeps its own fold of its redacted
stream and picks its moves from ``legal_actions`` on that fold.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from google.protobuf.message import Message

from cardroom.domain.kernel import DEALER, Actor, Event, Viewer
from cardroom.domain.smoke_and_mirrors import GAME
from cardroom.domain.smoke_and_mirrors.cards import MAX_ACHIEVABLE
from cardroom.domain.smoke_and_mirrors.state import Phase, State
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as pb


def mover(state: State) -> int | None:
    """The seat whose decision it is (public), or None for the dealer."""
    if state.phase in (Phase.SWAP, Phase.GIVE):
        return state.swapper
    if state.phase is Phase.TURN:
        return state.turn_seat
    return None


def choose(legal: list[Message], state: State, rng: random.Random, eagerness: float) -> Message:
    """A random legal action; always challenge an impossible claim (SM-09)."""
    challenge = [a for a in legal if isinstance(a, pb.Challenge)]
    if challenge and (state.last_claim > MAX_ACHIEVABLE or rng.random() < eagerness):
        return challenge[0]
    others = [a for a in legal if not isinstance(a, pb.Challenge)]
    return rng.choice(others or legal)


@dataclass
class RandomGame:
    seats: int
    seed: int
    opts: pb.Options = field(default_factory=pb.Options)
    eagerness: float = 0.25  # how often a seat challenges when it may
    state: State = field(init=False)
    folds: list[State] = field(init=False)
    log: list[Event] = field(init=False)
    commands: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.state = GAME.initial_state(self.opts, self.seats)
        self.folds = [self.state] * self.seats
        self.viewers = [Viewer.of_seat(s) for s in range(self.seats)]
        self.log = []

    @property
    def over(self) -> bool:
        return GAME.winners(self.state) is not None

    def step(self, after_event: Callable[[RandomGame, Event], None] | None = None) -> None:
        seat = mover(self.state)
        if seat is None:
            actor, command = DEALER, GAME.sample_chance(self.state, self.rng)
        else:
            legal = GAME.legal_actions(self.folds[seat], seat)
            assert legal, f"seat {seat} to move has no legal action"
            actor, command = (
                Actor.of_seat(seat),
                choose(legal, self.state, self.rng, self.eagerness),
            )
        for e in GAME.decide(self.state, actor, command):
            self.state = GAME.evolve(self.state, e)
            self.folds = [
                GAME.evolve(f, e.redact(v)) for f, v in zip(self.folds, self.viewers, strict=True)
            ]
            self.log.append(e)
            if after_event is not None:
                after_event(self, e)
        self.commands += 1

    def play(
        self,
        after_event: Callable[[RandomGame, Event], None] | None = None,
        max_commands: int = 20_000,
    ) -> RandomGame:
        while not self.over:
            assert self.commands < max_commands, "the game did not end"
            self.step(after_event)
        return self
