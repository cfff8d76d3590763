"""Silver Dagger's narrator and bot see only what their viewer may: twin
games whose shuffles trade two cards outside the viewer's village, played
alike until the viewer would be shown one of them (tests/silver_dagger/
twins.py), are told, drawn, labelled and decided identically."""

from __future__ import annotations

import random

import pytest

from cardroom.domain.kernel import SPECTATOR, Viewer
from cardroom.domain.silver_dagger import GAME
from cardroom.domain.silver_dagger.narrate import NARRATOR
from cardroom.domain.silver_dagger.strategy import STRATEGY
from tests.presentation.local import NAMES
from tests.silver_dagger.support import Table
from tests.silver_dagger.twins import dealt_twins


def told(table: Table, viewer: Viewer, names: tuple[str, ...], since: int) -> list[list[str]]:
    """The viewer's words for the events from ``since`` on, each told with
    the viewer's own fold just before it."""
    state = table.initial
    lines = []
    for i, e in enumerate(table.log):
        mine = e.redact(viewer)
        if i >= since:
            lines.append(NARRATOR.event(state, mine, names))
        state = GAME.evolve(state, mine)
    return lines


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("who", [0, 1, None])
def test_silver_dagger_twins_are_told_drawn_and_decided_alike(seats: int, who: int | None) -> None:
    viewer = Viewer.of_seat(who) if who is not None else SPECTATOR
    names = NAMES[:seats]
    compared = 0
    for seed in range(3):
        deals_a, deals_b, sent = dealt_twins(seed, seats, viewer, commands=60)
        a, b = Table(seats, deals=deals_a, check=False), Table(seats, deals=deals_b, check=False)
        a.deal_next()
        b.deal_next()
        for step, (seat, command) in enumerate([(None, None), *sent]):
            since = len(a.log)
            if seat is not None and command is not None:
                a.send(seat, command)
                b.send(seat, command)
            assert told(a, viewer, names, since) == told(b, viewer, names, since)
            view_a, view_b = a.view(viewer), b.view(viewer)
            assert NARRATOR.scene(view_a, names, who) == NARRATOR.scene(view_b, names, who)
            if who is not None:
                legal_a, legal_b = a.legal(who), b.legal(who)
                labels = [NARRATOR.action(c, view_a, names) for c in legal_a]
                assert labels == [NARRATOR.action(c, view_b, names) for c in legal_b]
                if legal_a:
                    pick_a = STRATEGY.choose(view_a, legal_a, who, random.Random(step))
                    assert pick_a == STRATEGY.choose(view_b, legal_b, who, random.Random(step))
            compared += 1
    assert compared > 3
