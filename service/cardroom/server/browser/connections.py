"""The browser port's connections: time limits, caps, and what they refuse.

uvicorn (HTTP/1.1 through h11) serves the web port; its own protocol only
times out a kept-alive connection after a response, so a connection that
never sends a request, trickles its headers or its body, or never reads a
streamed response would be held forever, and enough of them take every file
descriptor of the process (issue 20). :class:`GuardedH11` is uvicorn's h11
protocol with, per connection:

* a phase timer: ``idle_seconds`` with no request in progress (from the
  connection's start or the end of the last response), ``header_seconds``
  from a request's first byte to the end of its headers, ``body_seconds``
  from there to the end of its body; when it expires the connection is
  closed;
* a stall timer while a response is being written: when the peer reads
  nothing for ``stall_seconds`` (the transport's write buffer stays full)
  the connection is dropped. A small socket send buffer and write buffer
  (``send_buffer_bytes``) keep what an unread stream holds, and the work
  done for it, about one HTTP/2 window, as for a gRPC stream;
* caps on open connections per client (its address; an IPv6 client's
  /64) and in all, below the process's file limit (:func:`connection_caps`).
  At the cap in all the port stops accepting (:func:`accept_connections`
  calls accept() only while there is room), so a connection past it waits
  in the listen queue, holding no descriptor of ours, until one closes; a
  connection over its client's cap, whose address only accept() tells, is
  closed at once and counted. Refusals are logged at most once per
  ``refusal_log_seconds``, as are accept()'s failures for want of
  descriptors (:class:`AcceptFailures`);
* TCP keepalive probes, so a peer whose host vanished is dropped;
* requests with both Content-Length and Transfer-Encoding are answered 400
  and the connection closed (RFC 9112 section 6.1: a request smuggling
  vector).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
import socket
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from cardroom.server.limits import client_of_host

log = logging.getLogger(__name__)

# Descriptors left for everything but the web port's connections: the
# listening sockets, the store's pool, logs, the signing key, worker threads.
RESERVED_DESCRIPTORS = 64


@dataclass(frozen=True)
class WebLimits:
    """The browser port's connection limits (docs/operations.md, docs/trust.md)."""

    idle_seconds: float = 30.0
    header_seconds: float = 10.0
    body_seconds: float = 30.0
    stall_seconds: float = 30.0
    # Open connections in all and per client address; 0: derived from the
    # file limit (connection_caps).
    connections: int = 0
    connections_per_client: int = 0
    # The socket send buffer and the transport's write buffer of each
    # connection (what a peer that does not read holds up on our side).
    send_buffer_bytes: int = 32 * 1024
    refusal_log_seconds: float = 60.0
    # TCP keepalive: probe a connection idle this long, every interval, and
    # drop it after this many probes go unanswered (a vanished host).
    keepalive_seconds: float = 60.0
    keepalive_interval_seconds: float = 10.0
    keepalive_probes: int = 2


def file_limit() -> int:
    """The process's soft RLIMIT_NOFILE (a large number when unlimited)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 1 << 20 if soft == resource.RLIM_INFINITY else int(soft)


def connection_caps(limits: WebLimits, descriptors: int) -> tuple[int, int]:
    """(in all, per client address): at most half the file limit, less a
    reserve, goes to web connections, so that the gRPC port, the store and
    the health check always have descriptors; a configured cap above that
    is lowered to it. Per client by default an eighth of the total, between
    4 and 64 (a browser opens about 6 connections to a host)."""
    ceiling = max(8, descriptors // 2 - RESERVED_DESCRIPTORS)
    total = min(limits.connections, ceiling) if limits.connections > 0 else ceiling
    if limits.connections_per_client > 0:
        per_client = min(limits.connections_per_client, total)
    else:
        per_client = max(4, min(64, total // 8))
    return total, min(per_client, total)


@dataclass
class Guard:
    """One web port's open connections and refusals."""

    limits: WebLimits
    total: int
    per_client: int
    open: Counter[str] = field(default_factory=Counter)
    refused: int = 0  # since the start
    dropped: int = 0  # stalled or timed out, since the start
    # Accepted, their protocol not started yet (a TLS handshake): they
    # count against the cap in all until it starts or fails.
    pending: int = 0
    _unlogged: Counter[str] = field(default_factory=Counter)
    _last_log: float = float("-inf")
    _flush: asyncio.TimerHandle | None = None
    _room: asyncio.Event | None = None

    @property
    def connections(self) -> int:
        return sum(self.open.values())

    @property
    def full(self) -> bool:
        """No room under the cap in all: accept nothing now."""
        return self.connections + self.pending >= self.total

    async def room(self) -> None:
        """Until a connection may be accepted under the cap in all."""
        while self.full:
            if self._room is None:
                self._room = asyncio.Event()
            self._room.clear()
            await self._room.wait()

    def _freed(self) -> None:
        if self._room is not None:
            self._room.set()

    def started(self) -> None:
        """An accepted connection's protocol started, or it failed to."""
        self.pending -= 1
        self._freed()

    def admit(self, host: str) -> str | None:
        """Count a new connection from ``host``; or why it is refused."""
        if self.connections >= self.total:
            return "total"
        if self.open[host] >= self.per_client:
            return "per client"
        self.open[host] += 1
        return None

    def release(self, host: str) -> None:
        self.open[host] -= 1
        if self.open[host] <= 0:
            del self.open[host]
        self._freed()

    def refuse(self, why: str) -> None:
        """Count a refusal; log the refusals at most once per interval."""
        self.refused += 1
        self._unlogged[why] += 1
        if self._flush is None:
            wait = self._last_log + self.limits.refusal_log_seconds - time.monotonic()
            self._flush = asyncio.get_running_loop().call_later(max(0.0, wait), self._log)

    def _log(self) -> None:
        self._flush = None
        self._last_log = time.monotonic()
        counts, self._unlogged = self._unlogged, Counter()
        log.warning(
            "web port: refused %d connections (%s) since the last report; caps: %d in all, "
            "%d per client address; open now: %d",
            sum(counts.values()),
            ", ".join(f"{n} over the {why} cap" for why, n in sorted(counts.items())),
            self.total,
            self.per_client,
            self.connections,
        )

    def stop(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None


def client_key(peername: Any) -> str:
    """Whom a connection counts against: its client as the gRPC limits
    count it (cardroom.server.limits.client_of_host), so an IPv6 client is
    its /64 and an IPv4 browser on a ``[::]`` port its IPv4 address."""
    if isinstance(peername, tuple) and peername:
        return client_of_host(str(peername[0]))
    return "unknown"


def keepalive(sock: Any, limits: WebLimits) -> None:
    """TCP keepalive probes on an idle connection (HTTP/1.1 has no pings of
    its own): a peer whose host is gone (no FIN ever comes) is found within
    ``keepalive_seconds`` + ``keepalive_probes`` x ``keepalive_interval_seconds``
    and its connection, and the stream on it, closed."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    options = (
        ("TCP_KEEPIDLE", limits.keepalive_seconds),
        ("TCP_KEEPINTVL", limits.keepalive_interval_seconds),
        ("TCP_KEEPCNT", limits.keepalive_probes),
    )
    for name, value in options:
        if hasattr(socket, name):  # Linux; elsewhere the system's defaults
            sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), max(1, int(value)))


# What asyncio reports (at ERROR, with a traceback, many times a second)
# when accept() fails for want of file descriptors.
ACCEPT_FAILED = "socket.accept() out of system resource"
OUT_OF_RESOURCES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
# After such a failure accept() is tried again this much later (asyncio's
# own accept loop waits as long).
ACCEPT_RETRY_SECONDS = 1.0


async def accept_connections(
    sock: socket.socket,
    protocol: Callable[[], asyncio.Protocol],
    guard: Guard,
    tls: Any = None,
    backlog: int = 2048,
) -> None:
    """The web port's accept loop, in place of asyncio's: accept() is called
    only while the cap in all has room, one connection at a time, so a
    connection past the cap is never accepted to be closed; it waits in the
    kernel's listen queue (``backlog``) until a connection closes. asyncio's
    server accepts up to its backlog per readiness, whatever the cap, and
    has no pause. Runs until cancelled, then closes ``sock``."""
    loop = asyncio.get_running_loop()
    sock.setblocking(False)
    sock.listen(backlog)
    opening: set[asyncio.Task[None]] = set()

    async def start(conn: socket.socket) -> None:
        try:
            await loop.connect_accepted_socket(protocol, conn, ssl=tls)
        except Exception as error:  # a failed TLS handshake, a peer gone
            log.debug("web port: a connection failed to start: %s", error)
            conn.close()
        finally:
            guard.started()

    try:
        while True:
            await guard.room()
            try:
                conn, _ = await loop.sock_accept(sock)
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                continue
            except OSError as error:
                if error.errno not in OUT_OF_RESOURCES:
                    raise
                loop.call_exception_handler({"message": ACCEPT_FAILED, "exception": error})
                await asyncio.sleep(ACCEPT_RETRY_SECONDS)
                continue
            conn.setblocking(False)
            guard.pending += 1
            task = loop.create_task(start(conn))
            opening.add(task)
            task.add_done_callback(opening.discard)
    finally:
        for task in list(opening):
            task.cancel()
        sock.close()


@dataclass
class AcceptFailures:
    """asyncio's accept failures (EMFILE, ENFILE, ...) counted and logged as
    one WARNING per ``interval`` with their count, instead of one ERROR with
    a traceback each (a burst past the caps logged thousands). Installed as
    the event loop's exception handler; anything else goes on to the one it
    replaced."""

    interval: float
    failed: int = 0  # since the start
    _unlogged: int = 0
    _last_log: float = float("-inf")
    _flush: asyncio.TimerHandle | None = None
    _loop: asyncio.AbstractEventLoop | None = None
    _previous: Any = None

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._previous = loop.get_exception_handler()
        loop.set_exception_handler(self._handle)

    def uninstall(self) -> None:
        if self._loop is not None and self._loop.get_exception_handler() == self._handle:
            self._loop.set_exception_handler(self._previous)
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None

    def _handle(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == ACCEPT_FAILED and isinstance(
            context.get("exception"), OSError
        ):
            self.failed += 1
            self._unlogged += 1
            if self._flush is None:
                wait = self._last_log + self.interval - time.monotonic()
                self._flush = loop.call_later(max(0.0, wait), self._log)
            return
        if self._previous is not None:
            self._previous(loop, context)
        else:
            loop.default_exception_handler(context)

    def _log(self) -> None:
        self._flush = None
        self._last_log = time.monotonic()
        count, self._unlogged = self._unlogged, 0
        log.warning(
            "web port: accepting a connection failed %d times since the last report: the "
            "process is out of file descriptors (limit %d); connections wait in the queue",
            count,
            file_limit(),
        )


class _StrictConnection(h11.Connection):
    """h11 that refuses a request framed both by length and by chunks."""

    def next_event(self) -> Any:
        event = super().next_event()
        if isinstance(event, h11.Request):
            names = {name.lower() for name, _ in event.headers}
            if b"content-length" in names and b"transfer-encoding" in names:
                raise h11.RemoteProtocolError("both Content-Length and Transfer-Encoding")
        return event


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with the timers and caps of the module doc;
    ``guard`` is set on a subclass made per server (:func:`protocol_for`)."""

    guard: Guard

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn = _StrictConnection(h11.SERVER, self.conn._max_incomplete_event_size)
        self._host: str | None = None
        self._phase = ""
        self._timer: asyncio.TimerHandle | None = None
        self._stall: asyncio.TimerHandle | None = None

    # ------------------------------------------------------------ caps

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        host = client_key(transport.get_extra_info("peername"))
        refused = self.guard.admit(host)
        if refused is not None:
            self.guard.refuse(refused)
            transport.abort()
            return
        self._host = host
        size = self.guard.limits.send_buffer_bytes
        sock = transport.get_extra_info("socket")
        if sock is not None and size > 0:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)
        if sock is not None:
            keepalive(sock, self.guard.limits)
        if size > 0:
            transport.set_write_buffer_limits(high=size)
        super().connection_made(transport)
        self._track()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._host is None:
            return  # refused: uvicorn never saw it
        self.guard.release(self._host)
        self._host = None
        self._set_phase("closed")
        self._stop_stall()
        super().connection_lost(exc)

    # ---------------------------------------------------------- timers

    def data_received(self, data: bytes) -> None:
        if self._phase == "idle":
            self._set_phase("headers")
        super().data_received(data)
        self._track()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._track()

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stall is None and self._host is not None:
            self._stall = self.loop.call_later(self.guard.limits.stall_seconds, self._stalled)

    def resume_writing(self) -> None:
        super().resume_writing()
        self._stop_stall()

    def _track(self) -> None:
        """Set the phase timer from where the request/response cycle is."""
        if self._host is None or self.transport.is_closing():
            return
        theirs = self.conn.their_state
        if self.cycle is not None and not self.cycle.response_complete:
            if theirs is h11.SEND_BODY:
                self._set_phase("body")
            else:
                self._set_phase("respond")  # no timer: the stall timer watches writes
        elif theirs is h11.SEND_BODY:
            self._set_phase("body")
        elif self.conn.trailing_data[0]:
            self._set_phase("headers")
        elif self._phase != "headers":
            self._set_phase("idle")

    def _set_phase(self, phase: str) -> None:
        if phase == self._phase:
            return
        self._phase = phase
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        seconds = {
            "idle": self.guard.limits.idle_seconds,
            "headers": self.guard.limits.header_seconds,
            "body": self.guard.limits.body_seconds,
        }.get(phase)
        if seconds is not None:
            self._timer = self.loop.call_later(seconds, self._expired, phase)

    def _expired(self, phase: str) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        log.debug("web port: closing a connection from %s (%s timeout)", self._host, phase)
        if phase != "idle":
            self.guard.dropped += 1
        self.transport.abort() if phase == "body" else self.transport.close()

    def _stalled(self) -> None:
        """The peer read nothing for stall_seconds: drop the connection
        (its buffered response with it; the call is cancelled)."""
        self._stall = None
        if not self.transport.is_closing() or self.flow.write_paused:
            log.debug("web port: dropping a connection from %s that stopped reading", self._host)
            self.guard.dropped += 1
            self.transport.abort()

    def _stop_stall(self) -> None:
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None


def protocol_for(guard: Guard) -> type[GuardedH11]:
    return type("WebPortProtocol", (GuardedH11,), {"guard": guard})
