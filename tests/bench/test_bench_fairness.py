"""The fairness benchmark runs end to end: ``python -m bench.fairness
--quick`` plays every game at 3 and 4 seats in the three runs (nobody
leaves, a seat departs, a seat times out) and prints a table for each.

Only that it runs and what it prints is checked, never a share: the figures
belong to docs/benchmarks.md, not to a test.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cardroom.domain import registry

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_quick_fairness_benchmark_prints_every_game_and_seat_count() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bench", "fairness", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=850,
    )
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    output = run.stdout
    for game in registry.games().values():
        for seats in (3, 4):
            if game.min_seats <= seats <= game.max_seats:
                assert f"### {game.title}, {seats} seats" in output, output
    assert "| position | baseline | R departed | R timed out |" in output
    assert "| R+1 |" in output and "| R itself (of all games) |" in output
    assert "Positions outside the baseline's interval:" in output
    assert "The run took" in output
