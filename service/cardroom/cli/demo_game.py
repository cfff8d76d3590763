"""``cardroom demo``: bots (cardroom/bots) play one game through the public
API, each with its own seat token, while a spectator's redacted feed is told
in words by the game's narrator; the full log is then fetched and checked by
replaying it through the rules."""

from __future__ import annotations

import asyncio
import tempfile
from contextlib import AsyncExitStack
from pathlib import Path

import grpc

from cardroom.client import Client
from cardroom.client.bots.runner import play_bots
from cardroom.client.feed import Feed, numbered
from cardroom.client.sessions import BotSeat
from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.presentation import strategy
from cardroom.server.api.server import Settings, start
from cardroom.trust.envelopes import to_event
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb


async def spectate(client: Client, game_id: str, quiet: bool) -> int:
    """A spectator's feed, told in words as it comes; the events seen."""
    seen = 0
    feed = Feed()
    async for envelope in client.watch(game_id):
        seen += 1
        told = numbered(envelope.sequence, feed.tell(envelope))
        if not quiet and told:
            print("\n".join(told), flush=True)
    return seen


def check_log(kind: str, log: list[epb.EventEnvelope]) -> tables.Table:
    """The full log must be gap-free and fold through the rules to a finish."""
    for expected, envelope in enumerate(log, start=1):
        if envelope.sequence != expected:
            raise AssertionError(f"log has a gap at {expected}")
    final = tables.replay(registry.game(kind), [to_event(e) for e in log])
    if not final.finished:
        raise AssertionError("the log does not end with a finished game")
    return final


async def run_demo(
    kind: str,
    seats: int | None,
    address: str | None,
    *,
    seed: int | None = None,
    quiet: bool = False,
    credentials: grpc.ChannelCredentials | None = None,
) -> int:
    game = registry.game(kind)
    seat_count = seats or min(max(3, game.min_seats), game.max_seats)
    async with AsyncExitStack() as stack:
        if address is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            server = await start(
                Settings(address="127.0.0.1:0", database=str(folder / "demo.sqlite3"))
            )
            stack.push_async_callback(server.stop)
            address = f"127.0.0.1:{server.port}"
            print(f"started a server on {address} (temporary SQLite database)")
        client = await stack.enter_async_context(Client.connect(address, credentials=credentials))
        # A demo's log is public once it is over, so anyone can export and
        # audit it (README, "Try it"); games default to their seats only.
        game_id = await client.create_game(
            kind,
            seat_count=seat_count,
            log_policy=tpb.LogPolicy(kind=tpb.LogPolicy.KIND_PUBLIC_AFTER_END),
        )
        names = ["Ada", "Brahmagupta", "Cardano", "Dijkstra", "Euler", "Fermat"]
        handles = [await client.join(game_id, names[i % len(names)]) for i in range(seat_count)]
        watcher = asyncio.create_task(spectate(client, game_id, quiet))
        bot = "heuristic" if strategy(kind) is not None else "random"
        bots = [BotSeat(h.seat, h.token, bot) for h in handles]
        outcomes = await play_bots(client, game_id, kind, bots, seed)
        commands = sum(o.commands for o in outcomes)
        async with asyncio.timeout(30):
            seen = await watcher
        log = await client.audit(game_id)
        final = check_log(kind, log)
        if seen != len(log):
            raise AssertionError(f"spectator saw {seen} events, the log has {len(log)}")
        winners = ", ".join(final.player_names[s] or "?" for s in final.winners) or "nobody"
        print(f"{kind}: {commands} bot commands, {len(log)} events; winner: {winners}")
        print(f"full log checked: {len(log)} events replay through the rules to the finish")
        print(f"game id: {game_id}")
    return 0
