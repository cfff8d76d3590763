"""``cardroom play``: sit at a table. Your hand, the public table, the
narrated feed, and your legal actions as a menu: press 1-9 (or move with
the arrows and press Enter) to make a move. Bots you brought play their
seats in the same process; the game starts when every seat is taken."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence

from google.protobuf.message import Message
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import OptionList, RichLog

from cardroom.client import CardroomError, Client, Conflict, RuleBroken
from cardroom.client.bots.runner import play_bots
from cardroom.client.feed import choices
from cardroom.client.sessions import BotSeat
from cardroom.tui.table import TableApp


class PlayApp(TableApp):
    BINDINGS = [
        *TableApp.BINDINGS,
        *(Binding(str(n), f"choose({n - 1})", show=False) for n in range(1, 10)),
        # Never a numbered move: a stray digit must not leave the game.
        Binding("ctrl+r", "resign", "Resign", priority=True),
    ]

    def __init__(
        self,
        connect: Callable[[], Client],
        game_id: str,
        *,
        token: str,
        seat: int,
        bots: Sequence[BotSeat] = (),
        kind: str = "",
        seed: int | None = None,
    ) -> None:
        super().__init__(connect, game_id, token=token, seat=seat)
        self.token: str = token
        self.bot_seats, self.kind, self.seed = tuple(bots), kind, seed
        self.actions: list[Message] = []
        self.actions_version = 0
        self.moves_ready = asyncio.Event()  # set while a move can be chosen
        self.submitting = False
        self.resign_asked = False  # Ctrl+R once: asked to confirm

    def compose_moves(self) -> Iterable[Widget]:
        moves = OptionList(id="moves")
        moves.border_title = "Your move"
        yield moves

    async def on_mount(self) -> None:
        await super().on_mount()
        if self.bot_seats:
            self.run_worker(self.play_bots(), name="bots", exit_on_error=False)
        self.query_one("#moves", OptionList).focus()

    async def play_bots(self) -> None:
        """The bots you brought, to the end; a bot that cannot play says why
        in the feed (else you would wait for its move forever)."""
        try:
            await play_bots(self.client, self.game_id, self.kind, self.bot_seats, self.seed)
        except Exception as error:
            said = f"The bots stopped: {error}"
            self.note(said)
            self.query_one("#feed", RichLog).write(said)
            raise

    # ---------------------------------------------------------- the view

    async def refresh_view(self) -> None:
        for _ in range(10):  # the view and the actions must be of one version
            view = await self.fetch_view()
            if view.table.finished:
                self.show(view)
                self.offer([], view.version)
                return
            version, actions = await self.retrying(
                lambda: self.client.legal_actions_at(self.game_id, self.token)
            )
            if version == view.version:
                self.show(view)
                self.offer(actions, version)
                await self.start_when_full()
                return

    async def start_when_full(self) -> None:
        """Start the game once every seat is taken (any seat may)."""
        feed = self.follower.feed
        if feed.started or feed.seats_free or not feed.story:
            return
        try:
            await self.client.start(self.game_id, self.token)
        except RuleBroken:
            pass  # someone else started it

    def offer(self, actions: list[Message], version: int) -> None:
        self.actions, self.actions_version = actions, version
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        if self.view is None or not actions:
            self.moves_ready.clear()
            if not self.over.is_set() and self.view is not None and not self.view.table.finished:
                self.note(self.waiting_note())
            return
        labels = choices(self.view, actions)
        moves.add_options(
            [f"{i}. {label}" if i <= 9 else f"   {label}" for i, label in enumerate(labels, 1)]
        )
        moves.highlighted = 0
        self.note("Your move: press its number, or ↑↓ and Enter.")
        self.moves_ready.set()

    def waiting_note(self) -> str:
        if self.view is None:
            return ""
        if not self.view.table.started:
            free = sum(not n for n in self.view.table.player_names)
            if not free:
                return "Starting…"
            return (
                f"Waiting for {free} more player(s). They join with: "
                f"cardroom play --game-id {self.game_id}"
            )
        return "Waiting for the others…"

    def game_over(self) -> None:
        self.moves_ready.clear()
        super().game_over()

    # ---------------------------------------------------------- choosing

    def action_resign(self) -> None:
        """Ctrl+R twice: leave the game for good (T-RESIGN)."""
        if self.over.is_set():
            return
        if not self.resign_asked:
            self.resign_asked = True
            self.note("Press Ctrl+R again to resign: the game then plays your seat by default.")
            return
        self.resign_asked = False
        self.run_worker(self.resign(), exit_on_error=False)

    async def resign(self) -> None:
        try:
            await self.client.resign(self.game_id, self.token)
        except RuleBroken as error:
            self.note(f"Not resigned: {error.details}")
        await self.refresh_view()

    def action_choose(self, index: int) -> None:
        if self.moves_ready.is_set() and 0 <= index < len(self.actions):
            self.moves_ready.clear()
            self.run_worker(self.submit(index), exit_on_error=False)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_choose(event.option_index)

    async def submit(self, index: int) -> None:
        action, version = self.actions[index], self.actions_version
        self.query_one("#moves", OptionList).clear_options()
        self.note("…")
        try:
            await self.client.act(self.game_id, self.token, action, expected_version=version)
        except (Conflict, RuleBroken) as error:
            self.note(f"Not played: {error.details}")
            await self.refresh_view()
        except CardroomError as error:
            self.note(f"{error.code.name}: {error.details}")
            await self.refresh_view()
