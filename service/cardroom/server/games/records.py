"""Finished games' signed records, built once and shared by every stream
that sends one, within a memory budget (docs/operations.md, "Limits").

A finished game's record never changes (for one signing key), so a hundred
``StreamGameRecord`` calls of one game share one copy of its bytes instead
of building and pinning a hundred (issue 34: 100 never-read streams of a
10,000-event game took the server from 116 MB to 1,102 MB). Every record
held (being built, streamed, or kept for the next caller) counts in the
budget at its size, and every open record stream at one chunk (the message
it may have in flight); a stream that would pass the budget is refused
(``TooBusy``: RESOURCE_EXHAUSTED) after records nobody streams are
dropped. Runs in the event loop only: no locks.
"""

from __future__ import annotations

import asyncio
import functools
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, field

from cardroom.server.limits import TooBusy

MIB = 1024 * 1024


@dataclass
class _Record:
    size: int  # an estimate while it is built
    task: asyncio.Task[bytes]
    users: int = 0


@dataclass
class Lease:
    """One stream's hold on a shared record: ``data`` to send, ``release``
    when the stream ends (any way it ends)."""

    shelf: RecordShelf
    key: Hashable
    data: bytes = b""
    released: bool = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.data = b""  # whatever still holds the lease holds no record
            self.shelf._give_back(self.key)


@dataclass
class RecordShelf:
    budget_bytes: int
    chunk_bytes: int
    # Records nobody streams are kept for the next caller, up to this share
    # of the budget (the least recently used dropped first).
    keep_fraction: float = 0.25
    _records: OrderedDict[Hashable, _Record] = field(default_factory=OrderedDict)
    streams: int = 0

    @property
    def held_bytes(self) -> int:
        """What the budget counts now: every record held, a chunk per stream."""
        return sum(r.size for r in self._records.values()) + self.streams * self.chunk_bytes

    async def lease(
        self, key: Hashable, estimate: int, build: Callable[[], Awaitable[bytes]]
    ) -> Lease:
        """A hold on the record ``key``, built by ``build`` (about
        ``estimate`` bytes) unless it is held already; raises ``TooBusy``
        when the budget has no room for it."""
        record = self._records.get(key)
        needed = self.chunk_bytes + (0 if record is not None else estimate)
        if self.held_bytes + needed > self.budget_bytes:
            self._drop_unused(self.budget_bytes - needed, keep=key)
        if self.held_bytes + needed > self.budget_bytes:
            raise TooBusy(
                f"game records being streamed hold {self.held_bytes // MIB} MiB of the "
                f"{self.budget_bytes // MIB} MiB the server keeps for them"
                + ("" if needed <= self.budget_bytes else " (this record alone is larger)")
                + "; try again later"
            )
        if record is None:
            record = _Record(estimate, asyncio.ensure_future(build()))
            record.task.add_done_callback(functools.partial(self._built, key))
            self._records[key] = record
        record.users += 1
        self.streams += 1
        self._records.move_to_end(key)
        lease = Lease(self, key)
        try:
            # Shielded: a caller that goes away does not cancel the build
            # the others wait for.
            lease.data = await asyncio.shield(record.task)
        except BaseException:
            lease.release()
            raise
        return lease

    def _built(self, key: Hashable, task: asyncio.Task[bytes]) -> None:
        record = self._records.get(key)
        if record is None or record.task is not task:
            return
        if task.cancelled() or task.exception() is not None:
            del self._records[key]  # the next caller tries again
        else:
            record.size = len(task.result())
        self._trim()

    def _give_back(self, key: Hashable) -> None:
        self.streams -= 1
        record = self._records.get(key)
        if record is not None:
            record.users -= 1
        self._trim()

    def _trim(self) -> None:
        """Keep unused records within their share of the budget."""
        self._drop_unused(int(self.budget_bytes * self.keep_fraction), unused_only=True)

    def _drop_unused(
        self, target: int, *, keep: Hashable = None, unused_only: bool = False
    ) -> None:
        """Drop built records nobody streams, least recently used first,
        until what is held (only what is unused, with ``unused_only``) is
        at most ``target``."""
        for key in list(self._records):
            unused = sum(r.size for r in self._records.values() if not r.users and r.task.done())
            if (unused if unused_only else self.held_bytes) <= target:
                return
            record = self._records[key]
            if key != keep and not record.users and record.task.done():
                del self._records[key]


def estimate_bytes(stored: Sequence[bytes]) -> int:
    """About how large a record of these events is (their bytes, plus a
    little framing), from a sample: reading every event of a long game
    only to estimate it would cost what the shelf saves."""
    count = len(stored)
    if count == 0:
        return 0
    sample = [*range(min(count, 32)), *range(max(32, count - 32), count)]
    average = sum(len(stored[i]) for i in sample) / len(sample)
    return int(count * (average + 8)) + 4096
