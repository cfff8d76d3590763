"""Who is at the table: the last call of each seat, in memory (no event).

A seat that has made no call (no command, no legal-actions or view request
with its token) for ``absent_after`` and has no WatchEvents stream open is
shown as absent in the public table view (``TableView.absent_seats``). It is
a presence fact of this server, not part of the game: it changes nothing in
the game and is rebuilt by use after a restart (every seat counts from the
server's start). The operator may then remove the seat (T-REMOVE), which is
an event. With several servers and no broker, each knows the calls it
served; with a broker, ``shared`` (cardroom.server.live.shared_presence) tells
every server and relay of the others' calls and open streams.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Protocol

from cardroom.domain import table as tables

Key = tuple[str, int]


class Shared(Protocol):
    """Where this process's presence goes for the others."""

    def seen(self, game_id: str, seat: int) -> None: ...
    def opened(self, game_id: str, seat: int) -> None: ...
    def closed(self, game_id: str, seat: int) -> None: ...


class Presence:
    def __init__(self, now: Callable[[], datetime], absent_after: float | None = None) -> None:
        """``absent_after`` seconds without a call make a seat absent; None:
        nobody is ever shown absent."""
        self.now = now
        self.absent_after = None if absent_after is None else timedelta(seconds=absent_after)
        self.since = now()
        self._last: dict[Key, datetime] = {}
        self._watching: Counter[Key] = Counter()
        self._lock = threading.Lock()
        self.shared: Shared | None = None

    def seen(self, game_id: str, seat: int | None) -> None:
        if seat is None:
            return
        self.heard(game_id, seat)
        if self.shared is not None:
            self.shared.seen(game_id, seat)

    def heard(self, game_id: str, seat: int) -> None:
        """The seat called here or (told by ``shared``) elsewhere."""
        at = self.now()
        with self._lock:
            self._last[(game_id, seat)] = at

    @contextmanager
    def watching(self, game_id: str, seat: int | None) -> Iterator[None]:
        """A WatchEvents stream of the seat is open: present meanwhile."""
        if seat is None:
            yield
            return
        key = (game_id, seat)
        with self._lock:
            self._watching[key] += 1
        if self.shared is not None:
            self.shared.opened(game_id, seat)
        try:
            yield
        finally:
            self.heard(game_id, seat)
            if self.shared is not None:
                self.shared.closed(game_id, seat)
            with self._lock:
                self._watching[key] -= 1
                if not self._watching[key]:
                    del self._watching[key]

    def gone(self, game_id: str, table: tables.Table, after: timedelta) -> list[int]:
        """The seats of a running game without a call for ``after`` and no
        open stream, whatever ``absent_after`` says (abandoned games)."""
        if not table.started or table.finished:
            return []
        limit = self.now() - after
        with self._lock:
            return [
                seat
                for seat in range(table.seat_count)
                if seat not in table.resigned
                and not self._watching[(game_id, seat)]
                and self._last.get((game_id, seat), self.since) <= limit
            ]

    def absent(self, game_id: str, table: tables.Table) -> list[int]:
        """The seats of a running game shown as absent now."""
        if self.absent_after is None or not table.started or table.finished:
            return []
        limit = self.now() - self.absent_after
        with self._lock:
            return [
                seat
                for seat in range(table.seat_count)
                if seat not in table.resigned
                and not self._watching[(game_id, seat)]
                and self._last.get((game_id, seat), self.since) <= limit
            ]
