"""Every player on screen: the terminal table at 120x40 and 80x24, for
every game and every seat count it allows, at a seat's first move, midway
and after the end. Each seat's name is on a row of the screen with what
ends the game beside it (round wins, coins, points, smiles), and the
game-wide count (Silver Dagger's round, Smile Life's draw pile) is shown;
a long round summary scrolls. Positions are played in memory once per seat
count (tests/clients/positions.py) and shown by the real PlayApp, its
server left out."""

from __future__ import annotations

import re

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot

from cardroom.client import Client
from cardroom.domain import registry
from cardroom.domain.presentation import Story
from cardroom.tui.play import PlayApp
from tests.clients.positions import MOMENTS, NAMES, Position, positions, seat_counts
from tests.clients.test_terminal_screens import screen_lines

SIZES = {"120x40": (120, 40), "80x24": (80, 24)}
CASES = [(kind, seats) for kind in sorted(registry.games()) for seats in seat_counts(kind)]
# What ends the game, on each seat's row after its name.
SEAT_COUNTERS = {
    "smoke-and-mirrors": re.compile(r"◆|no round won"),
    "smiles-and-daggers": re.compile(r"\b\d+ coins?\b"),
    "silver-dagger": re.compile(r"-?\d+ points?\b"),
    "smile-life": re.compile(r"\b\d+ smiles?\b"),
}
# What ends the game for everyone, somewhere on the screen (Silver Dagger's
# round until the end: its status then names the winner).
TABLE_COUNTERS = {
    "silver-dagger": re.compile(r"Round \d of 4\b|Game over: "),
    "smile-life": re.compile(r"Draw pile: \d+ cards?\b"),
}


class StillTable(PlayApp):
    """The seat's table as `cardroom play` draws it, shown a position at a
    time by the test instead of followed on a server."""

    async def follow(self) -> None:
        return

    def show_position(self, position: Position) -> None:
        self.show(position.view)
        self.offer(list(position.actions), position.view.version)


def still_table(kind: str) -> StillTable:
    nowhere = lambda: Client.connect("127.0.0.1:9")  # noqa: E731 - never called
    app = StillTable(nowhere, "g-fit", token="seat-token", seat=0, kind=kind)
    return app


async def resized(app: StillTable, pilot: Pilot[None], width: int, height: int) -> None:
    """The terminal resized, and the table fitted to its new size (Textual
    resizes on a timer: wait for the fact, not for a time)."""
    await pilot.resize_terminal(width, height)
    for _ in range(1_000):
        await pilot.pause()
        if app.screen.size == (width, height) and app.drawn_room == app.table_room():
            break
    await pilot.pause()  # laid out and painted
    assert app.screen.size == (width, height) and app.drawn_room == app.table_room()


def check_every_seat(kind: str, seats: int, lines: list[str]) -> None:
    for name in NAMES[:seats]:
        # The seat's own row in the table's box: "│ ▶ Ada (you)  ◆ · hand ..."
        row = re.compile(r"│ [▶ ] " + re.escape(name) + r"(?!\w)")
        rows = [line for line in lines if row.search(line)]
        assert rows, f"{name} is not on screen"
        after = rows[0].split(name, 1)[1]
        assert SEAT_COUNTERS[kind].search(after), f"{name}'s row shows no count: {rows[0]!r}"
    counter = TABLE_COUNTERS.get(kind)
    if counter is not None:
        shown = "\n".join(lines)
        assert counter.search(shown), f"no {counter.pattern} on screen:\n{shown}"


@pytest.mark.parametrize(("kind", "seats"), CASES)
async def test_every_seat_and_what_ends_the_game_are_on_screen(kind: str, seats: int) -> None:
    app = still_table(kind)
    async with app.run_test(size=SIZES["120x40"]) as pilot:
        app.set_guide(kind)
        for moment in MOMENTS:
            position = positions(kind, seats)[moment]
            app.show_position(position)
            if moment == "end":
                app.game_over()
            for width, height in SIZES.values():  # one app, the terminal resized
                await resized(app, pilot, width, height)
                lines = screen_lines(app)
                assert len(lines) == height and all(len(line) <= width for line in lines)
                check_every_seat(kind, seats, lines)
                shown = "\n".join(lines)
                # The moves below the table; after the end, no empty move box.
                assert ("Your move" in shown) == (moment != "end"), moment


@pytest.mark.parametrize("kind", sorted(registry.games()))
async def test_the_summary_of_the_end_can_be_read_whole_at_80x24(kind: str) -> None:
    seats = seat_counts(kind)[-1]
    end = positions(kind, seats)["end"]
    story = Story.of(kind)
    told = [(event.public, story.tell(event)) for event in end.events]
    app = still_table(kind)
    async with app.run_test(size=(80, 24)) as pilot:
        app.set_guide(kind)
        app.show_position(end)
        app.game_over()
        app.live = True
        for public, lines in told[-12:]:  # the last round's end and the game's
            app.round_summary(public, lines)
        await pilot.pause()
        box = app.query_one("#summary", VerticalScroll)
        assert box.has_class("open") and box.border_title == "Game over"
        last = " ".join(app.summary[-1].split())
        if kind == "smile-life":  # every life counted: longer than the box
            assert box.max_scroll_y > 0
            assert "PgDn" in str(box.border_subtitle)
            assert last not in " ".join(" ".join(screen_lines(app)).split())
        for _ in range(20):
            if box.scroll_y >= box.max_scroll_y:
                break
            await pilot.press("pagedown")
        await pilot.pause()
        shown = " ".join(" ".join(screen_lines(app)).split())
        assert last in shown, "the summary's last line never came on screen"
