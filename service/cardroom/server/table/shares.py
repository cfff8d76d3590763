"""Fair shares of a scarce resource among clients (the server's bots' turns
at the event loop, the search pool's workers).

At most ``capacity`` turns are held at once, and one client holds at most
``capacity - reserve`` of them (at least one), so however many bots one
client adds, the reserve is left for the others. Waiting clients are served
round-robin, one turn each, so a client with a hundred bots waiting goes no
faster than one with a single bot. Counters live in this process; nothing
here is recorded (it is coordination, not game state).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter, deque
from collections.abc import AsyncIterator

# Clients whose last turn is remembered (for the round-robin order).
MAX_CLIENTS = 10_000


class FairShares:
    def __init__(self, capacity: int, reserve: int) -> None:
        if capacity < 1:
            raise ValueError("a fair share needs a capacity of 1 or more")
        self.capacity = capacity
        self.per_client = max(1, capacity - max(0, reserve))
        self.held = 0
        self._holding: Counter[str] = Counter()
        # Each waiting client's waiters, first come first served.
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}
        # When each client was last granted a turn (a count of grants).
        self._last: dict[str, int] = {}
        self._ticks = 0

    @contextlib.asynccontextmanager
    async def turn(self, client: str) -> AsyncIterator[None]:
        """Hold one turn of ``client``'s share while the block runs."""
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(client, deque()).append(waiter)
        self._dispatch()  # at once when there is room (a done future is not waited on)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release(client)  # granted just as it was cancelled
            else:
                self._forget(client, waiter)
            raise
        try:
            yield
        finally:
            self._release(client)

    def _grant(self, client: str) -> None:
        self.held += 1
        self._holding[client] += 1
        self._ticks += 1
        self._last[client] = self._ticks
        if len(self._last) > MAX_CLIENTS:  # forget the longest unserved: they come first again
            for old in sorted(self._last, key=self._last.__getitem__)[: MAX_CLIENTS // 2]:
                del self._last[old]

    def _release(self, client: str) -> None:
        self.held -= 1
        self._holding[client] -= 1
        if not self._holding[client]:
            del self._holding[client]
        self._dispatch()

    def _forget(self, client: str, waiter: asyncio.Future[None]) -> None:
        queue = self._waiting.get(client)
        if queue is not None:
            with contextlib.suppress(ValueError):
                queue.remove(waiter)
            if not queue:
                del self._waiting[client]
        self._dispatch()

    def _dispatch(self) -> None:
        """Grant free turns round-robin: each to the waiting client with room
        in its share that was granted one least recently."""
        while self.held < self.capacity and self._waiting:
            eligible = [c for c in self._waiting if self._holding[c] < self.per_client]
            if not eligible:
                return  # every waiting client holds its whole share
            client = min(eligible, key=lambda c: self._last.get(c, -1))
            queue = self._waiting[client]
            waiter = queue.popleft()
            if not queue:
                del self._waiting[client]
            if waiter.done():
                continue  # cancelled meanwhile
            self._grant(client)
            waiter.set_result(None)
