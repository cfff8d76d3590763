"""The TypeScript client (clients/typescript) against a real ``cardroom
serve``: its own tests, run by node's test runner, play full games with
TypeScript bots over gRPC, Connect and gRPC-Web, resume a cut spectator feed
and replay a finished game."""

from __future__ import annotations

from pathlib import Path

from tests.service.helpers import web_server_process
from tests.web.support import npm_test


def test_the_typescript_client_passes_its_tests_against_a_real_server(tmp_path: Path) -> None:
    with web_server_process(str(tmp_path / "cardroom.sqlite3")) as (address, web_url):
        npm_test(
            "typescript",
            {"CARDROOM_GRPC_URL": f"http://{address}", "CARDROOM_WEB_URL": web_url.rstrip("/")},
        )
