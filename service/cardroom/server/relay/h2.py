"""``cardroom relay --transport h2``: the relay's gRPC port on python-hyper's
``h2`` instead of grpc.aio (docs/scaling.md, "Relays"; docs/benchmarks.md).

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
errors); ``grpc.health.v1.Health/Check`` from the same health servicer;
every other GameService method UNIMPLEMENTED as there. Not served here:
``Health/Watch`` and server reflection (UNIMPLEMENTED), and the access
log / per-call metrics of the grpc.aio interceptor.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import socket
import ssl
import time
from typing import Any, cast

import grpc
import h2.config
import h2.connection
import h2.events
import h2.exceptions
import h2.settings
from google.protobuf.message import DecodeError
from grpc_health.v1 import health_pb2

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
OK = grpc.StatusCode.OK


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
    """What grpc_health's servicer asks of a context (abort)."""

    async def abort(self, code: grpc.StatusCode, details: str = "") -> None:
        raise CallEnded(code, details)


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

    # -------------------------------------------------------------- sending

    def _headers(self) -> None:
        self.headers_sent = True
        connection = self.connection
        connection.h2.send_headers(
            self.stream_id, [(":status", "200"), ("content-type", "application/grpc")]
        )
        connection.emit()

    def pump(self) -> None:
        """Frame the watch's queued responses while the windows allow, into
        the connection's next write (one per turn of the loop for all its
        streams); wake the call's task once the queue is empty and the
        stream must end or go back to the store."""
        watch = self.watch
        if watch is None or self.closed:
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

    def unary(self, data: bytes) -> None:
        self._headers()
        connection = self.connection
        connection.h2.send_data(self.stream_id, grpc_message(data))
        connection.emit()
        self.end(OK)

    def end(self, code: grpc.StatusCode, details: str = "") -> None:
        """The trailers (only trailers if nothing was sent)."""
        if self.closed:
            return
        self.closed = True
        self.code = code
        trailers = [("grpc-status", str(code.value[0]))]
        if details:
            trailers.append(("grpc-message", percent_encoded(details)))
        if not self.headers_sent:
            trailers = [(":status", "200"), ("content-type", "application/grpc"), *trailers]
        connection = self.connection
        with contextlib.suppress(h2.exceptions.H2Error):
            connection.h2.send_headers(self.stream_id, trailers, end_stream=True)
        connection.emit()
        connection.blocked.discard(self)

    def cancel(self) -> None:
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
                if call is not None and call.task is None:
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
            elif isinstance(event, h2.events.ConnectionTerminated) and self.transport:
                self.transport.close()
        self.emit()

    def _request(self, event: h2.events.RequestReceived) -> None:
        headers = cast(dict[str, str], dict(event.headers or ()))  # header_encoding: str
        path = str(headers.get(":path", ""))
        token = bearer(str(headers.get("authorization", "")))
        call = self.calls[event.stream_id] = Call(self, event.stream_id, path, token)
        content_type = str(headers.get("content-type", ""))
        if headers.get(":method") != "POST" or not content_type.startswith("application/grpc"):
            self.h2.send_headers(event.stream_id, [(":status", "415")], end_stream=True)
            call.closed = True
            self.calls.pop(event.stream_id, None)
        elif headers.get("grpc-encoding", "identity") != "identity":
            call.end(grpc.StatusCode.UNIMPLEMENTED, "this relay takes uncompressed requests")

    def _data(self, event: h2.events.DataReceived) -> None:
        self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
        call = self.calls.get(event.stream_id)
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


def bearer(value: str) -> str | None:
    scheme, _, token = value.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


def request_bytes(body: bytes | bytearray) -> bytes:
    """The one message of a unary request (a gRPC length-prefixed frame)."""
    if len(body) < 5 or body[0] != 0 or int.from_bytes(body[1:5], "big") != len(body) - 5:
        raise CallEnded(grpc.StatusCode.INVALID_ARGUMENT, "the request is not one gRPC message")
    return bytes(body[5:])


class H2Server:
    """The relay's gRPC port on h2: WatchEvents and Health/Check."""

    def __init__(self, servicer: Any, health: Any, limits: Limits) -> None:
        self.servicer = servicer
        self.health = health
        self.limits = limits
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
                request = health_pb2.HealthCheckRequest.FromString(request_bytes(call.body))
                response = await self.health.Check(request, _Context())
                call.unary(response.SerializeToString())
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
            call.connection.forget(call)
            self._log(call, time.perf_counter() - start)

    def _log(self, call: Call, seconds: float) -> None:
        """As CallInterceptor's: the call's metric and its access-log line."""
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
            request = gpb.WatchEventsRequest.FromString(request_bytes(call.body))
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
