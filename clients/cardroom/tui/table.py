"""The live table every terminal app shares: the table drawn from the
viewer's view, and the viewer's feed told line by line, kept up to date
through disconnects (the feed resumes from its cursor; a call that finds
the server away is tried again)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Footer, Header, RichLog, Static

from cardroom.client import CardroomError, Client, View
from cardroom.client.feed import scene, title
from cardroom.client.follow import Follower, backoff, transient
from cardroom.tui.render import cards_styled, seat_notes, table_text
from cardroom.v1 import envelope_pb2 as epb

T = TypeVar("T")

CSS = """
#main { height: 1fr; }
#left { width: 3fr; }
#table { border: round $secondary; padding: 0 1; height: auto; }
#moves { height: auto; max-height: 14; border: round $accent; }
#note { height: auto; padding: 0 1; color: $text-muted; }
#feed { width: 2fr; border: round $primary; }
"""


class TableApp(App[None]):
    """Watch a game live: a spectator, a seat (its own cards) or the operator."""

    CSS = CSS
    BINDINGS = [Binding("q", "quit", "Quit")]
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

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="table")
                yield from self.compose_moves()
                yield Static(id="note")
            yield RichLog(id="feed", wrap=True, min_width=20)
        yield Footer()

    def compose_moves(self) -> Iterable[Widget]:
        return ()

    def note(self, text: str) -> None:
        self.query_one("#note", Static).update(text)

    # ---------------------------------------------------------- the feed

    async def on_mount(self) -> None:
        self.title = "cardroom"
        self.sub_title = f"game {self.game_id}"
        self.client = self.connect()
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

    async def _follow(self) -> None:
        try:
            # The feed up to now first, then the table and the moves.
            await self.follower.until((await self.fetch_view()).version)
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
        notes = seat_notes(view.table)
        drawn = table_text(scene(view, you), view.table.player_names, you, notes)
        self.query_one("#table", Static).update(drawn)
