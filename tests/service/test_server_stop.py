"""Stopping a server always ends: a step that never finishes (here the
bots' stop, as a task that outlived its cancellation would) is logged by
name and passed, and the calls are still drained and the store closed."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

import pytest

from cardroom.server.api import server as api_server
from cardroom.server.api.server import Settings, start
from tests.conftest import OPERATOR_TOKEN


async def test_a_step_that_never_ends_is_named_and_passed(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    running = await start(
        Settings(address="127.0.0.1:0", database="stop.sqlite3", operator_token=OPERATOR_TOKEN)
    )
    monkeypatch.setattr(api_server, "STOP_STEP_SECONDS", 0.05)
    real_bots = running.bots

    async def never() -> None:
        await asyncio.Event().wait()

    running.bots = SimpleNamespace(stop=never)  # type: ignore[assignment]
    closed: list[bool] = []
    running.games.log.before_close(lambda: closed.append(True))
    with caplog.at_level(logging.WARNING, logger=api_server.__name__):
        await running.stop(grace=None)
    assert "stopping: the server's bots did not stop in 0 s; going on" in caplog.text
    assert closed == [True]  # the store was closed after all
    if real_bots is not None:
        await real_bots.stop()
