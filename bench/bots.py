"""Bots that play Smoke & Mirrors through the public API, timing each command.

A bot asks each seat in turn for its legal actions (ListLegalActions) and
submits a random one (SubmitCommand); only SubmitCommand is timed. With a
large ``rounds_to_win`` a game runs as long as a benchmark needs.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from cardroom.client import Client, RuleBroken
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm

KIND = "smoke-and-mirrors"
SEATS = 3
# Round wins needed to win: 4 by the rules; a long game for the benchmarks.
LONG = 50
MAX_IDLE_ROUNDS = 100


@dataclass(frozen=True)
class Command:
    """One acknowledged SubmitCommand: when it started (time.monotonic()),
    how long it took, and the game's version before and after it."""

    started: float
    seconds: float
    before: int
    after: int


@dataclass
class Table:
    game_id: str
    tokens: list[str]
    version: int = 0
    finished: bool = False
    commands: list[Command] = field(default_factory=list)


async def seated_game(client: Client, rounds_to_win: int | None = None) -> Table:
    """A started 3-seat game (its options set ``rounds_to_win`` when given)."""
    options = sm.Options(rounds_to_win=rounds_to_win) if rounds_to_win else None
    game_id = await client.create_game(KIND, seat_count=SEATS, options=options)
    tokens = [(await client.join(game_id, f"bot{seat}")).token for seat in range(SEATS)]
    version = await client.start(game_id, tokens[0])
    return Table(game_id, tokens, version)


async def move(client: Client, table: Table, rng: random.Random) -> Command | None:
    """One random legal command from the first seat that has one; None when
    no seat may act (the game is over)."""
    for token in table.tokens:
        actions = await client.legal_actions(table.game_id, token)
        if not actions:
            continue
        started = time.monotonic()
        try:
            response = await client.act(table.game_id, token, rng.choice(actions))
        except RuleBroken:
            continue  # should not happen with one bot per game; ask again
        command = Command(started, time.monotonic() - started, table.version, response.version)
        table.version = response.version
        table.commands.append(command)
        return command
    return None


async def play(
    client: Client,
    table: Table,
    rng: random.Random,
    *,
    commands: int | None = None,
    until_version: int | None = None,
    after_each: Callable[[Command], object] | None = None,
) -> Table:
    """Play until the game ends, ``commands`` more are acknowledged, or the
    game reaches ``until_version``."""
    done = 0
    idle = 0
    while not table.finished:
        if commands is not None and done >= commands:
            break
        if until_version is not None and table.version >= until_version:
            break
        command = await move(client, table, rng)
        if command is None:
            idle += 1
            view = await client.view(table.game_id)
            table.finished = view.table.finished
            if idle > MAX_IDLE_ROUNDS:
                raise RuntimeError(f"game {table.game_id}: no seat can act, yet it is not over")
            continue
        idle = 0
        done += 1
        if after_each is not None:
            after_each(command)
    return table
