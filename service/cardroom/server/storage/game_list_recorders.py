"""The game list's table, in the database that holds the events.

One row per game with what the listing and its filters need, kept by an
eventsourcing tracking recorder: a batch of changes and the log position it
brings the table to are written in one transaction, so the table always
says exactly which events it reflects and resumes from there.

Several processes may catch the table up at once (servers sharing a
PostgreSQL database, two ``GameLog``s on one SQLite file). The library's
tracking row only refuses a position that does not move forward, which
would let a process that read the position before another one committed
apply the same events again. So a batch is applied only if the tracking
row still holds the position the batch was read from (a compare-and-set
on that one row, inside the batch's transaction); otherwise nothing is
written and the caller reads the new position and goes on from there.

Each filter is an index read in listing order, so a page of the rare open
games among many finished ones is an index range, not a scan. A delayed game
that is not over is listed as its spectators see it, which depends on its
current version: those games are read apart (a small partial index) and
filtered exactly by the caller.
"""

from __future__ import annotations

import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, OperationalError, TrackingRecorder
from eventsourcing.postgres import (
    PostgresApplicationRecorder,
    PostgresDatastore,
    PostgresTrackingRecorder,
)
from eventsourcing.sqlite import (
    SQLiteApplicationRecorder,
    SQLiteCursor,
    SQLiteDatastore,
    SQLiteTrackingRecorder,
    SQLiteTransaction,
)

from cardroom.v1 import game_service_pb2 as gpb

# The tracking row's key: this projection's position in the log, apart from
# any other reader of the same log that keeps its position in the same table.
PROJECTION = "cardroom.game_list"

# A game's status, and whether it has a free seat (and has not started), as
# the game table computes them for its indexes: every filter is then an
# equality on an index's leading columns, read in listing order.
STATUS = (
    f"CASE WHEN finished_at IS NOT NULL THEN {gpb.GAME_STATUS_FINISHED} "
    f"WHEN started_at IS NOT NULL THEN {gpb.GAME_STATUS_RUNNING} "
    f"ELSE {gpb.GAME_STATUS_OPEN} END"
)
SEATS_OPEN = "started_at IS NULL AND seats_taken < seat_count"
# Delayed games not over yet: few, read apart through a partial index (a
# query term must read exactly as the index's condition for it to be used).
DELAYED_LIVE = "delay > 0 AND finished_at IS NULL"
NOT_DELAYED_LIVE = "(delay = 0 OR finished_at IS NOT NULL)"
INDEXES = {
    "kind": "(kind, position)",
    "status": "(status, position)",
    "kind_status": "(kind, status, position)",
    "seats_open": "(seats_open, position)",
    "kind_seats_open": "(kind, seats_open, position)",
    "delayed_live": f"(position) WHERE {DELAYED_LIVE}",
}
COLUMNS = "position, game_id, kind, seat_count, delay, seats_at, started_at, finished_at"


class ProjectionMoved(Exception):
    """Another process moved the projection on since the batch was read."""


@dataclass
class Milestones:
    """The versions of a game's table events: what the delayed horizon needs."""

    seats_at: list[int] = field(default_factory=list)  # version of each SeatTaken
    started_at: int | None = None
    finished_at: int | None = None


@dataclass
class GameRow:
    position: int  # notification id of GameCreated: the listing order
    game_id: str
    kind: str
    seat_count: int
    delay: int  # events spectators stay behind; 0 for live policies
    milestones: Milestones = field(default_factory=Milestones)


@dataclass
class Changes:
    """One batch of the log, folded: new games, and milestones of games
    created in earlier batches."""

    created: dict[str, GameRow] = field(default_factory=dict)  # by game id
    changed: dict[str, Milestones] = field(default_factory=dict)


@dataclass(frozen=True)
class Filters:
    kind: str = ""
    status: int = gpb.GAME_STATUS_UNSPECIFIED
    open_seats_only: bool = False


def _quoted(name: str) -> str:
    """An SQL identifier, quoted (both databases read double quotes)."""
    return '"' + name.replace('"', '""') + '"'


def _versions(seats_at: Sequence[int]) -> str:
    return "".join(f" {v}" for v in seats_at)


class GameListRecorder(TrackingRecorder, ABC):
    """The game table and its tracking row; SQL common to both databases,
    written with ``?`` placeholders."""

    games_name: str  # the game table's name; its indexes' names start with it
    games: str  # the game table, quoted and qualified as queries need it
    events: str  # the events table, for the games' current versions
    notification_id: str  # its column of notification ids
    tracking: str  # the tracking table

    # ----------------------------------------------------------- dialect

    @abstractmethod
    def _transaction(self, *, write: bool) -> AbstractContextManager[Any]:
        """A transaction's cursor, committed at the end when ``write``."""

    @abstractmethod
    def _creation_transaction(self) -> AbstractContextManager[Any]:
        """A write transaction no other creator runs at the same time."""

    @abstractmethod
    def _game_table_exists(self, cursor: Any) -> bool: ...

    @abstractmethod
    def _create_statements(self) -> list[str]: ...

    @abstractmethod
    def _sql(self, statement: str) -> str:
        """The statement with this database's placeholders."""

    @abstractmethod
    def _game_id_param(self, game_id: str) -> Any:
        """A game id as the events table keeps it."""

    @abstractmethod
    def _game_id(self, value: Any) -> str:
        """A game id as the events table keeps it, as the API shows it."""

    @abstractmethod
    def create_table(self) -> None:
        """The library's tracking table."""

    # ---------------------------------------------------------- creation

    def prepare(self) -> None:
        """The tracking table, then the game table, each unless it exists. A
        game table without its tracking row, or a tracking row without its
        game table, is started afresh: rows and position only mean something
        together."""
        self.create_table()
        with self._creation_transaction() as c:
            existed = self._game_table_exists(c)
            for statement in self._create_statements():
                c.execute(statement)
            if existed:
                c.execute(
                    self._sql(
                        f"INSERT INTO {self.tracking} (application_name, notification_id) "
                        "VALUES (?, 0) ON CONFLICT (application_name) DO NOTHING "
                        "RETURNING notification_id"
                    ),
                    (PROJECTION,),
                )
                if c.fetchone() is not None:
                    c.execute(f"DELETE FROM {self.games}")
            else:
                c.execute(
                    self._sql(
                        f"INSERT INTO {self.tracking} (application_name, notification_id) "
                        "VALUES (?, 0) ON CONFLICT (application_name) "
                        "DO UPDATE SET notification_id = 0"
                    ),
                    (PROJECTION,),
                )

    def _index_statements(self) -> list[str]:
        return [
            f"CREATE INDEX IF NOT EXISTS {_quoted(f'{self.games_name}_{name}')} "
            f"ON {self.games} {columns}"
            for name, columns in INDEXES.items()
        ]

    # ------------------------------------------------------------ writing

    def position(self) -> int | None:
        """The last notification id the table reflects; None before it exists."""
        return self.max_tracking_id(PROJECTION)

    def positions(self) -> tuple[int, int | None]:
        """The end of the log and ``position()``, read at once."""
        with self._transaction(write=False) as c:
            c.execute(
                self._sql(
                    f"SELECT (SELECT MAX({self.notification_id}) FROM {self.events}) AS head, "
                    f"(SELECT notification_id FROM {self.tracking} "
                    "WHERE application_name = ?) AS position"
                ),
                (PROJECTION,),
            )
            row = c.fetchone()
            return row["head"] or 0, row["position"]

    def apply(self, changes: Changes, *, after: int, through: int) -> None:
        """Write a batch and move the position from ``after`` to ``through``,
        in one transaction; ProjectionMoved (and nothing written) if the
        position is no longer ``after``."""
        with self._transaction(write=True) as c:
            # First, so SQLite takes its write lock before reading anything.
            c.execute(
                self._sql(
                    f"UPDATE {self.tracking} SET notification_id = ? "
                    "WHERE application_name = ? AND notification_id = ? "
                    "RETURNING notification_id"
                ),
                (through, PROJECTION, after),
            )
            if c.fetchone() is None:
                raise ProjectionMoved(f"the game list moved on from {after}")
            if changes.created:
                c.executemany(
                    self._sql(
                        f"INSERT INTO {self.games} ({COLUMNS}, seats_taken) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                        "ON CONFLICT (game_id) DO NOTHING"
                    ),
                    [
                        (
                            row.position,
                            self._game_id_param(row.game_id),
                            row.kind,
                            row.seat_count,
                            row.delay,
                            _versions(row.milestones.seats_at),
                            row.milestones.started_at,
                            row.milestones.finished_at,
                            len(row.milestones.seats_at),
                        )
                        for row in changes.created.values()
                    ],
                )
            if changes.changed:
                c.executemany(
                    self._sql(
                        f"UPDATE {self.games} SET seats_taken = seats_taken + ?, "
                        "seats_at = seats_at || ?, "
                        "started_at = COALESCE(?, started_at), "
                        "finished_at = COALESCE(?, finished_at) "
                        "WHERE game_id = ?"
                    ),
                    [
                        (
                            len(m.seats_at),
                            _versions(m.seats_at),
                            m.started_at,
                            m.finished_at,
                            self._game_id_param(game_id),
                        )
                        for game_id, m in changes.changed.items()
                    ],
                )

    def analyze(self) -> None:
        """Refresh the query planner's statistics of the game table, after
        many rows changed at once (a rebuild). SQLite plans these queries
        well without them."""

    # ------------------------------------------------------------ reading

    def reading(self) -> AbstractContextManager[Any]:
        """A cursor for ``rows``: a page's reads in one go."""
        return self._transaction(write=False)

    def rows(
        self,
        cursor: Any,
        filters: Filters,
        *,
        before: int | None,
        after: int | None,
        delayed: bool,
        limit: int,
    ) -> list[tuple[GameRow, int]]:
        """Up to ``limit`` games newest first, listed between ``after`` and
        ``before`` (when given), each with its current version.

        ``delayed=False``: every game but the delayed ones not over yet,
        matching ``filters`` exactly. ``delayed=True``: only those, a
        superset of the matches (what spectators see of them depends on the
        version, so the caller filters them)."""
        terms: list[str] = []
        params: list[Any] = []
        if delayed:
            if filters.status == gpb.GAME_STATUS_FINISHED:
                return []  # a delayed game is listed as finished once it is
            terms.append(DELAYED_LIVE)  # and nothing else: the caller filters
            if filters.status == gpb.GAME_STATUS_RUNNING:
                terms.append("started_at IS NOT NULL")  # seen started only once started
        else:
            terms.append(NOT_DELAYED_LIVE)
            if filters.kind:
                terms.append("kind = ?")
                params.append(filters.kind)
            if filters.open_seats_only:
                if filters.status not in (gpb.GAME_STATUS_UNSPECIFIED, gpb.GAME_STATUS_OPEN):
                    return []  # a free seat is only listed before the start
                terms.append("seats_open = ?")
                params.append(True)
                # An open game T-ABSENT ended (NeverStarted) is finished
                # unstarted: no seat to take (seats_open predates it).
                terms.append("finished_at IS NULL")
            elif filters.status:
                terms.append("status = ?")
                params.append(filters.status)
        if before is not None:
            terms.append("position < ?")
            params.append(before)
        if after is not None:
            terms.append("position > ?")
            params.append(after)
        params.append(limit)
        statement = (
            f"SELECT {COLUMNS}, "
            f"(SELECT MAX(e.originator_version) FROM {self.events} AS e "
            "WHERE e.originator_id = g.game_id) AS version "
            f"FROM {self.games} AS g WHERE {' AND '.join(terms)} "
            "ORDER BY position DESC LIMIT ?"
        )
        cursor.execute(self._sql(statement), params)
        return [(self._row(r), r["version"] or 0) for r in cursor.fetchall()]

    def _row(self, r: Any) -> GameRow:
        return GameRow(
            position=r["position"],
            game_id=self._game_id(r["game_id"]),
            kind=r["kind"],
            seat_count=r["seat_count"],
            delay=r["delay"],
            milestones=Milestones(
                seats_at=[int(v) for v in r["seats_at"].split()],
                started_at=r["started_at"],
                finished_at=r["finished_at"],
            ),
        )


# ------------------------------------------------------------------ SQLite


class _ImmediateTransaction(SQLiteTransaction):
    """A transaction that takes SQLite's write lock before it reads, so what
    it reads cannot change before it writes (a deferred one that read first
    fails at its first write if another connection wrote meanwhile)."""

    def __enter__(self) -> SQLiteCursor:
        cursor = self.connection.cursor()
        try:
            cursor.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            cursor.sqlite_cursor.close()
            raise OperationalError(error) from error
        return cursor


class SQLiteGameList(SQLiteTrackingRecorder, GameListRecorder):
    def __init__(self, datastore: SQLiteDatastore, *, events_table_name: str) -> None:
        super().__init__(datastore)
        self.games_name = "game_list"
        self.games = _quoted(self.games_name)
        self.events = _quoted(events_table_name)
        self.notification_id = "rowid"
        self.tracking = "tracking"  # the library's, for every tracking recorder on SQLite

    def _transaction(self, *, write: bool) -> AbstractContextManager[Any]:
        return self.datastore.transaction(commit=write)

    @contextmanager
    def _creation_transaction(self) -> Iterator[SQLiteCursor]:
        with (
            self.datastore.get_connection(commit=True) as connection,
            _ImmediateTransaction(connection, commit=True) as cursor,
            cursor,
        ):
            yield cursor

    def _game_table_exists(self, cursor: Any) -> bool:
        cursor.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (self.games_name,)
        )
        return cursor.fetchone() is not None

    def _create_statements(self) -> list[str]:
        return [
            f"CREATE TABLE IF NOT EXISTS {self.games} ("
            "position INTEGER PRIMARY KEY, "
            "game_id TEXT NOT NULL UNIQUE, "
            "kind TEXT NOT NULL, "
            "seat_count INTEGER NOT NULL, "
            "delay INTEGER NOT NULL, "
            "seats_taken INTEGER NOT NULL DEFAULT 0, "
            "seats_at TEXT NOT NULL DEFAULT '', "
            "started_at INTEGER, "
            "finished_at INTEGER, "
            f"status INTEGER GENERATED ALWAYS AS ({STATUS}) STORED, "
            f"seats_open INTEGER GENERATED ALWAYS AS ({SEATS_OPEN}) STORED)",
            *self._index_statements(),
        ]

    def _sql(self, statement: str) -> str:
        return statement

    def _game_id_param(self, game_id: str) -> Any:
        return game_id.replace("-", "")  # UUID.hex, as the library keeps ids on SQLite

    def _game_id(self, value: Any) -> str:
        h = str(value)
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


# -------------------------------------------------------------- PostgreSQL


class PostgresGameList(PostgresTrackingRecorder, GameListRecorder):
    def __init__(
        self, datastore: PostgresDatastore, *, events_table_name: str, prefix: str
    ) -> None:
        super().__init__(datastore, tracking_table_name=f"{prefix}_tracking")
        schema = _quoted(datastore.schema)
        self.games_name = f"{prefix}_game_list"
        self.games = f"{schema}.{_quoted(self.games_name)}"
        self.events = f"{schema}.{_quoted(events_table_name)}"
        self.notification_id = "notification_id"
        self.tracking = f"{schema}.{_quoted(self.tracking_table_name)}"

    @contextmanager
    def _transaction(self, *, write: bool) -> Iterator[Any]:
        if write:
            with self.datastore.transaction(commit=True) as c:
                yield c
        else:  # autocommit: no BEGIN and ROLLBACK round trips for reads
            with self.datastore.get_connection() as connection, connection.cursor() as c:
                yield c

    @contextmanager
    def _creation_transaction(self) -> Iterator[Any]:
        with self.datastore.transaction(commit=True) as c:
            c.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.games,))
            yield c

    def _game_table_exists(self, cursor: Any) -> bool:
        cursor.execute("SELECT to_regclass(%s) IS NOT NULL AS found", (self.games,))
        return bool(cursor.fetchone()["found"])

    def _create_statements(self) -> list[str]:
        return [
            f"CREATE TABLE IF NOT EXISTS {self.games} ("
            "position bigint PRIMARY KEY, "
            "game_id uuid NOT NULL UNIQUE, "
            "kind text NOT NULL, "
            "seat_count integer NOT NULL, "
            "delay integer NOT NULL, "
            "seats_taken integer NOT NULL DEFAULT 0, "
            "seats_at text NOT NULL DEFAULT '', "
            "started_at bigint, "
            "finished_at bigint, "
            f"status smallint GENERATED ALWAYS AS ({STATUS}) STORED, "
            f"seats_open boolean GENERATED ALWAYS AS ({SEATS_OPEN}) STORED)",
            *self._index_statements(),
        ]

    def _sql(self, statement: str) -> str:
        return statement.replace("?", "%s")

    def analyze(self) -> None:
        """Without statistics (autovacuum off, or not yet run) PostgreSQL
        may sort every match of a filter instead of reading an index in
        order."""
        with self._transaction(write=True) as c:
            c.execute(f"ANALYZE {self.games}")

    def _game_id_param(self, game_id: str) -> Any:
        return UUID(game_id)

    def _game_id(self, value: Any) -> str:
        return str(value)


def game_list_recorder(events: ApplicationRecorder, prefix: str) -> GameListRecorder:
    """The game list's recorder on the datastore of a log's recorder; its
    tables are created (or found) by ``prepare()``."""
    if isinstance(events, SQLiteApplicationRecorder):
        return SQLiteGameList(events.datastore, events_table_name=events.events_table_name)
    if isinstance(events, PostgresApplicationRecorder):
        return PostgresGameList(
            events.datastore, events_table_name=events.events_table_name, prefix=prefix
        )
    raise TypeError(f"no game list for a {type(events).__name__}")
