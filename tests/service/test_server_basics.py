"""The server speaks the ecosystem's conventions and refuses bad input cleanly."""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from cardroom.client import GameNotFound, InvalidArgument
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
