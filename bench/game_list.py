"""Rows 8 and 9: many games: the server's memory while they come, and ListGames.

Load processes create N games (100,000 in the full run) as fast as the
server takes them, many CreateGame calls at a time, and touch each once
(a spectator's GetView, which brings it into memory). Meanwhile the
server's RSS is sampled; the row compares the RSS at the end (and the
peak) with the RSS once a tenth of the games exist: a server whose memory
is bounded stays within 10%.

Then ListGames: the first page of 100 (newest first). The first call is
reported apart (it may catch up with everything written since the server
started); the p50 is of the calls after it.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from bench import load
from bench.bots import KIND, SEATS
from bench.config import Run
from bench.health import check_samples
from bench.load import Link, Worker
from bench.report import Row, count, kib, ms, p50, times
from bench.servers import Server, fresh_database
from cardroom.v1 import game_service_pb2 as gpb

CONCURRENCY = 16
PROGRESS_EVERY = 250
SAMPLE_SECONDS = 0.5
STOP_SECONDS = 120.0
PAGE = 100


async def create_job(link: Link, address: str, games: int, concurrency: int) -> int:
    """Create and touch ``games`` games, or fewer if told to stop; sends
    ("created", n) as it goes and returns how many it created."""
    async with load.client(address, retry=True) as client:
        queue = iter(range(games))
        done = 0

        async def creator() -> None:
            nonlocal done
            for _ in queue:
                if link.waiting():
                    return  # ("stop",): the time is up
                game_id = await client.create_game(KIND, seat_count=SEATS)
                await client.view(game_id)
                done += 1
                if done % PROGRESS_EVERY == 0:
                    link.send("created", PROGRESS_EVERY)

        await asyncio.gather(*(creator() for _ in range(concurrency)))
    return done


@dataclass(frozen=True)
class Fill:
    games: int  # created
    wanted: int
    seconds: float
    samples: list[tuple[int, int]]  # (games created so far, server RSS KiB)


async def fill(run: Run, server: Server) -> Fill:
    games = run.scale.many_games
    workers = run.scale.load_workers
    shares = [games // workers + (i < games % workers) for i in range(workers)]
    started = time.monotonic()
    creators = [
        Worker(create_job, address=server.address, games=n, concurrency=CONCURRENCY) for n in shares
    ]
    samples = [(0, server.rss_kib())]
    created = 0
    stopped = False
    try:
        while not all(w.finished for w in creators):
            if not stopped and time.monotonic() - started > run.scale.fill_seconds:
                for worker in creators:
                    worker.send("stop")
                stopped = True
            await asyncio.sleep(SAMPLE_SECONDS)
            for worker in creators:
                created += sum(m[1] for m in worker.pending() if m[0] == "created")
            samples.append((created, server.rss_kib()))
        made = sum(await load.results(creators, STOP_SECONDS))
    finally:
        load.kill_all(creators)
    samples.append((made, server.rss_kib()))
    return Fill(made, games, time.monotonic() - started, samples)


def rss_row(filled: Fill) -> Row:
    tenth = next(rss for n, rss in filled.samples if n >= filled.games // 10)
    end = filled.samples[-1][1]
    peak = max(rss for _, rss in filled.samples)
    rate = filled.games / filled.seconds
    short = (
        f"; the time budget ran out before {count(filled.wanted)}"
        if filled.games < filled.wanted
        else ""
    )
    return Row(
        f"server RSS while {count(filled.games)} games are created and touched "
        f"({rate:.0f} games/s{short})",
        f"{kib(end)} at the end, peak {kib(peak)}",
        f"{kib(tenth)} at {count(filled.games // 10)} games",
        times(peak / tenth),
        "within 10% (≤ 1.10x)",
    )


async def list_rows(run: Run, server: Server, games: int) -> list[Row]:
    request = gpb.ListGamesRequest(page_size=PAGE)
    async with load.client(server.address) as client:
        seconds = []
        for _ in range(run.scale.list_calls + 1):
            started = time.monotonic()
            response = await client.stub.ListGames(request)
            seconds.append(time.monotonic() - started)
            if len(response.games) != PAGE:
                raise RuntimeError(f"ListGames returned {len(response.games)} games, not {PAGE}")
    check = p50(await check_samples(server.address, run.scale.check_calls))
    first, rest = seconds[0], seconds[1:]
    return [
        Row(
            f"ListGames, a page of {PAGE} with {count(games)} games, p50 of {len(rest)} "
            f"(first call apart)",
            f"{ms(p50(rest))} (first {ms(first)})",
            f"Check p50 {ms(check)}",
            times(p50(rest) / check),
            "≤ 5 ms with 100,000 games",
        )
    ]


async def measure(run: Run) -> list[Row]:
    with fresh_database(run.backend) as database:
        server = run.servers.start(database)
        try:
            filled = await fill(run, server)
            rows = [rss_row(filled), *await list_rows(run, server, filled.games)]
        finally:
            run.servers.stop(server)
    return rows
