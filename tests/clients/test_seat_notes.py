"""The terminal table says what the table knows of each seat: resigned,
absent, and its turn clock's deadline; the menu names Resign plainly."""

from __future__ import annotations

from datetime import UTC, datetime

from cardroom.client import View
from cardroom.client.feed import RESIGN_CHOICE, choices
from cardroom.domain.presentation import Scene
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.tui.render import seat_notes, table_text
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb


def test_resigned_absent_and_clocked_seats_are_noted() -> None:
    table = gpb.TableView(seat_count=3, resigned_seats=[2], absent_seats=[0, 2])
    clock = table.clocks.add(seat=1)
    clock.deadline.FromDatetime(datetime(2026, 1, 1, 12, 30, 5, tzinfo=UTC))
    notes = seat_notes(table)
    assert notes == {0: "absent", 1: "⏱ until 12:30:05 UTC", 2: "resigned, absent"}
    scene = Scene(status="Round 1", seats=("a", "b", "c"), waiting_for=(1,))
    drawn = table_text(scene, ["Ada", "Bo", "Cy"], None, notes).plain
    assert "Cy" in drawn and "(resigned, absent)" in drawn and "(⏱ until 12:30:05 UTC)" in drawn


def test_resign_is_offered_in_plain_words() -> None:
    response = gpb.GetViewResponse(table=gpb.TableView(kind="smoke-and-mirrors", seat_count=3))
    view = View(1, response.table, sm.View(), response)
    assert choices(view, [tpb.Resign()]) == [RESIGN_CHOICE]
