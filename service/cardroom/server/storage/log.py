"""Event storage: one eventsourcing stream per game, payloads are the
serialized ``EventEnvelope`` bytes.

The eventsourcing library does the storing (SQLite by default, PostgreSQL by
configuration); this module only teaches it to keep protobuf bytes as they
are, so an auditor in any language can decode the log with the .proto files.
"""

from __future__ import annotations

import contextlib
import os
import time

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows
    fcntl = None  # type: ignore[assignment]
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from urllib.parse import unquote, urlparse
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import (
    AggregateRecorder,
    ConnectionUnavailableError,
    IntegrityError,
    JSONTranscoder,
    Mapper,
    Notification,
    PersistenceError,
    StoredEvent,
)

from cardroom.server.storage.ends import first_and_after
from cardroom.v1 import envelope_pb2 as epb

DEFAULT_DATABASE = "cardroom.sqlite3"
# A pool replaces its connections (hourly, or after an error): past this
# many noted backends the old are forgotten, and relearnt as they are used.
MAX_OWN_BACKENDS = 256


class VersionConflict(Exception):
    """Another writer appended to the game first."""


class StoreLocked(Exception):
    """Another process serves this SQLite file."""


class StoreUnavailable(Exception):
    """The store cannot be reached or read; the call may be retried."""


def is_store_busy(error: BaseException) -> bool:
    """Every connection (or SQLite's one writer) stayed taken for the pool's
    timeout: the store is busy, not broken."""
    return isinstance(error, ConnectionUnavailableError)


def is_store_failure(error: BaseException) -> bool:
    """The database failed or is busy (unreachable, missing table, unreadable
    page, no connection free in time), as opposed to refusing a write that
    conflicts."""
    return isinstance(error, (PersistenceError, StoreUnavailable)) and not isinstance(
        error, IntegrityError
    )


def bounded(text: str, limit: int = 1000) -> str:
    """A message cut to ``limit`` characters."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class RecordedEnvelope:
    """The library's view of one stored event: ids plus the raw bytes."""

    originator_id: UUID
    originator_version: int
    topic: str
    payload: bytes


class EnvelopeMapper(Mapper[UUID]):
    """Stores the envelope bytes untouched; the topic is the public event's
    protobuf type name, so the database can filter by event type."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=domain_event.topic,
            state=domain_event.payload,
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        return RecordedEnvelope(
            originator_id=UUID(str(stored_event.originator_id)),
            originator_version=stored_event.originator_version,
            topic=stored_event.topic,
            payload=bytes(stored_event.state),
        )


class BadDatabase(ValueError):
    """A --database setting that names no database cardroom can use."""


ACCEPTED_DATABASES = (
    "a SQLite file path (e.g. cardroom.sqlite3) or a "
    "postgresql://user:password@host:port/dbname[?schema=name] URL"
)


def is_postgres_url(database: str) -> bool:
    return database.startswith(("postgresql://", "postgres://"))


def describe_database(database: str) -> str:
    """The database for people and logs: a PostgreSQL URL without its
    password, or the SQLite path."""
    if not is_postgres_url(database):
        return f"SQLite {database}"
    url = urlparse(database)
    host = url.hostname or "127.0.0.1"
    port = url.port or 5432
    name = (url.path or "/postgres").lstrip("/") or "postgres"
    user = unquote(url.username or "postgres")
    return f"PostgreSQL {user}@{host}:{port}/{name}"


def storage_env(database: str) -> dict[str, str]:
    """eventsourcing settings for a database string: a SQLite file path, or a
    ``postgresql://user:password@host:port/dbname[?schema=name]`` URL.
    Anything else (another scheme, an empty string) is a BadDatabase."""
    if is_postgres_url(database):
        url = urlparse(database)
        try:
            port = url.port or 5432
        except ValueError:
            raise BadDatabase(
                f"the PostgreSQL URL has a bad port; expected {ACCEPTED_DATABASES}"
            ) from None
        env = {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": (url.path or "/postgres").lstrip("/") or "postgres",
            "POSTGRES_HOST": url.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(port),
            "POSTGRES_USER": unquote(url.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(url.password or ""),
            "POSTGRES_CONNECT_TIMEOUT": "5",
            # No ping before each use of a pooled connection (a round trip
            # per call): one the database has closed fails its first use, is
            # dropped from the pool, and the call is tried again on another,
            # as eventsourcing's recorders and the game list's page do.
        }
        for part in filter(None, url.query.split("&")):
            key, _, value = part.partition("=")
            if key == "schema":
                env["POSTGRES_SCHEMA"] = value
            else:
                raise BadDatabase(f"unknown PostgreSQL URL parameter {key[:40]!r} (only schema=)")
        return env
    if not database.strip() or "://" in database or database.startswith(":"):
        shown = database.split("://", 1)[0] + "://…" if "://" in database else repr(database[:80])
        raise BadDatabase(f"cannot use {shown} as a database; give {ACCEPTED_DATABASES}")
    Path(database).parent.mkdir(parents=True, exist_ok=True)
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": database}


class GameLog(Application[UUID]):
    """Appends and reads game streams."""

    name = "cardroom"

    def __init__(self, database: str) -> None:
        self.database = database
        self._lock_file: Any = None
        self._before_close: list[Callable[[], None]] = []
        # Told how long each append took (the server's metrics).
        self.on_append_seconds: Callable[[float], None] = lambda seconds: None
        # Our settings beat stray eventsourcing variables in the environment.
        env = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "SQLITE_"))}
        env.update(storage_env(database))
        super().__init__(env=env)
        # The PostgreSQL backends this store's connections run on: the store
        # feed hears every append's NOTIFY with its sender's backend, and
        # need not read back the rows of this process's own appends.
        self.own_backends: set[int] = set()
        if self.is_postgres:
            self._note_backends(self.recorder.datastore)  # type: ignore[attr-defined]

    def _note_backends(self, datastore: Any) -> None:
        """Every connection the library takes from its pool (to append, to
        read) passes through ``datastore.get_connection``: wrapped on this
        instance, it notes the connection's backend before the library uses
        it, so before any NOTIFY that backend sends is heard."""
        taken = datastore.get_connection
        backends = self.own_backends

        @contextlib.contextmanager
        def noting_backend() -> Iterator[Any]:
            with taken() as connection:
                if len(backends) >= MAX_OWN_BACKENDS:  # closed ones: forget them all
                    backends.clear()
                backends.add(connection.info.backend_pid)
                yield connection

        datastore.get_connection = noting_backend

    @property
    def is_postgres(self) -> bool:
        return self.env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres"

    def hold_exclusively(self) -> None:
        """Make this process the SQLite file's only server: an exclusive lock
        on ``<database>.lock``, held until :meth:`close` (docs/operations.md).
        Another process holding it raises StoreLocked."""
        if self.is_postgres or fcntl is None:
            return
        path = f"{self.database}.lock"
        handle = open(path, "a+")  # noqa: SIM115 - held open until close()
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise StoreLocked(
                f"another cardroom serves {self.database} (it holds {path}); SQLite is for one "
                "server: stop it, or share a PostgreSQL database between servers"
            ) from None
        self._lock_file = handle

    def before_close(self, hook: Callable[[], None]) -> None:
        """Run ``hook`` when the store is closing, before its connections go:
        a background writer (the checkpoints) must stop first."""
        self._before_close.append(hook)

    def close(self) -> None:
        hooks, self._before_close = self._before_close, []
        for hook in hooks:
            hook()
        super().close()
        handle, self._lock_file = self._lock_file, None
        if handle is not None:
            handle.close()

    def construct_mapper(self) -> Mapper[UUID]:
        return EnvelopeMapper(transcoder=JSONTranscoder())

    def append(self, envelopes: Sequence[epb.EventEnvelope], stored: Sequence[bytes]) -> int:
        """Append one command's events atomically, as the exact bytes given
        (``stored[i]`` serializes ``envelopes[i]``); returns the notification
        id of the last. Raises VersionConflict if another writer got there
        first."""
        # Straight to the recorder, each row made by the mapper as it reads
        # them back: Application.save's processing around the same rows took
        # about 30 µs of a command's CPU on SQLite.
        to_row = self.mapper.to_stored_event
        records = [
            to_row(
                RecordedEnvelope(
                    originator_id=UUID(e.game_id),
                    originator_version=e.sequence,
                    topic=e.event.TypeName(),
                    payload=raw,
                )
            )
            for e, raw in zip(envelopes, stored, strict=True)
        ]
        start = time.perf_counter()
        try:
            ids = self.recorder.insert_events(records)
        except IntegrityError as error:
            raise VersionConflict(str(error)) from error
        self.on_append_seconds(time.perf_counter() - start)
        return ids[-1] if ids else 0

    def probe(self) -> None:
        """Read the store once; raises if it cannot be reached or read."""
        self.recorder.max_notification_id()
        self.recorder.select_notifications(start=1, limit=1)

    def read_raw(self, game_id: str, *, after: int = 0, upto: int | None = None) -> list[bytes]:
        """The exact stored bytes of a game's events after a version (up to
        another), straight from the recorder (no per-event object but the bytes)."""
        return [
            bytes(stored.state)
            for stored in self.recorder.select_events(UUID(game_id), gt=after or None, lte=upto)
        ]

    def read_first_and_after(self, game_id: str, after: int) -> list[bytes]:
        """The stored bytes of a game's first event and of its events after
        version ``after``, in one query (cardroom.server.storage.ends)."""
        return first_and_after(self.recorder, game_id, after)

    def snapshot_recorder(self) -> AggregateRecorder:
        """The recorder of derived checkpoints, in the same database
        (cardroom.server.storage.checkpoints); created with its table on first use."""
        return self.factory.aggregate_recorder(purpose="snapshots")

    def read(
        self, game_id: str, *, after: int = 0, upto: int | None = None
    ) -> list[tuple[epb.EventEnvelope, bytes]]:
        """A game's envelopes after a version, each with its exact stored bytes."""
        return [
            (epb.EventEnvelope.FromString(r.payload), r.payload)
            for r in self._records(game_id, after=after, upto=upto)
        ]

    def _records(
        self, game_id: str, *, after: int = 0, upto: int | None = None
    ) -> Iterator[RecordedEnvelope]:
        return cast(
            Iterator[RecordedEnvelope],
            self.events.get(UUID(game_id), gt=after or None, lte=upto),
        )

    def read_stored(self, game_id: str) -> list[bytes]:
        """The exact stored bytes of a game's events, in order."""
        return [r.payload for r in self._records(game_id)]

    def notifications(self, after: int = 0, batch: int = 500) -> Iterator[Notification]:
        """Every stored event of every game in commit order, after a position."""
        while True:
            section = self.recorder.select_notifications(
                start=after, limit=batch, inclusive_of_start=False
            )
            yield from section
            if len(section) < batch:
                return
            after = section[-1].id
