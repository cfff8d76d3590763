"""Small builders shared by the service tests."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from cardroom.client import Client, RuleBroken, SeatHandle
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN

SM = "smoke-and-mirrors"


def card(pile: str, value: int) -> sm.Card:
    """card("stars", 1); value 0 is a mirror."""
    return sm.Card(pile=getattr(sm, f"PILE_{pile.upper()}"), value=value)


def star(v: int) -> sm.Card:
    return card("stars", v)


def swirl(v: int) -> sm.Card:
    return card("swirls", v)


def skull(v: int) -> sm.Card:
    return card("skulls", v)


def deal(start_seat: int = 0, *, first: list[list[sm.Card]] | None = None) -> sm.DealRound:
    """A full, legal deal for 3+ players. ``first[s]`` fixes the three cards
    (star, swirl, skull) of seats 0..len(first)-1; the rest follow in order."""
    stars = [star(1)] * 5 + [star(0)]
    swirls = [swirl(v) for v in (1, 2, 3, 4, 5, 0)]
    skulls = [skull(5)] * 5 + [skull(0)]
    piles = [stars, swirls, skulls]
    for index, full in enumerate(piles):
        fixed = [hand[index] for hand in first or []]
        rest = list(full)
        for wanted in fixed:
            rest.remove(wanted)
        piles[index] = fixed + rest
    return sm.DealRound(start_seat=start_seat, stars=piles[0], swirls=piles[1], skulls=piles[2])


@dataclass
class Table:
    game_id: str
    seats: list[SeatHandle]

    def token(self, seat: int) -> str:
        return self.seats[seat].token


async def seated_game(
    client: Client,
    players: int = 3,
    *,
    set_deal: list[sm.DealRound] | None = None,
    options: sm.Options | None = None,
    start: bool = True,
) -> Table:
    game_id = await client.create_game(
        SM,
        seat_count=players,
        options=options,
        set_deal=set_deal or [],
        operator_token=OPERATOR_TOKEN if set_deal else None,
    )
    names = ["Ada", "Babbage", "Curie", "Dirac", "Emmy"]
    seats = [await client.join(game_id, names[i]) for i in range(players)]
    if start:
        await client.start(game_id, seats[0].token)
    return Table(game_id, seats)


@contextmanager
def server_process(database: str, *args: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """``cardroom serve`` in a subprocess on a free port; yields its address."""
    with _serving(database, args, env, r"listening on (\S+)") as (address,):
        yield address


@contextmanager
def web_server_process(database: str, *args: str) -> Iterator[tuple[str, str]]:
    """The same with its browser port too; yields (address, web URL)."""
    with _serving(
        database,
        ("--web-address", "127.0.0.1:0", *args),
        None,
        r"listening on (\S+)",
        r"browsers: (\S+)",
    ) as (address, web_url):
        yield address, web_url


@contextmanager
def relay_process(database: str, broker: str, *args: str) -> Iterator[tuple[str, str]]:
    """``cardroom relay`` (with its browser port) in a subprocess; yields
    (address, web URL)."""
    with _serving(
        database,
        ("--broker", broker, "--web-address", "127.0.0.1:0", *args),
        None,
        r"listening on (\S+)",
        r"browsers: (\S+)",
        command="relay",
    ) as (address, web_url):
        yield address, web_url


@contextmanager
def _serving(
    database: str,
    args: tuple[str, ...],
    env: dict[str, str] | None,
    *patterns: str,
    command: str = "serve",
) -> Iterator[list[str]]:
    """Yields, for each pattern, its group from the next line printed."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cardroom.cli",
            command,
            "--address",
            "127.0.0.1:0",
            "--database",
            database,
            *args,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )
    try:
        assert process.stdout is not None
        found = []
        for pattern in patterns:
            line = process.stdout.readline()
            match = re.search(pattern, line)
            assert match, f"server did not start: {line!r}"
            found.append(match.group(1))
        yield found
    finally:
        process.terminate()
        process.wait(timeout=10)


async def start_unless_started(client: Client, game_id: str, token: str) -> None:
    """Start a game whose last seat a server bot took: the bots start a full
    table themselves, so either may come first (T-START refuses the second)."""
    try:
        await client.start(game_id, token)
    except RuleBroken as error:
        if "already started" not in str(error):
            raise


async def bots_finish(client: Client, game_id: str, token: str | None = None) -> Any:
    """Wait (bounded) for the server's bots to finish a game; its last
    view, as ``token`` sees it (a spectator's when None)."""
    for _ in steps(600, "the server's bots to finish the game"):
        view = await client.view(game_id, token)
        if view.table.finished:
            return view.response
        await asyncio.sleep(0.1)
    raise AssertionError("unreachable")
