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


def bench_search(*args: str) -> str:
    """``python -m bench search ARGS``, which must succeed: its stdout and stderr."""
    done = subprocess.run(
        [sys.executable, "-m", "bench", "search", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    return done.stdout + done.stderr


def test_the_search_benchmark_prints_a_row_per_game_with_its_interval() -> None:
    output = bench_search(
        "--games", "2", "--iterations", "2", "--game", "smiles-and-daggers",
        "--game", "smoke-and-mirrors", "--jobs", "2",
    )  # fmt: skip
    for kind in ("smiles-and-daggers", "smoke-and-mirrors"):
        row = re.search(
            rf"^{kind} +2 +\d +\d+\.\d% +\[ *\d+\.\d%, *\d+\.\d%\] .* ms .* ms .* ms +2 +\d+ +0$",
            output,
            re.M,
        )
        assert row, output
    assert "median/p90/max: CPU time (one core) per searched move" in output


def test_a_recorded_run_resumes_without_playing_its_games_again(tmp_path: Path) -> None:
    def run(games: int) -> str:
        return bench_search(
            "--games", str(games), "--iterations", "2", "--game", "smiles-and-daggers",
            "--record", str(tmp_path), "--progress",
        )  # fmt: skip

    first = run(2)
    record = tmp_path / "smiles-and-daggers.jsonl"
    assert len(record.read_text().splitlines()) == 2
    second = run(3)
    # Games 1 and 2 are counted from the record; only game 3 is played.
    assert "recorded before: smiles-and-daggers       2" in second
    assert "after game 1:" not in second and "after game 3:" in second
    assert len(record.read_text().splitlines()) == 3
    games = re.compile(r"^smiles-and-daggers +(\d) ", re.M)
    assert [m and m.group(1) for m in (games.search(first), games.search(second))] == ["2", "3"]
