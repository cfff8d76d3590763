"""A scene (cardroom.domain.presentation) drawn for the terminal with rich."""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from rich.console import Console
from rich.text import Text

from cardroom.client.printable import printable
from cardroom.domain.presentation import Scene, name
from cardroom.v1 import game_service_pb2 as gpb

CARD = re.compile(r"\[[^\[\]]{1,16}\]")


def cards_styled(line: str, style: str = "") -> Text:
    """A line with every drawn card (``[★1]``, ``[??]``) made to stand out
    (and nothing a terminal would obey: cardroom.client.printable)."""
    line = printable(line)
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
    *,
    width: int | None = None,
    rows: int | None = None,
) -> Text:
    """The status, the viewer's own hand (first, so a small screen shows
    it), one line per seat (▶ marks whose move it is, ``notes`` what the
    table says of it), and what lies on the table.

    Given the ``width`` and ``rows`` of the panel, a table that would not
    fit is drawn compact: no blank lines, and the status, each seat and
    each table line on one row, cut with "…" at the panel's edge. Every
    seat keeps its row, and the narrators put what ends the game (round
    wins, coins, points, smiles, the draw pile) first on each line, so a
    small screen still shows every player and how close the end is."""
    names = [printable(n) for n in names]
    full = _drawn(scene, names, you, notes, compact=False, width=width)
    if width is None or rows is None or _height(full, width) <= rows:
        return full
    return _drawn(scene, names, you, notes, compact=True, width=width)


def _drawn(
    scene: Scene,
    names: Sequence[str],
    you: int | None,
    notes: Mapping[int, str] | None,
    *,
    compact: bool,
    width: int | None,
) -> Text:
    lines: list[Text] = [Text(scene.status or " ", style="bold")]
    if you is not None and scene.hand:
        hand = Text("Your hand: ", style="bold cyan")
        hand.append_text(cards_styled(scene.hand))
        lines.append(hand)  # wrapped even when compact: your own cards come first
    if not compact:
        lines.append(Text())
    count = len(scene.seats)
    widest = max((len(name(names, s)) + (6 if s == you else 0) for s in range(count)), default=0)
    if compact and width is not None:
        widest = min(widest, width * 2 // 5)  # a long name takes its room, not everyone's
    for seat, line in enumerate(scene.seats):
        row = Text("▶ " if seat in scene.waiting_for else "  ", style="bold yellow")
        who = name(names, seat) + (" (you)" if seat == you else "")
        row.append(who.ljust(widest), style="bold cyan" if seat == you else "bold")
        row.append("  ")
        told = Text()
        note = notes.get(seat) if notes else None
        if note and compact:  # the clock must not be cut off at the edge
            told.append(f"({note}) ", style="italic magenta")
        told.append_text(cards_styled(line))
        if note and not compact:
            told.append(f"  ({note})", style="italic magenta")
        room = None if width is None else width - row.cell_len
        if not compact and room is not None and room >= 20 and told.cell_len > room:
            # Wrapped under the seat's own line, the names' column left clear.
            indent = "\n" + " " * row.cell_len
            told = Text(indent).join(told.wrap(_MEASURE, room))
        row.append_text(told)
        lines.append(row)
    if scene.table:
        if not compact:
            lines.append(Text())
        lines += [cards_styled(told) for told in scene.table]
    if compact and width is not None:
        first_seat = 1 + (you is not None and bool(scene.hand))
        for i, cut in enumerate(lines):
            if i == 0 or i >= first_seat:
                cut.truncate(width, overflow="ellipsis")
    out = Text("\n").join(lines)
    out.rstrip()
    return out


_MEASURE = Console(file=io.StringIO(), width=200, legacy_windows=False)


def _height(text: Text, width: int) -> int:
    """The rows a text takes in a panel ``width`` columns wide, wrapped."""
    return len(text.wrap(_MEASURE, width))
