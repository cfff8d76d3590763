"""The terminal table says what the table knows of each seat: resigned,
absent, and its turn clock counted down from the public deadline; the menu
names Resign plainly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cardroom.client import View
from cardroom.client.feed import RESIGN_CHOICE, choices
from cardroom.domain.presentation import Scene
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.tui.render import countdown, seat_notes, table_text
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb


def test_resigned_absent_and_clocked_seats_are_noted() -> None:
    table = gpb.TableView(seat_count=3, resigned_seats=[2], absent_seats=[0, 2])
    clock = table.clocks.add(seat=1)
    clock.deadline.FromDatetime(datetime(2026, 1, 1, 12, 30, 5, tzinfo=UTC))
    now = datetime(2026, 1, 1, 12, 29, 23, tzinfo=UTC)
    notes = seat_notes(table, now)
    assert notes == {0: "absent", 1: "⏱ 0:42", 2: "resigned, absent"}
    scene = Scene(status="Round 1", seats=("a", "b", "c"), waiting_for=(1,))
    drawn = table_text(scene, ["Ada", "Bo", "Cy"], None, notes).plain
    assert "Cy" in drawn and "(resigned, absent)" in drawn and "(⏱ 0:42)" in drawn
    assert "UTC" not in drawn  # a countdown, not a wall-clock time
    assert 1 not in seat_notes(table, now, clocks=False)  # a replay leaves clocks out


def test_a_countdown_reads_like_a_clock_and_says_when_time_is_up() -> None:
    deadline = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)
    before = lambda seconds: deadline - timedelta(seconds=seconds)  # noqa: E731
    assert countdown(deadline, before(42)) == "⏱ 0:42"
    assert countdown(deadline, before(0.2)) == "⏱ 0:01"  # never "0:00" while time is left
    assert countdown(deadline, before(12 * 60 + 5)) == "⏱ 12:05"
    assert countdown(deadline, before(3723)) == "⏱ 1:02:03"
    assert countdown(deadline, deadline) == "⏱ time is up"
    assert countdown(deadline, before(-5)) == "⏱ time is up"


def test_resign_is_offered_in_plain_words() -> None:
    response = gpb.GetViewResponse(table=gpb.TableView(kind="smoke-and-mirrors", seat_count=3))
    view = View(1, response.table, sm.View(), response)
    assert choices(view, [tpb.Resign()]) == [RESIGN_CHOICE]
