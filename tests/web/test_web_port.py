"""The browser port as an operator configures it: its address, CORS, the
files it serves, TLS, limits and stopping."""

from __future__ import annotations

import asyncio
import datetime
import http.client
import socket
import ssl
import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from connectrpc.protocol import ProtocolType
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from cardroom.client import Client
from cardroom.server.api.server import RunningServer, ServeError, Settings, start
from cardroom.server.limits import Limits
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1.game_service_connect import GameServiceClient
from tests.service.helpers import SM, seated_game, web_server_process
from tests.web.support import post

KINDS = "/cardroom.v1.GameService/ListGameKinds"
CONNECT_JSON = {"content-type": "application/json"}


@asynccontextmanager
async def serving(tmp_path: Path, **settings: object) -> AsyncIterator[RunningServer]:
    server = await start(
        Settings(
            address="127.0.0.1:0",
            database=str(tmp_path / "cardroom.sqlite3"),
            web_address="127.0.0.1:0",
            **settings,  # type: ignore[arg-type]
        )
    )
    try:
        yield server
    finally:
        await server.stop(grace=None)


def url(server: RunningServer, path: str = "/") -> str:
    assert server.web is not None
    return server.web.url.rstrip("/") + path


def preflight(origin: str) -> dict[str, str]:
    return {
        "origin": origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type,connect-protocol-version",
    }


async def test_a_listed_origin_may_call_cross_origin_with_a_bearer_token(tmp_path: Path) -> None:
    async with serving(tmp_path, web_origins=("https://cards.example",)) as server:
        status, headers, _ = await post(
            url(server, KINDS), b"", preflight("https://cards.example"), "OPTIONS"
        )
        assert status == 200
        assert headers["access-control-allow-origin"] == "https://cards.example"
        assert "authorization" in headers["access-control-allow-headers"].lower()
        status, headers, _ = await post(
            url(server, KINDS), b"{}", {**CONNECT_JSON, "origin": "https://cards.example"}
        )
        assert status == 200
        assert "grpc-status" in headers["access-control-expose-headers"].lower()


async def test_an_unlisted_origin_is_not_allowed(tmp_path: Path) -> None:
    async with serving(tmp_path, web_origins=("https://cards.example",)) as server:
        status, headers, _ = await post(
            url(server, KINDS), b"", preflight("https://evil.example"), "OPTIONS"
        )
        assert status == 400
        assert "access-control-allow-origin" not in headers


async def test_by_default_only_pages_of_the_same_origin_may_call(tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        _, headers, _ = await post(
            url(server, KINDS), b"{}", {**CONNECT_JSON, "origin": "https://cards.example"}
        )
        assert "access-control-allow-origin" not in headers


async def test_the_web_root_is_served_at_the_root(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<title>my table</title>")
    async with serving(tmp_path, web_root=str(site)) as server:
        status, _, body = await post(url(server), b"", {}, "GET")
        assert (status, body) == (200, b"<title>my table</title>")


async def test_the_reference_web_table_is_served_by_default(tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        status, headers, body = await post(url(server), b"", {}, "GET")
        assert status == 200
        assert headers["content-type"].startswith("text/html")
        assert b"<title>cardroom</title>" in body


async def test_a_taken_web_port_refuses_to_start_with_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ServeError) as error:
            await start(
                Settings(
                    address="127.0.0.1:0",
                    database=str(tmp_path / "db.sqlite3"),
                    web_address=f"127.0.0.1:{port}",
                )
            )
        assert str(error.value).startswith(f"cannot listen on 127.0.0.1:{port} (web): ")
        assert "\n" not in str(error.value)
        cli = subprocess.run(
            [
                *(sys.executable, "-m", "cardroom.cli", "serve", "--address", "127.0.0.1:0"),
                *("--database", str(tmp_path / "cli.sqlite3")),
                *("--web-address", f"127.0.0.1:{port}"),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert cli.returncode == 2
    assert cli.stderr.startswith(f"cardroom serve: cannot listen on 127.0.0.1:{port} (web): ")
    assert cli.stderr.count("\n") == 1


def test_cardroom_serve_prints_its_browser_address_and_serves_it(tmp_path: Path) -> None:
    origins = ("--web-origins", "https://a.example, https://b.example")
    with web_server_process(str(tmp_path / "db.sqlite3"), *origins) as (_, web_url):
        connection = http.client.HTTPConnection(web_url.split("/")[2], timeout=30)
        connection.request("OPTIONS", KINDS, headers=preflight("https://b.example"))
        response = connection.getresponse()
        assert response.status == 200
        assert response.getheader("access-control-allow-origin") == "https://b.example"


async def test_requests_over_the_size_limit_are_refused(tmp_path: Path) -> None:
    async with serving(tmp_path, limits=Limits(max_request_bytes=100)) as server:
        web = GameServiceClient(url(server, ""), protocol=ProtocolType.GRPC_WEB)
        with pytest.raises(ConnectError) as error:
            await web.join_game(gpb.JoinGameRequest(game_id="g", player_name="x" * 200))
        assert error.value.code == Code.RESOURCE_EXHAUSTED


async def test_stopping_ends_open_browser_streams(tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        client = Client.connect(f"127.0.0.1:{server.port}")
        table = await seated_game(client)  # running: its feed stays open
        web = GameServiceClient(url(server, ""), protocol=ProtocolType.CONNECT)
        first = asyncio.Event()

        async def watch() -> int:
            seen = 0
            async for _ in web.watch_events(gpb.WatchEventsRequest(game_id=table.game_id)):
                seen += 1
                first.set()
            return seen

        watcher = asyncio.create_task(watch())
        await asyncio.wait_for(first.wait(), timeout=30)
        await client.close()
        await asyncio.wait_for(server.stop(grace=None), timeout=30)
        with pytest.raises(ConnectError):
            await asyncio.wait_for(watcher, timeout=30)


def self_signed(folder: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def _https_kinds(port: int, cafile: Path) -> Sequence[object]:
    context = ssl.create_default_context(cafile=str(cafile))
    connection = http.client.HTTPSConnection("localhost", port, context=context, timeout=30)
    connection.request("POST", KINDS, body=b"{}", headers=CONNECT_JSON)
    response = connection.getresponse()
    return response.status, response.read()


async def test_with_tls_the_web_port_serves_https_with_the_same_certificate(
    tmp_path: Path,
) -> None:
    cert, key = self_signed(tmp_path)
    async with serving(tmp_path, tls_cert=str(cert), tls_key=str(key)) as server:
        assert server.web is not None and server.web.url.startswith("https://")
        status, body = await asyncio.to_thread(_https_kinds, server.web.port, cert)
        assert status == 200
        assert SM.encode() in body  # type: ignore[operator]


async def test_browser_connections_send_each_answer_at_once(tmp_path: Path) -> None:
    """TCP_NODELAY on every connection: without it, each answer on a kept-alive
    connection waited about 40 ms for the client's delayed ACK."""
    async with serving(tmp_path) as server:
        assert server.web is not None
        reader, writer = await asyncio.open_connection("127.0.0.1", server.web.port)
        writer.write(b"GET /nothing HTTP/1.1\r\nhost: x\r\n\r\n")
        await reader.readline()
        connections = list(server.web.server.server_state.connections)
        assert connections
        for connection in connections:
            sock = connection.transport.get_extra_info("socket")  # type: ignore[attr-defined]
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        writer.close()


async def test_a_browser_that_goes_away_frees_its_watch(tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        assert server.web is not None and server.servicer is not None
        client = Client.connect(f"127.0.0.1:{server.port}")
        table = await seated_game(client)  # running: its feed stays open
        await client.close()
        request = gpb.WatchEventsRequest(game_id=table.game_id).SerializeToString()
        body = b"\x00" + len(request).to_bytes(4, "big") + request
        reader, writer = await asyncio.open_connection("127.0.0.1", server.web.port)
        writer.write(
            b"POST /cardroom.v1.GameService/WatchEvents HTTP/1.1\r\nhost: x\r\n"
            b"content-type: application/connect+proto\r\n"
            b"content-length: %d\r\n\r\n%s" % (len(body), body)
        )
        assert (await reader.readline()).startswith(b"HTTP/1.1 200")
        assert server.servicer.watchers == 1
        writer.close()

        async def freed() -> None:
            while server.servicer is not None and server.servicer.watchers:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(freed(), timeout=30)  # bounds a hang; asserts no timing


def test_a_web_root_that_is_not_a_folder_is_a_usage_error(tmp_path: Path) -> None:
    cli = subprocess.run(
        [
            *(sys.executable, "-m", "cardroom.cli", "serve", "--address", "127.0.0.1:0"),
            *("--database", str(tmp_path / "cli.sqlite3"), "--web-address", "127.0.0.1:0"),
            *("--web-root", str(tmp_path / "missing")),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert cli.returncode == 2
    assert cli.stderr == f"cardroom serve: --web-root {tmp_path / 'missing'} is not a folder\n"
