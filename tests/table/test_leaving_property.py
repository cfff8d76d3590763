"""A property over seeds (DECISIONS G-02(e), G-03): every game in which seats
depart (resign at any point) or time out (at every decision, or now and
then) ends, names its winners among the seats still playing, makes every
default choice from the seat's own fold, and passes `cardroom audit`
(the offline auditor re-runs every default and re-draws every dealer's
pick). The other seats play at random from their own folds."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.domain import registry
from tests.bounded import steps
from tests.table.leaving import LeavingGame
from tests.table.test_resign import playable

KINDS = sorted(registry.games())


@st.composite
def plans(draw: st.DrawFn, kind: str) -> tuple[int, int, dict[int, int], set[int], float]:
    """(seats, seed, {command count: seat that leaves then}, seats that time
    out, how often they do)."""
    seats = draw(st.sampled_from([s for s in playable(kind) if s <= 4]))
    seed = draw(st.integers(0, 2**32 - 1))
    leaving = draw(st.lists(st.integers(0, seats - 1), unique=True, max_size=seats - 1))
    when = draw(st.lists(st.integers(0, 300), min_size=len(leaving), max_size=len(leaving)))
    sleepy = draw(st.sets(st.integers(0, seats - 1), max_size=seats))
    often = draw(st.sampled_from([1.0, 0.3]))
    return seats, seed, dict(zip(when, leaving, strict=False)), sleepy, often


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_games_with_seats_leaving_or_timing_out_end_with_an_active_winner_and_audit(
    kind: str, data: st.DataObject
) -> None:
    seats, seed, leave_at, sleepy, often = data.draw(plans(kind))
    rng = random.Random(seed)
    game = LeavingGame(kind, seats, seed=seed)
    timeouts = 0
    for _ in steps(20_000, "the game"):
        if game.table.finished:
            break
        leaving = leave_at.pop(game.commands, None)
        if leaving is not None:
            game.leave(leaving)
            continue
        awaited = game.awaited()
        assert awaited, "an unfinished game awaits nobody"
        seat = rng.choice(awaited)
        if seat in sleepy and rng.random() < often:
            game.time_out(seat)
            timeouts += 1
        else:
            game.act(seat, rng.choice(game.legal(seat)))
    table = game.table
    assert table.finished
    active = set(range(seats)) - table.resigned
    assert active, "a seat always stays"
    assert table.winners and set(table.winners) <= active, (table.winners, table.resigned)
    report = game.audit()
    assert report.ok, report.render()
    assert game.checked_defaults == timeouts
