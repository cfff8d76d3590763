"""One runner per bot (issue 34): with two servers on one PostgreSQL store,
a game's bots are played by the server holding its lease only, and when
that server dies (its database session ends) the other takes them over and
plays the game to the end."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest

from cardroom.client import Client
from cardroom.server.api.server import RunningServer, Settings, start
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN, POSTGRES_URL

pytestmark = pytest.mark.postgres


async def _until(what: str, done: Any) -> None:
    for _ in steps(600, what):
        if done():
            return
        await asyncio.sleep(0.05)


def _runner(server: RunningServer) -> Any:
    assert server.bots is not None
    return server.bots


async def test_one_server_plays_a_games_bots_and_another_takes_them_over(
    postgres_database: str,
) -> None:
    settings = Settings(
        address="127.0.0.1:0",
        database=postgres_database,
        operator_token=OPERATOR_TOKEN,
        bot_move_ms=0,
        bot_lease_seconds=0.2,
    )
    first = await start(settings)
    running = [first]
    client = Client.connect(f"127.0.0.1:{first.port}")
    try:
        game_id = await client.create_game("smoke-and-mirrors", seat_count=3)
        host = await client.join(game_id, "Ada")
        bots = set()
        for strategy in ("random", "heuristic"):
            bots.add((game_id, (await client.add_bot(game_id, host.token, strategy)).seat))
        await _until("the first server's bots to wait", lambda: bots <= _runner(first).waiting)
        # A second server on the same store finds the bot seats in the events
        # (at its start, and every lease period after), but does not play them.
        second = await start(settings)
        running.append(second)
        await _runner(second).look_after_leases()
        await _until("the second server's tries to end", lambda: not bots & _runner(second).running)
        assert not bots & (_runner(second).waiting | _runner(second).finished)
        assert game_id not in _runner(second).leased and game_id in _runner(first).leased
        # The first server dies: its lease session ends (and it looks no more).
        keeping = _runner(first).keeping
        assert keeping is not None
        keeping.cancel()
        pid = _runner(first).leases.backend_pid
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute("SELECT pg_terminate_backend(%s)", (pid,))
        await _until("the second server to take over", lambda: bots <= _runner(second).running)
        running.remove(first)
        await first.stop(grace=None)
        # The second server's bots play the game to the end.
        await client.close()
        client = Client.connect(f"127.0.0.1:{second.port}")
        await client.resign(game_id, host.token)  # the bots started it: every seat is taken
        await _until("the taken-over bots to finish", lambda: bots <= _runner(second).finished)
        assert (await client.view(game_id, host.token)).table.finished
        assert game_id not in _runner(second).leased  # given back at the end
    finally:
        await client.close()
        for server in running:
            await server.stop(grace=None)
