"""The live table every terminal app shares: the table drawn from the
viewer's view, and the viewer's feed told line by line, kept up to date
through disconnects (the feed resumes from its cursor; a call that finds
the server away is tried again)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

from google.protobuf.message import Message
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widget import Widget
from textual.widgets import Footer, Header, RichLog, Static

from cardroom.client import CardroomError, Client, View
from cardroom.client.feed import event_of, scene, title
from cardroom.client.follow import Follower, backoff, transient
from cardroom.domain.presentation import Guide, guide
from cardroom.tui.help import HelpScreen, goal_text
from cardroom.tui.render import cards_styled, seat_notes, table_text
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb

T = TypeVar("T")

CSS = """
#goal { height: auto; padding: 0 1; background: $boost; }
#main { height: 1fr; }
#left { width: 3fr; }
#table { border: round $secondary; padding: 0 1; height: auto; max-height: 50%; overflow-y: auto; }
#right { width: 2fr; }
#summary { border: round $warning; padding: 0 1; height: auto; max-height: 75%; display: none; }
#summary.open { display: block; }
#moves { height: 1fr; min-height: 5; border: round $accent; scrollbar-gutter: stable; }
#note { height: auto; padding: 0 1; color: $text-muted; }
#feed { height: 1fr; border: round $primary; }
"""

# Events that open the round summary, by message name (every game's own end
# of a round or of the game), and those that close it (a new round).
ROUND_ENDS = frozenset({"RoundWon", "RoundEnded", "GameEnded"})
ROUND_STARTS = frozenset({"RoundDealt", "TurnStarted"})
# Long detail the feed beside it holds already (every card of every village).
SUMMARY_SKIPS = frozenset({"VillagesRevealed"})


class TableApp(App[None]):
    """Watch a game live: a spectator, a seat (its own cards) or the operator."""

    CSS = CSS
    BINDINGS = [
        Binding("q", "quit", "Quit"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("escape", "close_summary", "Close summary", show=False),
    ]
    # Calls in a row that may find the server away before the app gives up.
    RETRIES = 1_000

    def __init__(
        self,
        connect: Callable[[], Client],
        game_id: str,
        *,
        token: str | None = None,
        seat: int | None = None,
        as_spectator: bool = False,
    ) -> None:
        super().__init__()
        self.connect, self.game_id, self.token = connect, game_id, token
        self.seat, self.as_spectator = seat, as_spectator
        self.view: View | None = None
        self.version = 0
        self.over = asyncio.Event()  # set once the game is over and all is told
        self.guide: Guide | None = None
        self.seen: list[Message] = []  # the public events told, oldest first
        self.live = False  # the feed has caught up: a round end now is news
        self.summary: list[str] = []  # the round summary's lines while it is open
        self.summary_taking = False  # still adding the round end's lines

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="goal")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="table")
                yield from self.compose_moves()
                yield Static(id="note")
            with Vertical(id="right"):
                yield Static(id="summary")
                yield RichLog(id="feed", wrap=True, min_width=20)
        yield Footer()

    def compose_moves(self) -> Iterable[Widget]:
        return ()

    def note(self, text: str) -> None:
        # Text, not markup: a note may quote a card ("[Bandit]") or an error.
        self.query_one("#note", Static).update(Text(text))

    # ------------------------------------------------------ help, summary

    def action_help(self) -> None:
        """The game's guide: its goal, its rules in short, its symbols."""
        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        kind = self.view.table.kind if self.view is not None else ""
        self.push_screen(HelpScreen(kind, self.guide))

    def action_close_summary(self) -> None:
        self.summary, self.summary_taking = [], False
        self.query_one("#summary", Static).remove_class("open")

    def round_summary(self, public: Message, lines: list[str]) -> None:
        """A round's end told in a box that stays until the next move (or
        Esc): who won it and why, and the scores, as the game tells them."""
        name = public.DESCRIPTOR.name
        if name in ROUND_ENDS:
            self.summary, self.summary_taking = list(lines), True
        elif self.summary_taking and name in SUMMARY_SKIPS:
            return
        elif self.summary_taking and name not in ROUND_STARTS:
            self.summary += lines  # the scores, the dagger, the game's end
        else:
            self.summary_taking = False
            return
        box = self.query_one("#summary", Static)
        ended = name == "GameEnded" or isinstance(public, tpb.GameFinished)
        box.border_title = "Game over" if ended else "Round over"
        box.border_subtitle = "Esc closes"
        box.update(Text("\n").join(cards_styled(line) for line in self.summary))
        box.add_class("open")

    # ---------------------------------------------------------- the feed

    async def on_mount(self) -> None:
        self.title = "cardroom"
        self.sub_title = f"game {self.game_id}"
        self.client = self.connect()
        self.set_interval(1.0, self.tick)
        self.follower = Follower(
            self.client,
            self.game_id,
            self.token,
            as_spectator=self.as_spectator,
            listener=self._told,
            reconnects=self.RETRIES,
            on_reconnect=lambda attempt, error: self.note(
                f"{error.code.name}: reconnecting (try {attempt + 1})…"
            ),
        )
        self.run_worker(self._follow(), name="follow", exit_on_error=False)

    async def on_unmount(self) -> None:
        await self.follower.close()
        await self.client.close()

    def _told(self, envelope: epb.EventEnvelope, lines: list[str]) -> None:
        log = self.query_one("#feed", RichLog)
        for line in lines:
            log.write(cards_styled(line))
        try:
            public = event_of(envelope).public
        except Exception:  # a game this client does not know: told plainly
            return
        if isinstance(public, tpb.GameCreated):
            self.set_guide(public.kind)
        self.seen.append(public)
        if self.live:
            self.round_summary(public, lines)

    def set_guide(self, kind: str) -> None:
        self.guide = guide(kind)
        self.query_one("#goal", Static).update(goal_text(self.guide))

    def tick(self) -> None:
        """Once a second: the turn clocks count down."""
        if self.view is not None and self.view.table.clocks and not self.view.table.finished:
            self.draw()

    async def _follow(self) -> None:
        try:
            # The feed up to now first, then the table and the moves.
            await self.follower.until((await self.fetch_view()).version)
            self.live = True
            await self.refresh_view()
            while (envelope := await self.follower.next()) is not None:
                if envelope.sequence >= self.version:
                    await self.on_change()
            await self.refresh_view()
            self.game_over()
        except CardroomError as error:
            self.note(f"{error.code.name}: {error.details}")

    async def on_change(self) -> None:
        """The game moved on past the view shown."""
        await self.refresh_view()

    def game_over(self) -> None:
        self.note("The game is over. Press q to leave.")
        self.over.set()

    # ---------------------------------------------------------- the view

    async def retrying(self, call: Callable[[], Awaitable[T]]) -> T:
        """A call, tried again while the server is away."""
        for attempt in range(self.RETRIES):
            try:
                return await call()
            except CardroomError as error:
                if not transient(error):
                    raise
                self.note(f"{error.code.name}: retrying (try {attempt + 1})…")
                await asyncio.sleep(backoff(attempt))
        return await call()

    async def fetch_view(self) -> View:
        return await self.retrying(
            lambda: self.client.view(self.game_id, self.token, as_spectator=self.as_spectator)
        )

    async def refresh_view(self) -> None:
        self.show(await self.fetch_view())

    def show(self, view: View) -> None:
        self.view, self.version = view, view.version
        kind = view.table.kind
        self.title = title(kind)
        you = self.seat
        who = f" · you are {view.table.player_names[you]}" if you is not None else ""
        self.sub_title = f"game {self.game_id} · version {view.version}{who}"
        if self.guide is None and kind:
            self.set_guide(kind)
        self.draw()

    def draw(self) -> None:
        """The table as the view shows it, the clocks counted down to now."""
        view = self.view
        if view is None:
            return
        try:
            table = self.query_one("#table", Static)
        except NoMatches:  # the app is closing (a clock's tick, a late view)
            return
        notes = seat_notes(view.table)
        table.update(table_text(scene(view, self.seat), view.table.player_names, self.seat, notes))
