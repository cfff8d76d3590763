"""Abandoned clocked games: what they write by themselves.

``python3 dev.py bench abandoned [--games N] [--seconds S]`` starts one
``cardroom serve`` on a fresh SQLite file with ``--resign-after-timeouts 0``
(before T-TIMEOUTS: every expiry is a default choice, for ever), then one
with the server's default (a seat whose clock runs out 3 times in a row
leaves; T-RESIGN ends the game when fewer than two seats remain). On each,
N three-seat Smoke & Mirrors games with 1 s turn clocks are created, seated
and started, and then nobody calls again. Over the next S seconds the
events the server writes by itself (the sum of the games' versions, read
at the start, the middle and the end without a token, so no seat counts as
present) give events/s over the window and over its second half, and the
games still running at the end are counted. Same-run ratio: before over
after.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from bench import load
from bench.bots import KIND, SEATS
from bench.servers import Server, fresh_database, servers
from cardroom.client import Client
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.v1 import table_pb2 as tpb


async def _abandon(client: Client, games: int) -> list[str]:
    """``games`` started games with 1 s clocks that nobody plays."""
    ids = []
    clock = tpb.TableOptions(seconds_per_decision=1)
    for _ in range(games):
        game_id = await client.create_game(
            KIND, seat_count=SEATS, options=sm.Options(rounds_to_win=50), table_options=clock
        )
        tokens = [(await client.join(game_id, f"gone{seat}")).token for seat in range(SEATS)]
        await client.start(game_id, tokens[0])
        ids.append(game_id)
    return ids


async def _state(client: Client, ids: list[str]) -> tuple[int, int]:
    """(events in all the games, games still running)."""
    views = [await client.view(game_id) for game_id in ids]
    return sum(v.version for v in views), sum(not v.table.finished for v in views)


async def measure(server: Server, games: int, seconds: float) -> tuple[float, float, int, int]:
    """(events/s the server wrote alone over the window, events/s over its
    second half, games running at the end, events in all)."""
    async with load.client(server.address) as client:
        ids = await _abandon(client, games)
        first, _ = await _state(client, ids)
        began = time.monotonic()
        await asyncio.sleep(seconds / 2)
        middle, _ = await _state(client, ids)
        halfway = time.monotonic()
        await asyncio.sleep(seconds / 2)
        last, running = await _state(client, ids)
        ended = time.monotonic()
    return (last - first) / (ended - began), (last - middle) / (ended - halfway), running, last


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python3 dev.py bench abandoned")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args(argv)
    rows = []
    with servers() as started:
        for label, flags in (
            ("before (--resign-after-timeouts 0)", ("--resign-after-timeouts", "0")),
            ("after (default: 3 in a row)", ()),
        ):
            with fresh_database("sqlite") as database:
                server = started.start(database, *flags)
                try:
                    rate, late, running, total = await measure(server, args.games, args.seconds)
                finally:
                    started.stop(server)
            rows.append((rate, late))
            print(
                f"{label}: {rate:.1f} events/s over {args.seconds:.0f} s "
                f"({late:.1f} events/s in its second half), "
                f"{running} of {args.games} games still running, {total} events in all",
                flush=True,
            )
    (rate_before, late_before), (rate_after, late_after) = rows
    ratio = rate_before / rate_after if rate_after else float("inf")
    late_ratio = late_before / late_after if late_after else float("inf")
    print(
        f"same-run ratio before/after: {ratio:.1f}x over the window, "
        f"{late_ratio:.1f}x in its second half",
        flush=True,
    )
    return 0
