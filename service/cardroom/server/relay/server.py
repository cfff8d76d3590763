"""``cardroom relay``: WatchEvents (gRPC, Connect, gRPC-Web) served from the
broker, in front of the game servers (docs/scaling.md, "Relays").

A relay holds no state of its own and writes nothing but presence: start
as many as the audience needs, on as many hosts, and put them behind any
load balancer. Each takes the request, credentials, cursor and statuses of
a game server's ``WatchEvents``:

* the caller is checked against the store (its token names a seat of the
  game, the operator, or nobody: a spectator), as a server checks it, so a
  seat token opens only that seat's copies;
* the watcher catches up from its cursor in chunks read from the store,
  each viewer's copies made by the same code as the server's;
* then it takes the broker's copies of its kind of viewer
  (cardroom.server.relay.feeds), forwarded as the game server serialized
  them, with the same bounded backlog and ABORTED resume; a gap sends it
  back to the store. The operator's stream is read from the store, woken by
  the game's messages (auditors' copies are never published).

While the broker is down, or a followed game has said nothing for
``IDLE_SECONDS``, the relay reads the store instead (at most once per
subject and period), so its watchers miss nothing either way. A seat
watching through a relay is present for every server (shared presence).
Every other GameService call is UNIMPLEMENTED: play against a server.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import signal
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from prometheus_client import Gauge

from cardroom.domain import registry
from cardroom.domain.kernel import SPECTATOR, Viewer
from cardroom.server.api.server import (
    BROKER_HEALTH,
    SERVICE_NAME,
    LiveBytesRegistrar,
    ServeError,
    Settings,
    follow_broker,
    open_store,
    parse_address,
    server_credentials,
)
from cardroom.server.api.servicer import bearer_token
from cardroom.server.api.status import status_of
from cardroom.server.browser.app import WebServer, bind, tls_context, web_app
from cardroom.server.errors import FellBehind, Unauthenticated
from cardroom.server.games.identity import Identity, effective, horizon, parse_game_id
from cardroom.server.games.reads import copies
from cardroom.server.limits import Limits, TooBusy, client_of
from cardroom.server.live import broker as brokers
from cardroom.server.live.feeds import Outgoing
from cardroom.server.live.shared_presence import SharedPresence
from cardroom.server.observability import CallInterceptor, Metrics
from cardroom.server.relay.feeds import RelayFeeds, RelayWatch, Topic
from cardroom.server.relay.h2 import H2Server
from cardroom.server.storage.cache import GameCache, LoadedGame
from cardroom.server.storage.checkpoints import Checkpoints
from cardroom.trust import keyring
from cardroom.trust.heads import HeadSigner
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import game_service_pb2_grpc as gpb_grpc

log = logging.getLogger(__name__)

R = TypeVar("R")
BACKLOG_CHUNK = 32  # events copied per worker-thread call while a watcher catches up
IDLE_SECONDS = 10.0  # a followed game silent this long: the store is read once
DOWN_SECONDS = 1.0  # ... and this often while the broker is down


class RelayServicer(gpb_grpc.GameServiceServicer):
    """WatchEvents from the broker; every other call UNIMPLEMENTED."""

    def __init__(
        self,
        store: Any,
        broker: brokers.Broker,
        *,
        operator_token: str | None = None,
        limits: Limits | None = None,
        metrics: Metrics | None = None,
        presence: SharedPresence | None = None,
        heads: HeadSigner | None = None,
    ) -> None:
        self.limits = limits or Limits()
        # Signs the heads of the events a watcher catches up on from the
        # store, as the server would (the live ones carry the server's).
        self.heads = heads
        self.metrics = metrics or Metrics()
        self.broker = broker
        self.cache = GameCache(
            store, Checkpoints(None), refresh="notified", max_games=self.limits.cache_games
        )
        self.identity = Identity(operator_token, presence.seen if presence else _nobody)
        self.presence = presence
        self.feeds = RelayFeeds(broker, self.limits.max_stream_backlog)
        self.watchers = 0
        self.clients: Counter[str] = Counter()  # open streams per client
        self.opened = 0  # streams opened since the start
        self.executor = ThreadPoolExecutor(thread_name_prefix="cardroom-relay")
        self._sweeper: asyncio.Task[None] | None = None
        broker.listeners.append(self._broker_changed)

    async def _run(self, fn: Callable[..., R], *args: Any) -> R:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, functools.partial(fn, *args))

    async def _broker_changed(self, up: bool) -> None:
        if up:
            await self.feeds.resubscribe()

    async def drain(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
        await self.feeds.close()
        shutdown = functools.partial(self.executor.shutdown, wait=True, cancel_futures=True)
        await asyncio.get_running_loop().run_in_executor(None, shutdown)

    async def abort_for(self, context: grpc.aio.ServicerContext, error: BaseException) -> None:
        mapped = status_of(error)
        if mapped is None:
            log.error("unexpected error", exc_info=error)
            await context.abort(grpc.StatusCode.INTERNAL, "internal error")
            return
        await context.abort(*mapped)

    # ----------------------------------------------------------- streams

    def check_viewer(
        self, game_id: str, token: str | None, as_spectator: bool, fresh: bool = False
    ) -> tuple[LoadedGame, Viewer]:
        """The game and the caller's viewer (before the end-of-game policy),
        checked as a game server checks it. A seat's token never changes
        seats, so the cached game answers, unless it does not know the
        token (``fresh``: the store is read, for a seat taken since)."""
        loaded = self.cache.load(parse_game_id(game_id), fresh=fresh)
        caller = self.identity.caller(loaded, token)
        self.identity.viewer(loaded, token, as_spectator)  # refuses ghosting
        return loaded, (SPECTATOR if as_spectator else caller.viewer)

    async def _viewer(
        self, game_id: str, token: str | None, as_spectator: bool
    ) -> tuple[LoadedGame, Viewer]:
        try:
            return await self._run(self.check_viewer, game_id, token, as_spectator)
        except Unauthenticated:
            return await self._run(self.check_viewer, game_id, token, as_spectator, True)

    def watching(self, game_id: str, seat: int) -> contextlib.AbstractContextManager[None]:
        """The seat is present (shared presence) while the context lasts."""
        if self.presence is None:
            return contextlib.nullcontext()
        return _watching(self.presence, game_id, seat)

    def _open_stream(self, client: str | None) -> None:
        """A slot of the relay's total, and of ``client``'s share (every
        stream of a client, its seats' too; None: the operator, unshared)."""
        if self.watchers >= self.limits.max_watchers:
            raise TooBusy(
                f"the relay streams to {self.limits.max_watchers} watchers already, its limit; "
                "try again later or on another relay"
            )
        if client is not None and self.clients[client] >= self.limits.watchers_per_client:
            raise TooBusy(
                f"this client has {self.limits.watchers_per_client} streams open on this relay "
                "already, the limit per client"
            )
        if client is not None:
            self.clients[client] += 1
        self.watchers += 1
        self.opened += 1
        self.metrics.live_watchers.inc()

    def _close_stream(self, client: str | None) -> None:
        if client is not None:
            self.clients[client] -= 1
            if self.clients[client] <= 0:
                del self.clients[client]
        self.watchers -= 1
        self.metrics.live_watchers.dec()

    async def WatchEvents(
        self, request: gpb.WatchEventsRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[gpb.WatchEventsResponse | Outgoing]:
        """As GameServicer.WatchEvents: the caller's redacted events after
        the cursor, then live ones; ends once the game is finished and all
        is sent, or with ABORTED if the reader falls too far behind."""
        if request.narrate:
            # The words come from the server's fold of each viewer's feed; a
            # relay only forwards copies.
            await context.abort(
                grpc.StatusCode.UNIMPLEMENTED,
                "a relay does not narrate: ask the server for WatchEvents with narrate",
            )
        token = bearer_token(context)
        client = None if self.identity.is_operator(token) else client_of(context.peer())
        try:
            self._open_stream(client)
        except TooBusy as error:
            await self.abort_for(context, error)
            return
        watch: RelayWatch | None = None
        topic: Topic | None = None
        present = contextlib.ExitStack()
        sent = request.after_sequence
        try:
            loaded, viewer = await self._viewer(request.game_id, token, request.as_spectator)
            if viewer.seat is not None:
                present.enter_context(self.watching(loaded.game_id, viewer.seat))
            watch = RelayWatch(loaded.game_id, viewer, loaded, request.after_sequence)
            if viewer.kind == "auditor":
                topic = await self.feeds.join(
                    watch, brokers.game_subjects(loaded.game_id), copies=False
                )
            else:
                topic = await self.feeds.join(watch, brokers.subject(loaded.game_id, viewer))
            self._start_sweeping()
            game_id = loaded.game_id
            read = functools.partial(
                self._run, functools.partial(self.cache.load, game_id, fresh=True)
            )
            while True:
                await self.feeds.sync(topic, read)
                # Catch up from the store, a few events at a time.
                while True:
                    chunk, done = await self._run(self._backlog, watch, topic.last)
                    for envelope in chunk:
                        signed = self.heads.of(envelope) if self.heads is not None else None
                        yield gpb.WatchEventsResponse(event=envelope, signed_head=signed)
                        sent = watch.cursor = envelope.sequence
                    if done:
                        return
                    if not chunk:
                        break
                watch.gap = False
                self.feeds.go_live(watch)
                while True:
                    while watch.queue:
                        item = watch.queue.popleft()
                        yield item
                        sent = item.response.event.sequence
                    if watch.fell_behind:
                        raise FellBehind(
                            f"this stream fell {self.limits.max_stream_backlog} events behind "
                            f"its game; resume with after_sequence={sent}"
                        )
                    if watch.finished:
                        return
                    if watch.gap:
                        break
                    # No timer per stream and message: the sweeper wakes
                    # a quiet topic's watchers when the store is ahead.
                    watch.ready.clear()
                    await watch.ready.wait()
                # Back to the store from the cursor: a gap, or the store is ahead.
                watch.live = False
                watch.early.clear()
        except asyncio.CancelledError:
            raise
        except Exception as error:
            if isinstance(error, grpc.aio.AbortError):
                raise
            await self.abort_for(context, error)
        finally:
            present.close()
            if watch is not None and topic is not None:
                self.feeds.leave(watch, topic)
            self._close_stream(client)

    def _start_sweeping(self) -> None:
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        """Read the store for the followed games gone quiet: silent for
        ``IDLE_SECONDS`` while the broker is up, for ``DOWN_SECONDS`` while
        it is down (from the moment it falls, give or take a tick). One
        task for the relay, not a timer per stream and message."""
        while True:
            period = IDLE_SECONDS if self.broker.up else DOWN_SECONDS
            await asyncio.sleep(min(period / 4, DOWN_SECONDS))
            period = IDLE_SECONDS if self.broker.up else DOWN_SECONDS
            quiet = [t for t in list(self.feeds.topics.values()) if self._quiet(t, period)]
            results = await asyncio.gather(
                *(self._check_idle(topic) for topic in quiet), return_exceptions=True
            )
            for result in results:
                if isinstance(result, Exception):
                    log.warning("reading the store for a quiet game failed: %s", result)

    @staticmethod
    def _quiet(topic: Topic, period: float) -> bool:
        now = time.monotonic()
        return bool(topic.watches) and min(now - topic.heard, now - topic.checked) >= period

    async def _check_idle(self, topic: Topic) -> None:
        """A followed game said nothing for a while: read the store once
        for all the subject's watchers (not each), and send them back to it
        if it holds newer events than the broker told of."""
        topic.checked = time.monotonic()
        game_id = next(iter(topic.watches)).game_id
        loaded = await self._run(functools.partial(self.cache.load, game_id, fresh=True))
        topic.last = max(topic.last, loaded.version)
        for watch in list(topic.watches):
            if horizon(loaded, effective(loaded, watch.viewer)) > watch.cursor:
                watch.gap = True  # the cache holds what it missed now
                watch.ready.set()

    def _backlog(self, watch: RelayWatch, heard: int) -> tuple[list[epb.EventEnvelope], bool]:
        """The next chunk of the watcher's copies (the store is read when
        the broker has told of events the cache lacks), and whether the
        game is over with all of it sent."""
        loaded = self.cache.load(watch.game_id, min_version=heard)
        watch.loaded = loaded
        viewer = effective(loaded, watch.viewer)
        end = min(horizon(loaded, viewer), watch.cursor + BACKLOG_CHUNK)
        chunk = copies(loaded, viewer, watch.cursor, end)
        last = chunk[-1].sequence if chunk else watch.cursor
        return chunk, loaded.finished and last >= loaded.version


def _nobody(game_id: str, seat: int) -> None:
    pass


@contextlib.contextmanager
def _watching(presence: SharedPresence, game_id: str, seat: int) -> Any:
    presence.opened(game_id, seat)
    try:
        yield
    finally:
        presence.closed(game_id, seat)


def _unimplemented(name: str) -> Callable[..., Any]:
    async def method(self: RelayServicer, request: Any, context: Any) -> Any:
        await context.abort(
            grpc.StatusCode.UNIMPLEMENTED,
            f"this is a relay: it serves WatchEvents only; call {name} on a game server",
        )

    method.__name__ = name
    return method


for _method in gpb.DESCRIPTOR.services_by_name["GameService"].methods:
    if _method.name != "WatchEvents":
        setattr(RelayServicer, _method.name, _unimplemented(_method.name))


# ------------------------------------------------------------------ process


TRANSPORTS = ("grpc", "h2")
# h2 serves what grpc.aio does (relay/h2.py) at about a tenth of the CPU per
# delivered message (docs/scaling.md, "What one relay core serves").
DEFAULT_TRANSPORT = "h2"
# What reflection lists on a relay's gRPC port, either transport.
REFLECTED = (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME)


@dataclass
class RunningRelay:
    server: grpc.aio.Server | H2Server
    port: int
    servicer: RelayServicer
    broker: brokers.Broker
    presence: SharedPresence
    health: Any
    store: Any
    web: WebServer | None = None
    stop_metrics: Callable[[], None] | None = None

    async def stop(self, grace: float | None = 1.0) -> None:
        await self.health.enter_graceful_shutdown()
        if self.web is not None:
            await self.web.stop(grace)
        await self.server.stop(grace)
        await self.servicer.drain()
        await self.presence.stop()
        await self.broker.close()
        if self.stop_metrics is not None:
            self.stop_metrics()
        self.store.close()


def relay_heads(settings: Settings) -> HeadSigner | None:
    """The server's head signer, when the server's key file is readable
    here (a relay never creates the server's key): a relay reads the same
    database, so it is inside the same trust boundary."""
    path = settings.signing_key_path()
    if not settings.signed_heads or not path.exists():
        return None
    return HeadSigner(keyring.load_ring(path).current)


async def start_relay(settings: Settings, transport: str = DEFAULT_TRANSPORT) -> RunningRelay:
    """Start a relay on settings.address (port 0 picks one): it reads
    settings.database and follows settings.broker (required). ``transport``:
    "h2" (cardroom.server.relay.h2, the default) or "grpc" (grpc.aio): the
    same calls, h2 at a fraction of the CPU per delivered message
    (docs/scaling.md)."""
    if transport not in TRANSPORTS:
        raise ServeError(f"unknown relay transport {transport!r}: one of {', '.join(TRANSPORTS)}")
    if not settings.broker:
        raise ServeError("a relay needs --broker nats://HOST:PORT")
    parse_address(settings.address)
    limits = settings.limits or Limits()
    credentials = server_credentials(settings)
    store = open_store(settings.database)
    try:
        return await _start_relay(settings, limits, credentials, store, transport)
    except BaseException:
        store.close()
        raise


async def _start_relay(
    settings: Settings,
    limits: Limits,
    credentials: grpc.ServerCredentials | None,
    store: Any,
    transport: str = DEFAULT_TRANSPORT,
) -> RunningRelay:
    assert settings.broker
    registry.games()
    metrics = Metrics()
    broker = await brokers.start(settings.broker, "cardroom-relay")
    metrics.watch_broker(broker)
    presence = SharedPresence(broker)
    await presence.start()
    interceptor = CallInterceptor(metrics)
    health_servicer = health.aio.HealthServicer()  # type: ignore[attr-defined]
    servicer = RelayServicer(
        store,
        broker,
        operator_token=settings.operator_token,
        limits=limits,
        metrics=metrics,
        presence=presence,
        heads=relay_heads(settings),
    )
    received = Gauge(
        "cardroom_relay_received",
        "Live copies received from the broker since the start",
        registry=metrics.registry,
    )
    received.set_function(lambda: servicer.feeds.received)
    server: grpc.aio.Server | H2Server
    try:
        if transport == "h2":
            server = H2Server(servicer, health_servicer, limits, REFLECTED)
            tls = tls_context(settings.tls_cert, settings.tls_key, settings.tls_client_ca)
            port = await server.start(bind(*parse_address(settings.address)), tls)
        else:
            server = grpc.aio.server(interceptors=[interceptor], options=limits.server_options())
            gpb_grpc.add_GameServiceServicer_to_server(servicer, LiveBytesRegistrar(server))
            health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
            reflection.enable_server_reflection(REFLECTED, server)
            if credentials is None:
                port = server.add_insecure_port(settings.address)
            else:
                port = server.add_secure_port(settings.address, credentials)
    except (RuntimeError, OSError):
        await broker.close()
        raise ServeError(
            f"cannot listen on {settings.address}: the address is in use or not available "
            "on this machine"
        ) from None
    stop_metrics = metrics.serve(settings.metrics_address) if settings.metrics_address else None
    if isinstance(server, grpc.aio.Server):
        await server.start()
    web = None
    if settings.web_address:
        socket = bind(*parse_address(settings.web_address))
        app = await web_app(servicer, interceptor, limits, settings.web_origins, table=False)
        tls = tls_context(settings.tls_cert, settings.tls_key, settings.tls_client_ca)
        web = await WebServer.start(app, socket, tls)
    await follow_broker(broker, health_servicer)
    for name in ("", SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return RunningRelay(
        server, port, servicer, broker, presence, health_servicer, store, web, stop_metrics
    )


async def relay(settings: Settings, transport: str = DEFAULT_TRANSPORT) -> None:
    """Run a relay until SIGINT or SIGTERM."""
    running = await start_relay(settings, transport)
    host = settings.address.rsplit(":", 1)[0]
    print(f"cardroom relay listening on {host}:{running.port}", flush=True)
    if running.web is not None:
        print(f"browsers: {running.web.url}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await running.stop(grace=2.0)


__all__ = [
    "BROKER_HEALTH",
    "DEFAULT_TRANSPORT",
    "TRANSPORTS",
    "RelayServicer",
    "RunningRelay",
    "relay",
    "start_relay",
]
