"""The raw eventsourcing baseline: what one ``Application.save()`` of one
small event costs on this machine and backend, with no server around it.

A tiny Application (a tally: one ``Added`` event per save) on a fresh
database of the same backend, in its own process (a worker job), so a
command's cost can be read against the library's own write cost.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import unquote, urlparse

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from bench.load import Link

AGGREGATES = 100


class Tally(Aggregate):
    @event("Created")
    def __init__(self) -> None:
        self.total = 0

    @event("Added")
    def add(self, amount: int) -> None:
        self.total += amount


class Tallies(Application[Any]):
    name = "benchtally"


def storage_env(database: str) -> dict[str, str]:
    """eventsourcing settings for a SQLite path or a postgresql:// URL."""
    if not database.startswith(("postgresql://", "postgres://")):
        return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": database}
    url = urlparse(database)
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": (url.path or "/postgres").lstrip("/") or "postgres",
        "POSTGRES_HOST": url.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(url.port or 5432),
        "POSTGRES_USER": unquote(url.username or "postgres"),
        "POSTGRES_PASSWORD": unquote(url.password or ""),
    }
    for part in filter(None, url.query.split("&")):
        key, _, value = part.partition("=")
        if key == "schema":
            env["POSTGRES_SCHEMA"] = value
    return env


async def job(link: Link, database: str, saves: int) -> list[float]:
    """Seconds of each of ``saves`` saves (after creating the aggregates)."""
    app = Tallies(env=storage_env(database))
    try:
        tallies = [Tally() for _ in range(AGGREGATES)]
        app.save(*tallies)
        samples = []
        for i in range(saves):
            tally = tallies[i % AGGREGATES]
            tally.add(1)
            started = time.monotonic()
            app.save(tally)
            samples.append(time.monotonic() - started)
        return samples
    finally:
        app.close()


async def cpu_job(link: Link, database: str, saves: int) -> float:
    """This process's CPU seconds per save (after creating the aggregates):
    the raw save's cost in the unit of the CPU figures (bench/cpu.py)."""
    app = Tallies(env=storage_env(database))
    try:
        tallies = [Tally() for _ in range(AGGREGATES)]
        app.save(*tallies)
        began = time.process_time()
        for i in range(saves):
            tally = tallies[i % AGGREGATES]
            tally.add(1)
            app.save(tally)
        return (time.process_time() - began) / saves
    finally:
        app.close()
