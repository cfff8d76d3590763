"""`cardroom demo` plays a complete game through the API and checks its log."""

from __future__ import annotations

import pytest

from cardroom.cli.demo_game import run_demo
from cardroom.domain import registry
from tests.conftest import Served


@pytest.mark.parametrize("kind", sorted(registry.games()))
async def test_the_demo_plays_every_game_on_its_own_server(
    kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await run_demo(kind, None, None, seed=5) == 0
    out = capsys.readouterr().out
    assert "started a server on 127.0.0.1:" in out
    # The spectator's feed, told in words by the game's narrator.
    assert f"#1    A game of {registry.game(kind).title}" in out and "Game over: " in out
    assert "full log checked" in out
    assert "game id: " in out


async def test_the_demo_can_use_a_running_server(
    served: Served, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await run_demo("smoke-and-mirrors", 2, served.address, seed=9, quiet=True) == 0
    out = capsys.readouterr().out
    assert "started a server" not in out
    game_id = out.split("game id: ")[1].strip()
    [summary] = await served.client.list_games()
    assert summary.game_id == game_id and summary.finished
