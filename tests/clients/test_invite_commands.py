"""`cardroom invite`, `accept` and `add-bot`, run as a person would: an
invitation's code seats its holder once (the seat kept for `cardroom
play`), and bots the server runs fill the other seats and play the game to
its end once the guest starts it and leaves."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.clients.test_commands import cardroom
from tests.service.helpers import server_process

OPERATOR = "operator-secret-for-the-invite-test"


@pytest.mark.slow
def test_an_invitation_from_the_terminal_seats_its_holder_once(tmp_path: Path) -> None:
    seats = tmp_path / "seats.json"
    with server_process(str(tmp_path / "c.sqlite3"), "--operator-token", OPERATOR) as address:
        at = ["--address", address]
        new = cardroom("new", "smoke-and-mirrors", "--seats", "3", *at)
        game_id = new.stdout.splitlines()[0].removeprefix("game id: ").strip()
        invited = cardroom("invite", game_id, *at, "--operator-token", OPERATOR, "--seat", "1")
        assert invited.returncode == 0, invited.stderr
        code = re.search(r"seat 1 is held for code: (\S+)", invited.stdout).group(1)  # type: ignore[union-attr]
        taken = cardroom("accept", game_id, code, "--name", "Cy", "--token-file", str(seats), *at)
        assert taken.returncode == 0, taken.stderr
        assert "You took seat 1" in taken.stdout
        (kept,) = json.loads(seats.read_text())
        assert kept["game_id"] == game_id and kept["seat"] == 0 and kept["name"] == "Cy"
        again = cardroom("accept", game_id, code, "--token-file", str(tmp_path / "x.json"), *at)
        assert again.returncode != 0 and "T-INVITE" in again.stderr
        # The kept seat adds two bots the server runs, named by strategy.
        for strategy in ("heuristic", "random"):
            bot = cardroom(
                "add-bot", game_id, "--strategy", strategy, "--token-file", str(seats), *at
            )
            assert bot.returncode == 0, bot.stderr
            assert f"{strategy} bot 1 took seat" in bot.stdout
        listed = cardroom("games", *at)
        assert game_id in listed.stdout
