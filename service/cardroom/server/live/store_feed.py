"""Relays writes made by *any* process to this process's live watchers.

On PostgreSQL several server processes may share one database. One
eventsourcing ``ApplicationSubscription`` per process (LISTEN/NOTIFY under
the hood) hears every append and wakes the watchers of that game; the
watchers then read the new events from the store, so order and gap-freedom
come from the store, not from the notification.

A subscription dies with its connection (a database restart, a terminated
backend). The feed then subscribes again, with backoff, from the last
notification it relayed: the writes it missed meanwhile are relayed on
reconnecting, so every watcher catches up from its own cursor and nothing is
missed. SQLite cannot push (the library raises NotImplementedError), so
there the in-process append hook is the only source, which is complete
because only one process writes a SQLite file (docs/operations.md).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from uuid import UUID

from eventsourcing.projection import ApplicationSubscription

from cardroom.server.storage.log import GameLog

log = logging.getLogger(__name__)

FIRST_RETRY_SECONDS = 0.2
MAX_RETRY_SECONDS = 5.0
STOP_SECONDS = 5.0


class StoreFeed:
    def __init__(self, store: GameLog, notify: Callable[[str, int], None]) -> None:
        self._store = store
        self._notify = notify
        self._last = store.recorder.max_notification_id() or 0
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._subscription: ApplicationSubscription[UUID] | None = None
        self.reconnects = 0
        self._thread = threading.Thread(target=self._run, name="cardroom-feed", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        delay = FIRST_RETRY_SECONDS
        while not self._stopped.is_set():
            try:
                with self._lock:
                    if self._stopped.is_set():
                        return
                    subscription = ApplicationSubscription(self._store, gt=self._last)
                    self._subscription = subscription
                # Leaving it joins the library's LISTEN and pull threads, so
                # that none still queries the store once ``stop`` returns (a
                # pull under way when the store closed retried against the
                # closed pool for seconds, outliving its server).
                with subscription:
                    for stored, tracking in subscription:
                        self._last = tracking.notification_id
                        self._notify(str(stored.originator_id), stored.originator_version)
                        delay = FIRST_RETRY_SECONDS
            except Exception as error:
                if self._stopped.is_set():
                    return
                log.warning(
                    "the store subscription failed (%s); subscribing again from notification "
                    "%d in %.1f s",
                    str(error).strip().splitlines()[0][:200] if str(error).strip() else error,
                    self._last,
                    delay,
                )
            finally:
                self._stop_subscription()
            if self._stopped.wait(delay):
                return
            delay = min(delay * 2, MAX_RETRY_SECONDS)
            self.reconnects += 1

    def _stop_subscription(self) -> None:
        with self._lock:
            subscription, self._subscription = self._subscription, None
        if subscription is not None:
            try:
                subscription.stop()
            except Exception:  # a dead connection may fail to stop cleanly
                log.debug("stopping a failed subscription", exc_info=True)

    def stop(self) -> None:
        """Stop, and wait (at most ``STOP_SECONDS``) for the feed's thread,
        which waits for the subscription's own."""
        self._stopped.set()
        self._stop_subscription()
        self._thread.join(timeout=STOP_SECONDS)
        if self._thread.is_alive():
            log.warning("the store subscription did not stop in %.0f s", STOP_SECONDS)
