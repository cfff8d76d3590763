"""Rows 5 and 6: live events to many spectators of one game.

Delivery: N watchers (WatchEvents as spectators, spread over several worker
processes and connections) follow one game; the writer (this process)
submits one command at a time and waits until every watcher has its last
event before the next, so each command's delivery is measured alone. A
command's delivery is the last watcher's arrival time minus the command's
start; both are ``time.monotonic()`` readings (CLOCK_MONOTONIC, one clock
for every process on Linux). Arrival is when the watcher's own event loop
handles the message, so a busy watcher process counts too, as it would for
a real client.

Baseline: the same spectator events, grouped by command as they were
written, fanned out to the same watcher processes by a bare grpc.aio server
(bench/bare_fanout.py) that does nothing else: the floor gRPC puts under
this row on this machine.

Writer slowdown: the writer plays commands back to back on a new game with
no watchers, then on another with 100 watchers that do not pace it; the
SubmitCommand p50 of each. On PostgreSQL also with the 100 watchers on a
second server of the same database, the deployment docs/scaling.md gives
for large audiences.
"""

from __future__ import annotations

import asyncio
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bench import bare_fanout, load
from bench.bots import LONG, Command, Table, move, play, seated_game
from bench.config import Run
from bench.load import Link, Worker
from bench.report import Row, count, ms, p50, percentile, times
from bench.servers import Server, cpu_seconds
from cardroom.client import CardroomError, Client
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb

STREAMS_PER_CONNECTION = 90  # the server allows 100 open calls per connection
STREAMS_PER_PROCESS = 250
CATCH_UP_SECONDS = 300.0
DELIVERY_SECONDS = 60.0
RESUMES_PER_STREAM = 20


async def watch_job(link: Link, address: str, game_id: str, streams: int) -> dict[str, Any]:
    """``streams`` spectator streams of one game. Sends ("reached", seq)
    once every stream of this process holds event ``seq``; on ("stop",)
    returns each sequence's latest arrival and how many streams got it."""
    connections = math.ceil(streams / STREAMS_PER_CONNECTION)
    clients = [load.client(address, own_connection=True) for _ in range(connections)]
    latest: dict[int, float] = {}
    received: dict[int, int] = {}
    resumes = 0

    async def follow(stream: int) -> None:
        nonlocal resumes
        client = clients[stream // STREAMS_PER_CONNECTION]
        cursor = 0
        for _ in range(RESUMES_PER_STREAM):
            try:
                async for envelope in client.watch(game_id, after_sequence=cursor):
                    now = time.monotonic()
                    cursor = envelope.sequence
                    latest[cursor] = max(latest.get(cursor, 0.0), now)
                    received[cursor] = received.get(cursor, 0) + 1
                    if received[cursor] == streams:
                        link.send("reached", cursor)
                return  # the game is over
            except CardroomError:
                resumes += 1  # e.g. ABORTED: fell too far behind; resume
                await asyncio.sleep(0.05)
        raise RuntimeError(f"a stream failed {RESUMES_PER_STREAM} times")

    tasks = [asyncio.create_task(follow(i)) for i in range(streams)]
    try:
        stop = asyncio.create_task(link.receive())
        done, _ = await asyncio.wait([stop, *tasks], return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            if task is not stop:
                task.result()  # a failed stream fails the job
        await stop
    finally:
        await load.wind_down(tasks, clients)
    return {"latest": latest, "received": received, "resumes": resumes}


class Watchers:
    """Watcher processes on one game, and how far each has got. With several
    addresses (relays) the processes are spread over them in turn; ``job``
    is the watch job each process runs (``watch_job``: WatchEvents)."""

    def __init__(
        self,
        address: str | Sequence[str],
        game_id: str,
        watchers: int,
        job: Any = None,
        per_process: int = STREAMS_PER_PROCESS,
    ) -> None:
        addresses = [address] if isinstance(address, str) else list(address)
        processes = max(2, math.ceil(watchers / per_process)) if watchers > 1 else 1
        processes = max(processes, min(len(addresses), watchers))
        shares = [watchers // processes + (i < watchers % processes) for i in range(processes)]
        self.total = watchers
        self.workers = [
            Worker(
                job or watch_job,
                address=addresses[i % len(addresses)],
                game_id=game_id,
                streams=n,
            )
            for i, n in enumerate(shares)
            if n
        ]
        self.reached = [0] * len(self.workers)

    async def reach(self, sequence: int, timeout: float) -> None:
        """Wait until every watcher holds event ``sequence``."""

        async def one(index: int) -> None:
            while self.reached[index] < sequence:
                message = await self.workers[index].receive()
                if message[0] == "reached":
                    self.reached[index] = max(self.reached[index], message[1])

        await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(len(self.workers)))), timeout)

    async def stop(self) -> list[dict[str, Any]]:
        for worker in self.workers:
            worker.send("stop")
        try:
            return await load.results(self.workers, CATCH_UP_SECONDS)
        finally:
            load.kill_all(self.workers)


@dataclass
class Delivered:
    """A delivery run: each command's delivery time, the stream resumes, and
    the spectators' events (for the baseline to send the same bytes)."""

    seconds: list[float]
    resumes: int
    table: Table
    events: list[epb.EventEnvelope]


async def delivery(address: str, watchers: int, commands: int) -> Delivered:
    """Per command: the last watcher's arrival minus the command's start;
    and how many times a watcher had to resume its stream."""
    rng = random.Random(3)
    async with load.client(address) as client:
        table = await seated_game(client, rounds_to_win=LONG)
        group = Watchers(address, table.game_id, watchers)
        try:
            await group.reach(table.version, CATCH_UP_SECONDS)
            for _ in range(commands):
                command = await move(client, table, rng)
                if command is None:
                    break
                await group.reach(command.after, DELIVERY_SECONDS)
        finally:
            outcomes = await group.stop()
        events = await spectator_events(client, table)
    return Delivered(arrivals(table, outcomes, watchers), _resumes(outcomes), table, events)


async def spectator_events(client: Client, table: Table) -> list[epb.EventEnvelope]:
    """A spectator's events 1..table.version of the game."""
    events: list[epb.EventEnvelope] = []
    async for envelope in client.watch(table.game_id, as_spectator=True):
        events.append(envelope)
        if envelope.sequence >= table.version:
            break
    return events


@dataclass
class Bare:
    """A delivery through bench/bare_fanout.py: each command's delivery time,
    and the bare server's CPU seconds over the commands."""

    seconds: list[float]
    cpu: float


async def bare_delivery(run: Run, delivered: Delivered | Any, watchers: int) -> Bare:
    """The same events, one command's at a time, through bench/bare_fanout.py
    (``delivered``: any run with a ``table`` and its spectators' ``events``)."""
    server = run.servers.start_command([sys.executable, bare_fanout.__file__])
    table = Table(delivered.table.game_id, [])
    cpu = 0.0
    try:
        channel = load.channel(server.address)
        publish = channel.unary_unary(bare_fanout.PUBLISH, None, None)
        by_sequence = {e.sequence: e for e in delivered.events}

        async def send(first: int, last: int) -> None:
            batch = [by_sequence[s] for s in range(first, last + 1)]
            await publish(gpb.GetAuditLogResponse(events=batch).SerializeToString())

        commands = delivered.table.commands
        await send(1, commands[0].before)
        group = Watchers(server.address, table.game_id, watchers)
        try:
            await group.reach(commands[0].before, CATCH_UP_SECONDS)
            cpu = cpu_seconds(server.pid)
            for command in commands:
                started = time.monotonic()
                await send(command.before + 1, command.after)
                table.commands.append(
                    Command(started, time.monotonic() - started, command.before, command.after)
                )
                await group.reach(command.after, DELIVERY_SECONDS)
            cpu = cpu_seconds(server.pid) - cpu
        finally:
            outcomes = await group.stop()
            await channel.close(None)
    finally:
        run.servers.stop(server)
    return Bare(arrivals(table, outcomes, watchers), cpu)


def _resumes(outcomes: list[dict[str, Any]]) -> int:
    return sum(o["resumes"] for o in outcomes)


def arrivals(table: Table, outcomes: list[dict[str, Any]], watchers: int) -> list[float]:
    """Per command: the last watcher's arrival minus the command's start."""
    seconds = []
    for command in table.commands:
        got = sum(o["received"].get(command.after, 0) for o in outcomes)
        if got != watchers:
            raise RuntimeError(f"event {command.after} reached {got} of {watchers} watchers")
        last = max(o["latest"][command.after] for o in outcomes if command.after in o["latest"])
        seconds.append(last - command.started)
    return seconds


async def writer_p50(
    address: str, watchers: int, commands: int, watched_at: str | Sequence[str] | None = None
) -> float:
    """SubmitCommand p50 of commands played back to back with ``watchers``
    following the game (not pacing the writer), on ``watched_at`` (default:
    the writer's own server)."""
    rng = random.Random(4)
    async with load.client(address) as client:
        table: Table = await seated_game(client, rounds_to_win=LONG)
        group = Watchers(watched_at or address, table.game_id, watchers) if watchers else None
        try:
            if group is not None:
                await group.reach(table.version, CATCH_UP_SECONDS)
            await play(client, table, rng, commands=commands)
        finally:
            if group is not None:
                await group.stop()
    return p50([c.seconds for c in table.commands])


async def measure(run: Run, server: Server) -> list[Row]:
    scale = run.scale
    alone = await writer_p50(server.address, 0, scale.writer_commands)
    watched = await writer_p50(server.address, scale.writer_spectators, scale.writer_commands)
    elsewhere = await watched_elsewhere(run, server, alone) if run.backend == "postgres" else []
    delivered = await delivery(server.address, scale.spectators, scale.spectator_commands)
    bare = (await bare_delivery(run, delivered, scale.spectators)).seconds
    seconds = delivered.seconds
    p99 = percentile(seconds, 99)
    resumed = f"; {delivered.resumes} stream resumes" if delivered.resumes else ""
    return [
        Row(
            f"{count(scale.spectators)} spectators on one game: delivery to the last one "
            f"from the command's start, p50 / p99 of {len(seconds)} commands",
            f"{ms(p50(seconds))} / {ms(p99)}{resumed}",
            f"bare grpc.aio fan-out of the same events {ms(p50(bare))} / "
            f"{ms(percentile(bare, 99))}",
            f"{times(p50(seconds) / p50(bare))} / {times(p99 / percentile(bare, 99))}",
            "p99 ≤ 50 ms",
        ),
        Row(
            f"writer SubmitCommand p50 with {count(scale.writer_spectators)} spectators vs 0",
            ms(watched),
            f"no watchers {ms(alone)}",
            times(watched / alone),
            "no slower (≈ 1x)",
        ),
        *elsewhere,
    ]


async def watched_elsewhere(run: Run, server: Server, alone: float) -> list[Row]:
    """The deployment for large audiences (docs/scaling.md): the spectators
    on a second server of the same PostgreSQL, the writer on the first."""
    second = run.servers.start(server.database, *server.flags)
    try:
        scale = run.scale
        watched = await writer_p50(
            server.address, scale.writer_spectators, scale.writer_commands, second.address
        )
    finally:
        run.servers.stop(second)
    return [
        Row(
            f"writer SubmitCommand p50 with {count(scale.writer_spectators)} spectators "
            "on a second server of the same database vs 0",
            ms(watched),
            f"no watchers {ms(alone)}",
            times(watched / alone),
            "no slower (≈ 1x)",
        )
    ]
