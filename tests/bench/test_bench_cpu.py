"""The CPU figures' regression check (bench/cpu.py) and the benchmark's own
broker (bench/broker.py): what decides a flagged regression, never a timing."""

from __future__ import annotations

import json
import shutil

import nats
import pytest

from bench.broker import private_nats
from bench.cpu import REFERENCE, Figure, regressions


def figure(key: str, value: float, baseline: float) -> Figure:
    return Figure(key, key, value, baseline, "baseline")


def test_a_ratio_past_the_margin_is_a_regression_and_one_within_it_is_not() -> None:
    reference = {"margin": 0.3, "ratios": {"relay message": 2.0, "sqlite SubmitCommand": 3.0}}
    within = [figure("relay message", 2.59, 1.0), figure("sqlite SubmitCommand", 3.0, 1.0)]
    assert regressions(within, reference) == []
    past = [figure("relay message", 2.61, 1.0)]
    assert [line.split(":")[0] for line in regressions(past, reference)] == ["relay message"]
    assert regressions([figure("a new figure", 99.0, 1.0)], reference) == []


def test_the_committed_reference_names_every_figure_with_a_ratio() -> None:
    reference = json.loads(REFERENCE.read_text())
    assert set(reference["ratios"]) == {
        "sqlite SubmitCommand",
        "postgres SubmitCommand",
        "relay message",
    }
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
