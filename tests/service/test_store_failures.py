"""The store fails loudly and the server recovers: a store that cannot be
read answers UNAVAILABLE with health NOT_SERVING until it is back, then
everything serves again without a restart; rows that make no sense are
DATA_LOSS for their game only; on PostgreSQL the live feed survives a lost
connection and catches up."""

from __future__ import annotations

import asyncio
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlparse

import grpc
import psycopg
import pytest
from eventsourcing.persistence import ConnectionUnavailableError
from grpc_health.v1 import health_pb2, health_pb2_grpc

from cardroom.client import CardroomError, Client, DataLoss
from cardroom.domain.table import pack
from cardroom.server.api.server import Settings, start
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN, Served
from tests.service.helpers import SM, deal, seated_game, skull, star, swirl
from tests.trust.live import Rows

HANDS = [
    [star(1), swirl(2), skull(5)],
    [star(1), swirl(1), skull(5)],
    [star(0), swirl(3), skull(0)],
]


@contextmanager
def events_table_renamed(database: str) -> Iterator[None]:
    """The events table is missing (renamed) until the block ends."""
    if database.startswith("postgresql://"):
        url = urlparse(database)
        schema = dict(p.split("=", 1) for p in url.query.split("&") if p)["schema"]
        plain = url._replace(query="").geturl()
        rename = 'ALTER TABLE "{schema}".{old} RENAME TO {new}'
        with psycopg.connect(plain, autocommit=True) as pg:
            pg.execute(rename.format(schema=schema, old="cardroom_events", new="hidden_events"))
        try:
            yield
        finally:
            with psycopg.connect(plain, autocommit=True) as pg:
                pg.execute(rename.format(schema=schema, old="hidden_events", new="cardroom_events"))
    else:
        with sqlite3.connect(database) as lite:
            lite.execute("ALTER TABLE stored_events RENAME TO hidden_events")
        try:
            yield
        finally:
            with sqlite3.connect(database) as lite:
                lite.execute("ALTER TABLE hidden_events RENAME TO stored_events")


async def health(client: Client) -> int:
    stub = health_pb2_grpc.HealthStub(client.channel)
    response = await stub.Check(health_pb2.HealthCheckRequest(service=""))
    return int(response.status)


async def wait_for_health(client: Client, wanted: int) -> None:
    for _ in steps(300, "the health change"):
        if await health(client) == wanted:
            return
        await asyncio.sleep(0.1)


async def test_a_store_that_cannot_be_read_is_unavailable_until_it_is_back(
    served: Served, database: str
) -> None:
    c = served.client
    table = await seated_game(c, set_deal=[deal(0, first=HANDS)])
    assert await health(c) == health_pb2.HealthCheckResponse.SERVING
    served.server.games.cache.clear()  # a game in memory is served from memory
    with events_table_renamed(database):
        for call in (c.view(table.game_id), c.create_game(SM, seat_count=2), c.list_games()):
            with pytest.raises(CardroomError) as caught:
                await call
            assert caught.value.code == grpc.StatusCode.UNAVAILABLE
            assert "store" in caught.value.details
        await wait_for_health(c, health_pb2.HealthCheckResponse.NOT_SERVING)
    await wait_for_health(c, health_pb2.HealthCheckResponse.SERVING)
    await c.act(table.game_id, table.token(0), sm.PerformAct(cards=[star(1)]))
    assert (await c.view(table.game_id, table.token(1))).game.turn_seat == 1


def seat_taken(game_id: str, sequence: int, seat: int) -> bytes:
    envelope = epb.EventEnvelope(
        game_id=game_id, sequence=sequence, event=pack(tpb.SeatTaken(seat=seat, player_name="X"))
    )
    return envelope.SerializeToString()


def created(game_id: str, kind: str, seat_count: int) -> bytes:
    envelope = epb.EventEnvelope(
        game_id=game_id,
        sequence=1,
        event=pack(tpb.GameCreated(kind=kind, seat_count=seat_count, options=pack(sm.Options()))),
    )
    return envelope.SerializeToString()


@pytest.mark.parametrize(
    "damage",
    ["seat 99", "kind poker", "1000 seats"],
)
async def test_rows_that_decode_but_make_no_sense_are_data_loss_for_that_game_only(
    served: Served, database: str, damage: str
) -> None:
    c = served.client
    broken = await c.create_game(SM, seat_count=2)
    healthy = await seated_game(c, players=2)
    rows = Rows(database, broken)
    if damage == "seat 99":
        rows.insert(2, tpb.SeatTaken.DESCRIPTOR.full_name, seat_taken(broken, 2, 99))
    elif damage == "kind poker":
        rows.set_state(1, created(broken, "poker", 2))
    else:
        rows.set_state(1, created(broken, SM, 1000))
    served.server.games.cache.clear()  # as after a restart
    with pytest.raises(DataLoss) as caught:
        await c.view(broken)
    assert broken in caught.value.details
    expected = "stored event 2" if damage == "seat 99" else "stored event 1"
    assert expected in caught.value.details
    assert (await c.view(healthy.game_id)).version > 1  # other games keep serving
    assert await health(c) == health_pb2.HealthCheckResponse.SERVING


@pytest.mark.postgres
async def test_the_live_feed_survives_terminated_database_connections(
    postgres_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two servers on one database; every connection of theirs is killed
    (pg_terminate_backend); writes through one still reach a watcher on the
    other, in order and complete."""
    app = f"cardroom-test-{uuid.uuid4().hex[:12]}"
    monkeypatch.setenv("PGAPPNAME", app)  # libpq names every connection made from now on
    settings = Settings(
        address="127.0.0.1:0", database=postgres_database, operator_token=OPERATOR_TOKEN
    )
    writer_server, reader_server = await start(settings), await start(settings)
    try:
        async with (
            Client.connect(f"127.0.0.1:{writer_server.port}") as writer,
            Client.connect(f"127.0.0.1:{reader_server.port}") as reader,
        ):
            table = await seated_game(writer, set_deal=[deal(0, first=HANDS)])
            stream = reader.watch(table.game_id).__aiter__()
            version = (await writer.view(table.game_id)).version
            seen = [await asyncio.wait_for(anext(stream), 30) for _ in range(version)]
            killed = terminate_connections(postgres_database, app)
            assert killed >= 4  # each server's pool and its feed's LISTEN connection
            await writer.act(table.game_id, table.token(0), sm.PerformAct(cards=[star(1)]))
            await writer.act(table.game_id, table.token(1), sm.PerformAct(cards=[swirl(1)]))
            latest = (await writer.view(table.game_id)).version
            for _ in steps(latest, "the feed"):
                if len(seen) >= latest:
                    break
                seen.append(await asyncio.wait_for(anext(stream), 30))
            await stream.aclose()
            assert [e.sequence for e in seen] == list(range(1, latest + 1))
            assert reader_server.feed is not None and reader_server.feed.reconnects >= 1
    finally:
        await writer_server.stop(grace=None)
        await reader_server.stop(grace=None)


@pytest.mark.postgres
async def test_every_call_serves_after_the_database_drops_every_pooled_connection(
    postgres_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool holds connections the database has closed (a restart, a
    failover, an idle timeout): each one is found dead when used and
    replaced, and every kind of call, the game list and a game read from
    the store included, still succeeds, with health SERVING throughout."""
    app = f"cardroom-test-{uuid.uuid4().hex[:12]}"
    monkeypatch.setenv("PGAPPNAME", app)
    settings = Settings(
        address="127.0.0.1:0", database=postgres_database, operator_token=OPERATOR_TOKEN
    )
    server = await start(settings)
    try:
        async with Client.connect(f"127.0.0.1:{server.port}") as c:
            table = await seated_game(c, set_deal=[deal(0, first=HANDS)])
            await c.act(table.game_id, table.token(0), sm.PerformAct(cards=[star(1)]))
            version = (await c.view(table.game_id)).version
            await asyncio.gather(*(c.list_games() for _ in range(8)))  # several connections
            pool = server.games.log.recorder.datastore.pool
            pooled = pool.get_stats()["pool_size"]
            assert terminate_connections(postgres_database, app) >= pooled
            server.games.cache.clear()  # the next read of the game goes to the store
            for _ in range(pooled + 2):  # more calls than dead connections
                assert table.game_id in [g.game_id for g in await c.list_games()]
                assert await health(c) == health_pb2.HealthCheckResponse.SERVING
            assert (await c.view(table.game_id)).version == version
            after = await c.act(table.game_id, table.token(1), sm.PerformAct(cards=[swirl(1)]))
            assert after.version > version
            assert (await c.view(await c.create_game(SM, seat_count=2))).version == 1
            assert await health(c) == health_pb2.HealthCheckResponse.SERVING
            assert pool.get_stats().get("returns_bad", 0) >= 1  # dead ones were met
    finally:
        await server.stop(grace=None)


def terminate_connections(database: str, application: str) -> int:
    """Kill every backend of this test's servers (by application name)."""
    plain = urlparse(database)._replace(query="").geturl()
    with psycopg.connect(plain, autocommit=True) as pg:
        rows = pg.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE pid <> pg_backend_pid() AND application_name = %s",
            (application,),
        ).fetchall()
    return len(rows)


async def test_a_busy_store_is_unavailable_but_health_stays_serving(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No free connection within the pool's timeout (a burst of calls on a
    loaded machine) is worth a retry, not a NOT_SERVING: the store is busy,
    not broken."""
    c = served.client
    game_id = await c.create_game(SM, seat_count=2)
    served.server.games.cache.clear()

    def busy(*args: object, **kwargs: object) -> list[bytes]:
        raise ConnectionUnavailableError("Timed out waiting for connection pool semaphore")

    monkeypatch.setattr(served.server.games.log, "read_raw", busy)
    with pytest.raises(CardroomError) as caught:
        await c.view(game_id)
    assert caught.value.code == grpc.StatusCode.UNAVAILABLE
    assert "busy" in caught.value.details
    for _ in range(5):  # a failing store would have turned health by now
        await asyncio.sleep(0.05)
        assert await health(c) == health_pb2.HealthCheckResponse.SERVING
