"""Row 1: what a command costs against what its parts cost.

SubmitCommand p50 (bots playing ordinary games, one client) against the sum
of two same-run baselines: a health Check on the same server (the gRPC
round trip) and a raw eventsourcing save of one small event on a fresh
database of the same backend, in its own process (the write). Beside it,
the p50 of the same calls' time inside the server (its access log), so the
row says how much of a command is the server's own work.
"""

from __future__ import annotations

import random

from bench import load, raw_save
from bench.bots import play, seated_game
from bench.config import Run
from bench.health import check_samples
from bench.report import Row, ms, p50, times
from bench.servers import Server, fresh_database

WHAT = "SubmitCommand p50 / (health Check p50 + raw eventsourcing save p50)"
RAW_SECONDS = 300.0


async def raw_save_p50(run: Run) -> float:
    with fresh_database(run.backend) as database:
        worker = load.Worker(raw_save.job, database=database, saves=run.scale.raw_saves)
        try:
            samples: list[float] = await worker.result(RAW_SECONDS)
        finally:
            worker.kill()
    return p50(samples)


async def submit_samples(address: str, commands: int, seed: int) -> list[float]:
    """SubmitCommand seconds from bots playing whole ordinary games."""
    rng = random.Random(seed)
    samples: list[float] = []
    async with load.client(address) as client:
        while len(samples) < commands:
            table = await seated_game(client)
            await play(client, table, rng, commands=commands - len(samples))
            samples += [c.seconds for c in table.commands]
    return samples


async def measure(run: Run, server: Server) -> list[Row]:
    check = p50(await check_samples(server.address, run.scale.check_calls))
    raw = await raw_save_p50(run)
    logged_from = server.log_size()
    submit = p50(await submit_samples(server.address, run.scale.submit_commands, seed=1))
    inside = server.call_seconds("SubmitCommand", since=logged_from)
    target = "≤ 1.5x" if run.backend == "sqlite" else "≤ 2x"
    return [
        Row(
            WHAT,
            f"{ms(submit)} ({ms(p50(inside))} of it inside the server)" if inside else ms(submit),
            f"{ms(check)} + {ms(raw)} = {ms(check + raw)}",
            times(submit / (check + raw)),
            target,
        )
    ]
