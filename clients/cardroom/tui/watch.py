"""``cardroom watch``: a live view of a game as a spectator sees it (or
the operator, or a seat with its token): the table and the narrated feed,
resuming from the feed's cursor after a disconnect."""

from __future__ import annotations

from cardroom.tui.table import TableApp


class WatchApp(TableApp):
    """The table, followed live; q leaves."""
