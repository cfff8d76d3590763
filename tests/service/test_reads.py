"""A fold reads each event as ``reads.visible`` makes it, not from the served
copy; the two must never differ, or a fold could know what the viewer's
copy withholds (or miss what it shows)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardroom.domain import registry
from cardroom.domain.kernel import AUDITOR, SPECTATOR, Viewer
from cardroom.server.games.application import Games
from cardroom.server.games.reads import serve, visible
from cardroom.server.storage.log import GameLog
from cardroom.trust.envelopes import to_event
from tests.conftest import OPERATOR_TOKEN
from tests.service.test_checkpoints import play


def viewers(seats: int) -> list[Viewer]:
    return [SPECTATOR, AUDITOR, *(Viewer.of_seat(s) for s in range(seats))]


@pytest.mark.parametrize("kind", sorted(registry.games()))
def test_what_a_fold_reads_is_the_event_of_the_viewers_own_copy(tmp_path: Path, kind: str) -> None:
    log = GameLog(str(tmp_path / "cardroom.sqlite3"))
    try:
        games = Games(log, operator_token=OPERATOR_TOKEN)
        running_id = games.create_game(kind, None, max(registry.game(kind).min_seats, 3))
        finished_id, _ = play(games, kind, seed=5)
        compared = 0
        for game_id in (running_id, finished_id):  # the seed is withheld while it runs
            loaded = games.load(game_id)
            seats = loaded.table.seat_count
            for index in range(loaded.version):
                for viewer in viewers(seats):
                    assert visible(loaded, index, viewer) == to_event(serve(loaded, index, viewer))
                    compared += 1
        hidden = sum(
            len(to_event(serve(loaded, i, AUDITOR)).secrets)
            - len(to_event(serve(loaded, i, SPECTATOR)).secrets)
            for i in range(loaded.version)
        )
        assert compared > 100 and hidden > 0  # there were secrets to withhold
    finally:
        log.close()
