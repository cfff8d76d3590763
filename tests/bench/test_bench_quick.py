"""The benchmark runs end to end: ``python -m bench --quick`` measures every
row of issue 10's table on SQLite and PostgreSQL, the scale-out figures,
the store's own write scale and the relays rows (issue 22; they need NATS),
and prints them all.

Only that it runs and what it prints is checked, never a timing: the
figures belong to docs/benchmarks.md, not to a test.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import POSTGRES_URL

ROOT = Path(__file__).resolve().parents[2]
RUN_SECONDS = 900

ROWS = [
    "SubmitCommand p50 / (health Check p50 + raw eventsourcing save p50)",
    "command cost late vs early in one",
    "first GetView after a restart, spectator",
    "first GetView after a restart, a seat",
    "GetView at an old version",
    "first GetView after a restart, the game finished",
    "spectators on one game: delivery to the last one",
    "writer SubmitCommand p50 with",
    "memory per game in memory",
    "server RSS while",
    "ListGames, a page of 100 with",
]
RELAY_ROWS = [
    "spectators on one game through 1 relay (--transport grpc): delivery",
    "spectators on one game through 1 relay (--transport h2): delivery",
    "spectators on one game through 4 relays (--transport h2): delivery",
    "the server's CPU per delivered message",
    "spectators on 2 relays vs 0",
]


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.timeout(RUN_SECONDS + 60)
def test_the_quick_benchmark_prints_every_row_on_both_backends_and_the_scale_out_figures(
    postgres_database: str,  # only to skip (or, on CI, fail) without PostgreSQL
) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bench", "--quick"],
        cwd=ROOT,
        env={**os.environ, "CARDROOM_BENCH_POSTGRES": POSTGRES_URL},
        capture_output=True,
        text=True,
        timeout=RUN_SECONDS,
    )
    output = run.stdout
    assert run.returncode == 0, output + run.stderr[-3000:]
    sqlite, _, postgres = output.partition("## PostgreSQL")
    for row in ROWS:
        assert row in sqlite, f"SQLite table lacks {row!r}:\n{sqlite}"
        assert row in postgres, f"PostgreSQL table lacks {row!r}:\n{postgres}"
    assert "FAILED" not in output, output
    for row in RELAY_ROWS:  # once, on the last backend
        assert row in postgres, f"PostgreSQL table lacks {row!r}:\n{postgres}"
    for table in (sqlite, postgres):  # the server's own share, read from its access log
        assert "of it inside the server)" in table, table
    for servers in ("| 1 |", "| 2 |", "| 3 |"):
        assert servers in postgres, f"scale-out table lacks {servers!r}:\n{postgres}"
    assert "Failover (passed)" in postgres, postgres
    writes = postgres.partition("the store alone")[2]
    for layout in ("one table, lock + NOTIFY (cardroom now)", "a schema per process"):
        assert layout in writes, f"store writes table lacks {layout!r}:\n{postgres}"
    assert "waiting: table lock" in writes, writes
    assert "The run took" in output
