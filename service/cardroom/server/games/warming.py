"""Viewer folds kept warm in the background.

A viewer's fold is checkpointed as it is folded (``cardroom.server.storage.checkpoints``),
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
from collections.abc import Callable

from cardroom.domain.kernel import SPECTATOR, Viewer
from cardroom.server.games.identity import horizon
from cardroom.server.storage.background import Background
from cardroom.server.storage.cache import LoadedGame

log = logging.getLogger(__name__)

Fold = Callable[[LoadedGame, Viewer, int], object]


class Warmer:
    def __init__(self, fold: Fold) -> None:
        self._fold = fold
        self._work: Background[tuple[LoadedGame, int]] = Background("warming", self._warm)

    def later(self, loaded: LoadedGame, version: int) -> None:
        """Advance every viewer's fold of this game to ``version``, soon."""
        if not self._work.submit((loaded, version)):
            log.debug("warming queue full or closed; skipped %s@%d", loaded.game_id, version)

    def flush(self) -> None:
        """Wait until everything asked so far is done (tests, benchmarks)."""
        self._work.flush()

    def close(self) -> None:
        self._work.close()

    def _warm(self, item: tuple[LoadedGame, int]) -> None:
        loaded, version = item
        if loaded.evicted:
            return
        for viewer in [SPECTATOR, *map(Viewer.of_seat, range(loaded.table.seat_count))]:
            upto = min(version, horizon(loaded, viewer))
            if upto < 1:
                continue
            try:
                self._fold(loaded, viewer, upto)
            except Exception:  # a read of this game reports it; nothing to keep here
                log.debug("warming %s failed", loaded.game_id, exc_info=True)
                return
