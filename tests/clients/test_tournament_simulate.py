"""`cardroom tournament simulate`: a bot tournament from start to audit
through a real server (issue 32's "simulate-style bot tournaments"): every
round played, the standings printed with each bot level's share, and the
audit of the exported record VERIFIED; bad arguments are usage errors."""

from __future__ import annotations

import asyncio

import pytest

from cardroom.cli import main
from tests.conftest import Served


async def test_a_bot_tournament_is_played_and_audited(
    server: Served, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["tournament", "simulate", "smiles-and-daggers", "--players", "6", "--table-size", "3"]
    # The command runs its own event loop: in a thread, beside the server's.
    assert await asyncio.to_thread(main, [*args, "--rounds", "2", "--address", server.address]) == 0
    out = capsys.readouterr().out
    assert "round 1 of 2: 2 table(s) played" in out and "round 2 of 2: 2 table(s) played" in out
    assert "finished; 6 player(s)" in out
    standings = [line for line in out.splitlines() if " pts  Buchholz " in line]
    assert len(standings) == 6 and standings[0].lstrip().startswith("1.")
    assert "heuristic: " in out and "random: " in out and "points a round over 3 player(s)" in out
    assert "[ OK ] results      4 recorded results are the games' own" in out
    assert "[ OK ] ratings      4 rated game(s): every rating change follows" in out
    assert "VERIFIED: the tournament and every game check out." in out


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["no-such-game"], "unknown game"),
        (["smoke-and-mirrors", "--bots", "genius"], "genius"),
        (["smoke-and-mirrors", "--players", "1"], "--players must be 2 or more"),
    ],
)
def test_bad_arguments_are_usage_errors(
    extra: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", "simulate", *extra, "--address", "127.0.0.1:1"]) == 2
    assert said in capsys.readouterr().err
