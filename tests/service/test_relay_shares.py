"""A relay's streams are shared per client too (issue 34: one client could
take every slot of a relay)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest

from cardroom.client import Client
from cardroom.server.api.server import Settings, start
from cardroom.server.limits import Limits
from cardroom.server.relay.server import start_relay
from tests.conftest import OPERATOR_TOKEN
from tests.service.relays import eventually, nats_or_skip, raw_feed


async def test_a_client_past_its_share_of_a_relay_is_refused_and_the_operator_is_not(
    tmp_path: Path,
) -> None:
    broker = nats_or_skip()
    database = str(tmp_path / "cardroom.sqlite3")
    server = await start(
        Settings(
            address="127.0.0.1:0", database=database, operator_token=OPERATOR_TOKEN, broker=broker
        )
    )
    relay = await start_relay(
        Settings(
            address="127.0.0.1:0",
            database=database,
            operator_token=OPERATOR_TOKEN,
            broker=broker,
            limits=Limits(watchers_per_client=2),
        )
    )
    client = Client.connect(f"127.0.0.1:{server.port}")
    streams: list[asyncio.Task[list[bytes]]] = []
    try:
        game_id = await client.create_game("smoke-and-mirrors", seat_count=2)
        seat = await client.join(game_id, "Ada")
        address = f"127.0.0.1:{relay.port}"
        streams = [
            asyncio.create_task(raw_feed(address, game_id)),
            asyncio.create_task(raw_feed(address, game_id, seat.token)),  # a seat's counts too
        ]
        await eventually(lambda: relay.servicer.watchers == 2, "two relay streams to open")
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await asyncio.wait_for(raw_feed(address, game_id), 30)  # bounds a hang
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "limit per client" in (caught.value.details() or "")
        streams.append(asyncio.create_task(raw_feed(address, game_id, OPERATOR_TOKEN)))
        await eventually(lambda: relay.servicer.watchers == 3, "the operator's stream to open")
    finally:
        for stream in streams:
            stream.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
        await client.close()
        await relay.stop(grace=None)
        await server.stop(grace=None)
