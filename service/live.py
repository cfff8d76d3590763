"""Relays writes made by *any* process to this process's live watchers.

On PostgreSQL several server processes may share one database. One
eventsourcing ``ApplicationSubscription`` per process (LISTEN/NOTIFY under
the hood) hears every append and wakes the watchers of that game; the
watchers then read the new events from the store, so order and gap-freedom
come from the store, not from the notification. SQLite cannot push (the
library raises NotImplementedError), so there the in-process append hook is
the only source, which is complete because SQLite is single-process here.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from eventsourcing.projection import ApplicationSubscription

from service.store import GameLog

log = logging.getLogger(__name__)


class StoreFeed:
    def __init__(self, store: GameLog, notify: Callable[[str, int], None]) -> None:
        self._notify = notify
        self._subscription = ApplicationSubscription(
            store, gt=store.recorder.max_notification_id() or 0
        )
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cardroom-feed", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            for stored, _tracking in self._subscription:
                self._notify(str(stored.originator_id), stored.originator_version)
        except Exception:
            if not self._stopped.is_set():
                log.exception("the store subscription failed; live feeds fall back to this process")

    def stop(self) -> None:
        self._stopped.set()
        self._subscription.stop()
        self._thread.join(timeout=5)
