"""The browser port's connection limits (issue 20, item 1 and the HTTP parts
of item 6): timeouts, caps per client and in all, refusals logged once per
interval, and requests it refuses outright."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from cardroom.client import Client
from cardroom.server.api.server import RunningServer, Settings, start
from cardroom.server.browser.app import Pacer
from cardroom.server.browser.connections import WebLimits, client_key, connection_caps
from cardroom.server.limits import Limits
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.v1 import game_service_pb2 as gpb
from tests.bounded import steps
from tests.service.helpers import seated_game
from tests.web.support import frames, post

# Bounds a hang: no assertion depends on how long anything takes.
HANG = 30.0


@asynccontextmanager
async def serving(tmp_path: Path, limits: WebLimits) -> AsyncIterator[RunningServer]:
    server = await start(
        Settings(
            address="127.0.0.1:0",
            database=str(tmp_path / "cardroom.sqlite3"),
            web_address="127.0.0.1:0",
            web_limits=limits,
        )
    )
    try:
        yield server
    finally:
        await server.stop(grace=None)


async def closed(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the connection (bounded)."""
    try:
        return await asyncio.wait_for(reader.read(), HANG)
    except ConnectionResetError:
        return b""


def test_the_caps_stay_below_the_file_limit() -> None:
    assert connection_caps(WebLimits(), 1024) == (448, 56)
    assert connection_caps(WebLimits(connections=100_000), 1024) == (448, 56)
    assert connection_caps(WebLimits(connections=100, connections_per_client=500), 1024) == (
        100,
        100,
    )
    total, per_client = connection_caps(WebLimits(), 100)
    assert total + 64 <= 100 and per_client <= total


async def test_one_client_beyond_its_cap_is_refused_while_grpc_and_health_work(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, "cardroom.server.browser.connections")
    cap, tries = 5, 40
    async with serving(tmp_path, WebLimits(connections_per_client=cap)) as server:
        assert server.web is not None
        opened = [await asyncio.open_connection("127.0.0.1", server.web.port) for _ in range(tries)]
        guard = server.web.guard
        for _ in steps(10_000, "the refusals"):
            if guard.refused == tries - cap:
                break
            await asyncio.sleep(0.01)
        assert guard.connections == cap
        # The refused connections are closed at once (the admitted ones stay
        # open until their idle timeout, far beyond this test).
        reads = {asyncio.ensure_future(closed(reader)): writer for reader, writer in opened}
        for _ in steps(3000, "the refused connections to close"):
            if len([read for read in reads if read.done()]) >= tries - cap:
                break
            await asyncio.sleep(0.01)
        assert all(read.result() == b"" for read in reads if read.done())
        # gRPC and the health check are served meanwhile.
        client = Client.connect(f"127.0.0.1:{server.port}")
        table = await seated_game(client)
        view = await client.view(table.game_id, table.token(0))
        assert view.version > 0
        async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            health = await health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(), timeout=HANG
            )
        assert health.status == health_pb2.HealthCheckResponse.SERVING
        await client.close()
        for read, writer in reads.items():
            read.cancel()
            writer.close()
        # Refusals are logged once per interval, not once per try: the
        # first at once, the others together when the interval ends.
        refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
        assert len(refusals) == 1 and "refused 1 connections" in refusals[0]
        assert guard._flush is not None
        guard._log()
        refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
        assert len(refusals) == 2 and f"refused {tries - cap - 1} connections" in refusals[1]


async def test_a_connection_that_sends_nothing_is_closed_after_the_idle_timeout(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path, WebLimits(idle_seconds=0.3)) as server:
        assert server.web is not None
        reader, writer = await asyncio.open_connection("127.0.0.1", server.web.port)
        assert await closed(reader) == b""
        writer.close()
        for _ in steps(1000, "the connection to be released"):
            if server.web.guard.connections == 0:
                break
            await asyncio.sleep(0.01)


async def test_trickled_headers_and_a_slow_body_are_cut_off(tmp_path: Path) -> None:
    limits = WebLimits(idle_seconds=HANG * 4, header_seconds=0.3, body_seconds=0.3)
    async with serving(tmp_path, limits) as server:
        assert server.web is not None
        # Headers, one byte at a time: each byte is progress, the deadline holds.
        reader, writer = await asyncio.open_connection("127.0.0.1", server.web.port)
        request = b"GET / HTTP/1.1\r\nhost: x\r\nx-slow: " + b"a" * 10_000
        for at in steps(len(request), "the trickling connection to be closed"):
            if reader.at_eof():
                break
            try:
                writer.write(request[at : at + 1])
                await writer.drain()
            except ConnectionError:
                break
            await asyncio.sleep(0.01)
        assert await closed(reader) == b""
        # A body that never comes.
        reader, writer = await asyncio.open_connection("127.0.0.1", server.web.port)
        writer.write(
            b"POST /cardroom.v1.GameService/ListGameKinds HTTP/1.1\r\nhost: x\r\n"
            b"content-type: application/json\r\ncontent-length: 100\r\n\r\n{"
        )
        assert b"200 OK" not in await closed(reader)
        assert server.web.guard.dropped == 2


async def test_content_length_with_transfer_encoding_is_refused_and_the_connection_closed(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path, WebLimits()) as server:
        assert server.web is not None
        reader, writer = await asyncio.open_connection("127.0.0.1", server.web.port)
        writer.write(
            b"POST /cardroom.v1.GameService/ListGameKinds HTTP/1.1\r\nhost: x\r\n"
            b"content-type: application/json\r\ncontent-length: 2\r\n"
            b"transfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
        )
        answer = await closed(reader)  # read to the end: the server closes it
        assert answer.startswith(b"HTTP/1.1 400 ")
        assert b"connection: close" in answer.lower()
        writer.close()


def watch_events(game_id: str) -> bytes:
    message = gpb.WatchEventsRequest(game_id=game_id, as_spectator=True).SerializeToString()
    body = b"\x00" + len(message).to_bytes(4, "big") + message
    return (
        b"POST /cardroom.v1.GameService/WatchEvents HTTP/1.1\r\nhost: x\r\n"
        b"content-type: application/connect+proto\r\n"
        b"content-length: %d\r\n\r\n%s" % (len(body), body)
    )


async def never_read(port: int, request: bytes) -> socket.socket:
    """A connection with a tiny receive buffer that posts ``request`` and
    never reads."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)  # the kernel's least
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    await asyncio.get_running_loop().sock_sendall(sock, request)
    return sock


@pytest.mark.slow
async def test_never_read_web_streams_are_dropped_and_grpc_is_served(tmp_path: Path) -> None:
    """Never-read web WatchEvents of a long game: each holds no more than
    its buffers, is dropped once it has read nothing for stall_seconds, and
    frees its watcher slot; gRPC answers all along."""
    limits = WebLimits(stall_seconds=0.3, send_buffer_bytes=1024)
    streams = 20
    async with serving(tmp_path, limits) as server:
        assert server.web is not None and server.servicer is not None
        client = Client.connect(f"127.0.0.1:{server.port}")
        table = await seated_game(client, options=sm.Options(rounds_to_win=50))
        version = 0
        for _ in steps(2000, "the game to reach 120 events"):
            if version >= 120:
                break
            for seat in range(3):
                actions = await client.legal_actions(table.game_id, table.token(seat))
                if actions:
                    version = (
                        await client.act(table.game_id, table.token(seat), actions[0])
                    ).version
                    break
        whole = 0  # the spectators' whole stream so far, as framed for a browser
        async for envelope in client.watch(table.game_id, as_spectator=True):
            whole += 5 + envelope.ByteSize()
            if envelope.sequence == version:
                break
        opened = [
            await never_read(server.web.port, watch_events(table.game_id)) for _ in range(streams)
        ]
        guard = server.web.guard
        for _ in steps(3000, "the stalled streams to be dropped"):
            # gRPC is served meanwhile, every turn of this loop.
            assert (await client.view(table.game_id, table.token(0))).version == version
            if guard.dropped == streams and server.servicer.watchers == 0:
                break
            await asyncio.sleep(0.01)
        for sock in opened:
            # What the stream had written before it was dropped (as much as
            # its buffers held), then the end: a reset or an EOF.
            sock.setblocking(True)
            sock.settimeout(HANG)
            received = b""
            try:
                while chunk := sock.recv(65536):
                    received += chunk
            except ConnectionResetError:
                pass
            assert 0 < len(received) < whole / 3
            sock.close()
        await client.close()


async def test_plain_grpc_on_the_web_port_is_answered_unimplemented_without_a_traceback(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path, WebLimits()) as server:
        assert server.web is not None
        status, headers, body = await post(
            server.web.url.rstrip("/") + "/cardroom.v1.GameService/ListGameKinds",
            b"\x00\x00\x00\x00\x00",
            {"content-type": "application/grpc"},
        )
        assert status == 415
        assert headers["grpc-status"] == "12"  # UNIMPLEMENTED
        assert b"gRPC port" in body and len(body) < 200
        assert b"Traceback" not in body


async def test_a_frame_flagged_compressed_without_an_encoding_is_invalid_argument(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path, WebLimits()) as server:
        assert server.web is not None
        message = gpb.WatchEventsRequest(game_id="g").SerializeToString()
        status, _, body = await post(
            server.web.url.rstrip("/") + "/cardroom.v1.GameService/WatchEvents",
            b"\x01" + len(message).to_bytes(4, "big") + message,  # compressed, no encoding
            {"content-type": "application/connect+proto"},
        )
        assert status == 200
        (_, end), *_ = [frame for frame in frames(body) if frame[0] & 0x02]
        assert json.loads(end)["error"]["code"] == "invalid_argument"


async def test_undecodable_protobuf_over_grpc_is_invalid_argument(tmp_path: Path) -> None:
    async with (
        serving(tmp_path, WebLimits()) as server,
        grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel,
    ):
        for method, call in (
            ("GetView", channel.unary_unary),
            ("WatchEvents", channel.unary_stream),
        ):
            raw = call(
                f"/cardroom.v1.GameService/{method}",
                request_serializer=lambda data: data,
                response_deserializer=lambda data: data,
            )
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                answer = raw(b"\xff\xff\xff", timeout=HANG)
                if method == "WatchEvents":
                    async for _ in answer:  # type: ignore[union-attr]
                        pass
                else:
                    await answer  # type: ignore[misc]
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT, method
            assert "is not a valid cardroom.v1." in str(refused.value.details())


async def test_browser_streams_write_at_most_a_few_messages_per_loop_turn() -> None:
    """The pacer: however many streams are ready, at most ``per_turn``
    messages in all go per turn of the event loop."""
    pacer = Pacer(per_turn=2)
    turn = 0
    written: list[tuple[int, int]] = []  # (turn, stream)

    async def stream(number: int) -> None:
        for _ in range(3):
            await pacer.turn()
            written.append((turn, number))

    async def count_turns() -> None:
        nonlocal turn
        while True:
            await asyncio.sleep(0)
            turn += 1

    counter = asyncio.ensure_future(count_turns())
    await asyncio.gather(*(stream(n) for n in range(10)))
    counter.cancel()
    assert len(written) == 30
    per_turn = Counter(at for at, _ in written)
    assert max(per_turn.values()) <= 2
    assert len(per_turn) >= 15  # 30 messages, two a turn


async def read_events(reader: asyncio.StreamReader, count: int) -> None:
    """Read a chunked Connect stream's first ``count`` messages (bounded)."""
    body = b""
    while len(frames(body)) < count or len(body) < sum(5 + len(p) for _, p in frames(body)):
        size = int((await asyncio.wait_for(reader.readuntil(b"\r\n"), HANG)).strip(), 16)
        body += await asyncio.wait_for(reader.readexactly(size + 2), HANG)
        body = body[:-2]


async def test_a_dropped_web_stream_gives_its_slot_back_at_once(tmp_path: Path) -> None:
    """Issue 34: a browser that goes away while its WatchEvents waits for the
    next event (nothing to write) held its slot until the game moved; the
    call now ends when its connection closes."""
    async with serving(tmp_path, WebLimits()) as server:
        assert server.web is not None and server.servicer is not None
        client = Client.connect(f"127.0.0.1:{server.port}")
        table = await seated_game(client)
        version = (await client.view(table.game_id)).version
        reader, writer = await asyncio.open_connection("127.0.0.1", server.web.port)
        writer.write(watch_events(table.game_id))
        assert b"200 OK" in await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HANG)
        await read_events(reader, version)  # caught up: the call waits for the next
        assert server.servicer.watchers == 1
        writer.close()  # every byte read: a plain FIN
        for _ in steps(1000, "the dropped web stream to give its slot back"):
            if server.servicer.watchers == 0 and server.web.guard.connections == 0:
                break
            await asyncio.sleep(0.01)
        # Nothing was written meanwhile that could have found it gone.
        assert (await client.view(table.game_id)).version == version
        await client.close()


async def _get(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bytes:
    """The status line of ``GET /`` on an open connection, its whole
    response read (bounded), the connection kept open."""
    writer.write(b"GET / HTTP/1.1\r\nHost: cardroom\r\n\r\n")
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HANG)
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    await asyncio.wait_for(reader.readexactly(length), HANG)
    return head.split(b"\r\n", 1)[0]


async def test_at_the_cap_in_all_the_port_accepts_nothing_until_a_connection_closes(
    tmp_path: Path,
) -> None:
    """Issue 34: a connection past the cap in all used to be accepted, then
    closed (a descriptor and a refusal for each). Now the port stops
    accepting at the cap: the next connection waits in the listen queue and
    is served once another closes, and nothing is refused."""
    async with serving(tmp_path, WebLimits(connections=2, connections_per_client=2)) as server:
        assert server.web is not None
        guard = server.web.guard
        first, second = [
            await asyncio.open_connection("127.0.0.1", server.web.port) for _ in range(2)
        ]
        assert (await _get(*second)).startswith(b"HTTP/1.1 200")
        assert guard.connections == 2 and guard.full
        waiting = await asyncio.open_connection("127.0.0.1", server.web.port)  # the kernel's
        # The server's loop has turned since the third connected: it answered this.
        assert (await _get(*second)).startswith(b"HTTP/1.1 200")
        assert guard.refused == 0 and guard.connections == 2 and guard.pending == 0
        first[1].close()
        assert (await _get(*waiting)).startswith(b"HTTP/1.1 200")
        assert guard.refused == 0 and guard.connections == 2
        for _, writer in (second, waiting):
            writer.close()


async def test_accept_failures_are_one_warning_per_interval_with_their_count(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 34: a burst past the web caps ran the process out of file
    descriptors, and asyncio logged each failed accept() as an ERROR with a
    traceback (5,898 in 5 s under a file limit of 200)."""
    caplog.set_level(logging.WARNING)
    async with serving(tmp_path, WebLimits()) as server:
        assert server.web is not None
        loop = asyncio.get_running_loop()
        for _ in range(1000):
            loop.call_exception_handler(
                {
                    "message": "socket.accept() out of system resource",
                    "exception": OSError(24, "Too many open files"),
                }
            )
        for _ in steps(1000, "the accept failures' report"):
            if server.web.accept_failures._flush is None:
                break
            await asyncio.sleep(0.01)
        records = [(r.levelname, r.getMessage()) for r in caplog.records]
        failures = [m for level, m in records if "accepting a connection failed" in m]
        assert failures == [failures[0]] and "1000 times" in failures[0]
        assert not [m for level, m in records if level == "ERROR"]
        assert server.web.accept_failures.failed == 1000


async def test_web_connections_are_probed_by_tcp_keepalive(tmp_path: Path) -> None:
    """HTTP/1.1 has no pings: TCP keepalive finds a peer whose host is gone
    (no FIN ever comes), and the stream on its connection ends."""
    limits = WebLimits(keepalive_seconds=7, keepalive_interval_seconds=3, keepalive_probes=2)
    async with serving(tmp_path, limits) as server:
        assert server.web is not None
        _, writer = await asyncio.open_connection("127.0.0.1", server.web.port)
        for _ in steps(1000, "the connection to be accepted"):
            if server.web.server.server_state.connections:
                break
            await asyncio.sleep(0.01)
        (protocol,) = server.web.server.server_state.connections
        sock = protocol.transport.get_extra_info("socket")
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 7
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL) == 3
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT) == 2
        writer.close()


def test_a_web_client_is_counted_as_the_grpc_limits_count_it() -> None:
    """Issue 34: the web port's cap was per address; an IPv6 client is its
    /64, an IPv4 browser on a ``[::]`` port its IPv4 address."""
    assert client_key(("2001:db8:1:2::1", 5, 0, 0)) == client_key(("2001:db8:1:2:ff::9", 6, 0, 0))
    assert client_key(("2001:db8:1:3::1", 5, 0, 0)) != client_key(("2001:db8:1:2::1", 5, 0, 0))
    assert client_key(("::ffff:10.0.0.1", 5, 0, 0)) == "10.0.0.1" == client_key(("10.0.0.1", 9))
    assert client_key(("::ffff:10.0.0.2", 5, 0, 0)) != client_key(("::ffff:10.0.0.1", 5, 0, 0))


def unary_create_game(port: int, source: str) -> bytes:
    """A Connect CreateGame on the ``[::]`` web port from ``source`` (an
    IPv4 address: the port sees it as ``::ffff:source``); the response."""
    body = gpb.CreateGameRequest(kind="smoke-and-mirrors", seat_count=2).SerializeToString()
    with socket.create_connection(
        ("127.0.0.1", port), timeout=HANG, source_address=(source, 0)
    ) as sock:
        sock.sendall(
            b"POST /cardroom.v1.GameService/CreateGame HTTP/1.1\r\nhost: x\r\n"
            b"content-type: application/proto\r\nconnection: close\r\n"
            b"content-length: %d\r\n\r\n%s" % (len(body), body)
        )
        response = b""
        while chunk := sock.recv(65536):
            response += chunk
    return response


async def test_ipv4_browsers_on_a_dual_stack_port_are_each_their_own_client(
    tmp_path: Path,
) -> None:
    """Issue 34: on a ``[::]`` web port every IPv4 browser was
    ``::ffff:a.b.c.d``, one /64: one browser's creations spent everyone's."""
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::", 0))
    except OSError:
        pytest.skip("no IPv6 on this machine")
    server = await start(
        Settings(
            address="127.0.0.1:0",
            database=str(tmp_path / "cardroom.sqlite3"),
            web_address="[::]:0",
            limits=Limits(games_per_client_per_hour=1),
        )
    )
    try:
        assert server.web is not None
        port = server.web.port
        first = await asyncio.to_thread(unary_create_game, port, "127.0.0.1")
        assert first.startswith(b"HTTP/1.1 200")
        again = await asyncio.to_thread(unary_create_game, port, "127.0.0.1")
        assert b"resource_exhausted" in again  # that browser's allowance is spent
        other = await asyncio.to_thread(unary_create_game, port, "127.0.0.2")
        assert other.startswith(b"HTTP/1.1 200"), other[:300]
    finally:
        await server.stop(grace=None)
