"""The connection to NATS (JetStream) shared by game servers and relays.

Subjects (docs/scaling.md, "Relays"): a game's redacted copies go to
``cardroom.events.<game id>.<viewer>`` where ``<viewer>`` is ``spectator``
or ``seat<N>``; the stream ``CARDROOM_EVENTS`` keeps them for an hour.
Nothing published ever holds more than the subject's viewer may see: the
auditors' copies are never published (a relay serves the operator from the
store). Presence lives in the key-value bucket ``cardroom_presence``
(cardroom.server.live.shared_presence).

A broker that cannot be reached never stops a write: :meth:`Broker.publish`
drops what it cannot send at once (nothing is buffered for a reconnection,
so a long outage costs no memory), counts it, and logs one warning per
outage. Relays notice the gap by its sequence numbers and read the missing
events from the store. ``up`` says whether the connection stands now; the
servers and relays show it in their metrics and health.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.js.api import StorageType, StreamConfig
from nats.js.kv import KeyValue

from cardroom.domain.kernel import Viewer

log = logging.getLogger(__name__)

PREFIX = "cardroom.events"
STREAM = "CARDROOM_EVENTS"
STREAM_SECONDS = 3600.0  # how long the stream keeps a published copy
PRESENCE_BUCKET = "cardroom_presence"
PRESENCE_SECONDS = 60.0  # a presence entry not renewed for this long is gone
# Messages one subscription may hold before the relay has handled them:
# past this the broker drops for that subscriber (NATS' "slow consumer"),
# and the relay's watchers catch up from the store.
PENDING_MESSAGES = 1_000_000
PENDING_BYTES = 1024 * 1024 * 1024
RECONNECT_SECONDS = 0.5


class BrokerUnavailable(Exception):
    """The broker could not be reached when the process started."""


def subject(game_id: str, viewer: Viewer) -> str:
    """The subject of one viewer kind's copies of one game."""
    return f"{PREFIX}.{game_id}.{viewer_token(viewer)}"


def game_subjects(game_id: str) -> str:
    """Every subject of one game (a wildcard)."""
    return f"{PREFIX}.{game_id}.*"


def viewer_token(viewer: Viewer) -> str:
    if viewer.kind == "seat":
        return f"seat{viewer.seat}"
    if viewer.kind == "spectator":
        return "spectator"
    raise ValueError(f"no subject carries the {viewer.kind}'s copies")


class Broker:
    """One NATS connection: publish, subscribe, the stream and the buckets."""

    def __init__(self, url: str, name: str) -> None:
        self.url = url
        self.name = name
        self.nc: NATS = NATS()
        self.published = 0
        self.dropped = 0
        self._warned = False
        self._queue: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._sender: asyncio.Task[None] | None = None
        self._connecting: asyncio.Task[None] | None = None
        self._closing = False
        # Told when the connection falls or stands again (True: up).
        self.listeners: list[Callable[[bool], Awaitable[None] | None]] = []

    @property
    def up(self) -> bool:
        return bool(self.nc.is_connected)

    async def start(self) -> None:
        """Connect now, or (the broker cannot be reached) keep trying in the
        background while everything else works without it."""
        try:
            await self.connect()
        except BrokerUnavailable as error:
            log.warning("%s; writes go on and relays read the store until it answers", error)
            self._connecting = asyncio.get_running_loop().create_task(self._keep_connecting())

    async def _keep_connecting(self) -> None:
        while True:
            await asyncio.sleep(RECONNECT_SECONDS * 2)
            try:
                await self.connect()
            except BrokerUnavailable:
                continue
            await self._reconnected()
            return

    async def connect(self, timeout: float = 5.0) -> None:
        """Connect (raising BrokerUnavailable if it cannot in ``timeout``);
        once connected, reconnect forever whenever the connection drops."""
        nc = NATS()
        try:
            await nc.connect(
                servers=[self.url],
                name=self.name,
                connect_timeout=max(1, round(timeout)),
                allow_reconnect=True,
                max_reconnect_attempts=-1,
                reconnect_time_wait=RECONNECT_SECONDS,  # type: ignore[arg-type]
                # Nothing buffered while disconnected: publish fails at once.
                pending_size=0,
                disconnected_cb=self._disconnected,
                reconnected_cb=self._reconnected,
                error_cb=self._error,
            )
        except Exception as error:
            raise BrokerUnavailable(
                f"cannot reach the broker at {self.url}: {error or type(error).__name__}"
            ) from None
        self.nc = nc
        self._sender = asyncio.get_running_loop().create_task(self._send())
        await self.ensure()

    async def ensure(self) -> None:
        """The stream and the presence bucket, created if missing (every
        server and relay does this at start, with the same settings)."""
        js = self.nc.jetstream()
        config = StreamConfig(
            name=STREAM,
            subjects=[f"{PREFIX}.>"],
            storage=StorageType.FILE,
            max_age=STREAM_SECONDS,
        )
        try:
            await js.add_stream(config)
        except Exception:  # exists with other settings: keep it
            log.info("the stream %s exists with other settings; kept", STREAM, exc_info=True)
        await self.presence_bucket()

    async def presence_bucket(self) -> KeyValue:
        js = self.nc.jetstream()
        try:
            return await js.key_value(PRESENCE_BUCKET)
        except Exception:
            return await js.create_key_value(bucket=PRESENCE_BUCKET, ttl=PRESENCE_SECONDS)

    def publish(self, subject_name: str, data: bytes) -> None:
        """Send ``data`` soon, in the order of the calls (from the event
        loop; never blocks). Dropped, and counted, while the broker is down."""
        if not self.up:
            self._drop()
            return
        self._queue.put_nowait((subject_name, data))

    async def _send(self) -> None:
        while True:
            subject_name, data = await self._queue.get()
            try:
                await self.nc.publish(subject_name, data)
                self.published += 1
            except Exception:
                self._drop()

    def _drop(self) -> None:
        self.dropped += 1
        if not self._warned:
            self._warned = True
            log.warning(
                "the broker at %s is unreachable: live copies are not published (relays read "
                "the store meanwhile); writes go on",
                self.url,
            )

    async def subscribe(self, subject_name: str, handle: Callable[[Msg], Awaitable[None]]) -> Any:
        """A subscription calling ``handle`` for each message, in order."""
        sub: Subscription = await self.nc.subscribe(
            subject_name,
            cb=handle,
            pending_msgs_limit=PENDING_MESSAGES,
            pending_bytes_limit=PENDING_BYTES,
        )
        return sub

    async def _disconnected(self) -> None:
        if self._closing:
            return
        log.warning("lost the broker at %s; reconnecting", self.url)
        await self._tell(False)

    async def _reconnected(self) -> None:
        log.info("the broker at %s answers again", self.url)
        self._warned = False
        try:
            await self.ensure()  # a broker that lost its storage gets them again
        except Exception as error:
            log.warning("the stream or the presence bucket could not be made: %s", error)
        await self._tell(True)

    async def _tell(self, up: bool) -> None:
        for listener in list(self.listeners):
            try:
                result = listener(up)
                if result is not None:
                    await result
            except Exception:
                log.warning("a broker listener failed", exc_info=True)

    async def _error(self, error: Exception) -> None:
        log.debug("broker: %s", error)

    async def close(self) -> None:
        self._closing = True
        for task in (self._sender, self._connecting):
            if task is not None:
                task.cancel()
        try:
            await self.nc.close()
        except Exception:
            log.debug("closing the broker connection", exc_info=True)


async def start(url: str, name: str) -> Broker:
    """A broker connection, up now or connecting in the background."""
    broker = Broker(url, name)
    await broker.start()
    return broker
