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
from textual.actions import SkipAction
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.widget import Widget
from textual.widgets import Footer, Header, RichLog, Static

from cardroom.client import CardroomError, Client, View
from cardroom.client.feed import event_of, names_of, scene, title
from cardroom.client.follow import Follower, backoff, transient
from cardroom.client.printable import printable
from cardroom.client.ratings import rated_names, ratings_of
from cardroom.domain.presentation import Guide, guide
from cardroom.tui.help import HelpScreen, goal_text
from cardroom.tui.render import cards_styled, seat_notes, table_text
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb

T = TypeVar("T")

CSS = """
#goal { height: 1; padding: 0 1; background: $boost; text-wrap: nowrap; text-overflow: ellipsis; }
#table-box { border: round $secondary; padding: 0 1; height: auto; scrollbar-gutter: stable; }
#note { height: auto; padding: 0 1; color: $text-muted; }
#main { height: 1fr; min-height: 5; }
#moves { width: 3fr; height: 1fr; border: round $accent; scrollbar-gutter: stable; }
#moves.over { display: none; }
#right { width: 2fr; }
#summary { border: round $warning; padding: 0 1; height: auto; max-height: 100%; display: none; }
#summary.open { display: block; }
#feed { height: 1fr; border: round $primary; }
"""
# Rows kept below the table for the moves or the feed (a border and three
# lines), and those the header, the goal line and the footer take.
BELOW_TABLE = 5
AROUND = 3

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
        Binding("pageup", "page(-1)", show=False, priority=True),
        Binding("pagedown", "page(1)", show=False, priority=True),
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
        self.noted = ""  # the note under the table
        self.drawn_room = (0, 0)  # the columns and rows the table was last fitted to
        self.ratings: dict[bytes, float] = {}  # the seated players' ratings (T-RATING)
        self.rated_keys: frozenset[bytes] = frozenset()  # the keys they were asked for

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """The table across the top (every seat on screen), the note under
        it, then the moves beside the round summary and the feed."""
        yield Header()
        yield Static(id="goal")
        with VerticalScroll(id="table-box"):
            yield Static(id="table")
        yield Static(id="note")
        with Horizontal(id="main"):
            yield from self.compose_moves()
            with Vertical(id="right"):
                with VerticalScroll(id="summary"):
                    yield Static(id="summary-text")
                yield RichLog(id="feed", wrap=True, min_width=20)
        yield Footer()

    def compose_moves(self) -> Iterable[Widget]:
        return ()

    def note(self, text: str) -> None:
        # Text, not markup: a note may quote a card ("[Bandit]") or an error.
        self.noted = text = printable(text)
        self.query_one("#note", Static).update(Text(text))
        self.draw()  # the table gives up a row to a longer note

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
        self.query_one("#summary", VerticalScroll).remove_class("open")

    def action_page(self, pages: int) -> None:
        """PgUp/PgDn scroll the round summary while it is open (a long one
        at 80x24); else they reach the move list."""
        box = self.query_one("#summary", VerticalScroll)
        if not box.has_class("open") or box.max_scroll_y == 0:
            raise SkipAction()
        box.scroll_to(y=box.scroll_y + pages * max(1, box.scrollable_content_region.height - 1))

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
        box = self.query_one("#summary", VerticalScroll)
        ended = name == "GameEnded" or isinstance(public, tpb.GameFinished)
        box.border_title = "Game over" if ended else "Round over"
        text = Text("\n").join(cards_styled(line) for line in self.summary)
        self.query_one("#summary-text", Static).update(text)
        box.add_class("open")
        self.call_after_refresh(self.summary_hint)

    def summary_hint(self) -> None:
        """The summary's border says how to close it, and to scroll a long one."""
        box = self.query_one("#summary", VerticalScroll)
        more = " · PgUp/PgDn scroll" if box.max_scroll_y else ""
        box.border_subtitle = "Esc closes" + more

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
        self.run_worker(self.follow(), name="follow", exit_on_error=False)

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

    async def follow(self) -> None:
        """The feed up to now, then the table and the moves, live to the end."""
        try:
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
        who = f" · you are {names_of(view)[you]}" if you is not None else ""
        self.sub_title = f"game {self.game_id} · version {view.version}{who}"
        if self.guide is None and kind:
            self.set_guide(kind)
        keys = frozenset(bytes(k) for k in view.table.player_keys if k)
        if keys and keys != self.rated_keys:
            self.rated_keys = keys
            self.run_worker(self.fetch_ratings(kind, keys), exit_on_error=False)
        self.draw()

    async def fetch_ratings(self, kind: str, keys: frozenset[bytes]) -> None:
        """The seated players' ratings, asked for once per set of seated keys
        (a rating changes only when a game ends), then the table redrawn."""
        self.ratings = await ratings_of(self.client, kind, sorted(keys))
        self.draw()

    def draw(self) -> None:
        """The table as the view shows it, the clocks counted down to now,
        fitted to the screen (compact rows when the whole would not fit)."""
        view = self.view
        if view is None:
            return
        try:
            table = self.query_one("#table", Static)
        except NoMatches:  # the app is closing (a clock's tick, a late view)
            return
        width, rows = self.drawn_room = self.table_room()
        notes = seat_notes(view.table)
        table.update(
            table_text(
                scene(view, self.seat),
                rated_names(view.table.player_names, view.table.player_keys, self.ratings),
                self.seat,
                notes,
                width=width,
                rows=rows,
            )
        )
        self.query_one("#table-box", VerticalScroll).styles.max_height = rows + 2

    def table_room(self) -> tuple[int, int]:
        """The columns and rows the table may fill: the screen less the
        lines around it and the rows kept for the moves or the feed."""
        width, height = self.screen.size
        # The border, the padding and the scrollbar's gutter (kept, so the
        # lines are wrapped at one width whether the box scrolls or not).
        inner = max(20, width - 6)
        note = max(1, -(-len(self.noted) // max(1, width - 2)))
        return inner, max(3, height - AROUND - note - BELOW_TABLE - 2)

    def on_resize(self) -> None:
        self.call_after_refresh(self.draw)  # once the screen has its new size
