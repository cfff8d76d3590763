"""Write scale of the store alone: raw appends from N processes on one
PostgreSQL, with and without what serialises them.

No server, no rules: each process appends one event at a time (470 bytes,
the median size of a stored cardroom event) to its own game, through
eventsourcing's PostgreSQL recorders; all of them start at the same moment
and stop together. Every append is its own transaction, as a command's is.

What serialises appends from several processes, and is measured apart:

* the **table lock**: the library's application recorder takes
  ``LOCK TABLE ... IN EXCLUSIVE MODE`` on the events table in every append,
  so notification ids are committed in order (a reader following them never
  skips one that commits later);
* **NOTIFY**: the same recorder sends ``NOTIFY`` in every append (how other
  servers hear of a write). PostgreSQL commits a transaction that notified
  under one lock for the whole cluster (``PreCommit_Notify`` in
  src/backend/commands/async.c), so notifying commits queue one behind
  another even in different schemas or databases.

Both locks are held until the commit is on disk, so while one append waits
for its WAL flush, the others wait for it.

The layouts (what cardroom does now is the first):

* one table, lock + NOTIFY: the library's application recorder;
* one table, NOTIFY, no lock: the same, without the table lock;
* one table, no lock, no NOTIFY: the same table and notification ids,
  neither lock nor NOTIFY (ids may then commit out of order: measured only
  to price the two);
* a schema per process, lock + NOTIFY: games partitioned over schemas (each
  with its own events table and lock), the library's recorder;
* a schema per process, lock, no NOTIFY: the same, with writes announced
  some other way (a broker).

Figures on a shared machine drift with its other work (a commit's flush
took 1.6-7 ms here), so the cells are measured in rounds, every layout and
count once per round, and each cell's figure is its median over the rounds.
While the processes append, this process samples ``pg_stat_activity`` for
what their database sessions are waiting for: the share of samples waiting
for the table lock or NOTIFY's lock is the serialisation itself, read
apart from the machine's speed.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import psycopg
from eventsourcing.persistence import ApplicationRecorder, InfrastructureFactory, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.utils import Environment

from bench.config import Run
from bench.load import Link, Worker, kill_all
from bench.raw_save import storage_env
from bench.report import count, ms, p50, times
from bench.servers import POSTGRES_URL, postgres_schema

EVENT_BYTES = 470  # the median stored event of a Smoke & Mirrors game
APP = "benchwrites"  # the events table is benchwrites_events
WRITER = "cardroom-bench-writer"  # the writers' application_name, for the sampler
START_DELAY = 0.3  # seconds from "go" to the common start, for every worker to be waiting
STEP_SECONDS = 120.0  # for a worker to connect, or to return its samples
SAMPLE_EVERY = 0.005  # seconds between two looks at pg_stat_activity


class NoLockRecorder(PostgresApplicationRecorder):
    """The application recorder without its table lock."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lock_table_statements = []


class NoNotifyRecorder(PostgresApplicationRecorder):
    """The application recorder without NOTIFY (the table lock kept)."""

    def _notify_channel(self, curs: Any) -> None:
        pass


class NeitherRecorder(NoLockRecorder):
    """Neither the table lock nor NOTIFY: a plain INSERT ... RETURNING."""

    def _notify_channel(self, curs: Any) -> None:
        pass


@dataclass(frozen=True)
class Layout:
    name: str
    recorder: type[PostgresApplicationRecorder]
    schema_per_process: bool

    @property
    def topic(self) -> str:
        """The recorder class as eventsourcing's APPLICATION_RECORDER_TOPIC."""
        return f"{self.recorder.__module__}:{self.recorder.__qualname__}"


LAYOUTS = (
    Layout("one table, lock + NOTIFY (cardroom now)", PostgresApplicationRecorder, False),
    Layout("one table, NOTIFY, no lock", NoLockRecorder, False),
    Layout("one table, no lock, no NOTIFY", NeitherRecorder, False),
    Layout("a schema per process, lock + NOTIFY", PostgresApplicationRecorder, True),
    Layout("a schema per process, lock, no NOTIFY", NoNotifyRecorder, True),
)

# What a writer's database session was doing when sampled.
WAITS = (
    "table lock",
    "NOTIFY's lock",
    "WAL flush",
    "working",
    "in a transaction, waiting for its client",
    "between appends",
    "other",
)


def recorder(database: str, topic: str, create: bool) -> tuple[Any, ApplicationRecorder]:
    """An eventsourcing factory and its application recorder (the class
    named by ``topic``) on ``database`` (a postgresql:// URL with ?schema=)."""
    env = Environment(
        APP,
        {
            **storage_env(database),
            "APPLICATION_RECORDER_TOPIC": topic,
            "CREATE_TABLE": "yes" if create else "no",
            "POSTGRES_POOL_SIZE": "1",
        },
    )
    factory = InfrastructureFactory.construct(env)
    return factory, factory.application_recorder()


def append(events: ApplicationRecorder, game: uuid.UUID, version: int, payload: bytes) -> None:
    events.insert_events([StoredEvent(game, version, "cardroom.v1.ActPerformed", payload)])


async def job(link: Link) -> None:
    """One writer, for as many cells as it is sent: on ("cell", database,
    recorder topic), connect and append once (to a new game), send "ready";
    on ("go", start, end) (time.monotonic()), append from start until end
    and send ("samples", seconds of each append). Returns on ("stop",)."""
    os.environ["PGAPPNAME"] = WRITER  # libpq names the session: the sampler finds it
    payload = os.urandom(EVENT_BYTES)
    while True:
        message = await link.receive()
        if message[0] == "stop":
            return
        _, database, topic = message
        factory, events = recorder(database, topic, create=False)
        try:
            game, version = uuid.uuid4(), 1
            append(events, game, version, payload)
            link.send("ready")
            _, start, end = await link.receive()
            await asyncio.sleep(max(0.0, start - time.monotonic()))
            samples: list[float] = []
            while (began := time.monotonic()) < end:
                version += 1
                append(events, game, version, payload)
                samples.append(time.monotonic() - began)
            link.send("samples", samples)
        finally:
            factory.close()


def kind_of_wait(state: str | None, wait_type: str | None, wait: str | None) -> str:
    if state == "idle in transaction":  # between two round trips of one append
        return "in a transaction, waiting for its client"
    if state != "active":
        return "between appends"
    if wait_type is None:
        return "working"
    if wait_type == "Lock" and wait in ("relation", "object"):
        # NOTIFY's commit lock is on the shared object "database 0".
        return "table lock" if wait == "relation" else "NOTIFY's lock"
    if wait and wait.startswith("WAL"):  # WALSync, WALWrite: the commit's flush, or another's
        return "WAL flush"
    return "other"


def sample_waits(until: float, stop: threading.Event) -> Counter[str]:
    """What the writers' sessions wait for, looked at every SAMPLE_EVERY
    seconds until ``until`` (time.monotonic())."""
    seen: Counter[str] = Counter()
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        query = (
            "SELECT state, wait_event_type, wait_event FROM pg_stat_activity "
            "WHERE application_name = %s"
        )
        while time.monotonic() < until and not stop.is_set():
            for state, wait_type, wait in conn.execute(query, (WRITER,)).fetchall():
                seen[kind_of_wait(state, wait_type, wait)] += 1
            time.sleep(SAMPLE_EVERY)
    return seen


@dataclass
class Cell:
    """One layout with N processes, over the rounds: appends per second in
    each round, the seconds of every append, what the sessions waited for."""

    per_second: list[float] = field(default_factory=list)
    appends: list[float] = field(default_factory=list)
    waits: Counter[str] = field(default_factory=Counter)


@contextmanager
def schemas(layout: Layout, processes: int) -> Iterator[list[str]]:
    """The database URL each process writes to: one fresh schema for all,
    or one each; their tables created here, dropped after."""
    with ExitStack() as stack:
        fresh = processes if layout.schema_per_process else 1
        urls = [stack.enter_context(postgres_schema()) for _ in range(fresh)]
        for url in urls:
            factory, _ = recorder(url, layout.topic, create=True)
            factory.close()
        yield urls if layout.schema_per_process else urls * processes


async def measure_cell(workers: list[Worker], layout: Layout, seconds: float, cell: Cell) -> None:
    """One round of one cell: ``workers`` append together for ``seconds``."""
    with schemas(layout, len(workers)) as urls:
        for worker, url in zip(workers, urls, strict=True):
            worker.send("cell", url, layout.topic)
        for worker in workers:
            await asyncio.wait_for(worker.receive(), STEP_SECONDS)  # "ready"
        start = time.monotonic() + START_DELAY
        end = start + seconds
        stop = threading.Event()
        sampler = asyncio.create_task(asyncio.to_thread(sample_waits, end, stop))
        try:
            for worker in workers:
                worker.send("go", start, end)
            samples = [(await asyncio.wait_for(w.receive(), STEP_SECONDS))[1] for w in workers]
        finally:
            stop.set()
            cell.waits += await sampler
    cell.per_second.append(sum(len(s) for s in samples) / seconds)
    cell.appends.extend(x for s in samples for x in s)


async def measure(run: Run) -> str:
    """The tables: appends per second by layout and number of processes,
    and, with the most processes, each layout against the unserialised one
    and what the sessions waited for."""
    counts = run.scale.store_writers
    cells = {(layout, n): Cell() for layout in LAYOUTS for n in counts}
    workers = [Worker(job) for _ in range(max(counts))]
    try:
        for _ in range(run.scale.store_rounds):
            for n in counts:
                for layout in LAYOUTS:
                    cell = cells[layout, n]
                    await measure_cell(workers[:n], layout, run.scale.store_seconds, cell)
        for worker in workers:
            worker.send("stop")
    finally:
        kill_all(workers)
    return "\n".join(
        [
            scaling_table(cells, counts),
            "",
            serialised_table(cells, max(counts)),
            "",
            (
                f"Each process appends {EVENT_BYTES}-byte events to its own game, one per "
                f"transaction; {run.scale.store_rounds} rounds of {run.scale.store_seconds:g} s, "
                "every cell once per round; appends/s is the median round, a ratio the median "
                f"of the rounds' ratios; {settings_line()}; {os.cpu_count()} cores shared by "
                "the database and the writers."
            ),
        ]
    )


def markdown(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def paired(numerators: list[float], denominators: list[float]) -> float:
    """The median of round-by-round ratios (each pair measured minutes apart
    at most, so a slower or faster machine moves both)."""
    return p50([a / b for a, b in zip(numerators, denominators, strict=True)])


def scaling_table(cells: dict[tuple[Layout, int], Cell], counts: tuple[int, ...]) -> str:
    """Appends per second, and the ratio to one process of the same layout
    (N if appends scaled with the processes, 1 if they were serialised)."""
    header = ["appends/s of all processes (vs 1 process)"]
    header += [f"{n} process{'es' if n > 1 else ''}" for n in counts]
    rows = []
    for layout in LAYOUTS:
        one = cells[layout, counts[0]].per_second
        shown = []
        for n in counts:
            rates = cells[layout, n].per_second
            shown.append(f"{count(round(p50(rates)))}/s ({times(paired(rates, one))})")
        rows.append([layout.name, *shown])
    return markdown(header, rows)


def serialised_table(cells: dict[tuple[Layout, int], Cell], processes: int) -> str:
    """With ``processes`` writers: each layout against the one without lock
    or NOTIFY, the p50 of one append, and what the sessions waited for."""
    free = cells[LAYOUTS[2], processes].per_second
    header = [f"{processes} processes", "vs no lock, no NOTIFY", "p50 of one append"]
    header += [f"waiting: {w}" if i < 3 else w for i, w in enumerate(WAITS)]
    rows = []
    for layout in LAYOUTS:
        cell = cells[layout, processes]
        total = sum(cell.waits.values()) or 1
        shares = [f"{100 * cell.waits[w] / total:.0f}%" for w in WAITS]
        ratio = times(paired(cell.per_second, free))
        rows.append([layout.name, ratio, ms(p50(cell.appends)), *shares])
    return markdown(header, rows)


def settings_line() -> str:
    """The database's durability settings, which set the floor of a commit."""
    with psycopg.connect(POSTGRES_URL) as conn:
        shown = []
        for name in ("server_version", "fsync", "synchronous_commit"):
            row = conn.execute(f"SHOW {name}").fetchone()
            shown.append(f"{name} {row[0] if row else '?'}")
    return "PostgreSQL " + ", ".join(shown)
