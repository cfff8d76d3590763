"""The CPU figures' regression check and reference file (bench/cpu.py) and
the benchmark's own broker (bench/broker.py): what decides a flagged
regression and what ``--record`` keeps, never a timing."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nats
import pytest

from bench import submit_cpu
from bench.broker import private_nats
from bench.cpu import REFERENCE, Figure, Windows, medians, merged, regressions, unreferenced
from bench.servers import cpu_ns
from cardroom.server.storage.log import GameLog


def figure(key: str, value: float, baseline: float) -> Figure:
    return Figure(key, key, value, baseline, "baseline")


def test_a_ratio_past_the_margin_is_a_regression_and_one_within_it_is_not() -> None:
    reference = {"margin": 0.3, "ratios": {"relay message": 2.0, "sqlite SubmitCommand": 3.0}}
    within = [figure("relay message", 2.59, 1.0), figure("sqlite SubmitCommand", 3.0, 1.0)]
    assert regressions(within, reference) == []
    past = [figure("relay message", 2.61, 1.0)]
    assert [line.split(":")[0] for line in regressions(past, reference)] == ["relay message"]
    assert regressions([figure("a new figure", 99.0, 1.0)], reference) == []


def test_check_skips_a_figure_with_no_reference_and_names_it() -> None:
    reference = {"margin": 0.3, "ratios": {"relay message": 2.0}}
    measured = [figure("relay message", 1.0, 1.0), figure("relay message h2", 99.0, 1.0)]
    assert unreferenced(measured, reference) == ["relay message h2"]
    assert regressions(measured, reference) == []


def test_record_replaces_the_keys_it_measured_and_keeps_the_others_with_their_notes() -> None:
    first = {
        "release": "0.9",
        "measured": "yesterday, pinned",  # the file's first shape: one note for every key
        "margin": 0.25,
        "microseconds": {"sqlite SubmitCommand": 3000.0, "relay message": 80.0},
        "ratios": {"sqlite SubmitCommand": 2.9, "relay message": 1.83},
    }
    relay_only = [figure("relay message", 70.0, 40.0), figure("relay message h2", 6.0, 40.0)]
    after = merged(first, relay_only, "today")
    assert after["release"] == "0.9"
    assert after["margin"] == 0.25
    assert after["microseconds"] == {
        "sqlite SubmitCommand": 3000.0,
        "relay message": 70.0,
        "relay message h2": 6.0,
    }
    assert after["ratios"] == {
        "sqlite SubmitCommand": 2.9,
        "relay message": 1.75,
        "relay message h2": 0.15,
    }
    assert after["measured"] == {
        "sqlite SubmitCommand": "yesterday, pinned",
        "relay message": "today",
        "relay message h2": "today",
    }
    again = merged(after, [figure("sqlite SubmitCommand", 2800.0, 1000.0)], "tomorrow")
    assert again["measured"] == {**after["measured"], "sqlite SubmitCommand": "tomorrow"}
    assert again["ratios"] == {**after["ratios"], "sqlite SubmitCommand": 2.8}
    assert first["ratios"] == {"sqlite SubmitCommand": 2.9, "relay message": 1.83}  # not mutated


def test_a_key_measured_in_several_rounds_is_their_median() -> None:
    rounds = [
        figure("relay message", 76.0, 40.0),
        figure("relay message h2", 6.0, 40.0),
        figure("relay message", 66.0, 40.0),
        figure("relay message h2", 5.0, 40.0),
        figure("relay message", 90.0, 40.0),
        figure("relay message h2", 5.5, 40.0),
    ]
    summary = medians(rounds)
    assert [(f.key, f.value, f.ratio) for f in summary] == [
        ("relay message", 76.0, 1.9),
        ("relay message h2", 5.5, 0.1375),
    ]
    once = [figure("sqlite SubmitCommand", 3000.0, 1000.0)]
    assert medians(once) == once


def test_the_committed_reference_names_every_figure_with_a_ratio_and_a_note() -> None:
    reference = json.loads(REFERENCE.read_text())
    keys = {
        "sqlite SubmitCommand",
        "postgres SubmitCommand",
        "sqlite submit in process",
        "postgres submit in process",
        "relay message",
        "relay message h2",
    }
    assert set(reference["ratios"]) == keys
    assert set(reference["microseconds"]) == keys
    assert set(reference["measured"]) == keys
    assert 0 < reference["margin"] < 1


@pytest.mark.skipif(shutil.which("nats-server") is None, reason="nats-server is not installed")
async def test_the_benchmarks_broker_is_its_own_and_has_jetstream() -> None:
    with private_nats() as url:
        assert not url.endswith(":4222")
        connection = await nats.connect(url)
        try:
            info = await connection.jetstream().account_info()
            assert info.streams == 0  # a fresh storage folder
        finally:
            await connection.close()


def test_a_window_counts_the_cpu_of_every_thread_spent_inside_it_and_nothing_outside() -> None:
    """The command figure's instrument: each call's window holds the CPU
    the process spent during it, in any thread (a server's call threads);
    work done between windows is in none of them."""

    def spin(seconds: float) -> None:
        began = cpu_ns(os.getpid())
        while cpu_ns(os.getpid()) - began < seconds * 1e9:
            pass

    pool = ThreadPoolExecutor(1)  # threads that outlive the calls, as a server's do

    async def in_a_thread(seconds: float) -> str:
        await asyncio.get_running_loop().run_in_executor(pool, spin, seconds)
        return "done"

    async def play() -> Windows:
        windows = Windows(os.getpid())
        assert await windows.timed("Submit", in_a_thread(0.05)) == "done"
        spin(0.2)  # outside every window
        await windows.timed("Submit", in_a_thread(0.05))
        await windows.timed("List", asyncio.sleep(0))
        return windows

    try:
        windows = asyncio.run(play())
    finally:
        pool.shutdown()
    assert windows.calls == {"Submit": 2, "List": 1}
    assert 0.05 <= windows.per_call("Submit") < 0.15
    assert windows.per_call("List") < 0.05
    assert windows.per_call("never called") == 0


def test_the_in_process_command_figure_plays_real_commands(tmp_path: Path) -> None:
    """bench/submit_cpu.py's job plays the bots' game through Games.submit
    and gives the CPU per command: a real game moved, not an empty loop."""
    database = str(tmp_path / "cardroom.sqlite3")
    seconds = asyncio.run(submit_cpu.cpu_job(None, database=database, commands=10))
    assert 0 < seconds < 1
    log = GameLog(database)
    try:
        (game,) = log.recorder.select_notifications(start=1, limit=1)
        assert len(log.read_raw(str(game.originator_id))) >= 10 + submit_cpu.WARM_UP
    finally:
        log.close()


def test_the_in_process_figure_pauses_before_each_command(tmp_path: Path) -> None:
    """``--pause-ms`` idles before every measured command (and its pauses
    are not counted as CPU): 10 commands after 30 ms each take 0.3 s."""
    database = str(tmp_path / "cardroom.sqlite3")
    began = time.monotonic()
    seconds = asyncio.run(submit_cpu.cpu_job(None, database=database, commands=10, pause_us=30_000))
    assert time.monotonic() - began >= 10 * 0.030
    assert 0 < seconds < 0.030
