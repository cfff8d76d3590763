"""Two server processes on one PostgreSQL: a spectator watching through one
receives what is written through the other, in order, without gaps or
repeats, and resumes from its cursor after a disconnect.

The servers are real subprocesses (``python -m cardroom.cli serve``). The
delivery latency is measured by ``bench`` (cross-process feed); here a
generous timeout only guards against a hang.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from cardroom.client import Client
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.v1 import envelope_pb2 as epb
from tests.conftest import OPERATOR_TOKEN
from tests.service.helpers import deal, seated_game, server_process, skull, star, swirl

pytestmark = pytest.mark.postgres

HANDS = [
    [star(1), swirl(2), skull(5)],
    [star(1), swirl(1), skull(5)],
    [star(0), swirl(3), skull(0)],
]
HANG_GUARD = 30.0


@asynccontextmanager
async def two_servers(database: str) -> AsyncIterator[tuple[Client, Client]]:
    token = ("--operator-token", OPERATOR_TOKEN)
    with server_process(database, *token) as first, server_process(database, *token) as second:
        async with Client.connect(first) as a, Client.connect(second) as b:
            yield a, b


async def next_events(stream: AsyncIterator[epb.EventEnvelope], n: int) -> list[epb.EventEnvelope]:
    got = []
    while len(got) < n:
        got.append(await asyncio.wait_for(anext(stream), HANG_GUARD))
    return got


async def test_a_watcher_on_one_process_sees_writes_made_through_another(
    postgres_database: str,
) -> None:
    async with two_servers(postgres_database) as (writer, reader):
        table = await seated_game(writer, set_deal=[deal(0, first=HANDS)])
        g = table.game_id
        stream = reader.watch(g).__aiter__()
        history = await next_events(stream, (await writer.view(g)).version)
        await writer.act(g, table.token(0), sm.PerformAct(cards=[star(1)]))
        await writer.act(g, table.token(1), sm.PerformAct(cards=[swirl(1)]))
        version = (await writer.view(g)).version
        live = await next_events(stream, version - len(history))
        await stream.aclose()
        sequences = [e.sequence for e in history + live]
        assert sequences == list(range(1, version + 1))

        # Disconnected; more happens; reconnecting with the cursor resumes exactly.
        await writer.act(g, table.token(2), sm.Challenge())
        latest = (await writer.view(g)).version
        resumed = reader.watch(g, after_sequence=sequences[-1]).__aiter__()
        rest = await next_events(resumed, latest - sequences[-1])
        await resumed.aclose()
        assert [e.sequence for e in rest] == list(range(sequences[-1] + 1, latest + 1))
        full = await writer.audit(g, OPERATOR_TOKEN)
        assert [e.event for e in history + live + rest] == [e.event for e in full]
