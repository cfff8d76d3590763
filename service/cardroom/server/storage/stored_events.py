"""The exact stored bytes of one game's events, read from the store only
when something needs them.

A game loaded from its table's checkpoint at version V needs, to serve a
view, its first event (GameCreated: the kind, the seats, the policies, the
chance commitment) and the events from V on (V itself holds the hash the
next append chains to). The events in between, the *gap*, are what a fold
from the checkpoint skips; reading them all costs about 3 µs an event on
SQLite, plus 1.5 µs to check each is an envelope in its place, which made a
finished game's first view after a restart cost time in proportion to its
length. So the gap is read, and checked, the first time anything asks for
one of its events (an old event's copy, a replay from the start, the full
log, an old command's outcome, an old secret a reveal opens), once, under
its own lock; until then it costs nothing.

Readers do not take the game's lock: the list of events after the gap only
grows (appended by the one writer holding the game's lock), and the gap's
events, once read, are published in one assignment.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import overload

# Reads the events with indexes in [start, stop) (0-based) from the store,
# all of them, each checked to be the envelope that belongs there.
ReadGap = Callable[[int, int], list[bytes]]


class StoredEvents(Sequence[bytes]):
    """Index ``i`` holds the stored bytes of event ``i + 1``."""

    def __init__(
        self,
        rows: Iterable[bytes] = (),
        *,
        gap: range = range(0),
        read_gap: ReadGap | None = None,
    ) -> None:
        """``rows``: the events in memory, the first at index 0 and, if there
        is a gap, the rest from ``gap.stop`` on; ``gap``: the indexes not read
        yet (never index 0), read with ``read_gap`` when first asked for."""
        loaded = list(rows)
        if gap:
            if read_gap is None or gap.start < 1 or gap.step != 1 or not loaded:
                raise ValueError("a gap needs the first event and a way to read it")
            self._first, self._rows = loaded[:1], loaded[1:]
        else:
            gap = range(0)
            self._first, self._rows = [], loaded
        self._gap = gap
        self._gap_rows: list[bytes] | None = None if gap else []
        self._read_gap = read_gap
        self._gap_lock = threading.Lock()

    @property
    def unread(self) -> int:
        """How many events are still only in the store (0 once read)."""
        return 0 if self._gap_rows is not None else len(self._gap)

    def __len__(self) -> int:
        return self._gap.stop + len(self._rows)

    @overload
    def __getitem__(self, index: int) -> bytes: ...

    @overload
    def __getitem__(self, index: slice) -> list[bytes]: ...

    def __getitem__(self, index: int | slice) -> bytes | list[bytes]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if index < 0:
            raise IndexError("stored event index out of range")
        if index >= self._gap.stop:
            return self._rows[index - self._gap.stop]
        if index < self._gap.start:
            return self._first[index]
        return self._gap_events()[index - self._gap.start]

    def __iter__(self) -> Iterator[bytes]:
        if self._gap:
            yield from self._first
            yield from self._gap_events()
        yield from tuple(self._rows)  # as they are now: a later append is not iterated

    def append(self, raw: bytes) -> None:
        self._rows.append(raw)

    def extend(self, rows: Iterable[bytes]) -> None:
        self._rows.extend(rows)

    def _gap_events(self) -> list[bytes]:
        rows = self._gap_rows
        if rows is not None:
            return rows
        with self._gap_lock:
            if self._gap_rows is None:
                assert self._read_gap is not None
                self._gap_rows = self._read_gap(self._gap.start, self._gap.stop)
            return self._gap_rows
