"""The rulings' tests for seats that leave or time out (G-02, G-03, SD-15,
SD-16, SM-11, SV-28, SL-37: tests/table/departures.py) played through the
pure rules, in the trust harness the service mirrors: every default choice
is checked against the seat's own fold, and each finished game passes the
audit."""

from __future__ import annotations

import pytest

from tests.bounded import steps
from tests.table.departures import (
    SCENARIOS,
    Act,
    Leave,
    PlayOut,
    Scenario,
    Seen,
    TimeOut,
)
from tests.table.leaving import LeavingGame


def seen(game: LeavingGame) -> Seen:
    table = game.table
    return Seen(
        events=game.public_events(),
        view=game.spectator_view(),
        finished=table.finished,
        winners=table.winners,
        legal={s: game.legal(s) for s in range(game.seats)},
        dealer=game.dealer_outcomes(),
    )


def play_out(game: LeavingGame) -> None:
    for _ in steps(5000, "the game"):
        if game.table.finished:
            return
        seat = next(s for s in range(game.seats) if game.legal(s))
        game.act(seat, game.legal(seat)[0])


def play(scenario: Scenario) -> LeavingGame:
    game = LeavingGame(
        scenario.kind, scenario.seats, options=scenario.options, set_deal=scenario.chance
    )
    for stage in scenario.stages:
        for step in stage.steps:
            if isinstance(step, Act):
                game.act(step.seat, step.command)
            elif isinstance(step, Leave):
                game.leave(step.seat)
            elif isinstance(step, TimeOut):
                seat = step.seat
                if seat is None:
                    [seat] = game.awaited()
                game.time_out(seat)
            else:
                assert isinstance(step, PlayOut)
                play_out(game)
        now = seen(game)
        for check in stage.checks:
            check(now)
    return game


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name.split(":")[0])
def test_the_rulings_scenarios_play_through_the_pure_rules(scenario: Scenario) -> None:
    game = play(scenario)
    if game.table.finished:
        report = game.audit()
        assert report.ok, report.render()
