"""A peer that vanishes without closing its connection (a frozen process, a
dropped network) gives its streams' slots back (issue 34): the server's
HTTP/2 keepalive pings go unanswered and the transport is closed. The test
puts a TCP proxy between client and server and freezes it: the sockets stay
open, nothing more passes, as when a host drops off the network."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cardroom.client import Client
from cardroom.server.api.server import RunningServer, Settings, start
from cardroom.server.limits import Limits
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN
from tests.service.helpers import seated_game


class FreezingProxy:
    """Forwards TCP to ``port`` until ``freeze()``; then holds every
    connection open and passes nothing either way."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.frozen = asyncio.Event()
        self.server: asyncio.Server | None = None
        self.writers: list[asyncio.StreamWriter] = []
        self.tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writers += [writer, up_writer]
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(source, sink))
            self.tasks.add(task)

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        while not self.frozen.is_set():
            data = await source.read(65536)
            if not data or self.frozen.is_set():
                break
            sink.write(data)
            await sink.drain()
        await asyncio.Event().wait()  # frozen: hold the sockets, pass nothing

    def freeze(self) -> None:
        self.frozen.set()

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for writer in self.writers:
            writer.close()
        if self.server is not None:
            self.server.close()


@pytest.fixture
async def pinging(tmp_path: Path) -> AsyncIterator[RunningServer]:
    server = await start(
        Settings(
            address="127.0.0.1:0",
            database=str(tmp_path / "cardroom.sqlite3"),
            operator_token=OPERATOR_TOKEN,
            limits=Limits(keepalive_seconds=1, keepalive_timeout_seconds=1),
        )
    )
    try:
        yield server
    finally:
        await server.stop(grace=None)


async def wait_for_no_streams(server: RunningServer) -> None:
    """A bounded poll: with pings every second, each answered within a
    second, the slots come back within a few seconds; the bound is ten
    times that (gRPC's own ping timeout, 60 s, used to override the
    keepalive's: the slots came back after a minute)."""
    assert server.servicer is not None
    for _ in steps(1000, "the dead peer's streams to give their slots back"):
        if server.servicer.watchers == 0:
            return
        await asyncio.sleep(0.02)


async def test_a_frozen_peer_s_watchers_give_their_slots_back(
    pinging: RunningServer,
) -> None:
    server = pinging
    assert server.servicer is not None
    own = Client.connect(f"127.0.0.1:{server.port}")
    table = await seated_game(own)
    version = (await own.view(table.game_id)).version
    proxy = FreezingProxy(server.port)
    victim = Client.connect(f"127.0.0.1:{await proxy.start()}")
    streams = [victim.watch(table.game_id, table.token(0)), victim.watch(table.game_id)]
    try:
        for stream in streams:
            async for envelope in stream:  # caught up: nothing more to write
                if envelope.sequence == version:
                    break
        assert server.servicer.watchers == 2
        proxy.freeze()
        await wait_for_no_streams(server)
        # The seat may watch again at once from a live connection.
        again = own.watch(table.game_id, table.token(0))
        assert (await anext(again)).sequence == 1
        await again.aclose()
    finally:
        await proxy.close()
        for stream in streams:
            with contextlib.suppress(Exception):
                await stream.aclose()
        await victim.close()
        await own.close()
