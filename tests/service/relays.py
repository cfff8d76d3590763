"""What the relay tests share: a NATS server (the machine's, or one of the
test's own), a game server publishing to it with relays in front, and raw
WatchEvents streams (the bytes as sent, for byte-for-byte comparisons)."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import grpc
import pytest
from grpc_reflection.v1alpha import reflection_pb2

from cardroom.client import Client
from cardroom.server.api.server import RunningServer, Settings, start
from cardroom.server.relay.server import DEFAULT_TRANSPORT, RunningRelay, start_relay
from cardroom.v1 import game_service_pb2 as gpb
from tests.conftest import OPERATOR_TOKEN

NATS_URL = os.environ.get("CARDROOM_TEST_NATS", "nats://127.0.0.1:4222")
WATCH = "/cardroom.v1.GameService/WatchEvents"
REFLECTION_INFO = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"


def _fail_or_skip(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and {why}")
    pytest.skip(why)


def reachable(url: str) -> bool:
    parsed = urlparse(url)
    try:
        socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 4222), 3).close()
    except OSError:
        return False
    return True


def nats_or_skip() -> str:
    """The broker's URL; fails (CI=true) or skips when it does not answer."""
    if not reachable(NATS_URL):
        _fail_or_skip(f"NATS is unreachable at {NATS_URL}")
    return NATS_URL


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class OwnNats:
    """A nats-server process of the test's own (to stop and start again)."""

    folder: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def start(self) -> None:
        binary = shutil.which("nats-server") or "/usr/sbin/nats-server"
        if not Path(binary).exists():
            _fail_or_skip("nats-server is not installed")
        self.process = subprocess.Popen(
            [binary, "-a", "127.0.0.1", "-p", str(self.port), "-js", "-sd", str(self.folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(500):
            if reachable(self.url):
                return
            time.sleep(0.01)
        raise AssertionError("nats-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@contextmanager
def own_nats(folder: Path) -> Iterator[OwnNats]:
    nats = OwnNats(folder)
    nats.start()
    try:
        yield nats
    finally:
        nats.stop()


@dataclass
class Deployment:
    """A game server publishing to the broker, relays in front of it."""

    server: RunningServer
    relays: list[RunningRelay]
    client: Client

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.server.port}"

    def relay_address(self, index: int = 0) -> str:
        return f"127.0.0.1:{self.relays[index].port}"


async def deploy(
    database: str,
    broker: str,
    relays: int = 1,
    transport: str = DEFAULT_TRANSPORT,
    **settings: object,
) -> Deployment:
    server = await start(
        Settings(
            address="127.0.0.1:0",
            database=database,
            operator_token=OPERATOR_TOKEN,
            broker=broker,
            **settings,  # type: ignore[arg-type]
        )
    )
    started = [
        await start_relay(
            Settings(
                address="127.0.0.1:0",
                database=database,
                operator_token=OPERATOR_TOKEN,
                broker=broker,
            ),
            transport,
        )
        for _ in range(relays)
    ]
    return Deployment(server, started, Client.connect(f"127.0.0.1:{server.port}"))


async def undeploy(deployment: Deployment) -> None:
    await deployment.client.close()
    for relay in deployment.relays:
        await relay.stop(grace=None)
    await deployment.server.stop(grace=None)


async def raw_feed(
    address: str,
    game_id: str,
    token: str | None = None,
    *,
    after: int = 0,
    as_spectator: bool = False,
    until: int | None = None,
    compression: grpc.Compression | None = None,
) -> list[bytes]:
    """A WatchEvents stream's responses as the bytes sent, until it ends
    (or holds event ``until``); the request compressed with ``compression``."""
    async with grpc.aio.insecure_channel(address, compression=compression) as channel:
        watch = channel.unary_stream(
            WATCH, request_serializer=gpb.WatchEventsRequest.SerializeToString
        )
        metadata = (("authorization", f"Bearer {token}"),) if token else ()
        request = gpb.WatchEventsRequest(
            game_id=game_id, after_sequence=after, as_spectator=as_spectator
        )
        got: list[bytes] = []
        call = watch(request, metadata=metadata)
        async for data in call:
            got.append(bytes(data))
            if until is not None and sequence(got[-1]) >= until:
                call.cancel()
                break
        return got


def grpc_request_headers(path: str, *more: tuple[str, str]) -> list[tuple[str, str]]:
    """The headers a gRPC call opens with, for a raw HTTP/2 client."""
    return [
        (":method", "POST"),
        (":scheme", "http"),
        (":authority", "relay"),
        (":path", path),
        ("content-type", "application/grpc"),
        ("te", "trailers"),
        *more,
    ]


async def reflect_once(
    channel: grpc.aio.Channel, request: reflection_pb2.ServerReflectionRequest
) -> tuple[bytes | object, grpc.StatusCode]:
    """One request on a reflection stream: its first answer (bytes, or
    ``grpc.aio.EOF``) and the call's code once the client is done writing."""
    info = channel.stream_stream(
        REFLECTION_INFO,
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
    )
    call = info()
    await call.write(request)
    await call.done_writing()
    answer = await call.read()
    return answer, await call.code()


def sequence(data: bytes) -> int:
    return int(gpb.WatchEventsResponse.FromString(data).event.sequence)


async def eventually(condition: object, what: str) -> None:
    """Wait (a bounded number of short turns) until ``condition()``."""
    assert callable(condition)
    for _ in range(1500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"waited in vain for {what}")
