"""Helpers for the trust tests that go through a real server and its
database: complete games played with random legal moves, and direct access
to a game's stored rows (to tamper with them behind the service's back)."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import sys
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

import psycopg
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from cardroom.client import Client
from cardroom.server.games.application import Games
from cardroom.server.storage.log import GameLog
from cardroom.trust.audit import Report, audit_events
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import trust_pb2 as trpb

SM = "smoke-and-mirrors"
NAMES = ["Ada", "Babbage", "Curie", "Dirac", "Emmy", "Fermat"]
MAX_COMMANDS = 5000


@dataclass
class Game:
    game_id: str
    tokens: list[str]


async def new_game(
    client: Client,
    *,
    kind: str = SM,
    seats: int = 2,
    policy: tpb.SpectatorPolicy | None = None,
) -> Game:
    """A game with every seat taken and play started."""
    game_id = await client.create_game(kind, seat_count=seats, spectator_policy=policy)
    handles = [await client.join(game_id, NAMES[i]) for i in range(seats)]
    await client.start(game_id, handles[0].token)
    return Game(game_id, [h.token for h in handles])


async def step(client: Client, game: Game, rng: random.Random) -> bool:
    """One random legal command by the first seat that has one; False when
    no seat can act."""
    for token in game.tokens:
        actions = await client.legal_actions(game.game_id, token)
        if actions:
            await client.act(game.game_id, token, rng.choice(actions))
            return True
    return False


async def play_out(
    client: Client,
    game: Game,
    rng: random.Random,
    after_each: Callable[[], Awaitable[Any]] | None = None,
) -> int:
    """Random legal play, one command at a time, until the game is over;
    ``after_each`` runs after every command. Returns the command count."""
    for commands in range(MAX_COMMANDS):
        if not await step(client, game, rng):
            view = await client.view(game.game_id, game.tokens[0])
            assert view.table.finished, "nobody can act and the game is not over"
            return commands
        if after_each is not None:
            await after_each()
    raise AssertionError(f"the game did not end within {MAX_COMMANDS} commands")


async def finished_game(
    client: Client,
    *,
    kind: str = SM,
    seats: int = 2,
    policy: tpb.SpectatorPolicy | None = None,
    seed: int = 0,
) -> Game:
    game = await new_game(client, kind=kind, seats=seats, policy=policy)
    await play_out(client, game, random.Random(seed))
    return game


def read_stored(database: str, game_id: str) -> list[bytes]:
    """The game's stored bytes, read by a fresh store (no server cache)."""
    log = GameLog(database)
    try:
        return log.read_stored(game_id)
    finally:
        log.close()


def audit_database(database: str, game_id: str, head: bytes | None = None) -> Report:
    """``audit_events`` over what the database holds now."""
    return audit_events(read_stored(database, game_id), head=head)


def export_fresh(database: str, key: Ed25519PrivateKey, game_id: str) -> trpb.GameRecord:
    """What a freshly started server (nothing cached) signs for the game."""
    log = GameLog(database)
    try:
        return Games(log, operator_token="export", signing_key=key).export_record(game_id, "export")
    finally:
        log.close()


def failed(report: Report) -> set[str]:
    return {p.check for p in report.problems}


def envelope(raw: bytes) -> epb.EventEnvelope:
    return epb.EventEnvelope.FromString(raw)


class Rows:
    """One game's rows in the events table, read and written with plain SQL
    (SQLite ``stored_events``, PostgreSQL ``<schema>.cardroom_events``):
    what someone with write access to the database could do."""

    def __init__(self, database: str, game_id: str) -> None:
        self.database = database
        self.postgres = database.startswith(("postgresql://", "postgres://"))
        if self.postgres:
            url = urlparse(database)
            query = dict(p.split("=", 1) for p in url.query.split("&") if p)
            self.url = url._replace(query="").geturl()
            self.table = f'"{query.get("schema", "public")}".cardroom_events'
            self.key: Any = uuid.UUID(game_id)
        else:
            self.table = "stored_events"
            self.key = uuid.UUID(game_id).hex  # how eventsourcing stores it in SQLite

    @contextmanager
    def _cursor(self) -> Iterator[Any]:
        if self.postgres:
            with psycopg.connect(self.url) as pg, pg.cursor() as cur:
                yield cur
        else:
            lite = sqlite3.connect(self.database)
            try:
                with lite:
                    yield lite.cursor()
            finally:
                lite.close()

    def _sql(self, text: str) -> str:
        return text.format(table=self.table).replace("?", "%s" if self.postgres else "?")

    def read(self) -> list[tuple[int, str, bytes]]:
        """(version, topic, state) of every row, in version order."""
        with self._cursor() as cur:
            cur.execute(
                self._sql(
                    "SELECT originator_version, topic, state FROM {table} "
                    "WHERE originator_id = ? ORDER BY originator_version"
                ),
                (self.key,),
            )
            return [(int(v), str(t), bytes(s)) for v, t, s in cur.fetchall()]

    def states(self) -> list[bytes]:
        return [state for _, _, state in self.read()]

    def set_state(self, version: int, state: bytes) -> None:
        with self._cursor() as cur:
            cur.execute(
                self._sql(
                    "UPDATE {table} SET state = ? "
                    "WHERE originator_id = ? AND originator_version = ?"
                ),
                (state, self.key, version),
            )
            assert cur.rowcount == 1

    def delete(self, version: int) -> None:
        with self._cursor() as cur:
            cur.execute(
                self._sql("DELETE FROM {table} WHERE originator_id = ? AND originator_version = ?"),
                (self.key, version),
            )
            assert cur.rowcount == 1

    def insert(self, version: int, topic: str, state: bytes) -> None:
        with self._cursor() as cur:
            cur.execute(
                self._sql(
                    "INSERT INTO {table} (originator_id, originator_version, topic, state) "
                    "VALUES (?, ?, ?, ?)"
                ),
                (self.key, version, topic, state),
            )

    def shift_up(self, after: int) -> None:
        """Move every row after ``after`` one version up (making room)."""
        for version, topic, state in reversed(self.read()):
            if version > after:
                self.delete(version)
                self.insert(version + 1, topic, state)


# ------------------------------------------------------------ processes


async def cardroom(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Run ``python -m cardroom.cli ARGS`` as a separate process (without
    blocking the event loop a served fixture runs on): exit code, stdout,
    stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "cardroom.cli",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=120)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()
