"""Viewer folds kept warm in the background.

A viewer's fold is checkpointed as it is folded (``service/checkpoints.py``),
but a viewer nobody asked for has no fold: after a restart its first view
would fold the whole game. So at each checkpoint of a game's table, one
background thread advances the spectator's and every seat's folds to that
version (each fold checkpoints itself on the way). The first view after a
restart, and a view of an old version, then start from a checkpoint at most
``EVERY`` events before the version asked for. Never on a command's path; a
full queue skips the work (the folds are derived: a later read does it).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

from domain.kernel import SPECTATOR, Viewer
from service.cache import LoadedGame
from service.identity import horizon

log = logging.getLogger(__name__)

Fold = Callable[[LoadedGame, Viewer, int], object]


class Warmer:
    def __init__(self, fold: Fold) -> None:
        self._fold = fold
        self._pending: queue.Queue[tuple[LoadedGame, int] | threading.Event | None] = queue.Queue(
            maxsize=1000
        )
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()

    def later(self, loaded: LoadedGame, version: int) -> None:
        """Advance every viewer's fold of this game to ``version``, soon."""
        self._running()
        try:
            self._pending.put_nowait((loaded, version))
        except queue.Full:
            log.debug("warming queue full; skipped %s@%d", loaded.game_id, version)

    def flush(self) -> None:
        """Wait until everything asked so far is done (tests, benchmarks)."""
        if self._thread is None:
            return
        done = threading.Event()
        self._pending.put(done)
        done.wait()

    def close(self) -> None:
        if self._thread is not None:
            self._pending.put(None)
            self._thread.join()
            self._thread = None

    def _running(self) -> None:
        with self._start:
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="warming", daemon=True)
                self._thread.start()

    def _loop(self) -> None:
        while True:
            item = self._pending.get()
            if item is None:
                return
            if isinstance(item, threading.Event):
                item.set()
                continue
            loaded, version = item
            if loaded.evicted:
                continue
            viewers = [SPECTATOR, *map(Viewer.of_seat, range(loaded.table.seat_count))]
            for viewer in viewers:
                upto = min(version, horizon(loaded, viewer))
                if upto < 1:
                    continue
                try:
                    self._fold(loaded, viewer, upto)
                except Exception:  # a read of this game reports it; nothing to keep here
                    log.debug("warming %s failed", loaded.game_id, exc_info=True)
                    break
