"""Relays writes made by *any* process to this process's live watchers.

On PostgreSQL several server processes may share one database. Each process
listens on the event store's channel (the eventsourcing library's recorder
sends a NOTIFY with every append) and, on each notification, reads which
games moved: only the new rows' notification id, game and version, never
their event bytes. The watchers then read the new events from the store, so
order and gap-freedom come from the store, not from the notification.

One thread does both, on one connection it keeps: it waits for a
notification, then reads the rows after the last one it relayed. A
notification names the backend that sent it: one of this process's own
(``GameLog.own_backends``) needs no read at once, since the writing thread
already told this process's watchers; those rows are read when the feed is
quiet, or once a second. (The library's ``ApplicationSubscription`` used a
listen thread, a pull thread and a queue, read whole rows back for every
append, its own too, and decoded each into a domain event the feed did not
look at: about 0.3 ms of the server's CPU per command, docs/benchmarks.md.)
Reading past the last relayed id is safe because the library's recorder
appends under an exclusive table lock, so ids commit in order; a
notification that arrives while the rows are read is kept by psycopg and
wakes the next wait.

A connection dies (a database restart, a terminated backend). The feed then
listens again, with backoff, from the last notification it relayed: the
writes it missed meanwhile are relayed on reconnecting, so every watcher
catches up from its own cursor and nothing is missed. SQLite cannot push,
so there the in-process append hook is the only source, which is complete
because only one process writes a SQLite file (docs/operations.md).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from psycopg.sql import SQL, Identifier

from cardroom.server.storage.log import GameLog

log = logging.getLogger(__name__)

FIRST_RETRY_SECONDS = 0.2
MAX_RETRY_SECONDS = 5.0
STOP_SECONDS = 5.0
WAIT_SECONDS = 0.25  # how often the waiting thread looks whether it was stopped
OWN_READ_SECONDS = 1.0  # this process's own appends are read back at least this often
ROWS_PER_READ = 500


class StoreFeed:
    def __init__(self, store: GameLog, notify: Callable[[str, int], None]) -> None:
        recorder: Any = store.recorder  # eventsourcing's PostgresApplicationRecorder
        self._datastore = recorder.datastore
        self._listen = SQL("LISTEN {0}").format(Identifier(recorder.channel_name))
        self._moved = SQL(
            "SELECT notification_id, originator_id, originator_version FROM {0}.{1} "
            "WHERE notification_id > %s ORDER BY notification_id LIMIT %s"
        ).format(Identifier(self._datastore.schema), Identifier(recorder.events_table_name))
        self._notify = notify
        self._own = store.own_backends
        self._last = recorder.max_notification_id() or 0
        self._stopped = threading.Event()
        self.reconnects = 0
        self._thread = threading.Thread(target=self._run, name="cardroom-feed", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        delay = FIRST_RETRY_SECONDS
        while not self._stopped.is_set():
            try:
                with self._datastore.get_connection() as connection:
                    connection.execute(self._listen)
                    try:
                        self._relay(connection)  # what was written while not listening
                        delay = FIRST_RETRY_SECONDS
                        self._follow(connection)
                    finally:
                        self._unlisten(connection)
                return
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
            if self._stopped.wait(delay):
                return
            delay = min(delay * 2, MAX_RETRY_SECONDS)
            self.reconnects += 1

    @staticmethod
    def _unlisten(connection: Any) -> None:
        """Give the connection back to the pool deaf: a pooled connection
        still listening would keep every later notification, unread, for
        as long as it lives."""
        try:
            connection.execute("UNLISTEN *")
        except Exception:  # a dead connection leaves the pool anyway
            log.debug("unlistening on a failed connection", exc_info=True)

    def _follow(self, connection: Any) -> None:
        """Read the moved rows on every other process's append at once, and
        on this process's own appends (already told to its watchers by the
        writing thread) only when quiet or every ``OWN_READ_SECONDS``: so
        the cursor keeps up, and a backend noted as ours but reused by
        another process (a pid recycled after its connection closed) delays
        that process's writes by at most that long, never loses them."""
        behind = False  # own appends heard since the last read
        last_read = time.monotonic()
        while not self._stopped.is_set():
            heard = foreign = False
            for notification in connection.notifies(timeout=WAIT_SECONDS, stop_after=1):
                heard = True
                foreign = foreign or notification.pid not in self._own
            behind = behind or heard
            if behind and (
                foreign or not heard or time.monotonic() - last_read >= OWN_READ_SECONDS
            ):
                self._relay(connection)
                behind, last_read = False, time.monotonic()

    def _relay(self, connection: Any) -> None:
        """Every row after the last relayed, in order: its game and version."""
        while not self._stopped.is_set():
            with connection.cursor() as cursor:
                cursor.execute(self._moved, (self._last, ROWS_PER_READ), prepare=True)
                rows = cursor.fetchall()
            for row in rows:
                self._notify(str(row["originator_id"]), row["originator_version"])
                self._last = row["notification_id"]
            if len(rows) < ROWS_PER_READ:
                return

    def stop(self) -> None:
        """Stop, and wait (at most ``STOP_SECONDS``) for the feed's thread,
        which ends its wait within ``WAIT_SECONDS`` and gives its
        connection back to the pool."""
        self._stopped.set()
        self._thread.join(timeout=STOP_SECONDS)
        if self._thread.is_alive():
            log.warning("the store subscription did not stop in %.0f s", STOP_SECONDS)
