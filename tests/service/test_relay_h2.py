"""``cardroom relay --transport h2`` (cardroom.server.relay.h2): what only its
own HTTP/2 code decides. The calls it shares with the grpc.aio transport
(bytes per viewer, cursors, resume, credentials, UNIMPLEMENTED, health
checks and Watch, reflection, the access log) run on both in
test_relay.py; here: flow control (a reader that stops reading falls behind
and is ended with ABORTED naming the cursor to resume from, after
everything it may still take), the per-client share, a raw HTTP/2 client's
malformed request, and reflection's request messages as DATA frames cut
them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import h2.config
import h2.connection
import h2.events
import h2.settings
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2

from cardroom.client import Client
from cardroom.client.bots.runner import BotSeat
from cardroom.server.api.server import RunningServer, Settings, start
from cardroom.server.limits import Limits
from cardroom.server.relay.server import REFLECTED, RunningRelay, start_relay
from cardroom.v1 import game_service_pb2 as gpb
from tests.conftest import OPERATOR_TOKEN
from tests.service.certs import make_certificates
from tests.service.relays import (
    REFLECTION_INFO,
    eventually,
    grpc_request_headers,
    nats_or_skip,
    raw_feed,
)

BACKLOG = 3


@dataclass
class Relayed:
    server: RunningServer
    relay: RunningRelay
    client: Client

    @property
    def relay_address(self) -> str:
        return f"127.0.0.1:{self.relay.port}"


@pytest.fixture
async def relayed(tmp_path: Path) -> AsyncIterator[Relayed]:
    broker = nats_or_skip()
    database = str(tmp_path / "cardroom.sqlite3")
    server = await start(
        Settings(
            address="127.0.0.1:0", database=database, operator_token=OPERATOR_TOKEN, broker=broker
        )
    )
    relay = await start_relay(
        Settings(
            address="127.0.0.1:0",
            database=database,
            operator_token=OPERATOR_TOKEN,
            broker=broker,
            limits=Limits(max_stream_backlog=BACKLOG, watchers_per_client=3),
        ),
        "h2",
    )
    client = Client.connect(f"127.0.0.1:{server.port}")
    try:
        yield Relayed(server, relay, client)
    finally:
        await client.close()
        await relay.stop(grace=None)
        await server.stop(grace=None)


async def seated(client: Client, seats: int = 3) -> tuple[str, list[BotSeat]]:
    game_id = await client.create_game("smoke-and-mirrors", seat_count=seats)
    bots = []
    for i in range(seats):
        handle = await client.join(game_id, f"P{i}")
        bots.append(BotSeat(handle.seat, handle.token, "random"))
    await client.start(game_id, bots[0].token)
    return game_id, bots


async def one_move(client: Client, game_id: str, bots: list[BotSeat]) -> int:
    for bot in bots:
        actions = await client.legal_actions(game_id, bot.token)
        if actions:
            return (await client.act(game_id, bot.token, actions[0])).version
    raise AssertionError("no seat can act")


async def test_a_client_past_its_share_is_refused_on_the_h2_port(relayed: Relayed) -> None:
    game_id, _ = await seated(relayed.client)
    streams = [asyncio.create_task(raw_feed(relayed.relay_address, game_id)) for _ in range(3)]
    try:
        servicer = relayed.relay.servicer
        await eventually(lambda: servicer.watchers == 3, "three relay streams to open")
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await asyncio.wait_for(raw_feed(relayed.relay_address, game_id), 30)  # bounds a hang
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "limit per client" in (caught.value.details() or "")
        streams.append(
            asyncio.create_task(raw_feed(relayed.relay_address, game_id, OPERATOR_TOKEN))
        )
        await eventually(lambda: servicer.watchers == 4, "the operator's stream to open")
    finally:
        for stream in streams:
            stream.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
    await eventually(lambda: relayed.relay.servicer.watchers == 0, "every stream to close")


@dataclass
class RawStream:
    """One WatchEvents call over a raw HTTP/2 connection whose reader decides
    when to give the relay flow-control credit."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    h2: h2.connection.H2Connection
    stream_id: int = 1
    data: bytearray = field(default_factory=bytearray)
    unacknowledged: int = 0
    trailers: dict[str, str] = field(default_factory=dict)
    ended: bool = False
    acknowledged: int = 0  # our SETTINGS the relay has acknowledged

    @classmethod
    async def open(cls, address: str, window: int) -> RawStream:
        host, port = address.rsplit(":", 1)
        reader, writer = await asyncio.open_connection(host, int(port))
        conn = h2.connection.H2Connection(
            h2.config.H2Configuration(client_side=True, header_encoding="utf-8")
        )
        conn.local_settings = h2.settings.Settings(
            client=True, initial_values={h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: window}
        )
        conn.initiate_connection()
        return cls(reader, writer, conn)

    async def call(self, path: str, body: bytes) -> None:
        await self.open_call(path)
        await self.write(body, end_stream=True)

    async def open_call(self, path: str) -> None:
        self.h2.send_headers(self.stream_id, grpc_request_headers(path))
        await self.send()

    async def write(self, body: bytes, end_stream: bool = False) -> None:
        """One DATA frame of the call (request messages, or pieces)."""
        self.h2.send_data(self.stream_id, body, end_stream=end_stream)
        await self.send()

    def next_call(self) -> None:
        """The next stream of the connection, for another call."""
        self.stream_id += 2
        self.data.clear()
        self.trailers.clear()
        self.ended = False

    async def send(self) -> None:
        self.writer.write(self.h2.data_to_send())
        await self.writer.drain()

    async def read(self) -> None:
        """Handle one read's worth of frames (credit is not given back)."""
        chunk = await asyncio.wait_for(self.reader.read(65536), 30)  # bounds a hang
        assert chunk, "the relay closed the connection"
        for event in self.h2.receive_data(chunk):
            if isinstance(event, h2.events.DataReceived):
                self.data.extend(event.data)
                self.unacknowledged += event.flow_controlled_length
            elif isinstance(event, h2.events.TrailersReceived):
                self.trailers = dict(event.headers)
            elif isinstance(event, h2.events.ResponseReceived):
                self.trailers.update(
                    {k: v for k, v in dict(event.headers).items() if k.startswith("grpc-")}
                )
            elif isinstance(event, h2.events.StreamEnded):
                self.ended = True
            elif isinstance(event, h2.events.SettingsAcknowledged):
                self.acknowledged += 1
        await self.send()

    async def credit(self) -> None:
        """Give the relay back every byte of credit taken so far."""
        self.h2.acknowledge_received_data(self.unacknowledged, self.stream_id)
        self.unacknowledged = 0
        await self.send()

    def messages(self) -> list[gpb.WatchEventsResponse]:
        return [gpb.WatchEventsResponse.FromString(m) for m in self.frames()]

    def frames(self) -> list[bytes]:
        """The whole response messages received so far."""
        found, data = [], bytes(self.data)
        while len(data) >= 5:
            size = int.from_bytes(data[1:5], "big")
            if len(data) < 5 + size:
                break
            found.append(data[5 : 5 + size])
            data = data[5 + size :]
        return found

    def close(self) -> None:
        self.writer.close()


def request(game_id: str) -> bytes:
    return framed(gpb.WatchEventsRequest(game_id=game_id).SerializeToString())


def framed(data: bytes) -> bytes:
    return b"\x00" + len(data).to_bytes(4, "big") + data


async def test_a_reader_that_gives_no_credit_falls_behind_and_is_told_where_to_resume(
    relayed: Relayed,
) -> None:
    game_id, bots = await seated(relayed.client)
    version = (await relayed.client.view(game_id)).version
    stream = await RawStream.open(relayed.relay_address, window=65535)
    try:
        await stream.call("/cardroom.v1.GameService/WatchEvents", request(game_id))
        while not stream.messages() or stream.messages()[-1].event.sequence < version:
            await stream.read()
        # Caught up and live: from now on every byte taken is credit spent.
        # Make the relay's window smaller than one message, then move on.
        stream.h2.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 1})
        await stream.send()
        await stream.credit()
        while stream.acknowledged < 2:  # the first settings' and these
            await stream.read()
        (live,) = next(iter(relayed.relay.servicer.feeds.topics.values())).watches
        # The relay has sent the store's events; it takes the broker's once
        # it has seen the store has no more (else they would wait, bounded).
        await eventually(lambda: live.live, "the relay's stream to go live")
        for _ in range(BACKLOG + 3):
            await one_move(relayed.client, game_id, bots)
        await eventually(lambda: live.fell_behind, "the reader to fall behind")
        assert len(live.queue) == BACKLOG  # held for the reader, not dropped
        stream.h2.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 65535})
        await stream.send()
        while not stream.ended:
            await stream.read()
            await stream.credit()
    finally:
        stream.close()
    sequences = [m.event.sequence for m in stream.messages()]
    assert sequences == list(range(1, sequences[-1] + 1))  # no gap, nothing twice
    assert stream.trailers["grpc-status"] == str(grpc.StatusCode.ABORTED.value[0])
    assert f"after_sequence={sequences[-1]}" in stream.trailers["grpc-message"]
    await eventually(lambda: relayed.relay.servicer.watchers == 0, "the stream to be let go")


async def test_a_malformed_request_is_invalid_argument_and_the_connection_lives_on(
    relayed: Relayed,
) -> None:
    game_id, _ = await seated(relayed.client)
    stream = await RawStream.open(relayed.relay_address, window=65535)
    try:
        await stream.call("/cardroom.v1.GameService/WatchEvents", b"\x00\x00\x00\x00\x03\xff\xff")
        while not stream.ended:
            await stream.read()
        assert stream.trailers["grpc-status"] == str(grpc.StatusCode.INVALID_ARGUMENT.value[0])
        stream.stream_id = 3
        stream.ended = False
        await stream.call("/cardroom.v1.GameService/WatchEvents", request(game_id))
        while not stream.messages():
            await stream.read()
        assert stream.messages()[0].event.sequence == 1
    finally:
        stream.close()


async def test_the_h2_port_serves_tls_and_requires_client_certificates_when_told(
    tmp_path: Path,
) -> None:
    broker = nats_or_skip()
    certs = make_certificates(tmp_path)
    database = str(tmp_path / "cardroom.sqlite3")
    server = await start(Settings(address="127.0.0.1:0", database=database, broker=broker))
    relay = await start_relay(
        Settings(
            address="127.0.0.1:0",
            database=database,
            broker=broker,
            tls_cert=str(certs.server_cert),
            tls_key=str(certs.server_key),
            tls_client_ca=str(certs.ca),
        ),
        "h2",
    )
    address = f"127.0.0.1:{relay.port}"
    signed = grpc.ssl_channel_credentials(
        root_certificates=certs.ca.read_bytes(),
        private_key=certs.client_key.read_bytes(),
        certificate_chain=certs.client_cert.read_bytes(),
    )
    anonymous = grpc.ssl_channel_credentials(root_certificates=certs.ca.read_bytes())
    try:
        async with Client.connect(f"127.0.0.1:{server.port}") as client:
            game_id, _ = await seated(client)
        async with grpc.aio.secure_channel(address, signed) as channel:
            watch = channel.unary_stream(
                "/cardroom.v1.GameService/WatchEvents",
                request_serializer=gpb.WatchEventsRequest.SerializeToString,
                response_deserializer=gpb.WatchEventsResponse.FromString,
            )
            call = watch(gpb.WatchEventsRequest(game_id=game_id))
            first = await asyncio.wait_for(call.read(), 30)  # bounds a hang
            assert isinstance(first, gpb.WatchEventsResponse)
            assert first.event.sequence == 1
            call.cancel()
        async with grpc.aio.secure_channel(address, anonymous) as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stub.Check(health_pb2.HealthCheckRequest(), timeout=10)
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        await relay.stop(grace=None)
        await server.stop(grace=None)


async def test_a_peer_that_stops_answering_pings_is_dropped_and_its_slot_freed(
    tmp_path: Path,
) -> None:
    broker = nats_or_skip()
    database = str(tmp_path / "cardroom.sqlite3")
    server = await start(Settings(address="127.0.0.1:0", database=database, broker=broker))
    relay = await start_relay(
        Settings(
            address="127.0.0.1:0",
            database=database,
            broker=broker,
            limits=Limits(keepalive_seconds=1, keepalive_timeout_seconds=1),
        ),
        "h2",
    )
    try:
        async with Client.connect(f"127.0.0.1:{server.port}") as client:
            game_id, _ = await seated(client)
        stream = await RawStream.open(f"127.0.0.1:{relay.port}", window=65535)
        try:
            await stream.call("/cardroom.v1.GameService/WatchEvents", request(game_id))
            while not stream.messages():
                await stream.read()
            assert relay.servicer.watchers == 1
            # From now on the peer reads nothing, so it answers no PING.
            await eventually(lambda: relay.servicer.watchers == 0, "the dead peer to be dropped")
            assert not relay.server.connections  # type: ignore[union-attr]
        finally:
            stream.close()
    finally:
        await relay.stop(grace=None)
        await server.stop(grace=None)


def listing() -> bytes:
    return framed(reflection_pb2.ServerReflectionRequest(list_services="").SerializeToString())


def status_of_trailers(stream: RawStream) -> grpc.StatusCode:
    code = int(stream.trailers["grpc-status"])
    return next(c for c in grpc.StatusCode if c.value[0] == code)


async def test_reflection_requests_are_read_as_data_frames_cut_them(relayed: Relayed) -> None:
    """Two request messages in one DATA frame get two answers; a message
    cut across DATA frames is answered once whole, before the client
    half-closes; the half-close ends the call OK."""
    stream = await RawStream.open(relayed.relay_address, window=1 << 24)
    try:
        await stream.open_call(REFLECTION_INFO)
        await stream.write(listing() + listing())
        while len(stream.frames()) < 2:
            await stream.read()
            await stream.credit()
        third = listing()
        await stream.write(third[:3])
        await stream.write(third[3:7])
        await stream.write(third[7:])
        while len(stream.frames()) < 3:
            await stream.read()
            await stream.credit()
        assert not stream.ended
        await stream.write(b"", end_stream=True)
        while not stream.ended:
            await stream.read()
    finally:
        stream.close()
    answers = [reflection_pb2.ServerReflectionResponse.FromString(f) for f in stream.frames()]
    assert len(answers) == 3
    for answer in answers:
        names = sorted(s.name for s in answer.list_services_response.service)
        assert names == sorted(REFLECTED)
    assert status_of_trailers(stream) == grpc.StatusCode.OK


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"\x01" + listing()[1:], grpc.StatusCode.INVALID_ARGUMENT),  # the compressed flag
        (listing()[:-1], grpc.StatusCode.INVALID_ARGUMENT),  # half-closed mid-message
        (framed(b"\xff\xff"), grpc.StatusCode.INVALID_ARGUMENT),  # not a request message
        (b"\x00" + (1 << 30).to_bytes(4, "big"), grpc.StatusCode.RESOURCE_EXHAUSTED),
    ],
    ids=["compressed", "cut-short", "garbage", "too-large"],
)
async def test_a_bad_reflection_request_stream_ends_the_call_and_the_connection_lives_on(
    relayed: Relayed, body: bytes, code: grpc.StatusCode
) -> None:
    stream = await RawStream.open(relayed.relay_address, window=1 << 24)
    try:
        await stream.open_call(REFLECTION_INFO)
        await stream.write(body, end_stream=True)
        while not stream.ended:
            await stream.read()
        assert status_of_trailers(stream) == code
        assert stream.frames() == []
        stream.next_call()
        await stream.call(REFLECTION_INFO, listing())
        while not stream.ended:
            await stream.read()
        assert status_of_trailers(stream) == grpc.StatusCode.OK
        assert len(stream.frames()) == 1
    finally:
        stream.close()
