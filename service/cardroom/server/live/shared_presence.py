"""Presence across servers and relays, in the broker's key-value bucket.

A server alone knows the calls it served (cardroom.server.table.presence). With a
broker, every server and relay also writes ``<game id>.<seat>`` into the
bucket ``cardroom_presence`` when a seat calls (at most every
``SEEN_EVERY`` seconds per seat) and every ``HEARTBEAT`` seconds while one
of the seat's WatchEvents streams is open on it; every server watches the
bucket and counts each entry as a call of that seat. So a seat watching
through a relay, or playing on another server, is present everywhere. An
entry nobody renews leaves the bucket after ``PRESENCE_SECONDS`` (the
bucket's age limit), and the seat turns absent ``absent_after`` after its
last renewal, as for calls.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Callable

from cardroom.server.live.broker import Broker

log = logging.getLogger(__name__)

Key = tuple[str, int]
SEEN_EVERY = 5.0
HEARTBEAT = 15.0
MAX_REMEMBERED = 100_000  # seats whose last write is kept to space the next


def entry_key(game_id: str, seat: int) -> str:
    return f"{game_id}.{seat}"


def parse_key(key: str) -> Key | None:
    game_id, _, seat = key.rpartition(".")
    return (game_id, int(seat)) if game_id and seat.isdigit() else None


class SharedPresence:
    """Writes this process's seats' presence to the bucket; with ``heard``,
    also tells it every entry written by anyone (a server's Presence)."""

    def __init__(self, broker: Broker, heard: Callable[[str, int], None] | None = None) -> None:
        self.broker = broker
        self.heard = heard
        self._loop = asyncio.get_running_loop()
        self._open: Counter[Key] = Counter()
        self._written: dict[Key, float] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._watcher: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._tasks.append(self._loop.create_task(self._heartbeat()))
        if self.heard is not None:
            self._watch_again()
            self.broker.listeners.append(self._broker_changed)

    def _broker_changed(self, up: bool) -> None:
        if up and self.heard is not None:
            self._watch_again()  # a restarted broker forgot the watch

    def _watch_again(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
        self._watcher = self._loop.create_task(self._watch())

    # ------------------------------------------------------------ writing

    def seen(self, game_id: str, seat: int) -> None:
        """A call of the seat (any thread)."""
        key = (game_id, seat)
        now = time.monotonic()
        if now - self._written.get(key, -SEEN_EVERY) < SEEN_EVERY:
            return
        self._written[key] = now
        if len(self._written) > MAX_REMEMBERED:  # forget what no longer limits anything
            self._written = {k: t for k, t in self._written.items() if now - t < SEEN_EVERY}
        self._loop.call_soon_threadsafe(self._put, key)

    def opened(self, game_id: str, seat: int) -> None:
        """A stream of the seat opened (on the event loop)."""
        self._open[(game_id, seat)] += 1
        self._put((game_id, seat))

    def closed(self, game_id: str, seat: int) -> None:
        key = (game_id, seat)
        self._open[key] -= 1
        if self._open[key] <= 0:
            del self._open[key]
        self._put(key)

    def _put(self, key: Key) -> None:
        if self.broker.up:
            self._tasks.append(self._loop.create_task(self._write(key)))
            self._tasks = [t for t in self._tasks if not t.done()]

    async def _write(self, key: Key) -> None:
        try:
            bucket = await self.broker.presence_bucket()
            await bucket.put(entry_key(*key), b"")
        except Exception as error:
            log.debug("presence not written: %s", error)

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            for key in list(self._open):
                self._put(key)

    # ------------------------------------------------------------ reading

    async def _watch(self) -> None:
        assert self.heard is not None
        while True:
            try:
                bucket = await self.broker.presence_bucket()
                watcher = await bucket.watchall()
                async for entry in watcher:
                    if entry is None or entry.operation is not None:
                        continue  # the end of the initial values, or a deletion
                    key = parse_key(entry.key)
                    if key is not None:
                        self.heard(*key)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.debug("watching presence failed (%s); again in 1 s", error)
            await asyncio.sleep(1.0)

    async def stop(self) -> None:
        tasks = [*self._tasks, *([self._watcher] if self._watcher else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
