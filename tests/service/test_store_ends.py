"""A game's first event and its events after a version, read in one query
on either backend, are exactly what two plain reads give."""

from __future__ import annotations

import pytest

from cardroom.server.games.application import Games
from cardroom.server.storage.log import GameLog
from tests.service.test_checkpoints import play


@pytest.fixture
def log(database: str) -> GameLog:
    return GameLog(database)


def test_the_first_event_and_those_after_a_version_in_one_query(log: GameLog) -> None:
    try:
        games = Games(log, checkpoints=False)
        game_id, _ = play(games, "smiles-and-daggers", seed=1)
        every = log.read_raw(game_id)
        for after in (1, 2, len(every) // 2, len(every) - 1, len(every), len(every) + 5):
            assert log.read_first_and_after(game_id, after) == every[:1] + every[after:]
        other = games.create_game("smoke-and-mirrors", None, 3)
        assert log.read_first_and_after(other, 1) == log.read_raw(other)
        assert log.read_first_and_after("00000000-0000-4000-8000-000000000000", 3) == []
        games.close()
    finally:
        log.close()
