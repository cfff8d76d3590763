"""The ratings' tables, in the database that holds the events.

Three tables, all folded from the log (``cardroom.server.games.ratings``) and
rebuilt from it when dropped: each (player key, kind)'s current rating, each
player's rated games with the rating after each, and the display name each
key signed in with last. Like the game list, an eventsourcing tracking row
says which notification they reflect, and a batch and its position are
written in one transaction, applied only if the position is still the one
the batch was read from (a compare-and-set; ProjectionMoved otherwise).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, TrackingRecorder
from eventsourcing.postgres import (
    PostgresApplicationRecorder,
    PostgresDatastore,
    PostgresTrackingRecorder,
)
from eventsourcing.sqlite import (
    SQLiteApplicationRecorder,
    SQLiteDatastore,
    SQLiteTrackingRecorder,
)

from cardroom.domain.ratings import Rating
from cardroom.server.storage.game_list_recorders import ProjectionMoved, _quoted

PROJECTION = "cardroom.ratings"

__all__ = ["PROJECTION", "ProjectionMoved", "RatedSeat", "RatingRow", "RatingsRecorder"]


@dataclass(frozen=True)
class RatingRow:
    public_key: bytes
    kind: str
    rating: Rating
    display_name: str = ""


@dataclass(frozen=True)
class RatedSeat:
    """One seat of a rated game: the player's rating after it."""

    position: int  # notification id of the game's GameFinished
    game_id: str
    kind: str
    public_key: bytes
    seat: int
    rank: int
    rating: Rating


class RatingsRecorder(TrackingRecorder, ABC):
    """SQL common to both databases, written with ``?`` placeholders."""

    ratings: str
    history: str
    players: str
    tracking: str
    events: str  # the events table, for a finished game's table events
    blob: str  # the column type of raw bytes
    real: str

    @abstractmethod
    def _transaction(self, *, write: bool) -> AbstractContextManager[Any]: ...

    @abstractmethod
    def _sql(self, statement: str) -> str: ...

    def _creation_transaction(self) -> AbstractContextManager[Any]:
        """A write transaction no other creator of the tables runs at once."""
        return self._transaction(write=True)

    @abstractmethod
    def create_table(self) -> None: ...

    @abstractmethod
    def _game_id_param(self, game_id: str) -> Any:
        """A game id as the events table keeps it."""

    def stored_of(self, game_id: str, topics: tuple[str, ...]) -> list[bytes]:
        """The exact stored bytes of a game's events of these types, in order:
        a finished game's result needs only its table events, not its play."""
        marks = ", ".join("?" for _ in topics)
        with self._transaction(write=False) as c:
            c.execute(
                self._sql(
                    f"SELECT state FROM {self.events} WHERE originator_id = ? "
                    f"AND topic IN ({marks}) ORDER BY originator_version"
                ),
                (self._game_id_param(game_id), *topics),
            )
            return [bytes(r["state"]) for r in c.fetchall()]

    def _create_statements(self) -> list[str]:
        b, r = self.blob, self.real
        return [
            f"CREATE TABLE IF NOT EXISTS {self.ratings} (public_key {b} NOT NULL, "
            f"kind TEXT NOT NULL, mu {r} NOT NULL, sigma {r} NOT NULL, "
            f"display {r} NOT NULL, games INTEGER NOT NULL, PRIMARY KEY (public_key, kind))",
            f"CREATE INDEX IF NOT EXISTS {_quoted(self.ratings_name + '_board')} "
            f"ON {self.ratings} (kind, display DESC, public_key)",
            f"CREATE TABLE IF NOT EXISTS {self.history} (public_key {b} NOT NULL, "
            "kind TEXT NOT NULL, position BIGINT NOT NULL, game_id TEXT NOT NULL, "
            f"seat INTEGER NOT NULL, rank INTEGER NOT NULL, mu {r} NOT NULL, "
            f"sigma {r} NOT NULL, games INTEGER NOT NULL, PRIMARY KEY (public_key, position))",
            f"CREATE TABLE IF NOT EXISTS {self.players} (public_key {b} PRIMARY KEY, "
            "player_id TEXT NOT NULL UNIQUE, display_name TEXT NOT NULL, "
            "position BIGINT NOT NULL)",
        ]

    ratings_name: str

    def prepare(self) -> None:
        """The tables and the tracking row, each unless it exists."""
        self.create_table()
        with self._creation_transaction() as c:
            for statement in self._create_statements():
                c.execute(statement)
            c.execute(
                self._sql(
                    f"INSERT INTO {self.tracking} (application_name, notification_id) "
                    "VALUES (?, 0) ON CONFLICT (application_name) DO NOTHING"
                ),
                (PROJECTION,),
            )

    def reset(self) -> None:
        """Forget everything: the next catch-up rebuilds from the first event."""
        self.prepare()
        with self._transaction(write=True) as c:
            for table in (self.ratings, self.history, self.players):
                c.execute(f"DELETE FROM {table}")
            c.execute(
                self._sql(
                    f"UPDATE {self.tracking} SET notification_id = 0 WHERE application_name = ?"
                ),
                (PROJECTION,),
            )

    def position(self) -> int | None:
        return self.max_tracking_id(PROJECTION)

    @contextmanager
    def batch(self, *, after: int, through: int) -> Iterator[Batch]:
        """A batch of rated games, written with the new position in one
        transaction; ProjectionMoved if the position is no longer ``after``."""
        with self._transaction(write=True) as c:
            c.execute(
                self._sql(
                    f"UPDATE {self.tracking} SET notification_id = ? "
                    "WHERE application_name = ? AND notification_id = ? "
                    "RETURNING notification_id"
                ),
                (through, PROJECTION, after),
            )
            if c.fetchone() is None:
                raise ProjectionMoved(f"the ratings moved on from {after}")
            batch = Batch(self, c)
            yield batch
            batch.flush()

    # ------------------------------------------------------------ reading

    def board(
        self, kind: str, *, offset: int, limit: int, keys: Sequence[bytes] = ()
    ) -> list[RatingRow]:
        """Ratings of one kind, best first (ties by key); only ``keys``' when given."""
        among = f"AND r.public_key IN ({', '.join('?' for _ in keys)}) " if keys else ""
        with self._transaction(write=False) as c:
            c.execute(
                self._sql(
                    f"SELECT r.public_key, r.kind, r.mu, r.sigma, r.games, p.display_name "
                    f"FROM {self.ratings} AS r LEFT JOIN {self.players} AS p "
                    f"ON p.public_key = r.public_key WHERE r.kind = ? {among}"
                    "ORDER BY r.display DESC, r.public_key LIMIT ? OFFSET ?"
                ),
                (kind, *keys, limit, offset),
            )
            return [_row(r) for r in c.fetchall()]

    def player_key(self, player_id: str) -> bytes | None:
        with self._transaction(write=False) as c:
            c.execute(
                self._sql(f"SELECT public_key FROM {self.players} WHERE player_id = ?"),
                (player_id,),
            )
            row = c.fetchone()
            return bytes(row["public_key"]) if row else None

    def player(self, public_key: bytes) -> tuple[str, list[RatingRow]]:
        """A key's display name and its rating in each kind it played."""
        with self._transaction(write=False) as c:
            c.execute(
                self._sql(f"SELECT display_name FROM {self.players} WHERE public_key = ?"),
                (public_key,),
            )
            found = c.fetchone()
            c.execute(
                self._sql(
                    f"SELECT public_key, kind, mu, sigma, games, '' AS display_name "
                    f"FROM {self.ratings} WHERE public_key = ? ORDER BY kind"
                ),
                (public_key,),
            )
            return (found["display_name"] if found else ""), [_row(r) for r in c.fetchall()]

    def history_of(self, public_key: bytes, *, before: int | None, limit: int) -> list[RatedSeat]:
        """A key's rated games, newest first, before a position."""
        with self._transaction(write=False) as c:
            c.execute(
                self._sql(
                    f"SELECT * FROM {self.history} WHERE public_key = ? AND position < ? "
                    "ORDER BY position DESC LIMIT ?"
                ),
                (public_key, before if before is not None else 2**62, limit),
            )
            return [
                RatedSeat(
                    r["position"],
                    r["game_id"],
                    r["kind"],
                    bytes(r["public_key"]),
                    r["seat"],
                    r["rank"],
                    Rating(r["mu"], r["sigma"], r["games"]),
                )
                for r in c.fetchall()
            ]

    def everything(self) -> tuple[list[RatingRow], list[RatedSeat], list[tuple[bytes, str]]]:
        """Every row of the three tables in a fixed order (rebuild checks)."""
        with self._transaction(write=False) as c:
            c.execute(
                f"SELECT public_key, kind, mu, sigma, games, '' AS display_name "
                f"FROM {self.ratings} ORDER BY public_key, kind"
            )
            ratings = [_row(r) for r in c.fetchall()]
            c.execute(f"SELECT * FROM {self.history} ORDER BY public_key, position")
            history = [
                RatedSeat(
                    r["position"],
                    r["game_id"],
                    r["kind"],
                    bytes(r["public_key"]),
                    r["seat"],
                    r["rank"],
                    Rating(r["mu"], r["sigma"], r["games"]),
                )
                for r in c.fetchall()
            ]
            c.execute(f"SELECT public_key, display_name FROM {self.players} ORDER BY public_key")
            names = [(bytes(r["public_key"]), r["display_name"]) for r in c.fetchall()]
            return ratings, history, names


def _row(r: Any) -> RatingRow:
    return RatingRow(
        bytes(r["public_key"]),
        r["kind"],
        Rating(r["mu"], r["sigma"], r["games"]),
        r["display_name"] or "",
    )


class Batch:
    """The ratings a batch reads and changes, inside its transaction: a
    rating changed by an earlier game of the batch is read from here."""

    def __init__(self, recorder: RatingsRecorder, cursor: Any) -> None:
        self._recorder = recorder
        self._cursor = cursor
        self._ratings: dict[tuple[bytes, str], Rating] = {}
        self._history: list[RatedSeat] = []
        self._names: dict[bytes, tuple[str, str, int]] = {}

    def ratings(self, kind: str, keys: Iterable[bytes]) -> dict[bytes, Rating]:
        """The current ratings of ``keys`` in ``kind`` (unrated keys absent)."""
        out: dict[bytes, Rating] = {}
        for key in keys:
            if (key, kind) in self._ratings:
                out[key] = self._ratings[key, kind]
                continue
            self._cursor.execute(
                self._recorder._sql(
                    f"SELECT mu, sigma, games FROM {self._recorder.ratings} "
                    "WHERE public_key = ? AND kind = ?"
                ),
                (key, kind),
            )
            row = self._cursor.fetchone()
            if row is not None:
                out[key] = Rating(row["mu"], row["sigma"], row["games"])
        return out

    def record(self, seats: Iterable[RatedSeat]) -> None:
        for seat in seats:
            self._ratings[seat.public_key, seat.kind] = seat.rating
            self._history.append(seat)

    def name(self, public_key: bytes, player_id: str, display_name: str, position: int) -> None:
        self._names[public_key] = (player_id, display_name, position)

    def flush(self) -> None:
        r, c = self._recorder, self._cursor
        if self._ratings:
            c.executemany(
                r._sql(
                    f"INSERT INTO {r.ratings} (public_key, kind, mu, sigma, display, games) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (public_key, kind) DO UPDATE SET "
                    "mu = excluded.mu, sigma = excluded.sigma, display = excluded.display, "
                    "games = excluded.games"
                ),
                [
                    (key, kind, v.mu, v.sigma, v.display, v.games)
                    for (key, kind), v in self._ratings.items()
                ],
            )
        if self._history:
            c.executemany(
                r._sql(
                    f"INSERT INTO {r.history} (public_key, kind, position, game_id, seat, rank, "
                    "mu, sigma, games) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                ),
                [
                    (
                        s.public_key,
                        s.kind,
                        s.position,
                        s.game_id,
                        s.seat,
                        s.rank,
                        s.rating.mu,
                        s.rating.sigma,
                        s.rating.games,
                    )
                    for s in self._history
                ],
            )
        if self._names:
            c.executemany(
                r._sql(
                    f"INSERT INTO {r.players} (public_key, player_id, display_name, position) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (public_key) DO UPDATE SET "
                    "display_name = excluded.display_name, position = excluded.position"
                ),
                [(key, pid, name, at) for key, (pid, name, at) in self._names.items()],
            )


class SQLiteRatings(SQLiteTrackingRecorder, RatingsRecorder):
    def __init__(self, datastore: SQLiteDatastore, *, events_table_name: str) -> None:
        super().__init__(datastore)
        self.events = _quoted(events_table_name)
        self.ratings_name = "ratings"
        self.ratings = _quoted("ratings")
        self.history = _quoted("rating_history")
        self.players = _quoted("players")
        self.tracking = "tracking"
        self.blob, self.real = "BLOB", "REAL"

    def _transaction(self, *, write: bool) -> AbstractContextManager[Any]:
        return self.datastore.transaction(commit=write)

    def _sql(self, statement: str) -> str:
        return statement

    def _game_id_param(self, game_id: str) -> Any:
        return game_id.replace("-", "")  # UUID.hex, as the library keeps ids on SQLite


class PostgresRatings(PostgresTrackingRecorder, RatingsRecorder):
    def __init__(
        self, datastore: PostgresDatastore, *, events_table_name: str, prefix: str
    ) -> None:
        super().__init__(datastore, tracking_table_name=f"{prefix}_tracking")
        schema = _quoted(datastore.schema)
        self.events = f"{schema}.{_quoted(events_table_name)}"
        self.ratings_name = f"{prefix}_ratings"
        self.ratings = f"{schema}.{_quoted(self.ratings_name)}"
        self.history = f"{schema}.{_quoted(f'{prefix}_rating_history')}"
        self.players = f"{schema}.{_quoted(f'{prefix}_players')}"
        self.tracking = f"{schema}.{_quoted(self.tracking_table_name)}"
        self.blob, self.real = "bytea", "double precision"

    @contextmanager
    def _transaction(self, *, write: bool) -> Iterator[Any]:
        if write:
            with self.datastore.transaction(commit=True) as c:
                yield c
        else:
            with self.datastore.get_connection() as connection, connection.cursor() as c:
                yield c

    def _sql(self, statement: str) -> str:
        return statement.replace("?", "%s")

    @contextmanager
    def _creation_transaction(self) -> Iterator[Any]:
        # Servers starting at once on one database: CREATE ... IF NOT EXISTS
        # is not safe against a concurrent creator on PostgreSQL.
        with self.datastore.transaction(commit=True) as c:
            c.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.ratings,))
            yield c

    def _game_id_param(self, game_id: str) -> Any:
        return UUID(game_id)


def ratings_recorder(events: ApplicationRecorder, prefix: str) -> RatingsRecorder:
    """The ratings' recorder on the datastore of a log's recorder; its tables
    are created (or found) by ``prepare()``."""
    if isinstance(events, SQLiteApplicationRecorder):
        return SQLiteRatings(events.datastore, events_table_name=events.events_table_name)
    if isinstance(events, PostgresApplicationRecorder):
        return PostgresRatings(
            events.datastore, events_table_name=events.events_table_name, prefix=prefix
        )
    raise TypeError(f"no ratings for a {type(events).__name__}")
