"""A relay's live feeds: the broker's copies forwarded to the relay's watchers.

A relay subscribes once per (game, kind of viewer) it has watchers for, and
hands every message, unchanged (the bytes the game server made, which
``feeds.serialize`` sends as they are), to each of that subject's watchers:
the same bounded queue and the same ABORTED resume as a game server's own
feeds (cardroom.server.live.feeds).

The broker is trusted for nothing but speed. Each message carries its
event's sequence number; a watcher takes only the next one after its cursor.
A message after a gap (the broker dropped some, was restarted, or the
writer died before publishing) sends the watcher back to the store, from
its cursor. Which subject a watcher follows is decided by the relay from
the caller's credentials checked against the store, never by the subject.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from nats.aio.msg import Msg

from cardroom.domain.kernel import Viewer
from cardroom.server.live.broker import Broker
from cardroom.server.live.feeds import Outgoing
from cardroom.server.storage.cache import LoadedGame
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb

log = logging.getLogger(__name__)

# Watchers woken per turn of the event loop. A game server wakes a few at a
# time so that its commands are served between slices (cardroom.server.live.feeds);
# a relay serves nothing else, and waking all at once delivered sooner
# (1,000 spectators through one relay, two paired runs: p50 101-105 ms
# against 118-119 ms; docs/scaling.md).
WAKE_SLICE = 100_000

FINISHED = "/" + tpb.GameFinished.DESCRIPTOR.full_name


class Framed(Outgoing):
    """A live response as the gRPC port sends it (``data``), and as the h2
    transport (cardroom.server.relay.h2) frames it, made once for every
    stream: ``head`` (an HTTP/2 DATA frame's length, type and flags) and
    ``message`` (gRPC's 5-byte prefix and the bytes); a stream adds only
    its 4-byte id between them."""

    @functools.cached_property
    def message(self) -> bytes:
        return b"\x00" + len(self.data).to_bytes(4, "big") + self.data

    @functools.cached_property
    def head(self) -> bytes:
        return len(self.message).to_bytes(3, "big") + b"\x00\x00"


class Sink(Protocol):
    """Where a live watch's responses go without waking its task (the h2
    transport's stream): ``pump`` sends what the queue holds."""

    def pump(self) -> None: ...


@dataclass(eq=False)
class RelayWatch:
    """One live stream of one game on this relay."""

    game_id: str
    viewer: Viewer  # before the policy: seat, spectator or auditor
    loaded: LoadedGame
    cursor: int  # the last sequence queued or sent
    queue: deque[Outgoing] = field(default_factory=deque)
    # Messages heard while the watcher was catching up from the store.
    early: deque[tuple[int, Outgoing, bool]] = field(default_factory=deque)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    live: bool = False
    gap: bool = False  # something was missed: read the store from the cursor
    finished: bool = False
    fell_behind: bool = False
    # The h2 transport's stream: fed as messages arrive, no wake per message.
    sink: Sink | None = None


@dataclass(eq=False)
class Topic:
    """One subject this relay follows, and the watchers it feeds."""

    name: str
    copies: bool  # False: the messages only say the game moved (the auditors)
    watches: set[RelayWatch] = field(default_factory=set)
    subscription: Any = None
    subscribed: asyncio.Event = field(default_factory=asyncio.Event)
    last: int = 0  # the newest sequence heard
    checked: float = 0.0  # when the store was last read for an idle topic
    heard: float = field(default_factory=time.monotonic)  # its last message (or its start)
    # One read of the store begun once the subscription stood: what came
    # before it is in the store's answer, what came after is heard here.
    synced: asyncio.Future[Any] | None = None


class RelayFeeds:
    def __init__(self, broker: Broker, max_backlog: int, wake_slice: int = WAKE_SLICE) -> None:
        self.broker = broker
        self.max_backlog = max_backlog
        self.wake_slice = wake_slice
        self.topics: dict[str, Topic] = {}
        self.received = 0

    async def join(self, watch: RelayWatch, name: str, copies: bool = True) -> Topic:
        """Feed ``watch`` from subject ``name`` (subscribing if it is new);
        messages heard before :meth:`go_live` wait in ``watch.early``."""
        topic = self.topics.get(name)
        if topic is None:
            topic = self.topics[name] = Topic(name, copies)
            try:
                topic.subscription = await self.broker.subscribe(
                    name, functools.partial(self._heard, topic)
                )
            except Exception as error:  # the broker is down: the store serves
                log.info("not subscribed to %s (%s); reading the store", name, error)
            topic.subscribed.set()
        else:
            await topic.subscribed.wait()
        topic.watches.add(watch)
        return topic

    async def sync(self, topic: Topic, read: Callable[[], Awaitable[Any]]) -> None:
        """Wait until the store has been read once since the topic's
        subscription stood (``read`` does it; one read serves every watcher
        of the topic, however many arrive at once)."""
        synced = topic.synced
        if synced is None or (synced.done() and synced.exception() is not None):
            synced = topic.synced = asyncio.ensure_future(read())
        await asyncio.shield(synced)

    def leave(self, watch: RelayWatch, topic: Topic) -> None:
        topic.watches.discard(watch)
        if not topic.watches and self.topics.get(topic.name) is topic:
            del self.topics[topic.name]
            if topic.subscription is not None:
                asyncio.get_running_loop().create_task(_unsubscribe(topic.subscription))

    async def resubscribe(self) -> None:
        """After the broker came back: subjects that could not be followed
        are subscribed now, and every watcher reads what it missed."""
        for topic in list(self.topics.values()):
            if topic.subscription is None:
                try:
                    topic.subscription = await self.broker.subscribe(
                        topic.name, functools.partial(self._heard, topic)
                    )
                except Exception:
                    continue
            topic.synced = None  # read the store again, once for all its watchers
            for watch in topic.watches:
                watch.gap = True
                watch.ready.set()

    async def _heard(self, topic: Topic, msg: Msg) -> None:
        self.received += 1
        topic.heard = time.monotonic()
        response = gpb.WatchEventsResponse.FromString(msg.data)
        sequence = response.event.sequence
        final = response.event.event.type_url.endswith(FINISHED)
        topic.last = max(topic.last, sequence)
        self.deliver(topic, sequence, Framed(response, msg.data), final)

    def deliver(self, topic: Topic, sequence: int, item: Outgoing, final: bool) -> None:
        woken = []
        for watch in list(topic.watches):
            if not topic.copies:
                watch.gap = True  # read the store
            elif not watch.live:
                if len(watch.early) < self.max_backlog:
                    watch.early.append((sequence, item, final))
                else:
                    watch.gap = True
                continue
            else:
                self._take(watch, sequence, item, final)
                if watch.sink is not None:
                    watch.sink.pump()  # frames it now, wakes the task only to end or resync
                    continue
            woken.append(watch)
        self._wake(woken)

    def go_live(self, watch: RelayWatch) -> None:
        """The watcher has caught up from the store: from now on it takes
        the broker's messages (first those heard meanwhile)."""
        watch.live = True
        early, watch.early = watch.early, deque()
        for sequence, item, final in early:
            self._take(watch, sequence, item, final)

    def _take(self, watch: RelayWatch, sequence: int, item: Outgoing, final: bool) -> None:
        if watch.fell_behind or watch.finished or watch.gap or sequence <= watch.cursor:
            return
        if sequence != watch.cursor + 1:
            watch.gap = True
            return
        if len(watch.queue) >= self.max_backlog:
            watch.fell_behind = True
            return
        watch.queue.append(item)
        watch.cursor = sequence
        watch.finished = final

    def _wake(self, watches: list[RelayWatch]) -> None:
        for watch in watches[: self.wake_slice]:
            watch.ready.set()
        if len(watches) > self.wake_slice:
            asyncio.get_running_loop().call_soon(self._wake, watches[self.wake_slice :])

    async def close(self) -> None:
        for topic in list(self.topics.values()):
            if topic.subscription is not None:
                await _unsubscribe(topic.subscription)
        self.topics.clear()


async def _unsubscribe(subscription: Any) -> None:
    try:
        await subscription.unsubscribe()
    except Exception:
        log.debug("unsubscribing", exc_info=True)
