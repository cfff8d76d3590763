"""Health follows the store: once a call finds the store unreachable or
unreadable, health turns NOT_SERVING and a probe reads the store with
backoff until it answers again, then health turns SERVING. Nothing restarts:
the calls themselves recover as soon as the store does."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from grpc_health.v1 import health_pb2

from cardroom.server.observability import Metrics
from cardroom.server.storage.log import GameLog

log = logging.getLogger(__name__)

FIRST_RETRY_SECONDS = 0.2
MAX_RETRY_SECONDS = 5.0
SERVICES = ("", "cardroom.v1.GameService", "cardroom.v1.CompetitionService")


class StoreHealth:
    def __init__(self, store: GameLog, health: Any, metrics: Metrics) -> None:
        self._store = store
        self._health = health  # grpc_health's aio HealthServicer, or None
        self._metrics = metrics
        self._probe: asyncio.Task[None] | None = None

    def failed(self) -> None:
        """A call found the store failing: report it until a probe succeeds.
        Called on the server's event loop."""
        if self._probe is not None and not self._probe.done():
            return
        self._metrics.store_up.set(0)
        self._probe = asyncio.get_running_loop().create_task(self._recover())

    async def _set(self, status: int) -> None:
        if self._health is None:
            return
        for name in SERVICES:
            await self._health.set(name, status)

    async def _recover(self) -> None:
        await self._set(health_pb2.HealthCheckResponse.NOT_SERVING)
        delay = FIRST_RETRY_SECONDS
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(delay)
            try:
                await loop.run_in_executor(None, self._store.probe)
            except Exception as error:
                log.warning("the store is still failing: %s", str(error)[:200])
                delay = min(delay * 2, MAX_RETRY_SECONDS)
                continue
            break
        log.info("the store answers again")
        self._metrics.store_up.set(1)
        await self._set(health_pb2.HealthCheckResponse.SERVING)

    def stop(self) -> None:
        if self._probe is not None:
            self._probe.cancel()
            self._probe = None
