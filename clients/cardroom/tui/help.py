"""The game's guide in the terminal: its goal on a line always on screen,
and a help screen (``?`` or F1) with the rules in short and every symbol
the table draws, from ``cardroom.domain.<game>.guide``."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from cardroom.domain.presentation import Guide
from cardroom.tui.render import cards_styled

KEYS = (
    ("1-9, ↑↓ Enter", "choose a move (a move marked ⚠ asks twice)"),
    ("? or F1", "this help; Esc closes it"),
    ("Esc", "close the round summary"),
    ("Ctrl+R twice", "resign (cardroom play)"),
    ("q", "leave (your seat stays yours: play again to pick it up)"),
)


def goal_text(guide: Guide | None) -> Text:
    """The line always on screen: the goal, and where the help is."""
    out = Text()
    if guide is not None:
        out.append("Goal: ", style="bold")
        out.append(guide.goal)
        out.append("   ")
    out.append("? help", style="dim")
    return out


def guide_text(kind: str, guide: Guide | None) -> Text:
    """The whole guide as the help screen shows it."""
    out = Text()
    if guide is None:
        out.append(f"No guide for {kind or 'this game'} yet.\n\n")
    else:
        out.append(guide.title, style="bold underline")
        out.append("\n\nGoal: ", style="bold")
        out.append(guide.goal + "\n\n")
        # The legend first: what a person looks up while playing.
        out.append("Symbols\n", style="bold")
        width = max(len(symbol) for symbol, _ in guide.symbols)
        for symbol, meaning in guide.symbols:
            out.append_text(cards_styled(symbol.ljust(width)))
            out.append(f"  {meaning}\n")
        out.append("\nRules in short\n", style="bold")
        for paragraph in guide.rules:
            out.append("• ")
            out.append_text(cards_styled(paragraph))
            out.append("\n")
        out.append("\nSeats are named, and numbered from 1 where a number is shown.\n")
    out.append("\nKeys\n", style="bold")
    for key, what in KEYS:
        out.append(f"{key:<14}", style="bold cyan")
        out.append(f"  {what}\n")
    return out


class HelpScreen(ModalScreen[None]):
    """The guide over the table; Esc, ? or F1 closes it, and q leaves the
    app, as the keys it lists say."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; max-width: 100; height: 90%;
        border: round $accent; padding: 0 1; background: $surface;
    }
    """
    BINDINGS = [
        Binding("escape,question_mark,f1", "close", "Close", priority=True),
        Binding("q", "app.quit", "Quit", priority=True),
    ]

    def __init__(self, kind: str, guide: Guide | None) -> None:
        super().__init__()
        self.kind, self.guide = kind, guide

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "Help"
            yield Static(guide_text(self.kind, self.guide), id="guide")

    def action_close(self) -> None:
        self.dismiss()
