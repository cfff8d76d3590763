"""Builds and runs the grpc.aio server: GameService, health, reflection."""

from __future__ import annotations

import asyncio
import logging
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from cardroom.v1 import game_service_pb2, game_service_pb2_grpc
from service.games import Games
from service.live import StoreFeed
from service.notifier import Notifier
from service.servicer import GameServicer
from service.store import GameLog
from service.trust.signing import key_path_for, load_or_create_key

log = logging.getLogger(__name__)

SERVICE_NAME = game_service_pb2.DESCRIPTOR.services_by_name["GameService"].full_name


@dataclass
class Settings:
    address: str = "127.0.0.1:50051"
    database: str = "cardroom.sqlite3"
    operator_token: str | None = None
    # The Ed25519 key that signs game records; created on first start. By
    # default beside a SQLite database, else ./cardroom-signing-key.pem.
    signing_key: str | None = None

    def signing_key_path(self) -> Path:
        if self.signing_key:
            return Path(self.signing_key)
        return key_path_for(self.database) or Path("cardroom-signing-key.pem")


@dataclass
class RunningServer:
    server: grpc.aio.Server
    port: int
    games: Games
    health: Any  # grpc_health.v1.health.aio.HealthServicer (untyped)
    feed: StoreFeed | None = None
    servicer: GameServicer | None = None

    async def stop(self, grace: float | None = 1.0) -> None:
        await self.health.enter_graceful_shutdown()
        await self.server.stop(grace)
        if self.servicer is not None:
            await self.servicer.drain()  # no call may still use the store
        if self.feed is not None:
            self.feed.stop()
        self.games.log.close()


async def start(settings: Settings) -> RunningServer:
    """Start serving on settings.address (port 0 picks a free port)."""
    log_store = GameLog(settings.database)
    key = load_or_create_key(settings.signing_key_path())
    games = Games(log_store, operator_token=settings.operator_token, signing_key=key)
    notifier = Notifier(asyncio.get_running_loop())
    log_store.add_listener(notifier.notify)
    # Writes by other processes sharing the database reach our watchers too.
    feed = StoreFeed(log_store, notifier.notify) if log_store.is_postgres else None

    server = grpc.aio.server()
    servicer = GameServicer(games, notifier)
    game_service_pb2_grpc.add_GameServiceServicer_to_server(servicer, server)
    health_servicer = health.aio.HealthServicer()  # type: ignore[attr-defined]
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    port = server.add_insecure_port(settings.address)
    if port == 0:
        raise OSError(f"cannot listen on {settings.address}")
    await server.start()
    for name in ("", SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return RunningServer(server, port, games, health_servicer, feed, servicer)


async def serve(settings: Settings) -> None:
    running = await start(settings)
    host = settings.address.rsplit(":", 1)[0]
    log.info("cardroom listening on %s:%d (database %s)", host, running.port, settings.database)
    print(f"cardroom listening on {host}:{running.port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await running.stop(grace=2.0)
