"""Live feeds fan each event out once: every watcher of a game receives every
event it may see, in order, exactly once, as its own kind of viewer; a reader
that stops reading is ended with ABORTED naming the cursor to resume from,
holds bounded memory, and never holds up the writer or the other watchers."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import cast

import grpc
import pytest

from cardroom.client import Client
from cardroom.domain.kernel import SPECTATOR
from cardroom.server.api.server import RunningServer, Settings, start
from cardroom.server.limits import Limits
from cardroom.server.live.feeds import WAKE_SLICE, Feeds, Outgoing, Watch
from cardroom.server.storage.cache import LoadedGame
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import game_service_pb2_grpc as gpb_grpc
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN, Served
from tests.service.helpers import Table, seated_game, server_process

# A client that grants the server almost no HTTP/2 window: once it stops
# reading, the server can send only a few small events before it must wait.
# Its own connection (channels to one target share one by default, and a
# connection carries at most the server's limit of concurrent streams).
TINY_WINDOW = [
    ("grpc.http2.bdp_probe", 0),
    ("grpc.http2.lookahead_bytes", 1024),
    ("grpc.use_local_subchannel_pool", 1),
]


async def play_some(client: Client, table: Table, commands: int, seed: int) -> int:
    """Random legal commands (fewer if the game ends); the count played."""
    rng = random.Random(seed)
    tokens = [s.token for s in table.seats]
    played = 0
    for _ in steps(commands * 4 + 10, "the commands"):
        if played >= commands or (await client.view(table.game_id)).table.finished:
            break
        for token in tokens:
            actions = await client.legal_actions(table.game_id, token)
            if actions and played < commands:
                await client.act(table.game_id, token, rng.choice(actions))
                played += 1
    return played


async def collect(stream: AsyncIterator[epb.EventEnvelope], until: int) -> list[epb.EventEnvelope]:
    got: list[epb.EventEnvelope] = []
    for _ in steps(until + 1, "the feed"):
        if got and got[-1].sequence >= until:
            break
        got.append(await asyncio.wait_for(anext(stream), 30))
    return got


async def test_every_watcher_gets_every_event_once_in_order_as_its_own_viewer(
    served: Served,
) -> None:
    c = served.client
    table = await seated_game(c, players=3)
    viewers: list[str | None] = [None] * 8 + [OPERATOR_TOKEN, *(s.token for s in table.seats)]
    streams = [c.watch(table.game_id, token).__aiter__() for token in viewers]
    start = (await c.view(table.game_id)).version
    for stream in streams:  # every stream is live once it has caught up
        await collect(stream, start)
    await play_some(c, table, 30, seed=4)
    final = (await c.audit(table.game_id, OPERATOR_TOKEN))[-1].sequence
    for token, stream in zip(viewers, streams, strict=True):
        got = await collect(stream, final)
        await stream.aclose()
        # The same events read afresh from the cursor, as a reconnecting watcher would.
        again = await collect(c.watch(table.game_id, token, after_sequence=start), final)
        assert [e.sequence for e in got] == list(range(start + 1, final + 1))
        assert [e.SerializeToString() for e in got] == [e.SerializeToString() for e in again]


async def test_a_live_event_is_redacted_and_serialized_once_per_kind_of_viewer(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five spectators and one seat follow a game: each new event becomes
    two shared responses (the spectators' and the seat's), not six, and
    every stream still receives exactly the bytes a fresh read returns."""
    made: list[int] = []
    of = Outgoing.of.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Outgoing], response: gpb.WatchEventsResponse) -> Outgoing:
        made.append(response.event.sequence)
        return of(cls, response)  # type: ignore[no-any-return]

    monkeypatch.setattr(Outgoing, "of", classmethod(counted))
    c = served.client
    table = await seated_game(c, players=3)
    viewers: list[str | None] = [None] * 5 + [table.seats[0].token]
    streams = [c.watch(table.game_id, token).__aiter__() for token in viewers]
    start = (await c.view(table.game_id)).version
    for stream in streams:
        await collect(stream, start)
    made.clear()
    await play_some(c, table, 6, seed=2)
    final = (await c.view(table.game_id)).version
    for token, stream in zip(viewers, streams, strict=True):
        got = await collect(stream, final)
        await stream.aclose()
        again = await collect(c.watch(table.game_id, token, after_sequence=start), final)
        assert [e.SerializeToString() for e in got] == [e.SerializeToString() for e in again]
    assert sorted(made) == sorted(2 * list(range(start + 1, final + 1)))


async def test_watchers_are_woken_a_slice_per_turn_of_the_event_loop() -> None:
    """A broadcast wakes a few streams per turn of the loop, so a call that
    arrives meanwhile is served between slices, not after all of them; and
    every watcher is woken once."""
    watches = [Watch("g", SPECTATOR, cast(LoadedGame, None), 0) for _ in range(20)]
    feeds = Feeds(max_backlog=8)
    feeds._wake(watches)
    woken = [sum(w.ready.is_set() for w in watches)]
    while woken[-1] < len(watches):
        await asyncio.sleep(0)
        woken.append(sum(w.ready.is_set() for w in watches))
    assert woken == [WAKE_SLICE, 2 * WAKE_SLICE, len(watches)]


@pytest.fixture
async def small_backlog(tmp_path: Path) -> AsyncIterator[tuple[RunningServer, str]]:
    server = await start(
        Settings(
            address="127.0.0.1:0",
            database=str(tmp_path / "cardroom.sqlite3"),
            operator_token=OPERATOR_TOKEN,
            limits=Limits(max_stream_backlog=8),
        )
    )
    try:
        yield server, f"127.0.0.1:{server.port}"
    finally:
        await server.stop(grace=None)


async def test_a_reader_that_stops_is_ended_with_its_cursor_and_can_resume(
    small_backlog: tuple[RunningServer, str],
) -> None:
    server, address = small_backlog
    async with Client.connect(address) as client:
        table = await seated_game(client, players=3)
        stalled = grpc.aio.insecure_channel(address, options=TINY_WINDOW)
        stub = gpb_grpc.GameServiceStub(stalled)
        call = stub.WatchEvents(gpb.WatchEventsRequest(game_id=table.game_id))
        caught_up = (await client.view(table.game_id)).version
        received: list[int] = []
        for _ in steps(caught_up, "the catch-up"):  # read until live, then stop reading
            received.append((await asyncio.wait_for(call.read(), 30)).event.sequence)
            if received[-1] >= caught_up:
                break
        played = await play_some(client, table, 60, seed=7)  # the writer is never held up
        assert played >= 40
        version = (await client.view(table.game_id)).version
        with pytest.raises(grpc.aio.AioRpcError) as ended:
            for _ in steps(version + 1, "the stalled stream"):
                response = await asyncio.wait_for(call.read(), 30)
                assert response is not grpc.aio.EOF, "the stream ended without a status"
                received.append(response.event.sequence)
        await stalled.close()
        assert ended.value.code() == grpc.StatusCode.ABORTED
        details = ended.value.details() or ""
        assert "fell 8 events behind" in details
        cursor = int(details.rsplit("after_sequence=", 1)[1])
        assert received == list(range(1, cursor + 1)) and caught_up <= cursor < version
        rest = await collect(client.watch(table.game_id, after_sequence=cursor), version)
        assert [e.sequence for e in rest] == list(range(cursor + 1, version + 1))
        assert server.servicer is not None and server.servicer.watchers <= 1


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


async def test_stalled_readers_hold_bounded_memory(tmp_path: Path) -> None:
    """200 streams that never read, on one game that keeps growing: the
    server process's memory stays bounded (loosely: well under what the
    streams would hold if each buffered the game)."""
    database = str(tmp_path / "cardroom.sqlite3")
    with server_process(database, "--operator-token", OPERATOR_TOKEN) as address:
        pid = server_pid(address)
        async with Client.connect(address) as client:
            table = await seated_game(client, players=3)
            # One connection each: a connection's window is tiny too.
            channels = [grpc.aio.insecure_channel(address, options=TINY_WINDOW) for _ in range(200)]
            calls = [
                gpb_grpc.GameServiceStub(ch).WatchEvents(
                    gpb.WatchEventsRequest(game_id=table.game_id)
                )
                for ch in channels
            ]
            for call in calls:
                await call.initial_metadata()
            before = rss_kib(pid)
            await play_some(client, table, 150, seed=11)
            after = rss_kib(pid)
            for ch in channels:
                await ch.close()
    assert after - before < 32 * 1024, f"RSS grew {(after - before) // 1024} MiB"


def server_pid(address: str) -> int:
    """The pid of the ``cardroom serve`` process listening on ``address``."""
    port = address.rsplit(":", 1)[1]
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"serve" in cmdline and b"cardroom.cli" in cmdline:
            inodes = {p.readlink().name for p in (proc / "fd").iterdir() if _is_socket(p)}
            if _listens(port, inodes):
                return int(proc.name)
    raise AssertionError(f"no server process on {address}")


def _is_socket(path: Path) -> bool:
    try:
        return path.readlink().name.startswith("socket:")
    except OSError:
        return False


def _listens(port: str, inodes: set[str]) -> bool:
    wanted = f"{int(port):04X}"
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if local.endswith(f":{wanted}") and state == "0A" and f"socket:[{inode}]" in inodes:
                return True
    return False
