"""Rows 3 and 4: reading a long game after a restart, and an old version of it.

The server process is stopped and a new one started on the same database,
so nothing of the long game is in memory. Then, in order: the first
GetView as a spectator (the whole game read and folded), the first GetView
as a seat (another viewer's fold), and GetView at half the game's version
(a historical view), whose p50 is reported. The baseline is a health Check
on the new process, measured after the reads.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable

from bench import load
from bench.config import Run
from bench.health import WARMUP_CALLS, check_samples
from bench.long_game import LongGame
from bench.report import Row, count, ms, p50, times
from bench.servers import Server

TARGET_MS_PER_1000 = 20.0


async def timed(call: Awaitable[object]) -> float:
    started = time.monotonic()
    await call
    return time.monotonic() - started


async def measure(run: Run, server: Server, game: LongGame) -> tuple[list[Row], Server]:
    fresh = run.servers.restart(server)
    async with load.client(fresh.address) as client:
        # Connect (and warm the connection) without touching any game.
        await check_samples(fresh.address, WARMUP_CALLS)
        spectator = await timed(client.view(game.game_id))
        seat = await timed(client.view(game.game_id, game.seat_token))
        half = game.events // 2
        old = [
            await timed(client.view(game.game_id, version=half))
            for _ in range(run.scale.old_version_reads)
        ]
    check = p50(await check_samples(fresh.address, run.scale.check_calls))
    limit = TARGET_MS_PER_1000 * game.events / 1000
    per_event = spectator / game.events * 1e6
    events = count(game.events)
    rows = [
        Row(
            f"first GetView after a restart, spectator ({events} events)",
            f"{ms(spectator)} ({per_event:.0f} µs/event)",
            f"Check p50 {ms(check)}",
            times(spectator / check),
            f"≤ 20 ms per 1,000 events (≤ {limit:.0f} ms)",
        ),
        Row(
            f"first GetView after a restart, a seat ({events} events)",
            ms(seat),
            f"Check p50 {ms(check)}",
            times(seat / check),
            f"≤ 20 ms per 1,000 events (≤ {limit:.0f} ms)",
        ),
        Row(
            f"GetView at an old version ({count(half)} of {events}), p50 of {len(old)} "
            "(first call apart)",
            f"{ms(p50(old))} (first {ms(old[0])})",
            f"Check p50 {ms(check)}",
            times(p50(old) / check),
            "≤ 5 ms",
        ),
    ]
    return rows, fresh
