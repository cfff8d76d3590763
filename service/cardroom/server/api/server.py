"""Builds and runs the grpc.aio server: GameService, CompetitionService, health, reflection,
the server's limits, TLS and metrics (docs/operations.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import signal
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, cast

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from cardroom.client import Client
from cardroom.client.bots import DEFAULT_THINK_MS
from cardroom.domain import registry
from cardroom.server.api.competition_servicer import CompetitionServicer
from cardroom.server.api.servicer import GameServicer
from cardroom.server.browser.app import WebServer, bind, tls_context, web_app
from cardroom.server.browser.connections import WebLimits
from cardroom.server.games.application import Games
from cardroom.server.limits import Limits
from cardroom.server.live import broker as brokers
from cardroom.server.live import feeds
from cardroom.server.live.publisher import Publisher
from cardroom.server.live.shared_presence import SharedPresence
from cardroom.server.live.store_feed import StoreFeed
from cardroom.server.observability import CallInterceptor, Metrics
from cardroom.server.storage.log import GameLog, StoreLocked, describe_database
from cardroom.server.table import clocks
from cardroom.server.table.bots import BotRunner
from cardroom.server.table.leases import leases_for
from cardroom.trust import keyring
from cardroom.trust.signing import key_path_for
from cardroom.v1 import (
    competition_service_pb2,
    competition_service_pb2_grpc,
    game_service_pb2,
    game_service_pb2_grpc,
)

log = logging.getLogger(__name__)

SERVICE_NAME = game_service_pb2.DESCRIPTOR.services_by_name["GameService"].full_name
COMPETITION_SERVICE_NAME = competition_service_pb2.DESCRIPTOR.services_by_name[
    "CompetitionService"
].full_name
# The health service name that follows the broker (with --broker): SERVING
# while it answers, NOT_SERVING while live copies cannot be published.
BROKER_HEALTH = "cardroom.broker"
STOP_STEP_SECONDS = 10.0  # each step of RunningServer.stop before the drain


@dataclass(frozen=True)
class Undecodable:
    """A request whose bytes are not its message (the deserializer's answer
    instead of raising, which grpc would report as UNKNOWN)."""

    type_name: str


def refusing_undecodable(handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
    """``handler`` answering INVALID_ARGUMENT to a request that does not
    parse, as the web port does."""
    parse = handler.request_deserializer
    assert parse is not None and not handler.request_streaming
    type_name = getattr(getattr(parse, "__self__", None), "DESCRIPTOR", None)
    name = type_name.full_name if type_name is not None else "request"

    def deserialize(data: bytes) -> Any:
        try:
            return parse(data)
        except Exception:
            return Undecodable(name)

    async def refuse(request: Undecodable, context: grpc.aio.ServicerContext) -> NoReturn:
        await context.abort(
            grpc.StatusCode.INVALID_ARGUMENT,
            f"the request is not a valid {request.type_name} message",
        )

    if handler.response_streaming:
        inner_stream: Any = handler.unary_stream  # async, as grpc.aio runs it
        assert inner_stream is not None

        async def stream(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            if isinstance(request, Undecodable):
                await refuse(request, context)
            async for item in inner_stream(request, context):
                yield item

        return grpc.unary_stream_rpc_method_handler(
            stream, deserialize, handler.response_serializer
        )
    inner: Any = handler.unary_unary
    assert inner is not None

    async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
        if isinstance(request, Undecodable):
            await refuse(request, context)
        return await inner(request, context)

    return grpc.unary_unary_rpc_method_handler(unary, deserialize, handler.response_serializer)


class LiveBytesRegistrar:
    """Hands the generated registrar's method handlers to the server with
    one change: WatchEvents' responses go through ``feeds.serialize``, so a
    live event's bytes are made once for every stream that receives it."""

    def __init__(self, server: grpc.aio.Server) -> None:
        self.server = server

    def add_generic_rpc_handlers(self, handlers: object) -> None:
        pass  # the same handlers arrive, changed, in add_registered_method_handlers

    def add_registered_method_handlers(
        self, service: str, handlers: dict[str, grpc.RpcMethodHandler]
    ) -> None:
        handlers = {name: refusing_undecodable(handler) for name, handler in handlers.items()}
        watch = handlers["WatchEvents"]
        assert watch.unary_stream is not None
        handlers["WatchEvents"] = grpc.unary_stream_rpc_method_handler(
            watch.unary_stream, watch.request_deserializer, feeds.serialize
        )
        generic = grpc.method_handlers_generic_handler(service, handlers)
        self.server.add_generic_rpc_handlers((generic,))
        # Newer than the type stubs: what the generated registrar calls too.
        cast(Any, self.server).add_registered_method_handlers(service, handlers)


class ServeError(Exception):
    """The server cannot start: a one-line reason for the operator."""


@dataclass
class Settings:
    address: str = "127.0.0.1:50051"
    database: str = "cardroom.sqlite3"
    operator_token: str | None = None
    # The Ed25519 key that signs game records; created on first start. By
    # default beside a SQLite database, else ./cardroom-signing-key.pem.
    signing_key: str | None = None
    # Sign the head of every served event (docs/trust.md, "Signed heads");
    # off only to measure what signing costs.
    signed_heads: bool = True
    # TLS: a PEM certificate chain and key serve a secure port; a client CA
    # additionally requires every client to present a certificate it signed.
    tls_cert: str | None = None
    tls_key: str | None = None
    tls_client_ca: str | None = None
    # HOST:PORT for Prometheus' /metrics; None serves no metrics.
    metrics_address: str | None = None
    limits: Limits | None = None
    # HOST:PORT for browsers: Connect and gRPC-Web, and the files of web_root
    # (default: the reference web table) at /; None serves none. Pages from
    # web_origins may call it cross-origin (CORS); "*" allows any.
    web_address: str | None = None
    web_origins: tuple[str, ...] = ()
    web_root: str | None = None
    # The web port's timeouts and connection caps (cardroom.server.browser.connections).
    web_limits: WebLimits | None = None
    # Seconds without a call (no command, no open WatchEvents) after which
    # a seat of a running game shows as absent; None: never.
    absent_after: float | None = 120.0
    # Seconds without a call from every human seat of a running game after
    # which those seats are removed for absence (T-REMOVE), in the games
    # T-ABSENT does not end; None: never.
    abandon_after: float | None = 3600.0
    # Wall-clock milliseconds a server-side search bot (AddBot "search")
    # thinks a move, in a worker process.
    bot_think_ms: int = DEFAULT_THINK_MS
    # The server's bots (cardroom.server.table.bots): the least milliseconds
    # between one bot's moves; how many looks or moves of bots run at once
    # (one client's bots hold at most half); and how often each server
    # checks its bots' leases and takes over the bot games no server plays.
    bot_move_ms: int = 100
    bot_turns: int = 4
    bot_lease_seconds: float = 10.0
    # nats://HOST:PORT: publish each event's copies for relays, and share
    # presence (docs/scaling.md, "Relays"); None: no broker.
    broker: str | None = None

    def signing_key_path(self) -> Path:
        if self.signing_key:
            return Path(self.signing_key)
        return key_path_for(self.database) or Path("cardroom-signing-key.pem")


def parse_address(address: str) -> tuple[str, int]:
    """HOST:PORT (IPv6 hosts in brackets) with a port from 0 to 65535."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ServeError(
            f"the address must be HOST:PORT with a port from 0 to 65535, not {address[:80]!r}"
        )
    return host, int(port)


def _read(path: str, what: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise ServeError(f"{what} {path}: {error.strerror or error}") from None


def server_credentials(settings: Settings) -> grpc.ServerCredentials | None:
    if not (settings.tls_cert or settings.tls_key or settings.tls_client_ca):
        return None
    if not (settings.tls_cert and settings.tls_key):
        raise ServeError("TLS needs both --tls-cert and --tls-key")
    client_ca = settings.tls_client_ca
    return grpc.ssl_server_credentials(
        [(_read(settings.tls_key, "--tls-key"), _read(settings.tls_cert, "--tls-cert"))],
        root_certificates=_read(client_ca, "--tls-client-ca") if client_ca else None,
        require_client_auth=bool(client_ca),
    )


@dataclass
class RunningServer:
    server: grpc.aio.Server
    port: int
    games: Games
    health: Any  # grpc_health.v1.health.aio.HealthServicer (untyped)
    feed: StoreFeed | None = None
    servicer: GameServicer | None = None
    metrics: Metrics | None = None
    stop_metrics: Callable[[], None] | None = None
    web: WebServer | None = None
    clocks: asyncio.Task[None] | None = None
    broker: brokers.Broker | None = None
    shared_presence: SharedPresence | None = None
    bots: BotRunner | None = None
    bots_dir: str | None = None

    async def stop(self, grace: float | None = 1.0) -> None:
        await self.health.enter_graceful_shutdown()
        if self.bots is not None:
            await _bounded("the server's bots", self.bots.stop())
        if self.shared_presence is not None:
            await _bounded("the shared presence", self.shared_presence.stop())
        if self.clocks is not None:
            self.clocks.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await _bounded("the turn clocks", self.clocks)
        if self.web is not None:
            await _bounded("the browser port", self.web.stop(grace))
        await self.server.stop(grace)
        if self.servicer is not None:
            await self.servicer.drain()  # no call may still use the store
        if self.feed is not None:
            self.feed.stop()
        if self.broker is not None:
            await self.broker.close()
        if self.stop_metrics is not None:
            self.stop_metrics()
        self.games.close()  # its checkpoint writer first: it uses the store
        self.games.log.close()
        if self.bots_dir is not None:
            shutil.rmtree(self.bots_dir, ignore_errors=True)


async def _bounded(what: str, step: Awaitable[Any]) -> None:
    """One step of stopping, given at most ``STOP_STEP_SECONDS``: a step
    that never ends (a task that outlives its cancellation) is logged by
    name and passed, so that stopping always reaches the calls' drain and
    the store's close instead of hanging."""
    try:
        async with asyncio.timeout(STOP_STEP_SECONDS):
            await step
    except TimeoutError:
        log.warning("stopping: %s did not stop in %.0f s; going on", what, STOP_STEP_SECONDS)


def open_store(database: str) -> GameLog:
    """The store, or a one-line ServeError (never printing a password)."""
    try:
        return GameLog(database)
    except Exception as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ServeError(f"cannot open {describe_database(database)}: {reason}") from None


async def start(settings: Settings) -> RunningServer:
    """Start serving on settings.address (port 0 picks a free port)."""
    parse_address(settings.address)
    limits = settings.limits or Limits()
    credentials = server_credentials(settings)
    log_store = open_store(settings.database)
    try:
        return await _start(settings, limits, credentials, log_store)
    except BaseException:
        log_store.close()
        raise


async def _start(
    settings: Settings,
    limits: Limits,
    credentials: grpc.ServerCredentials | None,
    log_store: GameLog,
) -> RunningServer:
    # Held while the server runs: `cardroom key rotate` refuses meanwhile.
    held = keyring.hold(settings.signing_key_path())
    if held is not None:
        log_store.before_close(held.close)
    ring = keyring.load_ring(settings.signing_key_path())
    registry.games()  # import every game now, not inside the first call that needs one
    metrics = Metrics()
    if log_store.is_postgres:
        refresh = "notified"  # other servers' writes are announced by the store feed
    else:
        try:
            log_store.hold_exclusively()  # the only writer: nothing is ever re-read
        except StoreLocked as error:
            raise ServeError(str(error)) from None
        refresh = "sole_writer"
    games = Games(
        log_store,
        operator_token=settings.operator_token,
        key_ring=ring,
        refresh=refresh,
        max_games=limits.cache_games,
        absent_after=settings.absent_after,
    )
    games.commands.max_game_events = limits.max_game_events
    games.commands.resign_after_timeouts = limits.resign_after_timeouts
    # T-ABSENT: open games end after it with nothing recorded; running ones
    # only where the server shows seats absent (never with absent_after None).
    games.commands.end_when_absent_seconds = limits.end_absent_games_after
    try:
        return await _serve_games(settings, limits, credentials, log_store, games, metrics)
    except BaseException:
        games.close()
        raise


async def _serve_games(
    settings: Settings,
    limits: Limits,
    credentials: grpc.ServerCredentials | None,
    log_store: GameLog,
    games: Games,
    metrics: Metrics,
) -> RunningServer:
    log_store.on_append_seconds = metrics.store_append_seconds.observe
    metrics.games_in_memory.set_function(games.games_in_memory)
    interceptor = CallInterceptor(metrics)
    server = grpc.aio.server(interceptors=[interceptor], options=limits.server_options())
    health_servicer = health.aio.HealthServicer()  # type: ignore[attr-defined]
    servicer = GameServicer(
        games,
        limits=limits,
        metrics=metrics,
        health=health_servicer,
        signed_heads=settings.signed_heads,
    )
    game_service_pb2_grpc.add_GameServiceServicer_to_server(servicer, LiveBytesRegistrar(server))
    competition = CompetitionServicer(servicer)
    competition_service_pb2_grpc.add_CompetitionServiceServicer_to_server(competition, server)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, COMPETITION_SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME),
        server,
    )
    try:
        if credentials is None:
            port = server.add_insecure_port(settings.address)
        else:
            port = server.add_secure_port(settings.address, credentials)
    except RuntimeError:
        raise ServeError(
            f"cannot listen on {settings.address}: the address is in use or not available "
            "on this machine"
        ) from None
    # The server's own bots call it here, as any client would, whatever TLS
    # the public port asks for: a socket in a directory only we may enter.
    bots_dir = tempfile.mkdtemp(prefix="cardroom-bots-")
    bots_address = f"unix:{bots_dir}/grpc.sock"
    server.add_insecure_port(bots_address)
    web_socket = None
    if settings.web_address:
        try:
            web_socket = bind(*parse_address(settings.web_address))
        except OSError as error:
            raise ServeError(
                f"cannot listen on {settings.web_address} (web): {error.strerror or error}"
            ) from None
    stop_metrics = None
    if settings.metrics_address:
        parse_address(settings.metrics_address)
        try:
            stop_metrics = metrics.serve(settings.metrics_address)
        except OSError as error:
            raise ServeError(
                f"cannot serve metrics on {settings.metrics_address}: {error.strerror or error}"
            ) from None
    # Writes by other processes sharing the database reach our watchers too.
    feed = StoreFeed(log_store, servicer.announced) if log_store.is_postgres else None
    await server.start()
    # A database full of games the list has not seen yet (a first start on an
    # existing database) is caught up now, not inside the first ListGames.
    asyncio.get_running_loop().run_in_executor(servicer.executor, _catch_up_list, games)
    web = None
    if web_socket is not None:
        app = await web_app(
            servicer,
            interceptor,
            limits,
            settings.web_origins,
            settings.web_root,
            competition=competition,
        )
        tls = tls_context(settings.tls_cert, settings.tls_key, settings.tls_client_ca)
        web = await WebServer.start(app, web_socket, tls, settings.web_limits)
    broker, shared = None, None
    if settings.broker:
        broker, shared = await _join_broker(settings.broker, servicer, health_servicer, metrics)
    # The turn clocks: re-armed from the events, then fired as deadlines pass.
    clock_task = asyncio.create_task(clocks.run(games.clocks, servicer.in_thread))
    bots = _bot_runner(settings, bots_address, servicer, log_store)
    servicer.bots = bots
    bots.resuming = asyncio.create_task(_resume_bots(bots))
    bots.keeping = asyncio.create_task(bots.keep())
    if settings.abandon_after:
        bots.sweeping = asyncio.create_task(_sweep(settings.abandon_after, servicer))
    for name in ("", SERVICE_NAME, COMPETITION_SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return RunningServer(
        server,
        port,
        games,
        health_servicer,
        feed,
        servicer,
        metrics,
        stop_metrics,
        web,
        clock_task,
        broker,
        shared,
        bots,
        bots_dir,
    )


async def _sweep(after: float, servicer: GameServicer) -> None:
    """Remove the absent humans of abandoned games T-ABSENT does not end
    (``Games.end_abandoned``: docs/rules/table.md T-REMOVE), checking every
    tenth of the limit (at most every minute). Runs until cancelled."""
    while True:
        await asyncio.sleep(min(60.0, after / 10))
        try:
            removed = await servicer.in_thread(lambda: servicer.games.end_abandoned(after))
        except Exception:
            log.warning("ending abandoned games failed; trying again later", exc_info=True)
            continue
        for game_id, seat in removed:
            log.info("game %s: seat %d removed for absence (abandoned)", game_id, seat)


def _bot_runner(
    settings: Settings, address: str, servicer: GameServicer, store: GameLog
) -> BotRunner:
    """The server's bots, on its private socket, with leases in the store."""

    games = servicer.games

    async def bot_games(playing: set[tuple[str, int]]) -> list[str]:
        return await servicer.in_thread(lambda: games.bot_games(playing))

    async def bot_seats(game_id: str) -> list[tuple[int, str]]:
        return await servicer.in_thread(lambda: games.bot_seats(game_id))

    # A waiting bot looks again at least this often, so its seat stays present.
    absent = settings.absent_after
    return BotRunner(
        Client.connect(address),
        servicer.games.bot_token,
        settings.bot_think_ms,
        move_seconds=settings.bot_move_ms / 1000,
        wait_seconds=min(30.0, absent / 4) if absent else 30.0,
        turns=settings.bot_turns,
        leases=leases_for(store),
        lease_seconds=settings.bot_lease_seconds,
        bot_games=bot_games,
        bot_seats=bot_seats,
    )


async def _resume_bots(bots: BotRunner) -> None:
    """Play again the bots of the games not finished (from their events),
    those whose lease this server wins."""
    try:
        await bots.look_after_leases()
    except Exception:
        log.warning("resuming the server's bots failed", exc_info=True)


async def follow_broker(broker: brokers.Broker, health_servicer: Any) -> None:
    """Health's ``cardroom.broker`` follows the broker from now on."""

    async def changed(up: bool) -> None:
        serving = health_pb2.HealthCheckResponse
        await health_servicer.set(BROKER_HEALTH, serving.SERVING if up else serving.NOT_SERVING)

    broker.listeners.append(changed)
    await changed(broker.up)


async def _join_broker(
    url: str, servicer: GameServicer, health_servicer: Any, metrics: Metrics
) -> tuple[brokers.Broker, SharedPresence]:
    """Publish each written event's copies for the relays, share presence,
    and show the broker in health and metrics."""
    broker = await brokers.start(url, "cardroom-server")
    metrics.watch_broker(broker)
    await follow_broker(broker, health_servicer)
    servicer.publisher = Publisher(broker, heads=servicer.heads)
    presence = servicer.games.presence
    shared = SharedPresence(broker, presence.heard)
    await shared.start()
    presence.shared = shared
    return broker, shared


def _catch_up_list(games: Games) -> None:
    try:
        games.game_list.catch_up()
    except Exception:
        log.warning("catching up the game list failed; ListGames will retry", exc_info=True)


async def serve(settings: Settings) -> None:
    running = await start(settings)
    host = settings.address.rsplit(":", 1)[0]
    secure = " with TLS" if settings.tls_cert else ""
    where = describe_database(settings.database)
    print(f"cardroom listening on {host}:{running.port}{secure} ({where})", flush=True)
    if running.web is not None:
        print(f"browsers: {running.web.url}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await running.stop(grace=2.0)
