"""The server's own bots under attack (issue 34): more than a hundred bots
waiting in games that never start leave every other game's bots playing,
before and after a restart, and hold no stream while they wait; AddBot
spends its caller's join allowance, and the bot's turns count against the
caller's client."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import grpc
import pytest

from cardroom.client import CardroomError, Client
from cardroom.server.api.server import RunningServer, Settings, start
from cardroom.server.limits import Limits
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN
from tests.service.helpers import start_unless_started

WAITING_GAMES = 21  # six seats, five bots each: 105 bots, past one connection's 100 streams


async def _seat_waiting_bots(client: Client) -> set[tuple[str, int]]:
    """105 bots in games that never start (one seat of each stays free)."""
    bots = set()
    for _ in range(WAITING_GAMES):
        game_id = await client.create_game(
            "smiles-and-daggers", seat_count=6, operator_token=OPERATOR_TOKEN
        )
        for _ in range(5):
            added = await client.add_bot(game_id, OPERATOR_TOKEN, "random")
            bots.add((game_id, added.seat))
    return bots


async def _all_waiting(server: RunningServer, bots: set[tuple[str, int]]) -> None:
    """Every one of these bots has looked at its game and now waits."""
    runner: Any = server.bots
    for _ in steps(1200, "the bots to look at their games"):
        if bots <= runner.waiting:
            return
        await asyncio.sleep(0.05)


async def _victim_plays(server: RunningServer, client: Client) -> None:
    """Another game's bots play it to the end once its host leaves."""
    game_id = await client.create_game("smoke-and-mirrors", seat_count=3)
    host = await client.join(game_id, "Ada")
    await client.add_bot(game_id, host.token, "random")
    await client.add_bot(game_id, host.token, "heuristic")
    await start_unless_started(client, game_id, host.token)
    await client.resign(game_id, host.token)
    for _ in steps(600, "the victim game's bots to finish it"):
        if (await client.view(game_id, host.token)).table.finished:
            break
        await asyncio.sleep(0.1)
    runner: Any = server.bots
    for _ in steps(600, "the victim game's bots to see the end"):
        if {(game_id, 1), (game_id, 2)} <= runner.finished:
            return
        await asyncio.sleep(0.05)


@pytest.mark.slow
async def test_a_hundred_waiting_bots_leave_other_games_bots_playing(tmp_path: Path) -> None:
    settings = Settings(
        address="127.0.0.1:0",
        database=str(tmp_path / "cardroom.sqlite3"),
        operator_token=OPERATOR_TOKEN,
        bot_move_ms=0,
    )
    server = await start(settings)
    client = Client.connect(f"127.0.0.1:{server.port}")
    try:
        bots = await _seat_waiting_bots(client)
        assert len(bots) > 100
        await _all_waiting(server, bots)
        # Waiting for a game to start holds no stream.
        assert server.servicer is not None and server.servicer.watchers == 0
        await _victim_plays(server, client)
    finally:
        await client.close()
        await server.stop(grace=None)
    # After a restart the same 105 bots are found in the events again, and
    # still leave another game's bots their turn.
    server = await start(settings)
    client = Client.connect(f"127.0.0.1:{server.port}")
    try:
        await _all_waiting(server, bots)
        assert server.servicer is not None and server.servicer.watchers == 0
        await _victim_plays(server, client)
    finally:
        await client.close()
        await server.stop(grace=None)


async def test_add_bot_spends_the_callers_join_allowance(tmp_path: Path) -> None:
    server = await start(
        Settings(
            address="127.0.0.1:0",
            database=str(tmp_path / "cardroom.sqlite3"),
            operator_token=OPERATOR_TOKEN,
            limits=Limits(joins_per_client_per_hour=3),
        )
    )
    client = Client.connect(f"127.0.0.1:{server.port}")
    try:
        game_id = await client.create_game("smiles-and-daggers", seat_count=6)
        host = await client.join(game_id, "Ada")  # one of three
        await client.add_bot(game_id, host.token, "random")  # two
        await client.add_bot(game_id, host.token, "random")  # three: the allowance is spent
        version = (await client.view(game_id, host.token)).version
        with pytest.raises(CardroomError) as caught:
            await client.add_bot(game_id, host.token, "random")
        assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "seats" in caught.value.details
        assert (await client.view(game_id, host.token)).version == version  # nothing written
        # The operator has no allowance to spend.
        await client.add_bot(game_id, OPERATOR_TOKEN, "random")
        view = await client.view(game_id, host.token)
        assert sum(bool(name) for name in view.table.player_names) == 4
    finally:
        await client.close()
        await server.stop(grace=None)


async def test_a_bots_turns_count_against_the_client_that_added_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """AddBot hands the runner the caller's client (its address), whose fair
    share the bot's looks, moves and searches then count against."""
    server = await start(
        Settings(
            address="127.0.0.1:0",
            database=str(tmp_path / "cardroom.sqlite3"),
            operator_token=OPERATOR_TOKEN,
        )
    )
    client = Client.connect(f"127.0.0.1:{server.port}")
    started: list[tuple[int, str | None]] = []
    runner: Any = server.bots
    monkeypatch.setattr(
        runner,
        "start",
        lambda game_id, seat, strategy, owner=None: started.append((seat, owner)),
    )
    try:
        game_id = await client.create_game("smoke-and-mirrors", seat_count=3)
        host = await client.join(game_id, "Ada")
        await client.add_bot(game_id, host.token, "search")
        assert started == [(1, "127.0.0.1")]
    finally:
        await client.close()
        await server.stop(grace=None)
