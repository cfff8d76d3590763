"""The search bot through a server: it plays a game to its end with its own
seat token only, thinking in a worker process, under a name that says how
it plays."""

from __future__ import annotations

import asyncio
import random

import grpc
import pytest

from cardroom.client import Client
from cardroom.client.bots import NoSuchBot, strategy_for
from cardroom.client.bots.runner import Bot, bot_name, play_bots, seat_bots
from cardroom.client.bots.search import SearchBot
from cardroom.domain.presentation import table_event
from cardroom.v1 import table_pb2 as tpb
from tests.clients.test_bots import SEAT_CALLS, Recorder
from tests.conftest import Served


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["smiles-and-daggers", "smoke-and-mirrors"])
async def test_a_search_bot_plays_to_the_end_with_its_own_seat_token(
    server: Served, kind: str
) -> None:
    # Given a game with a search bot in seat 0 on a channel that records every call
    recorder = Recorder()
    watched = Client(grpc.aio.insecure_channel(server.address, interceptors=[recorder]))
    client = server.client
    game_id = await client.create_game(kind, seat_count=3)
    search = strategy_for(kind, "search", think_ms=20)
    assert isinstance(search, SearchBot) and search.label == "search bot (20 ms)"
    bot = await Bot.join(watched, game_id, search.label, search, random.Random(1), seat=0)
    others = await seat_bots(client, game_id, 2, "heuristic")
    # When everyone plays the game to its end
    outcomes = await asyncio.gather(bot.play(), play_bots(client, game_id, kind, others, seed=2))
    await watched.close()
    # Then the search bot made moves, and every call it made but joining carried its own token
    assert outcomes[0].commands > 0 and outcomes[0].winners == outcomes[1][0].winners
    assert outcomes[0].names[0] == "search bot (20 ms)"
    assert outcomes[0].names[1] == "Babbage (heuristic bot)"
    methods = {method for method, _ in recorder.calls}
    assert methods <= SEAT_CALLS and "/cardroom.v1.GameService/SubmitCommand" in methods
    for method, credential in recorder.calls:
        expected = None if method.endswith("/JoinGame") else f"Bearer {bot.token}"
        assert credential == expected, method


def test_search_bots_are_named_by_strategy_and_refuse_no_thinking() -> None:
    assert bot_name(0, "search") == "Babbage (search bot, 500 ms)"
    assert bot_name(1, "random") == "Curie (random bot)"
    # A list of players reads right: each name is one item.
    names = ["Tess", bot_name(0, "heuristic"), bot_name(1, "heuristic")]
    assert table_event(tpb.GameStarted(), names) == [
        "Tess, Babbage (heuristic bot) and Curie (heuristic bot) are seated: the game begins."
    ]
    with pytest.raises(NoSuchBot, match="think-ms"):
        strategy_for("smoke-and-mirrors", "search", think_ms=0)
