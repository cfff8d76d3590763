"""Simulations: many bot games through a server, reported as win rates
with intervals, game lengths and throughput."""

from __future__ import annotations

import re

import pytest

from cardroom.cli import main
from cardroom.client.bots.simulate import Rate, lineup_of, simulate, wilson
from tests.conftest import Served


def test_the_wilson_interval_matches_its_textbook_values() -> None:
    low, high = wilson(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_the_line_up_turns_one_seat_on_each_game() -> None:
    bots = ["heuristic", "random", "random"]
    assert [lineup_of(bots, i) for i in range(4)] == [
        ("heuristic", "random", "random"),
        ("random", "heuristic", "random"),
        ("random", "random", "heuristic"),
        ("heuristic", "random", "random"),
    ]


async def test_a_small_seeded_simulation_reports_every_game(server: Served) -> None:
    played = []
    report = await simulate(
        server.client,
        "smoke-and-mirrors",
        ["heuristic", "random", "random"],
        6,
        seed=7,
        parallel=2,
        on_game=played.append,
    )
    assert len(report.played) == 6 and len(played) == 6
    assert [p.lineup for p in report.played] == [lineup_of(report.bots, i) for i in range(6)]
    by_bot = report.by_bot()
    assert by_bot["heuristic"].games == 6 and by_bot["random"].games == 12
    # Smoke & Mirrors always has one winner.
    assert all(len(p.winners) == 1 for p in report.played)
    assert sum(rate.wins for rate in report.by_seat()) == 6
    assert sum(rate.wins for rate in by_bot.values()) == 6
    assert report.commands == sum(p.commands for p in report.played) > 0
    text = report.render()
    assert "heuristic" in text and "95% interval" in text and "commands/s" in text


def test_a_rate_prints_its_interval() -> None:
    assert str(Rate(5, 10)).split() == ["10", "5", "50.0%", "[", "23.7%,", "76.3%]"]


def test_cardroom_simulate_runs_on_a_temporary_server_of_its_own(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # No --game, no --bots: a heuristic bot against two random ones.
    code = main(["simulate", "--games", "3", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0
    assert "started a temporary server on 127.0.0.1:" in out
    assert "smoke-and-mirrors: 3 games of 3 seats; bots heuristic, random, random" in out
    # Seats are numbered from 1, as everywhere people read them.
    by_seat = out.split("by seat", 1)[1]
    assert re.findall(r"^seat (\d)", by_seat, re.MULTILINE) == ["1", "2", "3"]


def test_cardroom_simulate_refuses_an_unknown_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "smoke-and-mirrors", "--bots", "genius,random"]) == 2
    assert "unknown bot 'genius'" in capsys.readouterr().err
