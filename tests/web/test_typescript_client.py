"""The TypeScript client (clients/typescript) against a real ``cardroom
serve``: its own tests, run by node's test runner, play full games with
TypeScript bots over gRPC, Connect and gRPC-Web, resume a cut spectator feed,
replay a finished game, and watch through a ``cardroom relay`` in front of
the server (over NATS: the machine's broker).

Each test file is a pytest item of its own (so xdist spreads them over its
workers), all on one server and relay per worker, as they all ran on one
before."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.service.helpers import relay_process, web_server_process
from tests.service.relays import nats_or_skip
from tests.web.support import CLIENTS, node_tests

# Every test file of the client; test_every_test_file_is_run checks the list.
FILES = ("entropy", "game", "narration", "players", "relay", "replay", "watch")


def test_every_test_file_of_the_client_is_run() -> None:
    found = {
        path.name.removesuffix(".test.ts")
        for path in (CLIENTS / "typescript" / "test").glob("*.test.ts")
    }
    assert found == set(FILES)


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    broker = nats_or_skip()
    database = str(tmp_path_factory.mktemp("typescript-client") / "cardroom.sqlite3")
    with (
        web_server_process(database, "--broker", broker) as (address, web_url),
        relay_process(database, broker) as (relay, relay_web),
    ):
        yield {
            "CARDROOM_GRPC_URL": f"http://{address}",
            "CARDROOM_WEB_URL": web_url.rstrip("/"),
            "CARDROOM_RELAY_GRPC_URL": f"http://{relay}",
            "CARDROOM_RELAY_WEB_URL": relay_web.rstrip("/"),
        }


@pytest.mark.parametrize("name", FILES)
def test_the_typescript_client_passes_its_tests_against_a_real_server(
    servers: dict[str, str], name: str
) -> None:
    node_tests("typescript", servers, files=[str(Path("dist") / "test" / f"{name}.test.js")])
