"""A game's first event and its newest ones in one query.

A game loaded from its table's checkpoint at version V needs from the
events table exactly event 1 (its creation) and the events from V on
(cardroom.server.cache). The recorder's ``select_events`` reads one range
at a time, so that would be two round trips; on PostgreSQL every round trip
of a cold load is a wait for the database, which a busy machine makes
long. Here both ranges are one statement (two index range reads joined by
UNION ALL) on the recorder's own table and connection, retried on a dead
pooled connection as the library retries its own reads.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.persistence import AggregateRecorder, InterfaceError, OperationalError
from eventsourcing.postgres import PostgresAggregateRecorder
from eventsourcing.sqlite import SQLiteAggregateRecorder
from eventsourcing.utils import retry
from psycopg.sql import SQL, Identifier

ENDS = (
    "SELECT originator_version, state FROM {table} "
    "WHERE originator_id = {p} AND originator_version = 1 "
    "UNION ALL "
    "SELECT originator_version, state FROM {table} "
    "WHERE originator_id = {p} AND originator_version > {p}"
)


def first_and_after(recorder: AggregateRecorder, game_id: str, after: int) -> list[bytes]:
    """The stored bytes of event 1 and of every event after version
    ``after`` (>= 1), in version order."""
    if isinstance(recorder, PostgresAggregateRecorder):
        rows = _postgres(recorder, UUID(game_id), after)
    elif isinstance(recorder, SQLiteAggregateRecorder):
        rows = _sqlite(recorder, UUID(game_id).hex, after)
    else:  # another recorder (none in use): two reads
        found = [
            *recorder.select_events(UUID(game_id), lte=1),
            *recorder.select_events(UUID(game_id), gt=after),
        ]
        rows = [(stored.originator_version, stored.state) for stored in found]
    return [bytes(state) for _, state in sorted(rows, key=lambda row: int(row[0]))]


@retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
def _postgres(recorder: PostgresAggregateRecorder, game_id: UUID, after: int) -> list[Any]:
    schema = Identifier(recorder.datastore.schema)
    table = SQL("{0}.{1}").format(schema, Identifier(recorder.events_table_name))
    statement = SQL(ENDS.replace("{p}", "%s")).format(table=table)
    with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
        cursor.execute(statement, (game_id, game_id, after), prepare=True)
        return [(row["originator_version"], row["state"]) for row in cursor.fetchall()]


def _sqlite(recorder: SQLiteAggregateRecorder, game_id: str, after: int) -> list[Any]:
    statement = ENDS.format(table=recorder.events_table_name, p="?")
    with recorder.datastore.transaction(commit=False) as cursor:
        cursor.execute(statement, (game_id, game_id, after))
        return [(row["originator_version"], row["state"]) for row in cursor.fetchall()]
