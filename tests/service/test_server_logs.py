"""What `cardroom serve` logs for an operator: its start once, and the
per-call access log only when asked for (``--access-log``); a person's
session of thousands of calls is not thousands of log lines."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardroom.client import Client
from tests.service.helpers import SM


def served_log(tmp_path: Path, *flags: str, access_log_env: str = "") -> tuple[str, str]:
    """Start ``cardroom serve``, make a few calls, stop it: (stdout, stderr)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cardroom.cli", "serve", "--address", "127.0.0.1:0",
         "--database", str(tmp_path / "cardroom.sqlite3"), *flags],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "CARDROOM_ACCESS_LOG": access_log_env},
    )  # fmt: skip
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        address = first.split("listening on ", 1)[1].split()[0]

        async def calls() -> None:
            async with Client.connect(address) as client:
                game_id = await client.create_game(SM, seat_count=3)
                for name in ("Ada", "Bo", "Cy"):
                    await client.join(game_id, name)
                await client.list_games()

        asyncio.run(calls())
    finally:
        process.terminate()
        out, err = process.communicate(timeout=30)
    return first + out, err


def test_without_access_log_the_calls_are_not_logged_and_the_start_is_said_once(
    tmp_path: Path,
) -> None:
    out, err = served_log(tmp_path)
    assert "cardroom.calls" not in err
    assert (out + err).count("listening on") == 1


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_the_access_log_is_one_json_line_per_call_when_asked_for(tmp_path: Path, how: str) -> None:
    if how == "flag":
        _, err = served_log(tmp_path, "--access-log")
    else:
        _, err = served_log(tmp_path, access_log_env="1")
    calls = [
        json.loads(line.split("cardroom.calls: ", 1)[1])
        for line in err.splitlines()
        if "cardroom.calls: " in line
    ]
    assert [call["method"] for call in calls] == [
        "CreateGame", "JoinGame", "JoinGame", "JoinGame", "ListGames",
    ]  # fmt: skip
