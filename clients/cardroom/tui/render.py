"""A scene (cardroom.domain.presentation) drawn for the terminal with rich."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from rich.text import Text

from cardroom.domain.presentation import Scene, name
from cardroom.v1 import game_service_pb2 as gpb

CARD = re.compile(r"\[[^\[\]]{1,16}\]")


def cards_styled(line: str, style: str = "") -> Text:
    """A line with every drawn card (``[★1]``, ``[??]``) made to stand out."""
    text = Text(line, style=style)
    for match in CARD.finditer(line):
        hidden = match.group() == "[??]"
        text.stylize("dim" if hidden else "bold reverse", match.start(), match.end())
    return text


def countdown(deadline: datetime, now: datetime) -> str:
    """The time left before a deadline, as a clock counts down: "⏱ 0:42",
    "⏱ 12:05", "⏱ 1:02:03"; "⏱ time is up" once it has passed."""
    left = int((deadline - now).total_seconds() + 0.999)  # 0.2 s left reads "0:01"
    if left <= 0:
        return "⏱ time is up"
    hours, rest = divmod(left, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"⏱ {hours}:{minutes:02d}:{seconds:02d}"
    return f"⏱ {minutes}:{seconds:02d}"


def seat_notes(
    table: gpb.TableView, now: datetime | None = None, *, clocks: bool = True
) -> dict[int, str]:
    """What the table says of each seat beside the game: resigned, absent,
    and the time left on its turn clock, counted down from the public
    deadline to ``now`` (the local clock by default; ``clocks`` False leaves
    the clocks out, as a replay of the past does)."""
    now = now or datetime.now(UTC)
    notes: dict[int, list[str]] = {}
    for seat in table.resigned_seats:
        notes.setdefault(seat, []).append("resigned")
    for seat in table.absent_seats:
        notes.setdefault(seat, []).append("absent")
    for clock in table.clocks if clocks else ():
        deadline = clock.deadline.ToDatetime(tzinfo=UTC)
        notes.setdefault(clock.seat, []).append(countdown(deadline, now))
    return {seat: ", ".join(found) for seat, found in notes.items()}


def table_text(
    scene: Scene,
    names: Sequence[str],
    you: int | None,
    notes: Mapping[int, str] | None = None,
) -> Text:
    """The status, the viewer's own hand (first, so a small screen shows
    it), one line per seat (▶ marks whose move it is, ``notes`` what the
    table says of it), and what lies on the table."""
    out = Text()
    out.append(scene.status or " ", style="bold")
    if you is not None and scene.hand:
        out.append("\nYour hand: ", style="bold cyan")
        out.append_text(cards_styled(scene.hand))
    out.append("\n\n")
    width = max((len(name(names, s)) for s in range(len(scene.seats))), default=0)
    width += 6 if you is not None else 0
    for seat, line in enumerate(scene.seats):
        marker = "▶ " if seat in scene.waiting_for else "  "
        who = name(names, seat) + (" (you)" if seat == you else "")
        out.append(marker, style="bold yellow")
        out.append(who.ljust(width), style="bold cyan" if seat == you else "bold")
        out.append("  ")
        out.append_text(cards_styled(line))
        if notes and seat in notes:
            out.append(f"  ({notes[seat]})", style="italic magenta")
        out.append("\n")
    if scene.table:
        out.append("\n")
        out.append_text(Text("\n").join(cards_styled(line) for line in scene.table))
    out.rstrip()
    return out
