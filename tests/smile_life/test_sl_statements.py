"""The rulebook's testable statements (DECISIONS 3.4) and the rulings'
examples, played from set deals through the pure decider; every check holds
from every seat's and a spectator's fold (the API tests play the same
scenarios through gRPC)."""

from __future__ import annotations

import pytest

from cardroom.domain.kernel import AUDITOR

from .scenarios import ALL, Scenario
from .support import Table, viewers


def play_scenario(scenario: Scenario) -> Table:
    table = Table(scenario.seat_count, scenario.options, deal=scenario.chance)
    for stage in scenario.stages:
        table.play(*stage.steps)
        for seat, command, rule in stage.refused:
            assert table.refused(seat, command).rule == rule
        for viewer in [*viewers(scenario.seat_count), AUDITOR]:
            view = table.view(viewer)
            for check in stage.checks:
                check(view)
    assert not table.deals, "the set deal holds exactly the outcomes the game asks for"
    return table


@pytest.mark.parametrize("scenario", ALL, ids=lambda s: s.name)
def test_the_scenario_plays_as_the_rules_say(scenario: Scenario) -> None:
    play_scenario(scenario)
