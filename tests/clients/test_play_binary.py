"""The real ``cardroom play`` in a pseudo-terminal (pexpect): a table with
two bots is set up, a few moves are made with the number keys, the player
leaves, and ``cardroom play --game-id`` seats them again where they were."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pexpect

from tests.service.helpers import server_process

TIMEOUT = 60
MOVES = 3


def terminal_env() -> dict[str, str]:
    """The environment without COLUMNS and LINES, which pytest-xdist's
    workers set to 80x24: Textual would believe them over the
    pseudo-terminal's real size and cut the header short."""
    return {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}


def cardroom_play(*args: str, home: Path) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "cardroom.cli", "play", *args],
        env={**terminal_env(), "TERM": "xterm-256color", "XDG_STATE_HOME": str(home)},
        dimensions=(45, 150),
        encoding="utf-8",
        timeout=TIMEOUT,
    )


def version_after(child: pexpect.spawn, seen: int) -> int:
    """Read the screen until the header shows a version after ``seen``."""
    for _ in range(200):
        child.expect(r"version (\d+)")
        version = int(child.match.group(1))
        if version > seen:
            return version
    raise AssertionError(f"the game stayed at version {seen}")


def test_cardroom_play_in_a_terminal_makes_moves_and_picks_the_seat_up_again(
    tmp_path: Path,
) -> None:
    with server_process(str(tmp_path / "cardroom.sqlite3")) as address:
        seats = tmp_path / "seats.json"
        flags = ["--address", address, "--token-file", str(seats), "--name", "Ada"]
        child = cardroom_play(
            "smoke-and-mirrors", "--bots", "2", "--seed", "3", *flags, home=tmp_path
        )
        try:
            child.expect("press its number")
            version = version_after(child, 0)
            for _ in range(MOVES):  # the first choice is always a legal move
                child.expect("press its number")
                child.send("1")
                version = version_after(child, version)
            child.send("q")
            child.expect(pexpect.EOF)
        finally:
            child.close(force=True)
        assert "come back with" in (child.before or "")
        [kept] = json.loads(seats.read_text())
        assert kept["name"] == "Ada" and kept["address"] == address and len(kept["bots"]) == 2
        assert seats.stat().st_mode & 0o077 == 0  # the seat tokens are the owner's alone

        again = cardroom_play("--game-id", kept["game_id"], *flags, home=tmp_path)
        try:
            again.expect(re.escape(f"game {kept['game_id']}"))
            again.expect("you are Ada")
            assert version_after(again, version - 1) >= version
            again.send("q")
            again.expect(pexpect.EOF)
        finally:
            again.close(force=True)
