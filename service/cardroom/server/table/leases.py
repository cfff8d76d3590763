"""Which server plays a game's bots: a lease per game, so that with several
servers on one store each bot is played by exactly one of them.

A lease is coordination, not game state: it says who runs a bot, never what
the bot did, and losing every lease loses nothing (the events are the
record; the next holder plays on from them).

* SQLite has one server (it holds the file's lock), so every lease is its.
* PostgreSQL: a session-level advisory lock per game, on a connection of the
  lease holder's own. A server that dies (or whose session the database
  ends) loses its session and with it every lock, at once; the other
  servers' next look (``--bot-lease-seconds``) takes the games over.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

import psycopg

from cardroom.server.storage.log import GameLog

log = logging.getLogger(__name__)

# How long a lease check may take before the session counts as lost (a
# database behind a broken network answers nothing, rather than an error).
CHECK_SECONDS = 10.0


class Leases(Protocol):
    # Whether other servers may hold leases too (else there is nothing to
    # take over, and no need to look again after the start).
    shared: bool

    async def take(self, game_id: str) -> bool:
        """Whether this server now holds the game's lease (or already did)."""
        ...

    async def give_back(self, game_id: str) -> None: ...

    async def check(self) -> bool:
        """Whether the leases taken so far are still held; False: every one
        is lost (the holder must stop their bots), and ``take`` starts afresh."""
        ...

    async def close(self) -> None: ...


class SoleLeases:
    """The store's only server holds every lease (SQLite)."""

    shared = False

    async def take(self, game_id: str) -> bool:
        return True

    async def give_back(self, game_id: str) -> None:
        pass

    async def check(self) -> bool:
        return True

    async def close(self) -> None:
        pass


def lock_key(schema: str, game_id: str) -> int:
    """The advisory lock's 64-bit key for a game's bots (a collision only
    puts two games' bots on one server)."""
    digest = hashlib.sha256(f"cardroom bots\0{schema}\0{game_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class AdvisoryLeases:
    """PostgreSQL advisory locks, one per game, held by one session of this
    server's (its calls run in a thread of their own: psycopg blocks)."""

    shared = True

    def __init__(self, connect: dict[str, Any], schema: str = "") -> None:
        self._connect = connect
        self._schema = schema
        self._connection: psycopg.Connection[Any] | None = None
        self._held: set[str] = set()
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="cardroom-leases")

    @classmethod
    def for_store(cls, store: GameLog) -> AdvisoryLeases:
        env = store.env
        return cls(
            {
                "dbname": env.get("POSTGRES_DBNAME", "postgres"),
                "host": env.get("POSTGRES_HOST", "127.0.0.1"),
                "port": int(env.get("POSTGRES_PORT", "5432")),
                "user": env.get("POSTGRES_USER", "postgres"),
                "password": env.get("POSTGRES_PASSWORD", ""),
                "connect_timeout": int(env.get("POSTGRES_CONNECT_TIMEOUT", "5")),
                "application_name": "cardroom bot leases",
            },
            env.get("POSTGRES_SCHEMA", ""),
        )

    async def _in_thread(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._thread, fn, *args)

    @property
    def backend_pid(self) -> int | None:
        """The lease session's server process (tests end it to play a crash)."""
        connection = self._connection
        return None if connection is None or connection.closed else connection.info.backend_pid

    def _session(self) -> psycopg.Connection[Any]:
        if self._connection is None or self._connection.closed:
            self._held.clear()  # a new session holds nothing yet
            self._connection = psycopg.connect(autocommit=True, **self._connect)
        return self._connection

    def _lost(self) -> None:
        connection, self._connection = self._connection, None
        self._held.clear()
        if connection is not None:
            try:
                connection.close()
            except Exception:
                log.debug("closing the lost lease session failed", exc_info=True)

    def _take(self, game_id: str) -> bool:
        if game_id in self._held and self._connection is not None:
            return True
        try:
            row = (
                self._session()
                .execute("SELECT pg_try_advisory_lock(%s)", (lock_key(self._schema, game_id),))
                .fetchone()
            )
        except psycopg.Error as error:
            log.warning("taking the lease of game %s failed: %s", game_id, error)
            self._lost()
            return False
        if row is not None and row[0]:
            self._held.add(game_id)
            return True
        return False

    async def take(self, game_id: str) -> bool:
        return bool(await self._in_thread(self._take, game_id))

    def _give_back(self, game_id: str) -> None:
        if game_id not in self._held or self._connection is None:
            return
        self._held.discard(game_id)
        try:
            self._connection.execute(
                "SELECT pg_advisory_unlock(%s)", (lock_key(self._schema, game_id),)
            )
        except psycopg.Error:
            self._lost()

    async def give_back(self, game_id: str) -> None:
        await self._in_thread(self._give_back, game_id)

    def _check(self) -> bool:
        if self._connection is None:
            return not self._held
        try:
            self._connection.execute("SELECT 1")
            return True
        except psycopg.Error:
            self._lost()
            return False

    async def check(self) -> bool:
        try:
            async with asyncio.timeout(CHECK_SECONDS):
                return bool(await self._in_thread(self._check))
        except TimeoutError:
            log.warning("the lease session did not answer in %.0f s: leases dropped", CHECK_SECONDS)
            self._connection = None  # its thread may still hang on it; a new session next
            self._held.clear()
            return False

    async def close(self) -> None:
        await self._in_thread(self._lost)
        self._thread.shutdown(wait=False)


def leases_for(store: GameLog) -> Leases:
    return AdvisoryLeases.for_store(store) if store.is_postgres else SoleLeases()
