"""Record streams (issue 34): a finished game's record is built once and
shared by every stream of it, counted in a memory budget, capped per client
and per game; and StreamGameRecord follows GetAuditLog's rule (T-LOG) for
who may read a game's full log."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import grpc
import pytest

from cardroom.client import CardroomError, Client
from cardroom.server.api.server import RunningServer, Settings, start
from cardroom.server.games.reads import Reads
from cardroom.server.games.records import MIB, RecordShelf
from cardroom.server.limits import Limits, TooBusy
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import game_service_pb2_grpc as gpb_grpc
from cardroom.v1 import table_pb2 as tpb
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN
from tests.service.helpers import SM, Table, seated_game

PUBLIC = tpb.LogPolicy(kind=tpb.LogPolicy.KIND_PUBLIC_AFTER_END)


async def finished_game(client: Client, log_policy: tpb.LogPolicy | None = None) -> Table:
    """A 3-seat game ended by two resignations (T-RESIGN)."""
    game_id = await client.create_game(SM, seat_count=3, log_policy=log_policy)
    seats = [await client.join(game_id, name) for name in ("Ada", "Babbage", "Curie")]
    await client.start(game_id, seats[0].token)
    for seat in seats[1:]:
        await client.resign(game_id, seat.token)
    assert (await client.view(game_id)).table.finished
    return Table(game_id, seats)


@pytest.fixture
def limits() -> Limits:
    return Limits(records_per_client=3, records_per_game=16)


@pytest.fixture
async def server(tmp_path: Path, limits: Limits) -> AsyncIterator[RunningServer]:
    running = await start(
        Settings(
            address="127.0.0.1:0",
            database=str(tmp_path / "cardroom.sqlite3"),
            operator_token=OPERATOR_TOKEN,
            limits=limits,
        )
    )
    try:
        yield running
    finally:
        await running.stop(grace=None)


class HeldBuilds:
    """Reads.record_bytes counted, each build held until ``go`` is set."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        self.go = threading.Event()
        build = Reads.record_bytes

        def held(reads: Reads, game_id: str, token: str | None) -> bytes:
            self.calls += 1
            self.go.wait(timeout=60)
            return build(reads, game_id, token)

        monkeypatch.setattr(Reads, "record_bytes", held)


async def collect(client: Client, game_id: str, token: str | None = None) -> bytes:
    return b"".join([chunk async for chunk in client.record_chunks(game_id, token)])


async def open_streams(server: RunningServer, count: int) -> None:
    """Wait (bounded) until ``count`` streams hold their slots."""
    assert server.servicer is not None
    for _ in steps(3000, f"{count} streams to open"):
        if server.servicer.watchers == count:
            return
        await asyncio.sleep(0.01)


async def test_streams_of_one_record_share_one_build(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: each stream built and pinned its own copy (100 never-read
    streams of a 10,000-event game: 116 MB to 1,102 MB)."""
    builds = HeldBuilds(monkeypatch)
    client = Client.connect(f"127.0.0.1:{server.port}")
    table = await finished_game(client, PUBLIC)
    reading = [asyncio.ensure_future(collect(client, table.game_id)) for _ in range(3)]
    await open_streams(server, 3)
    builds.go.set()
    records = await asyncio.gather(*reading)
    assert builds.calls == 1
    assert records[0] == records[1] == records[2]
    assert records[0] == (await client.export_record(table.game_id)).SerializeToString()
    assert server.servicer is not None and server.servicer.records.streams == 0
    await client.close()


async def test_record_streams_past_the_client_s_cap_are_refused(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds = HeldBuilds(monkeypatch)
    client = Client.connect(f"127.0.0.1:{server.port}")
    table = await finished_game(client, PUBLIC)
    reading = [asyncio.ensure_future(collect(client, table.game_id)) for _ in range(3)]
    await open_streams(server, 3)
    with pytest.raises(CardroomError) as caught:
        await collect(client, table.game_id)
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "3 game records already, the limit per client" in caught.value.details
    # The operator's streams are its own.
    operator = asyncio.ensure_future(collect(client, table.game_id, OPERATOR_TOKEN))
    await open_streams(server, 4)
    builds.go.set()
    assert len({*await asyncio.gather(*reading, operator)}) == 1
    await client.close()


async def test_a_record_stream_whose_client_leaves_gives_everything_back(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds = HeldBuilds(monkeypatch)
    client = Client.connect(f"127.0.0.1:{server.port}")
    table = await finished_game(client, PUBLIC)
    leaving = Client.connect(f"127.0.0.1:{server.port}")
    reading = asyncio.ensure_future(collect(leaving, table.game_id))
    await open_streams(server, 1)
    await leaving.close()  # its connection closes while the record is built
    await open_streams(server, 0)
    assert server.servicer is not None
    assert server.servicer.records.streams == 0
    builds.go.set()
    await asyncio.gather(reading, return_exceptions=True)  # its client went away
    assert await collect(client, table.game_id)  # the next caller is served
    await client.close()


@pytest.mark.parametrize("limits", [Limits(record_memory_bytes=2 * MIB + 256 * 1024)])
async def test_record_streams_past_the_memory_budget_are_refused(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each stream counts a chunk (1 MiB) and the record once: the third
    stream of a small game's record passes a budget of 2.25 MiB."""
    builds = HeldBuilds(monkeypatch)
    client = Client.connect(f"127.0.0.1:{server.port}")
    table = await finished_game(client, PUBLIC)
    reading = [asyncio.ensure_future(collect(client, table.game_id)) for _ in range(2)]
    await open_streams(server, 2)
    with pytest.raises(CardroomError) as caught:
        await collect(client, table.game_id)
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "MiB the server keeps for them" in caught.value.details
    builds.go.set()
    await asyncio.gather(*reading)
    assert await collect(client, table.game_id)  # room again once they ended
    await client.close()


async def test_the_shelf_drops_unused_records_for_room_and_refuses_past_its_budget() -> None:
    shelf = RecordShelf(budget_bytes=1000, chunk_bytes=100)

    def build(data: bytes) -> Callable[[], Awaitable[bytes]]:
        async def made() -> bytes:
            return data

        return made

    a = await shelf.lease("a", 400, build(b"a" * 400))
    assert shelf.held_bytes == 500
    again = await shelf.lease("a", 400, build(b"never built"))
    assert again.data == a.data and shelf.held_bytes == 600
    with pytest.raises(TooBusy, match="MiB the server keeps"):
        await shelf.lease("b", 400, build(b"b" * 400))  # a is in use
    a.release()
    again.release()
    assert shelf.held_bytes == 0  # a is larger than the quarter kept unused
    small = await shelf.lease("c", 100, build(b"c" * 100))
    small.release()
    assert shelf.held_bytes == 100  # kept for the next caller
    b = await shelf.lease("b", 850, build(b"b" * 850))  # c is dropped for room
    assert shelf.held_bytes == 950
    with pytest.raises(TooBusy, match="this record alone is larger"):
        await shelf.lease("d", 2000, build(b""))
    b.release()


# ------------------------------------------------------- one rule (T-LOG)


async def status_of_audit_log(client: Client, game_id: str, token: str | None) -> str:
    try:
        async for _ in client.audit_pages(game_id, token):
            pass
    except CardroomError as error:
        return error.code.name
    return "OK"


async def status_of_stream(client: Client, game_id: str, token: str | None) -> str:
    try:
        await collect(client, game_id, token)
    except CardroomError as error:
        return error.code.name
    return "OK"


@pytest.mark.parametrize("policy", [PUBLIC, None], ids=["public-after-end", "players"])
async def test_stream_game_record_and_get_audit_log_follow_one_rule(
    server: RunningServer, policy: tpb.LogPolicy | None
) -> None:
    """Issue 34: under the public-after-end policy a caller with a token of
    another game read the log (GetAuditLog) but not the record
    (StreamGameRecord: UNAUTHENTICATED)."""
    client = Client.connect(f"127.0.0.1:{server.port}")
    table = await finished_game(client, policy)
    running = await seated_game(client)
    callers = {
        "no token": None,
        "its seat": table.token(1),
        "another game's seat": running.token(0),
        "a made-up token": "seat_nobody",
        "the operator": OPERATOR_TOKEN,
    }
    for name, token in callers.items():
        log = await status_of_audit_log(client, table.game_id, token)
        record = await status_of_stream(client, table.game_id, token)
        assert log == record, f"{name}: GetAuditLog {log}, StreamGameRecord {record}"
        if policy is PUBLIC or name in ("its seat", "the operator"):
            assert log == "OK", name
    # A running game: neither, for anyone but the operator.
    for token in (None, running.token(0)):
        assert await status_of_audit_log(client, running.game_id, token) == "FAILED_PRECONDITION"
        assert await status_of_stream(client, running.game_id, token) == "FAILED_PRECONDITION"
    await client.close()


async def test_a_stalled_record_stream_whose_client_goes_away_gives_its_slot_back(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: a record stream stalled on a full window (a reader that
    never reads) held its slot and its record after its client was killed
    (300 s later, 100 of 100). grpc.aio cancels the call, but a handler
    suspended at ``yield`` while its message waits to be sent is never
    resumed, so nothing after that ``yield`` ran."""
    monkeypatch.setattr(Reads, "record_bytes", lambda *_: b"\x01" * (3 * MIB))
    client = Client.connect(f"127.0.0.1:{server.port}")
    table = await finished_game(client, PUBLIC)
    # No window growth: the stream stalls once its first 64 KiB are sent.
    channel = grpc.aio.insecure_channel(
        f"127.0.0.1:{server.port}", options=[("grpc.http2.bdp_probe", 0)]
    )
    stub = gpb_grpc.GameServiceStub(channel)
    call = stub.StreamGameRecord(gpb.StreamGameRecordRequest(game_id=table.game_id))
    await open_streams(server, 1)
    await channel.close()  # the client goes away without reading
    await open_streams(server, 0)
    assert server.servicer is not None and server.servicer.records.streams == 0
    assert call.done()
    await client.close()
