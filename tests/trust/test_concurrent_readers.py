"""Reads run in worker threads without the game's lock, so a read may look
at a cached game while a write is absorbing a batch into it. Whatever it
sees then must be consistent: every envelope it can reach has its stored
bytes (for the event hash), and a game it sees as finished already holds
its final event; otherwise a live feed would end (``done``) without
GameFinished, and a delayed or omniscient policy would open on a game whose
end nobody has been served. And a read still running in its thread when the
server stops must finish before the store is closed under it."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from cardroom.client import Client
from cardroom.domain.kernel import AUDITOR, SPECTATOR
from cardroom.domain.table import pack
from cardroom.server.api.server import Settings, start
from cardroom.server.games.application import Games, LoadedGame
from cardroom.server.storage.log import GameLog
from cardroom.v1 import table_pb2 as tpb
from tests.bounded import steps
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
            assert events[-1].event.TypeName() == tpb.GameFinished.DESCRIPTOR.full_name, (
                f"a feed would end at {events[-1].event.TypeName()}, before GameFinished"
            )


def test_a_read_in_the_middle_of_a_write_sees_a_consistent_game(tmp_path: Path) -> None:
    log = GameLog(str(tmp_path / "cardroom.sqlite3"))
    try:
        games = Games(log)
        game_id = games.create_game(SM, None, 2)
        tokens = [games.join(game_id, None, name)[1] for name in ("Ada", "Babbage")]
        loaded = games.load(game_id)
        reads = 0

        def check() -> None:
            nonlocal reads
            reads += 1
            read_now(games, loaded)

        loaded.stored = Observed(loaded.stored, check)
        games.start(game_id, tokens[0])
        rng = random.Random(3)
        commands = 0
        for _ in steps(5000, "the game"):
            if loaded.finished:
                break
            for token in tokens:
                _, actions = games.legal_actions(game_id, token)
                if actions:
                    games.submit(game_id, token, pack(rng.choice(actions)), f"c{commands}", None)
                    commands += 1
                    break
            else:
                raise AssertionError("nobody can act and the game is not over")
        assert loaded.envelope(-1).event.TypeName() == "cardroom.v1.GameFinished"
        assert reads == loaded.version - 3  # every append after the 3 first events
        read_now(games, loaded)
    finally:
        log.close()


async def test_stopping_the_server_waits_for_calls_still_in_a_worker_thread(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A call whose client went away keeps running in its worker thread;
    the store must not be closed under it (on SQLite that crashed the
    process in sqlite3_last_insert_rowid). The call is held until the server
    has begun to stop, so the order below depends on no timing."""
    server = await start(Settings(address="127.0.0.1:0", database=database))
    order: list[str] = []
    games = server.games
    slow_view = games.view
    started, release = threading.Event(), threading.Event()

    def view(*args: Any) -> Any:
        started.set()
        release.wait(timeout=30)  # until stopping has begun (or a regression skipped it)
        try:
            return slow_view(*args)
        finally:
            order.append("call finished")

    closing = games.log.close

    def close() -> None:
        order.append("store closed")
        closing()

    draining = server.servicer.drain

    async def drain() -> None:
        release.set()
        await draining()

    monkeypatch.setattr(games, "view", view)
    monkeypatch.setattr(games.log, "close", close)
    monkeypatch.setattr(server.servicer, "drain", drain)
    async with Client.connect(f"127.0.0.1:{server.port}") as client:
        game_id = await client.create_game(SM, seat_count=2)
        call = asyncio.create_task(client.view(game_id))
        assert await asyncio.to_thread(started.wait, 30)
        call.cancel()  # the client gives up
    await server.stop(grace=None)
    assert order == ["call finished", "store closed"]
