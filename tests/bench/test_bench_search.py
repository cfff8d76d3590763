"""The search bot's benchmark runs end to end through ``dev.py bench``'s
entry (``python -m bench search``), its games in worker processes, and
prints a row per game.

Only that it runs and what it prints is checked, never a win rate: the
figures belong to docs/bots.md, not to a test.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_search_benchmark_prints_a_row_per_game_with_its_interval() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench",
            "search",
            "--games",
            "2",
            "--iterations",
            "2",
            "--game",
            "smiles-and-daggers",
            "--game",
            "smoke-and-mirrors",
            "--jobs",
            "2",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    for kind in ("smiles-and-daggers", "smoke-and-mirrors"):
        row = re.search(
            rf"^{kind} +2 +\d +\d+\.\d% +\[ *\d+\.\d%, *\d+\.\d%\] .* ms .* ms .* ms +2 +\d+ +0$",
            run.stdout,
            re.M,
        )
        assert row, run.stdout
    assert "median/p90/max: CPU time (one core) per searched move" in run.stdout
