"""Several servers on one PostgreSQL behind client-side round-robin: one is
killed (SIGKILL) in the middle of the load; clients carry on against the
others, no acknowledged command is lost or applied twice, and a spectator
on every surviving server receives every event in order. A client reads
its own writes whichever server answers (``min_version``)."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import TypeVar

import grpc
import pytest
from google.protobuf.message import Message

from cardroom.client import CardroomError, Client, RuleBroken, unpack
from cardroom.server.api.server import Settings, start
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN

pytestmark = pytest.mark.postgres

T = TypeVar("T")
ROUND_ROBIN = '{"loadBalancingConfig": [{"round_robin": {}}]}'


@contextmanager
def serving(database: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "cardroom.cli", "serve", "--address", "127.0.0.1:0",
         "--database", database, "--operator-token", OPERATOR_TOKEN],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    try:
        assert process.stdout is not None
        match = re.search(r"listening on (\S+)", process.stdout.readline())
        assert match, "the server did not start"
        yield process, match.group(1)
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(timeout=20)


def round_robin(addresses: list[str]) -> Client:
    target = "ipv4:" + ",".join(addresses)
    channel = grpc.aio.insecure_channel(target, options=[("grpc.service_config", ROUND_ROBIN)])
    return Client(channel)


def server_went_away(error: CardroomError) -> bool:
    """A call cut by its server's death (the connection reset mid-call, or
    none to be had): worth the same call again, which round-robin sends on."""
    return error.code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.ABORTED) or (
        error.code == grpc.StatusCode.UNKNOWN and error.details.startswith("Stream removed")
    )


async def retried(call: Callable[[], Awaitable[T]]) -> T:
    for _ in steps(50, "the retries"):
        try:
            return await call()
        except CardroomError as error:
            if not server_went_away(error) or isinstance(error, RuleBroken):
                raise
            await asyncio.sleep(0.05)
    raise AssertionError("unreachable")


async def act_until_acknowledged(
    client: Client, game_id: str, token: str, command: Message, command_id: str
) -> int | None:
    """Submit, retrying a server that went away with the same command id (the
    server's idempotency makes a retry safe); None if the rules refuse it."""
    try:
        response = await retried(lambda: client.act(game_id, token, command, command_id=command_id))
    except RuleBroken:
        return None
    return int(response.version)


async def test_a_killed_server_loses_nothing_and_the_others_carry_on(
    postgres_database: str,
) -> None:
    with ExitStack() as stack:
        servers = [stack.enter_context(serving(postgres_database)) for _ in range(3)]
        addresses = [address for _, address in servers]
        async with round_robin(addresses) as client:
            game_id = await client.create_game("smoke-and-mirrors", seat_count=3, options=None)
            seats = [await client.join(game_id, name) for name in ("Ada", "Bo", "Cy")]
            await client.start(game_id, seats[0].token)
            watchers = {
                address: Client.connect(address).watch(game_id).__aiter__()
                for address in addresses[1:]  # the first server is the one killed
            }
            rng = random.Random(5)
            acknowledged: dict[str, int] = {}
            killed = False
            for number in steps(400, "the game"):
                view = await retried(lambda: client.view(game_id))
                if view.table.finished:
                    break
                if number == 20 and not killed:
                    servers[0][0].send_signal(signal.SIGKILL)
                    killed = True
                for seat in seats:
                    token = seat.token
                    actions = await retried(lambda t=token: client.legal_actions(game_id, t))  # type: ignore[misc]
                    if not actions:
                        continue
                    command_id = f"cmd-{number}-{seat.seat}"
                    version = await act_until_acknowledged(
                        client, game_id, seat.token, rng.choice(actions), command_id
                    )
                    if version is not None:
                        acknowledged[command_id] = version
                    break
            assert killed and len(acknowledged) > 20
            log = await retried(lambda: client.audit(game_id, OPERATOR_TOKEN))
            ids = [e.command.command_id for e in log if e.command.command_id]
            assert sorted(ids) == sorted(acknowledged)  # each exactly once
            for address, stream in watchers.items():
                got: list[epb.EventEnvelope] = []
                for _ in steps(len(log) + 1, f"the feed of {address}"):
                    if len(got) >= len(log):
                        break
                    got.append(await asyncio.wait_for(anext(stream), 30))
                assert [e.sequence for e in got] == list(range(1, len(log) + 1))
                assert [e.event for e in got] == [e.event for e in log]
                await stream.aclose()


async def test_a_client_reads_its_own_writes_whichever_server_answers(
    postgres_database: str,
) -> None:
    with serving(postgres_database) as (_, first), serving(postgres_database) as (_, second):
        async with round_robin([first, second]) as client:
            game_id = await client.create_game("smoke-and-mirrors", seat_count=2)
            seats = [await client.join(game_id, name) for name in ("Ada", "Bo")]
            await client.start(game_id, seats[0].token)
            rng = random.Random(1)
            for _ in steps(60, "the commands"):
                movers = [
                    (s, a) for s in seats if (a := await client.legal_actions(game_id, s.token))
                ]
                if not movers:
                    break
                seat, actions = movers[0]
                response = await client.act(game_id, seat.token, rng.choice(actions))
                # The very next read, on either server, already shows the write.
                assert (await client.view(game_id)).version >= response.version


async def test_a_command_is_never_refused_on_a_server_that_has_not_heard_of_a_write(
    postgres_database: str,
) -> None:
    """Server B has not heard of A's write (its subscription is stopped, as
    if the notification were still on the way): the next seat's command sent
    to B is decided on the store's state, not refused on B's stale copy."""
    settings = Settings(
        address="127.0.0.1:0", database=postgres_database, operator_token=OPERATOR_TOKEN
    )
    a, b = await start(settings), await start(settings)
    try:
        assert b.feed is not None
        b.feed.stop()
        async with (
            Client.connect(f"127.0.0.1:{a.port}") as via_a,
            Client.connect(f"127.0.0.1:{b.port}") as via_b,
        ):
            game_id = await via_a.create_game("smoke-and-mirrors", seat_count=2)
            seats = [await via_a.join(game_id, name) for name in ("Ada", "Bo")]
            await via_a.start(game_id, seats[0].token)
            await via_b.view(game_id)  # B caches the game now
            rng = random.Random(2)
            version = 0
            for turn in range(12):
                writer = via_a if turn % 2 == 0 else via_b
                reader = via_a._call  # reads ask A for at least the last write's version
                view = await reader(
                    "GetView", gpb.GetViewRequest(game_id=game_id, min_version=version)
                )
                if view.table.finished:
                    break
                game = sm.View()
                view.game.Unpack(game)
                mover = seats[game.turn_seat]
                legal = await reader(
                    "ListLegalActions",
                    gpb.ListLegalActionsRequest(game_id=game_id, min_version=version),
                    mover.token,
                )
                actions = [unpack(a) for a in legal.actions]
                response = await writer.act(game_id, mover.token, rng.choice(actions))
                version = response.version
    finally:
        await a.stop(grace=None)
        await b.stop(grace=None)
