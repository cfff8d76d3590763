"""``cardroom replay``: step through a game from one viewer's side
(a spectator, a seat with its token, the operator) with ReplayViews: the
table after each event, the feed up to it. → and ← step, Home and End jump
to the ends, g jumps to a version."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Input, RichLog, Static

from cardroom.client import CardroomError, Client, ReplayStep
from cardroom.client.feed import Feed, names_of, scene, title
from cardroom.client.printable import printable
from cardroom.domain.presentation import guide
from cardroom.tui.help import HelpScreen, goal_text
from cardroom.tui.render import cards_styled, seat_notes, table_text
from cardroom.tui.table import AROUND, BELOW_TABLE, CSS
from cardroom.v1 import game_service_pb2 as gpb


class ReplayApp(App[None]):
    CSS = CSS + "#goto { display: none; } #goto.open { display: block; } #event { padding: 0 1; }"
    BINDINGS = [
        # Ahead of the feed's own scrolling keys.
        Binding("right,l,space", "step(1)", "Next", priority=True),
        Binding("left,h", "step(-1)", "Back", priority=True),
        Binding("home", "jump(0)", "First", priority=True),
        Binding("end", "jump(-1)", "Last", priority=True),
        Binding("g", "goto", "Go to version"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        connect: Callable[[], Client],
        game_id: str,
        *,
        token: str | None = None,
        as_spectator: bool = False,
        version: int | None = None,
    ) -> None:
        super().__init__()
        self.connect, self.game_id, self.token = connect, game_id, token
        self.as_spectator, self.start_at = as_spectator, version
        self.steps: list[ReplayStep] = []
        self.told: list[list[str]] = []  # the lines of each step's event
        self.index = 0
        self.seat: int | None = None
        self.loaded = asyncio.Event()

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="goal")
        with VerticalScroll(id="table-box"):
            yield Static(id="table")
        yield Static(id="event")
        yield Input(placeholder="version, then Enter", id="goto", type="integer")
        yield Static(id="note")
        yield RichLog(id="feed", wrap=True, min_width=20)
        yield Footer()

    async def on_mount(self) -> None:
        self.title, self.sub_title = "cardroom replay", f"game {self.game_id}"
        self.run_worker(self.load(), exit_on_error=False)

    async def load(self) -> None:
        client = self.connect()
        try:
            async for step in client.replay(
                self.game_id, self.token, as_spectator=self.as_spectator
            ):
                self.steps.append(step)
        except CardroomError as error:
            said = printable(f"{error.code.name}: {error.details}")
            self.query_one("#note", Static).update(Text(said))
            return
        finally:
            await client.close()
        feed = Feed()
        self.told = [feed.tell(step.event) for step in self.steps]
        first = self.steps[0].view.response if self.steps else None
        if first is not None and first.viewer_kind == gpb.VIEWER_KIND_SEAT:
            self.seat = first.seat
        last = len(self.steps) - 1
        self.index = last if self.start_at is None else max(0, min(last, self.start_at - 1))
        self.query_one("#note", Static).update("→ next · ← back · Home/End · g go to a version")
        self.show()
        self.loaded.set()

    @property
    def current_version(self) -> int:
        return self.steps[self.index].view.version if self.steps else 0

    def show(self) -> None:
        if not self.steps:
            return
        step = self.steps[self.index]
        view = step.view
        self.title = f"{title(view.table.kind)} · replay"
        whose = "a spectator" if self.seat is None else names_of(view)[self.seat]
        self.sub_title = (
            f"game {self.game_id} · version {view.version} of {self.steps[-1].view.version}"
            f" · as {whose}"
        )
        names = view.table.player_names
        notes = seat_notes(view.table, clocks=False)  # a past turn's clock is long gone
        width, height = self.size
        rows = max(3, height - AROUND - 3 - BELOW_TABLE - 2)  # the event, the note
        self.query_one("#table", Static).update(
            table_text(scene(view, self.seat), names, self.seat, notes, width=width - 6, rows=rows)
        )
        self.query_one("#table-box", VerticalScroll).styles.max_height = rows + 2
        self.query_one("#goal", Static).update(goal_text(guide(view.table.kind)))
        event = " ".join(self.told[self.index])
        self.query_one("#event", Static).update(cards_styled(f"#{view.version}: {event}"))
        log = self.query_one("#feed", RichLog)
        log.clear()
        for lines in self.told[: self.index + 1]:
            for line in lines:
                log.write(cards_styled(line))

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        kind = self.steps[0].view.table.kind if self.steps else ""
        self.push_screen(HelpScreen(kind, guide(kind)))

    def action_step(self, delta: int) -> None:
        if self.steps:
            self.index = max(0, min(len(self.steps) - 1, self.index + delta))
            self.show()

    def action_jump(self, index: int) -> None:
        if self.steps:
            self.index = index % len(self.steps)
            self.show()

    def action_goto(self) -> None:
        goto = self.query_one("#goto", Input)
        goto.add_class("open")
        goto.value = ""
        goto.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        goto = self.query_one("#goto", Input)
        goto.remove_class("open")
        self.set_focus(None)
        try:
            version = int(event.value)
        except ValueError:
            return
        self.jump_to(version)

    def jump_to(self, version: int) -> None:
        """Show the step at this version (the nearest one there is)."""
        if self.steps:
            first = self.steps[0].view.version
            self.index = max(0, min(len(self.steps) - 1, version - first))
            self.show()
