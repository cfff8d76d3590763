"""``cardroom play``: sit at a table. Your hand, the public table, the
narrated feed, and your legal actions as a menu: press 1-9 (or move with
the arrows and press Enter) to make a move; ``?`` or F1 shows the game's
guide. Bots you brought play their seats in the same process; the game
starts when every seat is taken."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence

from google.protobuf.message import Message
from rich.text import Text
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import OptionList, RichLog

from cardroom.client import CardroomError, Client, Conflict, RuleBroken
from cardroom.client.bots.runner import play_bots
from cardroom.client.entropy import verdict, verdict_details, verify_deal
from cardroom.client.feed import choices, names_of
from cardroom.client.sessions import BotSeat
from cardroom.tui.render import cards_styled
from cardroom.tui.table import TableApp
from cardroom.v1 import envelope_pb2 as epb


def move_label(number: int, label: str, caution: str = "") -> Text:
    """A move on the menu: its number (1-9), its words with every card drawn
    (a Text, never markup: ``[Bandit]`` is a card, not a style), and ⚠ when
    the game's guide warns of it."""
    out = Text(f"{number}. " if number <= 9 else "   ")
    out.append_text(cards_styled(label))
    if caution:
        out.append(" ⚠", style="bold yellow")
    return out


def options_beyond(moves: OptionList) -> tuple[int, int]:
    """How many options lie above and below the part of the list shown."""
    lines: list[tuple[int, int]] = list(getattr(moves, "_lines", []) or [])
    if not lines:
        return 0, 0
    top = round(moves.scroll_y)
    bottom = top + moves.scrollable_content_region.height
    above = {index for index, _ in lines[:top]} - {index for index, _ in lines[top:bottom]}
    below = {index for index, _ in lines[bottom:]} - {index for index, _ in lines[top:bottom]}
    return len(above), len(below)


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
        entropy: bytes = b"",
    ) -> None:
        super().__init__(connect, game_id, token=token, seat=seat)
        self.token: str = token
        # T-ENTROPY: this seat's own entropy (b"": the server drew it), its
        # reveal, the events as served (checked against the record at the
        # end) and the verdict on the deal.
        self.entropy, self.revealed = entropy, False
        self.copies: list[epb.EventEnvelope] = []
        self.deal_verdict = ""
        self.deal_checked = asyncio.Event()  # set once the verdict is shown
        self.bot_seats, self.kind, self.seed = tuple(bots), kind, seed
        self.actions: list[Message] = []
        self.cautions: list[str] = []  # the guide's warning per action ("" for none)
        self.confirming: int | None = None  # a warned move chosen once
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
        moves = self.query_one("#moves", OptionList)
        self.watch(moves, "scroll_y", lambda _: self.count_beyond(), init=False)
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
            self.query_one("#feed", RichLog).write(Text(said))
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
                await self.reveal_entropy()
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

    async def reveal_entropy(self) -> None:
        """Once the game has started, open this seat's committed entropy:
        the table deals nothing until every seat has (T-ENTROPY)."""
        if not self.entropy or self.revealed or not self.follower.feed.started:
            return
        self.revealed = True
        try:
            await self.retrying(
                lambda: self.client.reveal_entropy(self.game_id, self.token, self.entropy)
            )
        except RuleBroken as error:
            if "already revealed" not in error.details:
                self.note(f"Your entropy was refused: {error.details}")

    def _told(self, envelope: epb.EventEnvelope, lines: list[str]) -> None:
        self.copies.append(envelope)
        super()._told(envelope, lines)

    async def verify_deal(self) -> None:
        """At the end: the record's audit, this seat's own entropy in it, and
        every event as served against it (docs/trust.md section 15)."""
        if self.seat is None:
            return
        if not self.entropy:
            self.deal_verdict = (
                "The server drew your seat's entropy: the deal's fairness for your seat "
                "is its word."
            )
        else:
            try:
                record = await self.retrying(
                    lambda: self.client.export_record(self.game_id, self.token)
                )
                problems = verify_deal(record, self.seat, self.entropy, copies=self.copies)
            except CardroomError as error:
                problems = [f"the record could not be fetched: {error.details}"]
            self.deal_verdict = verdict(problems)
        self.note(self.deal_verdict)
        feed = self.query_one("#feed", RichLog)
        feed.write(Text(self.deal_verdict, style="bold"))
        if not problems:  # the why, below the verdict, for who reads on
            feed.write(Text(verdict_details(), style="dim"))
        self.deal_checked.set()

    def offer(self, actions: list[Message], version: int) -> None:
        self.actions, self.actions_version = actions, version
        self.confirming = None
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        moves.border_subtitle = ""
        self.cautions = []
        if self.view is None or not actions:
            self.moves_ready.clear()
            if not self.over.is_set() and self.view is not None and not self.view.table.finished:
                self.note(self.waiting_note())
            return
        labels = choices(self.view, actions)
        self.cautions = self.cautions_for(actions)
        moves.add_options(
            [
                move_label(i, label, caution)
                for i, (label, caution) in enumerate(zip(labels, self.cautions, strict=True), 1)
            ]
        )
        moves.highlighted = 0
        self.call_after_refresh(self.count_beyond)
        self.note("Your move: press its number, or ↑↓ and Enter.")
        self.moves_ready.set()

    def cautions_for(self, actions: list[Message]) -> list[str]:
        """The guide's warning for each action, from the seat's own view."""
        if self.guide is None or self.view is None or self.seat is None:
            return [""] * len(actions)
        names = names_of(self.view)
        return [
            self.guide.caution(action, self.view.game, names, self.seat, self.seen)
            for action in actions
        ]

    def count_beyond(self) -> None:
        """The move list's border says how many moves lie out of sight."""
        moves = self.query_one("#moves", OptionList)
        above, below = options_beyond(moves)
        parts = []
        if above:
            parts.append(f"↑ {above} more")
        if below:
            parts.append(f"↓ {below} more")
        moves.border_subtitle = " · ".join(parts)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.call_after_refresh(self.count_beyond)

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
        # No empty "Your move" box after the end: the summary and the feed take its room.
        self.query_one("#moves", OptionList).add_class("over")
        super().game_over()
        if self.seat is not None:
            self.run_worker(self.verify_deal(), name="verify", exit_on_error=False)

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
            caution = self.cautions[index] if index < len(self.cautions) else ""
            if caution and self.confirming != index:
                self.confirming = index
                self.query_one("#moves", OptionList).highlighted = index
                self.note(f"⚠ {caution} Choose it again to play it anyway.")
                return
            self.confirming = None
            self.moves_ready.clear()
            self.run_worker(self.submit(index), exit_on_error=False)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_choose(event.option_index)

    async def submit(self, index: int) -> None:
        action, version = self.actions[index], self.actions_version
        self.action_close_summary()
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        moves.border_subtitle = ""
        self.note("…")
        try:
            await self.client.act(self.game_id, self.token, action, expected_version=version)
        except (Conflict, RuleBroken) as error:
            self.note(f"Not played: {error.details}")
            await self.refresh_view()
        except CardroomError as error:
            self.note(f"{error.code.name}: {error.details}")
            await self.refresh_view()
