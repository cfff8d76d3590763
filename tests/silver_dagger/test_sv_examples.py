"""The rulebook's five scoring examples (R1..R5, §2.4) played out through the
pure rules: each builds its village with set deals and real moves, ends the
round and checks the scoring from every viewer's own view."""

from __future__ import annotations

import pytest

from .scenarios import EXAMPLES, Scenario
from .support import play


@pytest.mark.parametrize("scenario", EXAMPLES, ids=lambda s: s.name)
def test_the_rulebooks_scoring_examples(scenario: Scenario) -> None:
    play(scenario)
