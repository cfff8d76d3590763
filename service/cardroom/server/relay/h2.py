"""``cardroom relay`` (``--transport h2``, the default): the relay's gRPC
port on python-hyper's ``h2`` instead of grpc.aio (``--transport grpc``;
docs/scaling.md, "Relays"; docs/benchmarks.md).

Why: grpc.aio costs one C-core batch per stream per message, 28-48 µs on
the benchmark's machine, and that was the relay's floor. Here every live
message is framed once (the gRPC prefix and the DATA frame's first five
bytes, on the relay's copy of the broker's message), each of a
connection's streams adds its 4-byte stream id and the shared bytes to that
connection's list, and the connection gets one ``transport.write`` per
event: NATS's way. ``h2`` keeps the protocol (settings, headers, flow
control windows, resets, pings); only the live DATA frames bypass its
``send_data``, keeping its windows' counters as ``send_data`` does.

The same calls as the grpc.aio port, byte for byte: ``WatchEvents`` with
the same request, credentials (``authorization: Bearer``), limits,
cursor, statuses (ABORTED to a reader too far behind, trailers-only
errors); ``grpc.health.v1.Health`` Check and Watch from the same health
servicer; server reflection (v1alpha, as grpc_reflection serves it there)
from grpc_reflection's own servicer, its request stream read message by
message as DATA comes; every other GameService method UNIMPLEMENTED as
there. And as grpc-core does: gzip and deflate requests, the client's
deadline (grpc-timeout) enforced, keepalive and idle timeouts, the ping
abuse policy (GOAWAY ENHANCE_YOUR_CALM), and CallInterceptor's metric and
access-log line for the calls it sees.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import json
import logging
import socket
import ssl
import time
import zlib
from collections import deque
from collections.abc import AsyncIterator, Iterable
from typing import Any, cast

import grpc
import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions
import h2.settings
from google.protobuf.message import DecodeError
from grpc_health.v1 import health_pb2
from grpc_reflection.v1alpha import reflection, reflection_pb2

from cardroom.server.api.status import status_of
from cardroom.server.errors import FellBehind
from cardroom.server.limits import Limits, TooBusy, client_of_host
from cardroom.server.live import broker as brokers
from cardroom.server.relay.feeds import Framed, RelayWatch, Topic
from cardroom.v1 import game_service_pb2 as gpb

log = logging.getLogger(__name__)
access_log = logging.getLogger("cardroom.calls")  # CallInterceptor's, for --access-log

SERVICE_PREFIX = "/cardroom.v1.GameService/"
WATCH = SERVICE_PREFIX + "WatchEvents"
HEALTH_CHECK = "/grpc.health.v1.Health/Check"
HEALTH_WATCH = "/grpc.health.v1.Health/Watch"
REFLECTION = f"/{reflection.SERVICE_NAME}/ServerReflectionInfo"
STREAMING_REQUESTS = frozenset({REFLECTION})  # served from the first DATA, message by message
OK = grpc.StatusCode.OK
# The request encodings grpc.aio takes (grpc-encoding), as it advertises them.
ENCODINGS = ("identity", "deflate", "gzip")
ACCEPT_ENCODING = ", ".join(ENCODINGS)
# grpc-core's ping abuse policy, as the grpc.aio port applies it: a client's
# PING sooner than this after its last (grpc.http2.min_ping_interval_without_data_ms
# in Limits.server_options), with nothing sent to it between, is a strike;
# past MAX_PING_STRIKES (grpc-core's default) the connection is closed.
MIN_PING_INTERVAL = 10.0
MAX_PING_STRIKES = 2


RESPONSE_HEADERS = [
    (":status", "200"),
    ("content-type", "application/grpc"),
    ("grpc-accept-encoding", ACCEPT_ENCODING),
]


def grpc_message(data: bytes) -> bytes:
    return b"\x00" + len(data).to_bytes(4, "big") + data


def percent_encoded(text: str) -> str:
    """grpc-message's encoding: printable ASCII but '%' as is, the rest %XX."""
    return "".join(
        chr(b) if 0x20 <= b <= 0x7E and b != 0x25 else f"%{b:02X}" for b in text.encode()
    )


class CallEnded(Exception):
    """A call's status, sent as its trailers."""

    def __init__(self, code: grpc.StatusCode, details: str = "") -> None:
        super().__init__(details)
        self.code = code
        self.details = details


class _Context:
    """What grpc_health's servicer asks of a context: abort, and write
    (Health/Watch's responses, on ``call``)."""

    def __init__(self, call: Call | None = None) -> None:
        self.call = call

    async def abort(self, code: grpc.StatusCode, details: str = "") -> None:
        raise CallEnded(code, details)

    async def write(self, message: Any) -> None:
        assert self.call is not None
        await self.call.send(message.SerializeToString())


class Call:
    """One HTTP/2 stream of one connection."""

    def __init__(self, connection: Connection, stream_id: int, path: str, token: str | None):
        self.connection = connection
        self.stream_id = stream_id
        self.sid = stream_id.to_bytes(4, "big")
        self.path = path
        self.token = token
        self.body = bytearray()
        self.task: asyncio.Task[None] | None = None
        self.watch: RelayWatch | None = None
        self.headers_sent = False
        self.closed = False
        self.sent = 0  # the sequence of the last response framed
        self.drained = asyncio.Event()
        self.code: grpc.StatusCode | None = None  # the status sent
        self.game_id = ""  # for the access log
        self.encoding = "identity"  # the request messages' (grpc-encoding)
        self.deadline: asyncio.TimerHandle | None = None  # its expire(), per grpc-timeout
        # A call whose requests stream (STREAMING_REQUESTS): the messages
        # parsed so far, whether the client half-closed, and the DATA bytes
        # not yet acknowledged (credit is given back as the call reads, so a
        # client cannot queue more than its window here).
        self.streaming = path in STREAMING_REQUESTS
        self.inbox: deque[bytes] = deque()
        self.arrived = asyncio.Event()
        self.half_closed = False
        self.unacked = 0
        self.failure: CallEnded | None = None

    # -------------------------------------------------------------- sending

    def _headers(self) -> None:
        self.headers_sent = True
        connection = self.connection
        connection.h2.send_headers(self.stream_id, RESPONSE_HEADERS)
        connection.emit()
        connection.sending()

    def request(self) -> bytes:
        """The one message of a unary request (a gRPC length-prefixed frame)."""
        body = self.body
        if len(body) < 5 or int.from_bytes(body[1:5], "big") != len(body) - 5:
            raise CallEnded(grpc.StatusCode.INVALID_ARGUMENT, "the request is not one gRPC message")
        limit = self.connection.server.limits.max_request_bytes
        return message_bytes(body[0], bytes(body[5:]), self.encoding, limit)

    def pump(self) -> None:
        """Frame the watch's queued responses while the windows allow, into
        the connection's next write (one per turn of the loop for all its
        streams); wake the call's task once the queue is empty and the
        stream must end or go back to the store."""
        watch = self.watch
        if self.closed:
            return
        if watch is None:  # a call writing with send(): its windows opened
            self.drained.set()
            return
        queue = watch.queue
        if queue:
            connection = self.connection
            conn = connection.h2
            stream = conn.streams.get(self.stream_id)
            if stream is None:  # closed under us
                self.cancel()
                return
            if not self.headers_sent:
                self._headers()
            out = connection.out
            limit = conn.max_outbound_frame_size
            sid = self.sid
            while queue:
                item = queue[0]
                if not isinstance(item, Framed):
                    item = Framed(item.response, item.data)
                message = item.message
                size = len(message)
                if (
                    stream.outbound_flow_control_window < size
                    or conn.outbound_flow_control_window < size
                ):
                    connection.blocked.add(self)
                    break
                stream.outbound_flow_control_window -= size
                conn.outbound_flow_control_window -= size
                if size <= limit:
                    out += (item.head, sid, message)
                else:
                    for start in range(0, size, limit):
                        part = message[start : start + limit]
                        out.append(len(part).to_bytes(3, "big") + b"\x00\x00" + sid)
                        out.append(part)
                queue.popleft()
                self.sent = item.response.event.sequence
            connection.schedule()
            connection.sending()
        if not queue:
            self.drained.set()
            if watch.finished or watch.fell_behind or watch.gap:
                watch.ready.set()

    async def flushed(self) -> None:
        """Until the watch's queue is framed (the windows may hold it)."""
        assert self.watch is not None
        while self.watch.queue:
            if self.closed:
                raise CallEnded(grpc.StatusCode.CANCELLED, "the stream was closed")
            self.drained.clear()
            self.pump()
            if self.watch.queue:
                await self.drained.wait()

    async def send(self, data: bytes) -> None:
        """One message of a streaming response (Health/Watch, reflection),
        through h2's ``send_data`` in the pieces the windows allow."""
        message = grpc_message(data)
        connection = self.connection
        conn = connection.h2
        if not self.headers_sent:
            self._headers()
        start = 0
        while start < len(message):
            if self.closed:
                raise CallEnded(grpc.StatusCode.CANCELLED, "the stream was closed")
            try:
                window = conn.local_flow_control_window(self.stream_id)
            except h2.exceptions.H2Error:
                raise CallEnded(grpc.StatusCode.CANCELLED, "the stream was closed") from None
            size = min(window, conn.max_outbound_frame_size, len(message) - start)
            if size <= 0:
                self.drained.clear()
                connection.blocked.add(self)
                await self.drained.wait()
                continue
            conn.send_data(self.stream_id, message[start : start + size])
            connection.emit()
            connection.sending()
            start += size

    def received(self, data: bytes, flow_controlled: int) -> None:
        """A streaming call's DATA: whole messages to the inbox as they
        complete (a gRPC length-prefixed frame each)."""
        self.unacked += flow_controlled
        body = self.body
        body.extend(data)
        limit = self.connection.server.limits.max_request_bytes
        while len(body) >= 5 and self.failure is None:
            size = int.from_bytes(body[1:5], "big")
            if size > limit:
                self.failure = CallEnded(
                    grpc.StatusCode.RESOURCE_EXHAUSTED, "the request is too large"
                )
            elif len(body) >= 5 + size:
                try:
                    message = message_bytes(
                        body[0], bytes(body[5 : 5 + size]), self.encoding, limit
                    )
                except CallEnded as ended:
                    self.failure = ended
                else:
                    self.inbox.append(message)
                del body[: 5 + size]
            else:
                break
        self.arrived.set()

    def half_close(self) -> None:
        self.half_closed = True
        self.arrived.set()

    async def requests(self) -> AsyncIterator[bytes]:
        """A streaming call's request messages, as they come, until the
        client half-closes."""
        while True:
            if self.inbox:
                yield self.inbox.popleft()
                continue
            if self.failure is not None:
                raise self.failure
            if self.half_closed:
                if self.body:
                    raise CallEnded(
                        grpc.StatusCode.INVALID_ARGUMENT, "the request stream ends mid-message"
                    )
                return
            self.acknowledge()
            self.arrived.clear()
            await self.arrived.wait()

    def acknowledge(self) -> None:
        """Give back the credit of the DATA read so far (the connection's
        too, once the stream is gone: h2 then updates only that)."""
        if self.unacked:
            with contextlib.suppress(h2.exceptions.H2Error):
                self.connection.h2.acknowledge_received_data(self.unacked, self.stream_id)
            self.unacked = 0
            self.connection.emit()

    def unary(self, data: bytes) -> None:
        self._headers()
        connection = self.connection
        connection.h2.send_data(self.stream_id, grpc_message(data))
        connection.emit()
        connection.sending()
        self.end(OK)

    def end(self, code: grpc.StatusCode, details: str = "") -> None:
        """The trailers (only trailers if nothing was sent)."""
        if self.closed:
            return
        self.closed = True
        self.code = code
        if self.deadline is not None:
            self.deadline.cancel()
        trailers = [("grpc-status", str(code.value[0]))]
        if details:
            trailers.append(("grpc-message", percent_encoded(details)))
        if not self.headers_sent:
            trailers = [*RESPONSE_HEADERS, *trailers]
        connection = self.connection
        with contextlib.suppress(h2.exceptions.H2Error):
            connection.h2.send_headers(self.stream_id, trailers, end_stream=True)
        connection.emit()
        connection.sending()
        connection.blocked.discard(self)

    def expire(self) -> None:
        """The client's deadline (grpc-timeout) passed: as grpc-core, end
        the call with DEADLINE_EXCEEDED whatever it was doing."""
        self.deadline = None
        self.end(grpc.StatusCode.DEADLINE_EXCEEDED, "Deadline Exceeded")
        if self.task is not None:
            self.code = grpc.StatusCode.CANCELLED  # CallInterceptor's word for it: cancelled
            self.task.cancel()

    def cancel(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
        self.closed = True
        self.drained.set()
        self.connection.blocked.discard(self)
        if self.task is not None:
            self.task.cancel()


class Connection(asyncio.Protocol):
    def __init__(self, server: H2Server) -> None:
        self.server = server
        self.h2 = h2.connection.H2Connection(
            config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8")
        )
        self.transport: asyncio.Transport | None = None
        self.client = ""
        self.peer = ""  # as gRPC names it: ipv4:HOST:PORT
        self.calls: dict[int, Call] = {}
        self.blocked: set[Call] = set()
        self.out: list[bytes] = []
        self.scheduled = False
        self.heard = self.used = time.monotonic()  # last bytes in; last call open
        self.pinged: float | None = None  # a keepalive PING awaiting its ACK since
        self.peer_pinged: float | None = None  # the peer's last PING (None: data sent since)
        self.strikes = 0

    # ------------------------------------------------------------- writing

    def emit(self) -> None:
        """Move what h2 framed into the ordered output (keep h2's buffer
        empty between calls, so that direct DATA frames stay in order)."""
        data = self.h2.data_to_send()
        if data:
            self.out.append(data)
            self.schedule()

    def schedule(self) -> None:
        if not self.scheduled:
            self.scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        self.scheduled = False
        if self.out and self.transport is not None and not self.transport.is_closing():
            self.transport.write(b"".join(self.out))
        self.out.clear()

    # ------------------------------------------------------------- reading

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.client = client_of_host(str(peer[0])) if peer else "unknown"
        self.peer = (
            f"ipv6:[{peer[0]}]:{peer[1]}"
            if peer and ":" in str(peer[0])
            else (f"ipv4:{peer[0]}:{peer[1]}" if peer else "unknown")
        )
        self.h2.local_settings = h2.settings.Settings(
            client=False,
            initial_values={
                h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS: (
                    self.server.limits.max_streams_per_connection
                ),
                h2.settings.SettingCodes.MAX_HEADER_LIST_SIZE: 16384,
            },
        )
        self.h2.initiate_connection()
        self.emit()
        self.server.connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connections.discard(self)
        self.transport = None
        for call in list(self.calls.values()):
            call.cancel()
        self.calls.clear()

    def data_received(self, data: bytes) -> None:
        self.heard = time.monotonic()
        try:
            events = self.h2.receive_data(data)
        except h2.exceptions.ProtocolError:
            self.emit()
            self.flush()
            if self.transport is not None:
                self.transport.close()
            return
        # h2's answers to what came (SETTINGS and PING acknowledgements,
        # window updates) go before any DATA framed below: a peer applies
        # its new window only once it has our ACK.
        self.emit()
        for event in events:
            if isinstance(event, h2.events.RequestReceived):
                self._request(event)
            elif isinstance(event, h2.events.DataReceived):
                self._data(event)
            elif isinstance(event, h2.events.StreamEnded):
                call = self.calls.get(event.stream_id)
                if call is not None and call.streaming:
                    call.half_close()
                elif call is not None and call.task is None and not call.closed:
                    call.task = asyncio.get_running_loop().create_task(self.server.serve(call))
            elif isinstance(event, h2.events.StreamReset):
                call = self.calls.pop(event.stream_id, None)
                if call is not None:
                    call.cancel()
            elif isinstance(event, (h2.events.WindowUpdated, h2.events.RemoteSettingsChanged)):
                self.emit()  # whatever h2 framed so far goes first
                blocked, self.blocked = self.blocked, set()
                for call in blocked:
                    call.pump()
            elif isinstance(event, h2.events.PingAckReceived):
                self.pinged = None
            elif isinstance(event, h2.events.PingReceived):
                self._peer_ping()
            elif isinstance(event, h2.events.ConnectionTerminated) and self.transport:
                self.transport.close()
        self.emit()

    def _peer_ping(self) -> None:
        """A PING too soon after the last, with nothing sent since, is a
        strike; too many and the connection is closed with GOAWAY
        ENHANCE_YOUR_CALM "too_many_pings", as grpc-core closes it."""
        now = time.monotonic()
        last, self.peer_pinged = self.peer_pinged, now
        if last is None or now - last >= MIN_PING_INTERVAL:
            return
        self.strikes += 1
        if self.strikes > MAX_PING_STRIKES and self.transport is not None:
            with contextlib.suppress(h2.exceptions.H2Error):
                self.h2.close_connection(
                    h2.errors.ErrorCodes.ENHANCE_YOUR_CALM, additional_data=b"too_many_pings"
                )
            self.emit()
            self.flush()
            self.transport.close()

    def sending(self) -> None:
        """Headers or data go to the peer: its PINGs are welcome again."""
        self.peer_pinged = None
        self.strikes = 0

    def _request(self, event: h2.events.RequestReceived) -> None:
        headers = cast(dict[str, str], dict(event.headers or ()))  # header_encoding: str
        path = str(headers.get(":path", ""))
        token = bearer(str(headers.get("authorization", "")))
        call = self.calls[event.stream_id] = Call(self, event.stream_id, path, token)
        call.encoding = str(headers.get("grpc-encoding", "identity"))
        content_type = str(headers.get("content-type", ""))
        if headers.get(":method") != "POST" or not content_type.startswith("application/grpc"):
            self.h2.send_headers(event.stream_id, [(":status", "415")], end_stream=True)
            call.closed = True
            self.calls.pop(event.stream_id, None)
        elif call.encoding not in ENCODINGS:
            call.end(
                grpc.StatusCode.UNIMPLEMENTED,
                f"this relay takes requests encoded with {', '.join(ENCODINGS)}",
            )
        else:
            seconds = timeout_seconds(str(headers.get("grpc-timeout", "")))
            loop = asyncio.get_running_loop()
            if seconds is not None:
                call.deadline = loop.call_later(seconds, call.expire)
            if call.streaming:  # its requests are read as they come
                call.task = loop.create_task(self.server.serve(call))

    def _data(self, event: h2.events.DataReceived) -> None:
        call = self.calls.get(event.stream_id)
        if call is not None and call.streaming and not call.closed:
            call.received(event.data or b"", event.flow_controlled_length)
            return
        self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
        if call is None or call.closed:
            return
        call.body.extend(event.data or b"")
        if len(call.body) > self.server.limits.max_request_bytes + 5:
            call.end(grpc.StatusCode.RESOURCE_EXHAUSTED, "the request is too large")
            with contextlib.suppress(h2.exceptions.H2Error):
                self.h2.reset_stream(event.stream_id)

    def forget(self, call: Call) -> None:
        if self.calls.get(call.stream_id) is call:
            del self.calls[call.stream_id]
        self.used = time.monotonic()

    def keep_alive(self, now: float, limits: Limits) -> None:
        """As the grpc.aio port's options: PING a connection silent for
        ``keepalive_seconds``, drop it if the ACK does not come within
        ``keepalive_timeout_seconds``, and close one with no call for
        ``idle_seconds`` (GOAWAY)."""
        if self.transport is None:
            return
        if self.pinged is not None and now - self.pinged > limits.keepalive_timeout_seconds:
            self.transport.close()  # a dead peer: its calls end, their slots free
        elif not self.calls and now - self.used > limits.idle_seconds:
            with contextlib.suppress(h2.exceptions.H2Error):
                self.h2.close_connection()
            self.emit()
            self.flush()
            self.transport.close()
        elif self.pinged is None and now - self.heard > limits.keepalive_seconds:
            self.pinged = now
            self.h2.ping(int(now * 1000).to_bytes(8, "big"))
            self.emit()


TIMEOUT_UNITS = {"H": 3600.0, "M": 60.0, "S": 1.0, "m": 1e-3, "u": 1e-6, "n": 1e-9}


def timeout_seconds(value: str) -> float | None:
    """A grpc-timeout header's seconds (None: none, or not one)."""
    digits, unit = value[:-1], value[-1:]
    if not (0 < len(digits) <= 8 and digits.isascii() and digits.isdigit()):
        return None
    scale = TIMEOUT_UNITS.get(unit)
    return None if scale is None else int(digits) * scale


def bearer(value: str) -> str | None:
    scheme, _, token = value.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


def message_bytes(flag: int, payload: bytes, encoding: str, limit: int) -> bytes:
    """A request message as its framing says: as is (flag 0), or
    compressed with the call's grpc-encoding (flag 1), at most ``limit``
    bytes once inflated."""
    if flag == 0:
        return payload
    if flag != 1 or encoding == "identity":
        raise CallEnded(
            grpc.StatusCode.INVALID_ARGUMENT,
            "the request is marked compressed but the call names no grpc-encoding",
        )
    inflate = zlib.decompressobj(wbits=31 if encoding == "gzip" else 15)
    try:
        data = inflate.decompress(payload, limit + 1)
    except zlib.error:
        raise CallEnded(grpc.StatusCode.INTERNAL, f"the request is not valid {encoding}") from None
    if len(data) > limit:
        raise CallEnded(grpc.StatusCode.RESOURCE_EXHAUSTED, "the request is too large")
    if not inflate.eof:
        raise CallEnded(grpc.StatusCode.INTERNAL, f"the request is not valid {encoding}")
    return data


class H2Server:
    """The relay's gRPC port on h2: WatchEvents, Health (Check and Watch)
    and server reflection of the ``reflected`` services."""

    def __init__(
        self, servicer: Any, health: Any, limits: Limits, reflected: Iterable[str] = ()
    ) -> None:
        self.servicer = servicer
        self.health = health
        self.limits = limits
        # grpc_reflection's own servicer answers; only the framing is ours.
        self.reflection = reflection.aio.ReflectionServicer(tuple(reflected))  # type: ignore[attr-defined]
        self.connections: set[Connection] = set()
        self.server: asyncio.Server | None = None
        self.keeper: asyncio.Task[None] | None = None

    async def start(self, sock: socket.socket, tls: ssl.SSLContext | None) -> int:
        if tls is not None:
            tls.set_alpn_protocols(["h2"])
        loop = asyncio.get_running_loop()
        self.server = await loop.create_server(lambda: Connection(self), sock=sock, ssl=tls)
        self.keeper = loop.create_task(self._keep_alive())
        return int(sock.getsockname()[1])

    async def _keep_alive(self) -> None:
        """One task for every connection's keepalive and idle timeout."""
        limits = self.limits
        period = max(0.05, min(limits.keepalive_timeout_seconds, limits.keepalive_seconds) / 4)
        while True:
            await asyncio.sleep(period)
            now = time.monotonic()
            for connection in list(self.connections):
                connection.keep_alive(now, limits)

    async def stop(self, grace: float | None = None) -> None:
        if self.keeper is not None:
            self.keeper.cancel()
        if self.server is not None:
            self.server.close()
        for connection in list(self.connections):
            with contextlib.suppress(h2.exceptions.H2Error):
                connection.h2.close_connection()
            connection.emit()
            connection.flush()
        tasks = [c.task for conn in self.connections for c in conn.calls.values() if c.task]
        if grace and tasks:
            await asyncio.wait(tasks, timeout=grace)
        for connection in list(self.connections):
            for call in list(connection.calls.values()):
                call.cancel()
            if connection.transport is not None:
                connection.transport.close()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        if self.server is not None:
            await self.server.wait_closed()

    async def serve(self, call: Call) -> None:
        start = time.perf_counter()
        try:
            if call.path == WATCH:
                await self.watch(call)
            elif call.path == HEALTH_CHECK:
                request = health_pb2.HealthCheckRequest.FromString(call.request())
                response = await self.health.Check(request, _Context())
                call.unary(response.SerializeToString())
            elif call.path == HEALTH_WATCH:
                request = health_pb2.HealthCheckRequest.FromString(call.request())
                await self.health_watch(call, request)
            elif call.path == REFLECTION:
                await self.reflect(call)
            elif call.path.startswith(SERVICE_PREFIX):
                name = call.path.removeprefix(SERVICE_PREFIX)
                raise CallEnded(
                    grpc.StatusCode.UNIMPLEMENTED,
                    f"this is a relay: it serves WatchEvents only; call {name} on a game server",
                )
            else:
                raise CallEnded(grpc.StatusCode.UNIMPLEMENTED, "Method not found!")
        except CallEnded as ended:
            call.end(ended.code, ended.details)
        except DecodeError:
            call.end(grpc.StatusCode.INVALID_ARGUMENT, "the request is not a valid message")
        except asyncio.CancelledError:
            if not call.closed:
                call.end(grpc.StatusCode.CANCELLED, "the relay is stopping")
            raise
        except Exception as error:
            mapped = status_of(error)
            if mapped is None:
                log.error("unexpected error", exc_info=error)
                call.end(grpc.StatusCode.INTERNAL, "internal error")
            else:
                call.end(*mapped)
        finally:
            call.closed = True
            call.acknowledge()  # the connection's share of what was not read
            call.connection.forget(call)
            self._log(call, time.perf_counter() - start)

    async def health_watch(self, call: Call, request: health_pb2.HealthCheckRequest) -> None:
        """grpc_health's Watch on this call: each status a message, until
        the client cancels or the relay stops (its task is cancelled)."""
        result: Any = self.health.Watch(request, _Context(call))
        if inspect.isasyncgen(result):  # a servicer that yields instead of writing
            async for response in cast(AsyncIterator[Any], result):
                await call.send(response.SerializeToString())
        else:
            await result
        call.end(OK)

    async def reflect(self, call: Call) -> None:
        """ServerReflectionInfo: one response per request message, in order,
        until the client half-closes."""

        async def requests() -> AsyncIterator[reflection_pb2.ServerReflectionRequest]:
            async for data in call.requests():
                yield reflection_pb2.ServerReflectionRequest.FromString(data)

        async for response in self.reflection.ServerReflectionInfo(requests(), None):
            await call.send(response.SerializeToString())
        call.end(OK)

    def _log(self, call: Call, seconds: float) -> None:
        """As CallInterceptor's: the call's metric and its access-log line,
        for the calls it sees (not request streams, not unknown methods)."""
        if call.streaming or not (
            call.path.startswith(SERVICE_PREFIX) or call.path in (HEALTH_CHECK, HEALTH_WATCH)
        ):
            return
        code = call.code or grpc.StatusCode.CANCELLED
        name = call.path.rsplit("/", 1)[-1]
        self.servicer.metrics.rpc_seconds.labels(name, code.name).observe(seconds)
        if access_log.isEnabledFor(logging.INFO):
            line = {
                "method": name,
                "code": code.name,
                "duration_ms": round(seconds * 1000, 3),
                "game_id": call.game_id[:64],
                "peer": call.connection.peer[:64],
            }
            access_log.info(json.dumps(line, separators=(",", ":")))

    async def watch(self, call: Call) -> None:
        """RelayServicer.WatchEvents on this transport: the same steps, but
        the live responses are framed by the feeds' delivery itself
        (``watch.sink``), with no wake of this task per message."""
        try:
            request = gpb.WatchEventsRequest.FromString(call.request())
        except DecodeError:
            raise CallEnded(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"the request is not a valid {gpb.WatchEventsRequest.DESCRIPTOR.full_name} message",
            ) from None
        relay = self.servicer
        call.game_id = request.game_id
        if request.narrate:
            raise CallEnded(
                grpc.StatusCode.UNIMPLEMENTED,
                "a relay does not narrate: ask the server for WatchEvents with narrate",
            )
        client = None if relay.identity.is_operator(call.token) else call.connection.client
        try:
            relay._open_stream(client)
        except TooBusy as error:
            mapped = status_of(error)
            assert mapped is not None
            raise CallEnded(*mapped) from None
        watch: RelayWatch | None = None
        topic: Topic | None = None
        present = contextlib.ExitStack()
        try:
            loaded, viewer = await relay._viewer(request.game_id, call.token, request.as_spectator)
            if viewer.seat is not None and relay.presence is not None:
                present.enter_context(relay.watching(loaded.game_id, viewer.seat))
            watch = call.watch = RelayWatch(loaded.game_id, viewer, loaded, request.after_sequence)
            watch.sink = call
            call.sent = request.after_sequence
            if viewer.kind == "auditor":
                subjects = brokers.game_subjects(loaded.game_id)
                topic = await relay.feeds.join(watch, subjects, copies=False)
            else:
                topic = await relay.feeds.join(watch, brokers.subject(loaded.game_id, viewer))
            relay._start_sweeping()
            read = functools.partial(
                relay._run, functools.partial(relay.cache.load, loaded.game_id, fresh=True)
            )
            while True:
                await relay.feeds.sync(topic, read)
                while True:  # catch up from the store, a few events at a time
                    chunk, done = await relay._run(relay._backlog, watch, topic.last)
                    heads = relay.heads
                    for envelope in chunk:
                        signed = heads.of(envelope) if heads is not None else None
                        response = gpb.WatchEventsResponse(event=envelope, signed_head=signed)
                        watch.queue.append(Framed(response, response.SerializeToString()))
                        watch.cursor = envelope.sequence
                    await call.flushed()
                    if done:
                        raise CallEnded(OK)
                    if not chunk:
                        break
                watch.gap = False
                relay.feeds.go_live(watch)
                while True:
                    await call.flushed()
                    if watch.fell_behind:
                        raise FellBehind(
                            f"this stream fell {relay.limits.max_stream_backlog} events behind "
                            f"its game; resume with after_sequence={call.sent}"
                        )
                    if watch.finished:
                        raise CallEnded(OK)
                    if watch.gap:
                        break
                    watch.ready.clear()
                    await watch.ready.wait()
                watch.live = False
                watch.early.clear()
        finally:
            present.close()
            if watch is not None:
                watch.sink = None
                if topic is not None:
                    relay.feeds.leave(watch, topic)
            relay._close_stream(client)


__all__ = ["H2Server"]
