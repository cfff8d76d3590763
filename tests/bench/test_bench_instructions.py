"""The instruction counts (bench/instructions.py): that callgrind's count is
read right, that the in-process figure repeats run to run (the reason it
exists), that a served window counts the call and only the call, and the
committed reference. Counts, never timings."""

from __future__ import annotations

import asyncio
import json
import secrets
import uuid
from pathlib import Path

import pytest

from bench import instructions
from bench.config import QUICK, Run
from bench.cpu import Figure
from bench.instructions import REFERENCE, in_a_process, totals
from bench.servers import servers

pytestmark = pytest.mark.slow  # processes under valgrind: tens of seconds each


def test_a_dump_is_read_for_its_totals_line(tmp_path: Path) -> None:
    dump = tmp_path / "callgrind.out.1.1"
    dump.write_text("version: 1\nevents: Ir\nsummary: 0\nfn=(1) main\n3 17\ntotals: 123456\n")
    assert totals(dump) == 123456
    (tmp_path / "empty").write_text("events: Ir\n")
    with pytest.raises(RuntimeError, match="no totals line"):
        totals(tmp_path / "empty")


def test_seeded_makes_the_services_randomness_repeat() -> None:
    saved = secrets.token_bytes, uuid.uuid4
    try:
        instructions.seeded(7)
        first = (secrets.token_bytes(16), secrets.token_urlsafe(8), uuid.uuid4())
        instructions.seeded(7)
        again = (secrets.token_bytes(16), secrets.token_urlsafe(8), uuid.uuid4())
    finally:
        secrets.token_bytes, uuid.uuid4 = saved
    assert first == again
    assert first[2].version == 4


def test_the_in_process_count_repeats_and_a_command_costs_more_than_a_save(
    tmp_path: Path,
) -> None:
    """Two runs of the seeded play count nearly the same instructions on
    the command's own thread (the figure a cut is measured with), and a
    raw save counts fewer than a command, which saves too. Over a few
    commands, beside the suite's other tests, the background threads' GIL
    hand-offs and garbage collections still move the mean about 1% (0.3%
    over 200 commands; the reference's margin is 5%), and one collection
    in one window could move it more: the median window is held to 3%."""
    first = in_a_process(tmp_path / "a", "submit", "sqlite", 6)
    second = in_a_process(tmp_path / "b", "submit", "sqlite", 6)
    save = in_a_process(tmp_path / "c", "raw-save", "sqlite", 6)
    assert 100_000 < save.own < first.own
    assert abs(first.median - second.median) / first.median < 0.03, (first, second)
    assert abs(first.own - second.own) / first.own < 0.2, (first, second)


def test_a_served_window_counts_a_call_and_an_empty_window_almost_nothing() -> None:
    async def measure() -> instructions.Served:
        with servers() as started:
            out = Path(started.folder) / "callgrind.out"
            return await instructions.served(Run("sqlite", QUICK, started), out, 3)

    calls = asyncio.run(measure())
    assert calls.idle < calls.check / 5  # the settle time's wake-ups, left out of each call
    assert 100_000 < calls.check < calls.submit
    # A command's work is counted on the event loop and on a call thread (the store).
    assert calls.by_thread[1] > 100_000
    assert len([n for n, count in calls.by_thread.items() if count > 100_000]) >= 2
    assert "thread 1 (the event loop)" in calls.threads()


def test_the_committed_reference_names_every_figure_with_a_ratio_and_a_note() -> None:
    reference = json.loads(REFERENCE.read_text())
    keys = {
        "sqlite SubmitCommand",
        "postgres SubmitCommand",
        "sqlite submit in process",
        "postgres submit in process",
    }
    assert set(reference["ratios"]) == keys
    assert set(reference["thousand instructions"]) == keys
    assert set(reference["measured"]) == keys
    assert 0 < reference["margin"] < 0.3  # far tighter than the CPU figures' 30%


def test_record_writes_the_figures_in_thousands_of_instructions_and_keeps_the_rest() -> None:
    """``--record`` shares bench/cpu.py's merge, but its file names its
    unit: no "microseconds" key, the other backend's figure kept."""
    reference = {
        "margin": 0.05,
        "measured": {"postgres SubmitCommand": "yesterday"},
        "ratios": {"postgres SubmitCommand": 2.4},
        "thousand instructions": {"postgres SubmitCommand": 5553.3},
    }
    figure = Figure("sqlite SubmitCommand", "served", 4128.0, 1368.0, "Check + save")
    written = instructions.recorded(reference, [figure], "today")
    assert "microseconds" not in written
    assert written["thousand instructions"] == {
        "postgres SubmitCommand": 5553.3,
        "sqlite SubmitCommand": 4128.0,
    }
    assert written["ratios"] == {"postgres SubmitCommand": 2.4, "sqlite SubmitCommand": 3.02}
    assert written["measured"]["sqlite SubmitCommand"] == "today"
    assert written["margin"] == 0.05
    # A first record, with no file yet, takes this bench's margin, not the CPU figures' 30%.
    assert instructions.recorded({}, [figure], "today")["margin"] == instructions.MARGIN


def test_without_valgrind_the_bench_says_so_and_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(instructions.shutil, "which", lambda program: None)
    assert asyncio.run(instructions.main(["--backend", "sqlite"])) == 2
    assert "valgrind not found" in capsys.readouterr().err
