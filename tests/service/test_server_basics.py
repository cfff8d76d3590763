"""The server speaks the ecosystem's conventions and refuses bad input cleanly."""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from cardroom.client import Client, DataLoss, GameNotFound, InvalidArgument
from cardroom.server.api.server import Settings, start
from tests.conftest import Served


async def test_health_check_reports_serving(served: Served) -> None:
    async with grpc.aio.insecure_channel(served.address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        for service in ("", "cardroom.v1.GameService"):
            reply = await stub.Check(health_pb2.HealthCheckRequest(service=service))
            assert reply.status == health_pb2.HealthCheckResponse.SERVING


async def test_reflection_lists_the_game_service(served: Served) -> None:
    async with grpc.aio.insecure_channel(served.address) as channel:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        names: list[str] = []
        async for reply in stub.ServerReflectionInfo(iter([request])):
            names += [s.name for s in reply.list_services_response.service]
        assert "cardroom.v1.GameService" in names
        assert "grpc.health.v1.Health" in names


async def test_an_unknown_game_kind_is_an_invalid_argument(served: Served) -> None:
    with pytest.raises(InvalidArgument, match="unknown game kind 'chess'"):
        await served.client.create_game("chess", seat_count=2)


async def test_an_unknown_game_is_not_found(served: Served) -> None:
    with pytest.raises(GameNotFound):
        await served.client.view("00000000-0000-4000-8000-000000000000")


async def test_a_malformed_game_id_is_an_invalid_argument(served: Served) -> None:
    with pytest.raises(InvalidArgument, match="not a UUID"):
        await served.client.view("not-a-game")


async def test_a_new_server_lists_no_games(served: Served) -> None:
    assert await served.client.list_games() == []


async def test_a_stream_changed_outside_the_server_is_data_loss(tmp_path: Path) -> None:
    """(Row tampering on both databases is in tests/trust; this is the status.)"""
    database = str(tmp_path / "cardroom.sqlite3")
    server = await start(Settings(address="127.0.0.1:0", database=database))
    try:
        async with Client.connect(f"127.0.0.1:{server.port}") as client:
            game_id = await client.create_game("smoke-and-mirrors", seat_count=3)
            with sqlite3.connect(database) as db:
                db.execute(
                    "UPDATE stored_events SET state = ? WHERE originator_id = ?",
                    (b"\xff\xff not an envelope", uuid.UUID(game_id).hex),
                )
            server.games.cache.clear()  # as after a restart
            with pytest.raises(DataLoss, match="cannot be read"):
                await client.view(game_id)
            # Still serving: the list answers (it may have listed the game
            # before the row was changed), and another game plays on.
            await client.list_games()
            other = await client.create_game("smoke-and-mirrors", seat_count=3)
            assert (await client.view(other)).version == 1
    finally:
        await server.stop(grace=None)
