"""Random play: seeded games where every seat picks a legal action from its
own redacted fold, as a client of the service would.

A *policy* weighs the legal actions. ``uniform`` picks any alike (the
service's bots do); ``brisk`` mostly draws from the deck and calls when it
may; ``schemer`` also peeks at the full state (a test may) to exchange
matching cards and get its village down to a call, so rounds end sooner and
calls, post-call turns and the dagger come up often; ``varied`` mixes them
per decision. Every choice is still one of the seat's legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from google.protobuf.message import Message

from cardroom.domain.kernel import DEALER
from cardroom.domain.silver_dagger import GAME
from cardroom.domain.silver_dagger.cards import ZOMBIE
from cardroom.domain.silver_dagger.state import Phase, State
from cardroom.domain.silver_dagger.view import awaiting
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

from .support import Table

COMMAND_CAP = 20_000
Policy = Callable[[random.Random, State, int, list[Message]], Message]


def uniform(rng: random.Random, state: State, seat: int, actions: list[Message]) -> Message:
    return rng.choice(actions)


def brisk(rng: random.Random, state: State, seat: int, actions: list[Message]) -> Message:
    kinds = {type(a) for a in actions}
    if pb.CallVote in kinds and rng.random() < 0.6:
        return pb.CallVote()
    if pb.DrawCard in kinds and rng.random() < 0.85:
        return rng.choice([a for a in actions if isinstance(a, pb.DrawCard)])
    if pb.ConfirmExchange in kinds and rng.random() < 0.6:
        return pb.ConfirmExchange()
    calm = [a for a in actions if not isinstance(a, pb.StartMultipleExchange | pb.SpyPeek)]
    if calm and rng.random() < 0.8:
        return rng.choice(calm)
    return rng.choice(actions)


def _pair(state: State, seat: int) -> list[int]:
    """Positions of the most numerous equal cards of the village (not
    Zombies), if at least two: a multiple exchange that will succeed."""
    village = state.villages[seat]
    best: list[int] = []
    for card in {s.card for s in village}:
        where = [p for p, s in enumerate(village) if s.card == card]
        if card != ZOMBIE and len(where) > len(best):
            best = where
    return best if len(best) >= 2 else []


def schemer(rng: random.Random, state: State, seat: int, actions: list[Message]) -> Message:
    """Shrinks its village with matching exchanges, then calls."""
    kinds = {type(a) for a in actions}
    if pb.CallVote in kinds:
        return pb.CallVote()
    if state.phase is Phase.SELECTING:
        plan = _pair(state, seat)
        chosen = state.selection
        if len(chosen) >= 2 and (not plan or len(chosen) == len(plan)):
            return pb.ConfirmExchange()
        later = [p for p in plan if not chosen or p > chosen[-1]]
        if later and pb.SelectCard(position=later[0]) in actions:
            return pb.SelectCard(position=later[0])
    elif state.phase is Phase.HOLDING and pb.StartMultipleExchange in kinds and _pair(state, seat):
        return pb.StartMultipleExchange()
    return brisk(rng, state, seat, actions)


def varied(rng: random.Random, state: State, seat: int, actions: list[Message]) -> Message:
    roll = rng.random()
    policy = uniform if roll < 0.2 else brisk if roll < 0.5 else schemer
    return policy(rng, state, seat, actions)


class RandomGame:
    def __init__(
        self,
        seed: int,
        seat_count: int | None = None,
        policy: Policy = varied,
        *,
        check: bool = True,
        spectator: bool = True,
        options: pb.Options | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        n = seat_count if seat_count is not None else self.rng.randint(2, 4)
        self.table = Table(n, options, check=check, spectator=spectator)
        self.policy = policy
        self.commands = 0

    @property
    def over(self) -> bool:
        return GAME.winners(self.table.state) is not None

    def step(self) -> tuple[int | None, Message]:
        """One command: the dealer's when chance is needed, else one of the
        awaited seats plays one of its legal actions."""
        table = self.table
        self.commands += 1
        if GAME.chance_needed(table.state) is not None:
            outcome = GAME.sample_chance(table.state, self.rng)
            table.apply(GAME.decide(table.state, DEALER, outcome))
            return None, outcome
        waiting = awaiting(table.state)
        assert waiting, f"nobody can act in phase {table.state.phase}"
        seat = self.rng.choice(waiting)
        actions = table.legal(seat)
        assert actions, f"seat {seat} is awaited but has nothing to do"
        command = self.policy(self.rng, table.state, seat, actions)
        table.send(seat, command)
        return seat, command

    def play(self, after_command: Callable[[RandomGame], None] | None = None) -> RandomGame:
        while not self.over:
            assert self.commands < COMMAND_CAP, "the game did not end"
            self.step()
            if after_command is not None:
                after_command(self)
        return self


def recorded(
    seed: int, seat_count: int, policy: Policy = schemer
) -> tuple[list[pb.DealRound], list[tuple[int, Message]]]:
    """A complete random game as data: the dealer's shuffles (a set deal)
    and every seat's command, to replay through a service."""
    game = RandomGame(seed, seat_count, policy, check=False, spectator=False)
    deals: list[pb.DealRound] = []
    commands: list[tuple[int, Message]] = []
    while not game.over:
        assert game.commands < COMMAND_CAP, "the game did not end"
        seat, command = game.step()
        if seat is None:
            assert isinstance(command, pb.DealRound)
            deals.append(command)
        else:
            commands.append((seat, command))
    return deals, commands
