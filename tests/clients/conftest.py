"""A real server on SQLite for the people-facing clients (bots, the
terminal apps, the commands): they test the client side, so one backend."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cardroom.client import Client
from cardroom.server.api.server import Settings, start
from tests.conftest import OPERATOR_TOKEN, Served


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Served]:
    running = await start(
        Settings(
            address="127.0.0.1:0",
            database=str(tmp_path / "cardroom.sqlite3"),
            operator_token=OPERATOR_TOKEN,
        )
    )
    address = f"127.0.0.1:{running.port}"
    client = Client.connect(address)
    try:
        yield Served(running, client, address)
    finally:
        await client.close()
        await running.stop(grace=None)
