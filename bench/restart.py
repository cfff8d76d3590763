"""Rows 3 and 4: reading a long game after a restart, and an old version of
it; then the same game finished, read after another restart.

The server process is stopped and a new one started on the same database,
so nothing of the long game is in memory but what the new server loads
itself (it loads the running games at start, to re-arm their turn clocks).
Then, in order: the first GetView as a spectator, the first GetView as a
seat (another viewer's fold), and GetView at half the game's version (a
historical view), whose p50 is reported.

Then two of the game's three seats resign (T-RESIGN), which finishes it,
and the server is restarted again. A finished game is not loaded at start:
its first GetView as a spectator and as a seat read it from the store.
Replay sites and auditors open finished games most; their figures are
given against the running game's of the same run (issue 22). The baseline
of the other rows is a health Check on the new process, measured after the
reads.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable

from bench import load
from bench.config import Run
from bench.health import WARMUP_CALLS, check_samples
from bench.long_game import LongGame
from bench.report import Row, count, ms, p50, times
from bench.servers import Server

TARGET_MS_PER_1000 = 20.0
LOG_POLLS = 50
LOG_POLL_SECONDS = 0.1


async def timed(call: Awaitable[object]) -> float:
    started = time.monotonic()
    await call
    return time.monotonic() - started


def per_event(seconds: float, events: int, inside: float | None = None) -> str:
    """A first view's time, per event, and its time inside the server (the
    access log's duration_ms: no client or network in it)."""
    shown = f"{ms(seconds)} ({seconds / events * 1e6:.1f} µs/event"
    return shown + (f"; {ms(inside)} in the server)" if inside is not None else ")")


async def first_views(server: Server) -> tuple[float | None, float | None]:
    """The server's own time for its first two GetView calls (a call's log
    line may come just after its reply: waited for, a few seconds at most)."""
    for _ in range(LOG_POLLS):
        inside = server.call_seconds("GetView")
        if len(inside) >= 2:
            return inside[0], inside[1]
        await asyncio.sleep(LOG_POLL_SECONDS)
    return None, None


async def measure(run: Run, server: Server, game: LongGame) -> tuple[list[Row], Server]:
    fresh = run.servers.restart(server)
    async with load.client(fresh.address) as client:
        # Connect (and warm the connection) without touching any game.
        await check_samples(fresh.address, WARMUP_CALLS)
        spectator = await timed(client.view(game.game_id))
        seat = await timed(client.view(game.game_id, game.tokens[0]))
        half = game.events // 2
        old = [
            await timed(client.view(game.game_id, version=half))
            for _ in range(run.scale.old_version_reads)
        ]
        for token in game.tokens[1:]:
            await client.resign(game.game_id, token)  # two of three: the game ends
        finished = await client.view(game.game_id)
    if not finished.table.finished:
        raise RuntimeError(f"game {game.game_id} did not finish when two seats resigned")
    check = p50(await check_samples(fresh.address, run.scale.check_calls))
    limit = TARGET_MS_PER_1000 * game.events / 1000
    events = count(game.events)
    spectator_inside, seat_inside = await first_views(fresh)
    rows = [
        Row(
            f"first GetView after a restart, spectator ({events} events)",
            per_event(spectator, game.events, spectator_inside),
            f"Check p50 {ms(check)}",
            times(spectator / check),
            f"≤ 20 ms per 1,000 events (≤ {limit:.0f} ms)",
        ),
        Row(
            f"first GetView after a restart, a seat ({events} events)",
            per_event(seat, game.events, seat_inside),
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
    after, fresh = await finished_rows(run, fresh, game, finished.version, spectator, seat)
    return rows + after, fresh


async def finished_rows(
    run: Run, server: Server, game: LongGame, events: int, spectator: float, seat: float
) -> tuple[list[Row], Server]:
    """After another restart, the first views of the game now finished,
    against the running game's first views (``spectator``, ``seat``); and
    the new server."""
    fresh = run.servers.restart(server)
    async with load.client(fresh.address) as client:
        await check_samples(fresh.address, WARMUP_CALLS)
        finished_spectator = await timed(client.view(game.game_id))
        finished_seat = await timed(client.view(game.game_id, game.tokens[0]))
    spectator_inside, seat_inside = await first_views(fresh)
    what = f"first GetView after a restart, the game finished ({count(events)} events)"
    rows = [
        Row(
            f"{what}, spectator",
            per_event(finished_spectator, events, spectator_inside),
            f"running, {per_event(spectator, game.events)}",
            times(finished_spectator / spectator),
            "as a running game (≈ 1x)",
        ),
        Row(
            f"{what}, a seat",
            per_event(finished_seat, events, seat_inside),
            f"running, {per_event(seat, game.events)}",
            times(finished_seat / seat),
            "as a running game (≈ 1x)",
        ),
    ]
    return rows, fresh
