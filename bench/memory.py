"""Row 7: the server's memory per game it holds.

A fresh server on a fresh database; a few games warm it up; then load
processes create K games (3 seats, ~10 commands each, played by bots) and
leave them idle. The server's RSS (VmRSS from /proc) after, minus before,
divided by K. A server that bounds its per-game cache below K shows less
than a game really costs; K is small (300) so that does not happen with a
cache of any sensible size.
"""

from __future__ import annotations

import asyncio
import random

from bench import load
from bench.bots import play, seated_game
from bench.config import Run
from bench.load import Link, Worker
from bench.report import Row, count, kib
from bench.servers import fresh_database

WARMUP_GAMES = 10
GAMES_SECONDS = 900.0


async def games_job(
    link: Link, address: str, games: int, commands: int, concurrency: int, seed: int
) -> int:
    """Create ``games`` games, ``concurrency`` at a time, and play
    ``commands`` commands in each."""
    async with load.client(address, retry=True) as client:
        queue = iter(range(games))

        async def player(rng: random.Random) -> None:
            for _ in queue:
                table = await seated_game(client)
                await play(client, table, rng, commands=commands)

        await asyncio.gather(*(player(random.Random(seed * 100 + i)) for i in range(concurrency)))
    return games


async def played_games(address: str, games: int, commands: int, workers: int, per: int) -> None:
    shares = [games // workers + (i < games % workers) for i in range(workers)]
    started = [
        Worker(
            games_job,
            address=address,
            games=n,
            commands=commands,
            concurrency=per,
            seed=i,
        )
        for i, n in enumerate(shares)
    ]
    try:
        await load.results(started, GAMES_SECONDS)
    finally:
        load.kill_all(started)


async def measure(run: Run) -> list[Row]:
    scale = run.scale
    with fresh_database(run.backend) as database:
        server = run.servers.start(database)
        try:
            await played_games(server.address, WARMUP_GAMES, scale.memory_commands, 1, 2)
            before = server.rss_kib()
            await played_games(
                server.address,
                scale.memory_games,
                scale.memory_commands,
                scale.load_workers,
                scale.games_per_worker,
            )
            after = server.rss_kib()
        finally:
            run.servers.stop(server)
    per_game = (after - before) / scale.memory_games
    return [
        Row(
            f"memory per game in memory (3 seats, {scale.memory_commands} commands; "
            f"{count(scale.memory_games)} games)",
            kib(per_game),
            f"server RSS {kib(before)} before, {kib(after)} after",
            "",
            "≤ 50 KiB per idle game",
        )
    ]
