"""The TypeScript client (clients/typescript) against a real ``cardroom
serve``: its own tests, run by node's test runner, play full games with
TypeScript bots over gRPC, Connect and gRPC-Web, resume a cut spectator feed,
replay a finished game, and watch through a ``cardroom relay`` in front of
the server (over NATS: the machine's broker)."""

from __future__ import annotations

from pathlib import Path

from tests.service.helpers import relay_process, web_server_process
from tests.service.relays import nats_or_skip
from tests.web.support import npm_test


def test_the_typescript_client_passes_its_tests_against_a_real_server(tmp_path: Path) -> None:
    broker = nats_or_skip()
    database = str(tmp_path / "cardroom.sqlite3")
    with (
        web_server_process(database, "--broker", broker) as (address, web_url),
        relay_process(database, broker) as (relay, relay_web),
    ):
        npm_test(
            "typescript",
            {
                "CARDROOM_GRPC_URL": f"http://{address}",
                "CARDROOM_WEB_URL": web_url.rstrip("/"),
                "CARDROOM_RELAY_GRPC_URL": f"http://{relay}",
                "CARDROOM_RELAY_WEB_URL": relay_web.rstrip("/"),
            },
        )
