"""One background thread working through a bounded queue: work that must
never hold up a command (writing checkpoints, warming viewers' folds).

Everything it does is derived, so a full queue simply drops the item (a
later read does the work). ``flush`` waits for what was queued before it;
after ``close`` nothing more is taken (the store may be closing).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

Item = TypeVar("Item")
WAIT_SECONDS = 30  # for a flush, and for the thread to stop


class Background(Generic[Item]):
    def __init__(self, name: str, handle: Callable[[Item], None], maxsize: int = 1000) -> None:
        self._name = name
        self._handle = handle
        # An item, a flush marker (set once everything before it is done), or None to stop.
        self._pending: queue.Queue[Item | threading.Event | None] = queue.Queue(maxsize=maxsize)
        self._thread: threading.Thread | None = None
        self._closed = False
        self._start = threading.Lock()

    def submit(self, item: Item) -> bool:
        """Queue ``item``; False if it was dropped (closed, or the queue full)."""
        with self._start:
            if self._closed:
                return False
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name=self._name, daemon=True)
                self._thread.start()
        try:
            self._pending.put_nowait(item)
        except queue.Full:
            return False
        return True

    def flush(self) -> None:
        """Wait until everything queued so far is done (tests, benchmarks)."""
        if self._thread is None:
            return
        done = threading.Event()
        self._pending.put(done)
        done.wait(timeout=WAIT_SECONDS)

    def close(self) -> None:
        with self._start:
            self._closed = True
            thread, self._thread = self._thread, None
        if thread is not None:
            self._pending.put(None)
            thread.join(timeout=WAIT_SECONDS)

    def _loop(self) -> None:
        while True:
            item = self._pending.get()
            if item is None:
                return
            if isinstance(item, threading.Event):
                item.set()
                continue
            try:
                self._handle(item)
            except Exception:  # derived work: log it and go on with the next item
                log.warning("%s: background work failed", self._name, exc_info=True)


class Follower:
    """One background thread that runs ``catch_up`` when nudged, at most
    once per ``pause`` seconds (so its batches stay large), until stopped:
    the way the log's projections (the game list, ratings, tournaments)
    follow what was written. A failed catch-up is logged at ``level`` and
    tried again at the next nudge (or the next read)."""

    def __init__(
        self,
        name: str,
        catch_up: Callable[[], object],
        pause: float,
        *,
        level: int = logging.DEBUG,
    ) -> None:
        self._name, self._catch_up, self._pause, self._level = name, catch_up, pause, level
        self._nudged = threading.Event()
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()

    def nudge(self) -> None:
        """Something was written: catch up soon (the thread starts at the first nudge)."""
        if self._thread is None and not self._stopped.is_set():
            with self._starting:
                if self._thread is None:
                    self._thread = threading.Thread(target=self._loop, name=self._name, daemon=True)
                    self._thread.start()
        self._nudged.set()

    def stop(self) -> None:
        self._stopped.set()
        self._nudged.set()
        if self._thread is not None:
            self._thread.join(timeout=WAIT_SECONDS)
            self._thread = None

    def _loop(self) -> None:
        while True:
            self._nudged.wait()
            if self._stopped.is_set():
                return
            self._nudged.clear()
            try:
                self._catch_up()
            except Exception:  # the next nudge (or read) tries again
                log.log(self._level, "catching up %s failed", self._name, exc_info=True)
            if self._stopped.wait(self._pause):
                return
