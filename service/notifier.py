"""Wakes live watchers when a game's stream grows.

Writers call :meth:`Notifier.notify` from any thread (the store's append
hook, or a PostgreSQL LISTEN thread for writes by other processes); watchers
await :meth:`Notifier.changed`. The store stays the only source of events:
a wake-up only says "read again", so nothing is lost or sent twice.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict


class Notifier:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._waiters: dict[str, set[asyncio.Event]] = defaultdict(set)

    def notify(self, game_id: str, _version: int = 0) -> None:
        """Thread-safe: wake every watcher of the game."""
        try:
            self._loop.call_soon_threadsafe(self._wake, game_id)
        except RuntimeError:  # loop closed during shutdown
            pass

    def _wake(self, game_id: str) -> None:
        for waiter in self._waiters.get(game_id, ()):
            waiter.set()

    def subscribe(self, game_id: str) -> asyncio.Event:
        """Register before reading, so a write between read and wait wakes us."""
        waiter = asyncio.Event()
        self._waiters[game_id].add(waiter)
        return waiter

    def unsubscribe(self, game_id: str, waiter: asyncio.Event) -> None:
        waiters = self._waiters.get(game_id)
        if waiters is not None:
            waiters.discard(waiter)
            if not waiters:
                del self._waiters[game_id]
