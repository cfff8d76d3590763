"""Following one viewer's feed of a game, through disconnects.

``Follower`` reads WatchEvents with the viewer's credential and tells each
event with a :class:`~cardroom.client.feed.Feed`. When the server goes away it
reconnects from the last event told (the feed's cursor), so nothing is told
twice and nothing is missed.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Protocol

import grpc

from cardroom.client.errors import CardroomError
from cardroom.client.feed import Feed, NarratedEvent
from cardroom.v1 import envelope_pb2 as epb


class Watcher(Protocol):
    """What a follower needs of a client (cardroom.client.Client is one)."""

    def watch(
        self,
        game_id: str,
        token: str | None = None,
        after_sequence: int = 0,
        *,
        as_spectator: bool = False,
    ) -> AsyncIterator[epb.EventEnvelope]: ...


# Status codes after which the same call may succeed later.
TRANSIENT = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})


def transient(error: CardroomError) -> bool:
    return error.code in TRANSIENT


def backoff(attempt: int) -> float:
    """Seconds to wait before reconnect ``attempt`` (0-based): 0.1 s doubling, at most 3 s."""
    return min(3.0, 0.1 * 2**attempt)


Listener = Callable[[epb.EventEnvelope, list[str]], None]


@dataclass
class Follower:
    client: Watcher
    game_id: str
    token: str | None = None
    as_spectator: bool = False
    feed: Feed = field(default_factory=Feed)
    # Called with every new envelope and its lines, in order.
    listener: Listener | None = None
    # Reconnects in a row before giving up (the last error is raised).
    reconnects: int = 30
    on_reconnect: Callable[[int, CardroomError], None] | None = None
    _events: AsyncIterator[epb.EventEnvelope] | None = None

    async def next(self) -> epb.EventEnvelope | None:
        """The next new event, or None once the game is over and all is told."""
        told = await self.next_told()
        return None if told is None else told.envelope

    async def next_told(self) -> NarratedEvent | None:
        """The next new event with its words, or None once the game is over."""
        for attempt in range(self.reconnects + 1):
            if self._events is None:
                self._events = aiter(
                    self.client.watch(
                        self.game_id,
                        self.token,
                        after_sequence=self.feed.cursor,
                        as_spectator=self.as_spectator,
                    )
                )
            try:
                envelope = await anext(self._events)
            except StopAsyncIteration:
                self._events = None
                return None
            except CardroomError as error:
                self._events = None
                if not transient(error) or attempt == self.reconnects:
                    raise
                if self.on_reconnect is not None:
                    self.on_reconnect(attempt, error)
                await asyncio.sleep(backoff(attempt))
                continue
            new = envelope.sequence > self.feed.cursor
            lines = self.feed.tell(envelope)
            if new and self.listener is not None:
                self.listener(envelope, lines)
            return NarratedEvent(envelope, tuple(lines))
        raise AssertionError("unreachable")  # pragma: no cover

    async def until(self, version: int) -> bool:
        """Tell every event up to ``version``; False if the feed ended first."""
        while self.feed.cursor < version:
            if await self.next() is None:
                return False
        return True

    async def close(self) -> None:
        """Stop following. A read still waiting (in another task) ends when
        that task is cancelled or the client is closed."""
        events, self._events = self._events, None
        aclose = getattr(events, "aclose", None)
        if aclose is not None:
            try:
                await aclose()
            except RuntimeError:  # being read right now: its reader's cancellation closes it
                pass
