"""Reads run in worker threads without the game's lock, so a read may look
at a cached game while a write is absorbing a batch into it. Whatever it
sees then must be consistent: every envelope it can reach has its stored
bytes (for the event hash), and a game it sees as finished already holds
its final event; otherwise a live feed would end (``done``) without
GameFinished, and a delayed or omniscient policy would open on a game whose
end nobody has been served."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from cardroom.v1 import table_pb2 as tpb
from domain.kernel import AUDITOR, SPECTATOR
from domain.table import pack
from service.games import Games, LoadedGame
from service.store import GameLog
from tests.trust.live import SM


class Observed(list[Any]):
    """A list that runs a check before every append."""

    def __init__(self, items: Iterable[Any], check: Callable[[], None]) -> None:
        super().__init__(items)
        self.check = check

    def append(self, item: Any) -> None:
        self.check()
        super().append(item)


def read_now(games: Games, loaded: LoadedGame) -> None:
    """What a reader that loaded the game just before this write computes
    now (``Games.events_for`` after its ``_load``), for each kind of viewer."""
    for viewer in (SPECTATOR, AUDITOR):
        events = games.copies(loaded, viewer)
        done = loaded.finished and (events[-1].sequence if events else 0) >= loaded.version
        if done:
            assert events[-1].event.Is(tpb.GameFinished.DESCRIPTOR), (
                f"a feed would end at {events[-1].event.TypeName()}, before GameFinished"
            )


def test_a_read_in_the_middle_of_a_write_sees_a_consistent_game(tmp_path: Path) -> None:
    log = GameLog(str(tmp_path / "cardroom.sqlite3"))
    try:
        games = Games(log)
        game_id = games.create_game(SM, None, 2)
        tokens = [games.join(game_id, None, name)[1] for name in ("Ada", "Babbage")]
        loaded = games._load(game_id)
        reads = 0

        def check() -> None:
            nonlocal reads
            reads += 1
            read_now(games, loaded)

        loaded.envelopes = Observed(loaded.envelopes, check)
        loaded.stored = Observed(loaded.stored, check)
        games.start(game_id, tokens[0])
        rng = random.Random(3)
        commands = 0
        while not loaded.finished:
            for token in tokens:
                _, actions = games.legal_actions(game_id, token)
                if actions:
                    games.submit(game_id, token, pack(rng.choice(actions)), f"c{commands}", None)
                    commands += 1
                    break
            else:
                raise AssertionError("nobody can act and the game is not over")
        assert loaded.envelopes[-1].event.Is(tpb.GameFinished.DESCRIPTOR)
        assert reads == 2 * loaded.version - 2 * 3  # every append after the 3 first events
        read_now(games, loaded)
    finally:
        log.close()
