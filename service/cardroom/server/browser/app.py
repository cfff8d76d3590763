"""Browsers reach the same GameService: the Connect protocol and gRPC-Web
(binary and JSON, unary and server-streaming) over HTTP/1.1 on a port of its
own, and the reference web table's files at ``/`` (docs/typescript.md).

Nothing here implements an RPC or a wire protocol. connectrpc's ASGI app
(generated ``game_service_connect.py``) speaks the protocols, uvicorn serves
it in the gRPC server's event loop, and every call goes to the one
``GameServicer`` through the method handlers its generated registrar builds,
wrapped by the same ``CallInterceptor`` (so metrics and call logs cover
browser calls too). A thin context gives the servicer what it asks of a
grpc.aio context: metadata, the peer, and ``abort``, which raises an error
that is both grpc.aio's ``AbortError`` (so the servicer treats it as its
own) and connectrpc's ``ConnectError`` (so the client gets its status).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import ssl
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, cast

import grpc
import uvicorn
from connectrpc import _envelope
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from connectrpc.request import RequestContext
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

from cardroom.server.browser.connections import (
    AcceptFailures,
    Guard,
    WebLimits,
    accept_connections,
    connection_caps,
    file_limit,
    protocol_for,
)
from cardroom.server.limits import Limits
from cardroom.server.live.feeds import Outgoing
from cardroom.server.observability import CallInterceptor
from cardroom.v1 import (
    competition_service_connect,
    competition_service_pb2,
    competition_service_pb2_grpc,
    game_service_connect,
    game_service_pb2,
    game_service_pb2_grpc,
)

log = logging.getLogger(__name__)

SERVICE = game_service_pb2.DESCRIPTOR.services_by_name["GameService"]
# The reference web table: its committed build, package data of this package
# (scripts/build_web.py writes it from clients/web).
WEB_TABLE = Path(__file__).resolve().parent / "web_table"

# What a browser must be allowed to send and read cross-origin for Connect
# and gRPC-Web (the Connect project's recommended CORS settings), with the
# credentials header added.
CORS_REQUEST_HEADERS = (
    "authorization",
    "content-type",
    "connect-protocol-version",
    "connect-timeout-ms",
    "grpc-timeout",
    "x-grpc-web",
    "x-user-agent",
)
CORS_RESPONSE_HEADERS = ("grpc-status", "grpc-message", "grpc-status-details-bin")


class Aborted(ConnectError, grpc.aio.AbortError):
    """``context.abort()`` on a browser call."""


def connect_code(code: grpc.StatusCode) -> Code:
    return Code.CANCELED if code == grpc.StatusCode.CANCELLED else Code[code.name]


class BrowserCallContext:
    """The part of ``grpc.aio.ServicerContext`` that GameServicer and
    CallInterceptor use, over a connectrpc request context."""

    def __init__(self, ctx: RequestContext[Any, Any]) -> None:
        self._ctx = ctx
        self._code: grpc.StatusCode | None = None

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return tuple(self._ctx.request_headers.allitems())

    def peer(self) -> str:
        """As gRPC spells it: "ipv4:HOST:PORT" or "ipv6:[HOST]:PORT"."""
        address = self._ctx.client_address or "unknown"
        host, _, port = address.rpartition(":")
        return f"ipv6:[{host}]:{port}" if ":" in host else f"ipv4:{address}"

    def code(self) -> grpc.StatusCode | None:
        return self._code

    async def abort(self, code: grpc.StatusCode, details: str = "") -> NoReturn:
        self._code = code
        raise Aborted(connect_code(code), details)


class _HandlerDetails(grpc.HandlerCallDetails):
    def __init__(self, method: str) -> None:
        self.method = method
        self.invocation_metadata = ()


class _Registrar:
    """Stands in for a grpc server to collect the generated registrar's
    method handlers (the servicer's methods with their message types)."""

    def __init__(self) -> None:
        self.handlers: dict[str, grpc.RpcMethodHandler] = {}

    def add_generic_rpc_handlers(self, handlers: object) -> None:
        pass

    def add_registered_method_handlers(
        self, service: str, handlers: dict[str, grpc.RpcMethodHandler]
    ) -> None:
        self.handlers.update(handlers)


def snake_case(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")


async def browser_game_service(servicer: Any, interceptor: CallInterceptor) -> Any:
    """An object with one method per RPC, named as connectrpc's generated
    ``GameService`` protocol names them, each calling the servicer's method
    through ``interceptor``."""
    return await browser_service(
        servicer, game_service_pb2_grpc.add_GameServiceServicer_to_server, SERVICE, interceptor
    )


async def browser_service(
    servicer: Any, add_to_server: Callable[[Any, Any], None], service: Any, interceptor: Any
) -> Any:
    """As ``browser_game_service``, for any service: ``add_to_server`` is its
    generated ``add_*Servicer_to_server``, ``service`` its descriptor."""
    registrar = _Registrar()
    add_to_server(servicer, registrar)
    methods: dict[str, Callable[..., Any]] = {}
    pacer = Pacer()
    for method in service.methods:

        async def plain(_: Any, handler: Any = registrar.handlers[method.name]) -> Any:
            return handler

        details = _HandlerDetails(f"/{service.full_name}/{method.name}")
        handler = await interceptor.intercept_service(plain, details)
        if method.server_streaming:
            methods[snake_case(method.name)] = _stream(handler.unary_stream, pacer)
        else:
            methods[snake_case(method.name)] = _unary(handler.unary_unary)
    return type("BrowserGameService", (), methods)()


def _unary(call: Callable[[Any, Any], Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    async def method(_: object, request: Any, ctx: RequestContext[Any, Any]) -> Any:
        return await call(request, BrowserCallContext(ctx))

    return method


# Stream messages all browser streams together may write per turn of the
# event loop.
MESSAGES_PER_TURN = 2


class Pacer:
    """Shares the event loop's turns between browser streams and everything
    else: at most ``per_turn`` stream messages in all per turn. Writing to an
    HTTP/1.1 socket does not wait until its buffers are full, so without it
    a hundred streams catching up would each write a chunk of their backlog
    per turn while every gRPC call waits (issue 20)."""

    def __init__(self, per_turn: int = MESSAGES_PER_TURN) -> None:
        self.per_turn = per_turn
        self._used = 0
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._scheduled = False

    async def turn(self) -> None:
        """Wait until this stream may write its next message."""
        self._schedule()
        if self._used < self.per_turn and not self._waiting:
            self._used += 1
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter in self._waiting:
                self._waiting.remove(waiter)
            raise

    def _schedule(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._next_turn)

    def _next_turn(self) -> None:
        self._scheduled = False
        self._used = 0
        while self._waiting and self._used < self.per_turn:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(None)
                self._used += 1
        if self._waiting or self._used:
            self._schedule()


def _stream(
    call: Callable[[Any, Any], AsyncIterator[Any]], pacer: Pacer
) -> Callable[..., AsyncIterator[Any]]:
    async def method(_: object, request: Any, ctx: RequestContext[Any, Any]) -> AsyncIterator[Any]:
        async for item in call(request, BrowserCallContext(ctx)):
            await pacer.turn()
            # connectrpc serializes each message itself: a live event's
            # shared bytes (cardroom.server.live.feeds) are for gRPC streams only.
            yield item.response if isinstance(item, Outgoing) else item

    return method


async def web_app(
    servicer: Any,
    interceptor: CallInterceptor,
    limits: Limits,
    origins: Sequence[str] = (),
    web_root: str | None = None,
    *,
    table: bool = True,
    competition: Any = None,
) -> Starlette:
    """GameService for browsers under /cardroom.v1.GameService/ (and, given
    its servicer, CompetitionService under its own name), the files of
    ``web_root`` (by default the reference web table, when built; none when
    not ``table``: a relay) at /, and CORS for ``origins``."""
    service = game_service_connect.GameServiceASGIApplication(
        await browser_game_service(servicer, interceptor), read_max_bytes=limits.max_request_bytes
    )
    routes: list[BaseRoute] = [Mount(service.path, app=RefuseGrpc(service))]
    if competition is not None:
        ratings = competition_service_connect.CompetitionServiceASGIApplication(
            await browser_service(
                competition,
                competition_service_pb2_grpc.add_CompetitionServiceServicer_to_server,
                competition_service_pb2.DESCRIPTOR.services_by_name["CompetitionService"],
                interceptor,
            ),
            read_max_bytes=limits.max_request_bytes,
        )
        routes.append(Mount(ratings.path, app=RefuseGrpc(ratings)))
    files = Path(web_root) if web_root else WEB_TABLE
    if table and files.is_dir():
        routes.append(Mount("/", app=StaticFiles(directory=files, html=True)))
    middleware = []
    if origins:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=list(origins),
                allow_methods=["GET", "POST"],
                allow_headers=list(CORS_REQUEST_HEADERS),
                expose_headers=list(CORS_RESPONSE_HEADERS),
                max_age=7200,
            )
        )
    return Starlette(routes=routes, middleware=middleware)


NOT_GRPC = (
    b"this port speaks Connect and gRPC-Web over HTTP/1.1; "
    b"call the gRPC port with application/grpc\n"
)


class RefuseGrpc:
    """ASGI: a plain gRPC call (``application/grpc``, not gRPC-Web) on the web
    port is answered 415 with ``grpc-status`` UNIMPLEMENTED and one line;
    connectrpc would fail it with a traceback, as uvicorn has no trailers."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            content_type = next(
                (value for name, value in scope["headers"] if name == b"content-type"), b""
            ).lower()
            if content_type.startswith(b"application/grpc") and not content_type.startswith(
                b"application/grpc-web"
            ):
                await send(
                    {
                        "type": "http.response.start",
                        "status": 415,
                        "headers": [
                            (b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(NOT_GRPC)).encode()),
                            (b"grpc-status", str(grpc.StatusCode.UNIMPLEMENTED.value[0]).encode()),
                            (b"grpc-message", NOT_GRPC.strip().replace(b";", b",")),
                            (b"connection", b"close"),  # its body is left unread
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": NOT_GRPC})
                return
        await self.app(scope, receive, send)


def _compressed_without_an_encoding_is_invalid_argument() -> None:
    """connectrpc answers ``internal`` to a frame flagged compressed on a
    stream that declared no encoding; it is the client's error
    (invalid_argument, as the server's other envelope errors; clients' readers
    are left as they are). connectrpc is
    pinned (pyproject.toml); tests/web/test_web_limits.py checks this."""
    reader: Any = _envelope.EnvelopeReader
    if getattr(reader, "_cardroom_patched", False):
        return
    original = reader._read_messages

    def read_messages(self: Any) -> Iterator[Any]:
        try:
            yield from original(self)
        except ConnectError as error:
            if (
                error.code == Code.INTERNAL
                and "without compression support" in error.message
                and self._protocol_error_code == Code.INVALID_ARGUMENT  # a server's reader
            ):
                raise ConnectError(Code.INVALID_ARGUMENT, error.message) from None
            raise

    reader._read_messages = read_messages
    reader._cardroom_patched = True


_compressed_without_an_encoding_is_invalid_argument()


def tls_context(cert: str | None, key: str | None, client_ca: str | None) -> ssl.SSLContext | None:
    """The web port's TLS, from the same files as the gRPC port's (which
    checked them); None without TLS."""
    if not (cert and key):
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    if client_ca:
        context.load_verify_locations(client_ca)
        context.verify_mode = ssl.CERT_REQUIRED
    return context


def bind(host: str, port: int) -> socket.socket:
    """A listening socket; OSError when the address is taken (no
    SO_REUSEPORT: a second server must fail, not share the port)."""
    host = host.strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY only on sockets that
    # say so, and without it every keep-alive answer waits ~40 ms for an ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


class _Server(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield  # `cardroom serve` handles the signals and stops us


@dataclass
class WebServer:
    """uvicorn serving an ASGI app in the running event loop."""

    server: uvicorn.Server
    task: asyncio.Task[None]
    port: int
    url: str
    guard: Guard
    accept_failures: AcceptFailures
    # The accept loop (connections.accept_connections), in place of the
    # listener uvicorn would create: it accepts only under the cap in all.
    accepting: asyncio.Task[None]

    @classmethod
    async def start(
        cls,
        app: Starlette,
        sock: socket.socket,
        tls: ssl.SSLContext | None = None,
        limits: WebLimits | None = None,
    ) -> WebServer:
        limits = limits or WebLimits()
        descriptors = file_limit()
        total, per_client = connection_caps(limits, descriptors)
        if limits.connections > total:
            log.warning(
                "web port: %d connections asked for, %d allowed under the file limit of %d",
                limits.connections,
                total,
                descriptors,
            )
        log.info(
            "web port: at most %d connections (%d per client address) under a file limit of %d; "
            "timeouts: idle %gs, headers %gs, body %gs, unread response %gs",
            total,
            per_client,
            descriptors,
            limits.idle_seconds,
            limits.header_seconds,
            limits.body_seconds,
            limits.stall_seconds,
        )
        guard = Guard(limits, total, per_client)
        accept_failures = AcceptFailures(limits.refusal_log_seconds)
        accept_failures.install(asyncio.get_running_loop())
        config = uvicorn.Config(
            app,
            http=protocol_for(guard),
            timeout_keep_alive=max(1, int(limits.idle_seconds)),
            lifespan="off",
            log_config=None,
            log_level="warning",
            access_log=False,  # CallInterceptor logs each call, never its credentials
            proxy_headers=False,  # the peer is the connection's (creation limits)
            server_header=False,
            ssl_context_factory=None if tls is None else (lambda _config, _default: tls),
        )
        server = _Server(config)
        # No socket for uvicorn: it would listen with asyncio's server, which
        # accepts whatever the cap; the accept loop below feeds it instead.
        task = asyncio.create_task(server.serve(sockets=[]))
        try:
            while not server.started:
                if task.done():
                    task.result()  # raises what stopped it
                    raise OSError("the web server stopped while starting")
                await asyncio.sleep(0.01)
        except BaseException:
            accept_failures.uninstall()
            raise

        def protocol() -> asyncio.Protocol:  # what uvicorn's startup would make
            return cast(
                asyncio.Protocol,
                config.http_protocol_class(  # type: ignore[call-arg]
                    config=config, server_state=server.server_state, app_state=server.lifespan.state
                ),
            )

        accepting = asyncio.create_task(
            accept_connections(sock, protocol, guard, tls, backlog=config.backlog)
        )
        host, port = sock.getsockname()[:2]
        host = f"[{host}]" if ":" in host else host
        url = f"{'https' if tls else 'http'}://{host}:{port}/"
        return cls(server, task, port, url, guard, accept_failures, accepting)

    async def stop(self, grace: float | None) -> None:
        """Stop taking connections; after ``grace`` seconds (at once when
        None) cancel the calls still running, and wait for them to end."""
        self.accepting.cancel()
        await asyncio.gather(self.accepting, return_exceptions=True)
        self.server.config.timeout_graceful_shutdown = cast(int, grace)
        self.server.force_exit = not grace
        self.server.should_exit = True
        await self.task
        running = list(self.server.server_state.tasks)
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        self.guard.stop()
        self.accept_failures.uninstall()
