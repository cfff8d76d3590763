"""Bots play through the API like anyone else: with their own seat token
only, to the end of any game, and through a lost connection."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import grpc
import pytest

from cardroom.client import Client
from cardroom.client.bots import strategy_for
from cardroom.client.bots.runner import Bot, play_bots, seat_bots
from cardroom.domain import registry
from cardroom.domain.presentation import strategy
from tests.conftest import Served

KINDS = sorted(registry.games())
SEAT_CALLS = {
    "/cardroom.v1.GameService/JoinGame",
    "/cardroom.v1.GameService/StartGame",
    "/cardroom.v1.GameService/ListLegalActions",
    "/cardroom.v1.GameService/GetView",
    "/cardroom.v1.GameService/SubmitCommand",
    "/cardroom.v1.GameService/WatchEvents",
}


class Recorder(grpc.aio.UnaryUnaryClientInterceptor, grpc.aio.UnaryStreamClientInterceptor):
    """Every call a channel makes: its method and its credential."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str | None]] = []

    def _record(self, details: Any) -> None:
        metadata = dict(details.metadata or ())
        method = details.method.decode() if isinstance(details.method, bytes) else details.method
        self.calls.append((method, metadata.get("authorization")))

    async def intercept_unary_unary(
        self, continuation: Callable, details: Any, request: Any
    ) -> Any:
        self._record(details)
        return await continuation(details, request)

    async def intercept_unary_stream(
        self, continuation: Callable, details: Any, request: Any
    ) -> Any:
        self._record(details)
        return await continuation(details, request)


def seats_of(kind: str) -> int:
    game = registry.game(kind)
    return max(game.min_seats, min(game.max_seats, 3))


@pytest.mark.parametrize("kind", KINDS)
async def test_a_bot_calls_the_api_only_with_its_own_seat_token(server: Served, kind: str) -> None:
    # Given a game with a bot in seat 1 on a channel that records every call
    recorder = Recorder()
    watched = Client(grpc.aio.insecure_channel(server.address, interceptors=[recorder]))
    client = server.client
    game_id = await client.create_game(kind, seat_count=seats_of(kind))
    others = await seat_bots(client, game_id, 1, "random")
    bot = await Bot.join(
        watched, game_id, "Watched", strategy_for(kind, "heuristic"), random.Random(1)
    )
    others += await seat_bots(client, game_id, seats_of(kind) - 2, "random")
    # When everyone plays the game to its end
    outcomes = await asyncio.gather(bot.play(), play_bots(client, game_id, kind, others, seed=2))
    await watched.close()
    # Then the bot made moves, and every call it made but joining carried its own token
    assert outcomes[0].commands > 0 and outcomes[0].winners == outcomes[1][0].winners
    methods = {method for method, _ in recorder.calls}
    assert methods <= SEAT_CALLS and "/cardroom.v1.GameService/SubmitCommand" in methods
    for method, credential in recorder.calls:
        expected = None if method.endswith("/JoinGame") else f"Bearer {bot.token}"
        assert credential == expected, method


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("bot", ["random", "heuristic"])
async def test_bots_in_every_seat_finish_every_kind_of_game(
    server: Served, kind: str, bot: str
) -> None:
    game = registry.game(kind)
    if bot == "heuristic":
        assert strategy(kind) is not None, f"{kind} has no heuristic bot"
    # Random bots take long to end a full table; the heuristic ones play every size.
    sizes = {game.min_seats, seats_of(kind)} | ({game.max_seats} if bot == "heuristic" else set())
    for seats in sorted(sizes):
        options = game.options_type()
        for flag in ("allow_two_players", "allow_six_players"):  # every seat count allowed
            if flag in options.DESCRIPTOR.fields_by_name:
                setattr(options, flag, True)
        game_id = await server.client.create_game(kind, seat_count=seats, options=options)
        bots = await seat_bots(server.client, game_id, seats, bot)
        outcomes = await play_bots(server.client, game_id, kind, bots, seed=seats)
        view = await server.client.view(game_id)
        assert view.table.finished
        assert {o.winners for o in outcomes} == {tuple(view.table.winners)}
        assert sum(o.commands for o in outcomes) > 0


async def test_a_bot_carries_on_with_its_token_on_a_new_connection(server: Served) -> None:
    # Given a bot that joined, and a game its rival bots play to the end
    kind = "smoke-and-mirrors"
    client = server.client
    game_id = await client.create_game(kind, seat_count=3)
    first = Client.connect(server.address)
    joined = await Bot.join(
        first, game_id, "Bot", strategy_for(kind, "heuristic"), random.Random(3)
    )
    await first.close()  # its connection is gone before it made a move
    rivals = await seat_bots(client, game_id, 2, "random")
    # When a new bot plays the same seat with the token
    again = Client.connect(server.address)
    resumed = await Bot.with_token(
        again, game_id, joined.token, strategy_for(kind, "heuristic"), random.Random(3)
    )
    outcome, _ = await asyncio.gather(resumed.play(), play_bots(client, game_id, kind, rivals, 4))
    await again.close()
    # Then it played that seat to the end
    assert resumed.seat == joined.seat and outcome.commands > 0
    assert (await client.view(game_id)).table.finished
