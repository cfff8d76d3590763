"""A command's acknowledgement names the version its own events reached,
even when the game moves on before the acknowledgement is sent (issue 20:
with two servers, one write in 547 acknowledged a later writer's version)."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.domain.table import pack
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from tests.conftest import Served
from tests.service.helpers import deal, seated_game, skull, star, swirl

HANDS = [
    [star(1), swirl(2), skull(5)],
    [star(1), swirl(1), skull(5)],
    [star(0), swirl(3), skull(0)],
]


async def test_the_acknowledged_version_is_the_command_s_own_not_the_next_writer_s(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = served.client
    table = await seated_game(c, set_deal=[deal(0, first=HANDS)])
    commands = served.server.games.commands
    written = commands.written
    raced: list[int] = []

    def next_writer_lands_first(loaded: Any, first: int) -> None:
        """Between this command's append and its acknowledgement, the next
        seat's command is written (as another server's, caught up here)."""
        if not raced:
            raced.append(loaded.version)
            commands.submit(
                table.game_id, table.token(1), pack(sm.PerformAct(cards=[swirl(1)])), "next", None
            )
        written(loaded, first)

    monkeypatch.setattr(commands, "written", next_writer_lands_first)
    response = await c.act(table.game_id, table.token(0), sm.PerformAct(cards=[star(1)]))
    own = raced[0]
    assert (await c.view(table.game_id)).version > own  # the next command did land
    assert response.version == own
