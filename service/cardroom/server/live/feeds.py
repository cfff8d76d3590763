"""Live feeds: every new event fanned out once to all of a game's watchers.

When a game grows (a command of this process, or another process's write
announced by the store's subscription and read once), :meth:`Feeds.publish`
runs on the event loop: each new event is redacted once per kind of viewer
watching (spectators share one copy, each seat its own, auditors one),
serialized once, and the same :class:`Outgoing` is queued for every watcher
of that kind: gRPC sends its bytes as they are (``serialize``, installed by
cardroom.server.api.server), so a thousand spectators cost one redaction and one
serialization per event. No watcher reads the store for live events.

A watcher first catches up from its cursor in small chunks read in a worker
thread (``WatchEvents`` in cardroom.server.api.servicer), then goes live. Its queue is
bounded: a watcher that falls ``max_backlog`` events behind is ended with
ABORTED naming the cursor to resume from, so a slow or stalled reader holds a
bounded amount of memory and never slows the others or the writer.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from cardroom.domain.kernel import Viewer
from cardroom.server.games.identity import effective, horizon
from cardroom.server.games.narration import Narrations
from cardroom.server.games.reads import serve
from cardroom.server.storage.cache import LoadedGame
from cardroom.trust.heads import HeadSigner
from cardroom.v1 import game_service_pb2 as gpb

END = "end"
# Watchers woken per turn of the event loop. Each woken stream sends on the
# one event loop (about 40 µs a message here); waking a thousand at once
# would queue every other call (the next command, a GetView) behind the
# whole broadcast, so they are woken a few at a time and other calls take
# their turn in between (docs/scaling.md, "Live feeds").
WAKE_SLICE = 8


@dataclass(frozen=True, eq=False)
class Outgoing:
    """One live response, shared by every watcher of one kind of viewer,
    with its bytes made once for all their gRPC streams."""

    response: gpb.WatchEventsResponse
    data: bytes

    @classmethod
    def of(cls, response: gpb.WatchEventsResponse) -> Outgoing:
        return cls(response, response.SerializeToString())


# The responses made during one broadcast, by (viewer, event index, told in
# words): made once, shared by every watcher of that viewer and by the
# publisher.
Made = dict[tuple[Viewer, int, bool], Outgoing]


def outgoing(
    loaded: LoadedGame,
    index: int,
    viewer: Viewer,
    made: Made,
    heads: HeadSigner | None = None,
    narrations: Narrations | None = None,
) -> Outgoing:
    """The viewer's live response for event ``index``, made at most once
    per broadcast, with the event's signed head when ``heads`` signs them,
    and the event in words when ``narrations`` is given (the watcher asked)."""
    key = (viewer, index, narrations is not None)
    response = made.get(key)
    if response is None:
        event = serve(loaded, index, viewer)
        signed = heads.of(event) if heads is not None else None
        told = narrations.lines(loaded, index, viewer, serve, event) if narrations else ()
        response = Outgoing.of(
            gpb.WatchEventsResponse(event=event, signed_head=signed, narration=told)
        )
        made[key] = response
    return response


def serialize(item: Any) -> bytes:
    """WatchEvents' response serializer: a live response's bytes as made
    once; any other response (the catch-up) serialized as usual."""
    if isinstance(item, Outgoing):
        return item.data
    return bytes(item.SerializeToString())


@dataclass(eq=False)
class Watch:
    """One live stream of one game."""

    game_id: str
    viewer: Viewer  # before the policy: seat, spectator or auditor
    loaded: LoadedGame
    cursor: int  # the last sequence queued or sent
    queue: deque[Outgoing] = field(default_factory=deque)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    live: bool = False
    finished: bool = False
    fell_behind: bool = False
    narrate: bool = False  # each event in words too (WatchEventsRequest.narrate)

    def now(self) -> tuple[Viewer, int]:
        """Who this watcher is now (a spectator of an omniscient game becomes
        an auditor at the end) and how far it may see."""
        viewer = effective(self.loaded, self.viewer)
        return viewer, horizon(self.loaded, viewer)


class Feeds:
    def __init__(
        self,
        max_backlog: int,
        heads: HeadSigner | None = None,
        narrations: Narrations | None = None,
    ) -> None:
        self.max_backlog = max_backlog
        self.heads = heads  # signs each event's head once (None: heads unsigned)
        self.narrations = narrations or Narrations()  # for watchers that ask
        self._watches: dict[str, set[Watch]] = {}

    def watched(self, game_id: str) -> bool:
        return bool(self._watches.get(game_id))

    def behind(self, game_id: str, version: int) -> bool:
        """Whether a live watcher of the game has not been fed ``version``."""
        return any(w.live and w.cursor < version for w in self._watches.get(game_id, ()))

    def subscribe(
        self, loaded: LoadedGame, viewer: Viewer, cursor: int, narrate: bool = False
    ) -> Watch:
        watch = Watch(loaded.game_id, viewer, loaded, cursor, narrate=narrate)
        self._watches.setdefault(loaded.game_id, set()).add(watch)
        return watch

    def unsubscribe(self, watch: Watch) -> None:
        watches = self._watches.get(watch.game_id)
        if watches is not None:
            watches.discard(watch)
            if not watches:
                del self._watches[watch.game_id]

    def go_live(self, watch: Watch) -> None:
        """The watcher has caught up: from now on publish feeds it."""
        watch.live = True
        self._feed(watch, {})

    def publish(
        self, game_id: str, loaded: LoadedGame | None = None, made: Made | None = None
    ) -> None:
        """The game grew: queue the new events for every live watcher, then
        wake them a slice at a time. ``made``: responses to share (and to
        keep for the publisher)."""
        made = {} if made is None else made
        fed = []
        for watch in list(self._watches.get(game_id, ())):
            if loaded is not None and watch.loaded is not loaded and not loaded.evicted:
                watch.loaded = loaded  # the cache reloaded the game
            if watch.live:
                self._feed(watch, made, wake=False)
                fed.append(watch)
        self._wake(fed)

    def _wake(self, watches: list[Watch]) -> None:
        """Wake ``WAKE_SLICE`` watchers now and the rest in later turns."""
        for watch in watches[:WAKE_SLICE]:
            watch.ready.set()
        if len(watches) > WAKE_SLICE:
            asyncio.get_running_loop().call_soon(self._wake, watches[WAKE_SLICE:])

    def _feed(self, watch: Watch, made: Made, wake: bool = True) -> None:
        if watch.fell_behind or watch.finished:
            return
        viewer, end = watch.now()
        loaded = watch.loaded
        while watch.cursor < end:
            if len(watch.queue) >= self.max_backlog:
                watch.fell_behind = True
                break
            told = self.narrations if watch.narrate else None
            watch.queue.append(outgoing(loaded, watch.cursor, viewer, made, self.heads, told))
            watch.cursor += 1
        if loaded.finished and watch.cursor >= loaded.version:
            watch.finished = True
        if wake:
            watch.ready.set()
