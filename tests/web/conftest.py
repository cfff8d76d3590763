"""A real gRPC server with its browser port on free ports."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cardroom.client import Client
from cardroom.server.api.server import Settings, start
from tests.conftest import OPERATOR_TOKEN
from tests.web.support import ARTIFACTS, WebServed


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    shots = sorted(ARTIFACTS.glob("*.png")) if ARTIFACTS.is_dir() else []
    if shots:
        terminalreporter.section("browser screenshots")
        for shot in shots:
            terminalreporter.write_line(str(shot))


@pytest.fixture
async def web_served(tmp_path: Path) -> AsyncIterator[WebServed]:
    server = await start(
        Settings(
            address="127.0.0.1:0",
            database=str(tmp_path / "cardroom.sqlite3"),
            operator_token=OPERATOR_TOKEN,
            web_address="127.0.0.1:0",
        )
    )
    assert server.web is not None
    address = f"127.0.0.1:{server.port}"
    client = Client.connect(address)
    try:
        yield WebServed(server, client, address, server.web.url.rstrip("/"))
    finally:
        await client.close()
        await server.stop(grace=None)
