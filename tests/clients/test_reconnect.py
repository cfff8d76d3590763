"""A server restart loses nobody's place: a watcher resumes its feed from
its cursor (nothing told twice, nothing missed)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

from cardroom.client import Client
from cardroom.client.bots.runner import play_bots, seat_bots
from cardroom.client.follow import Follower
from cardroom.server.api.server import Settings, start

MAX_EVENTS = 5_000


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_watcher_rides_out_a_server_restart(tmp_path: Path) -> None:
    # Given a server, a game with its bots seated, and a spectator following it
    settings = Settings(
        address=f"127.0.0.1:{free_port()}",
        database=str(tmp_path / "cardroom.sqlite3"),
        signing_key=str(tmp_path / "key.pem"),
    )
    server = await start(settings)
    players, spectator = Client.connect(settings.address), Client.connect(settings.address)
    kind = "smoke-and-mirrors"
    game_id = await players.create_game(kind, seat_count=3)
    bots = await seat_bots(players, game_id, 3, "heuristic")
    told: list[int] = []
    reconnects: list[object] = []
    follower = Follower(
        spectator,
        game_id,
        listener=lambda e, lines: told.append(e.sequence),
        on_reconnect=lambda attempt, error: reconnects.append(error.code),
    )
    try:
        while follower.feed.cursor < 4:  # the game and its three seats
            assert await follower.next() is not None
        waiting = asyncio.create_task(follower.next())  # for the start, on the old server
        await asyncio.sleep(0)
        # When the server stops and starts again on the same database
        await server.stop(grace=None)
        server = await start(settings)
        # and the bots play the game with their seat tokens
        outcomes = await play_bots(players, game_id, kind, bots, seed=4)
        # Then the spectator follows the game to its end, every event once and in order
        assert await asyncio.wait_for(waiting, 60) is not None
        for _ in range(MAX_EVENTS):
            if await follower.next() is None:
                break
        assert reconnects, "the feed was cut by the restart"
        assert follower.feed.finished and told == list(range(1, len(told) + 1))
        assert len(told) == (await players.view(game_id)).version
        assert sum(o.commands for o in outcomes) > 0
    finally:
        await follower.close()
        await players.close()
        await spectator.close()
        await server.stop(grace=None)
