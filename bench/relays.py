"""Relays: live events to many spectators through ``cardroom relay`` processes.

One ``cardroom serve --broker`` process (the writer's server) publishes each
event once to NATS; 1, 2 and 4 ``cardroom relay`` processes serve the
spectators' WatchEvents from it. The watcher processes, the writer and the
measurement of a command's delivery (start of the command to its last
event at the last watcher, one command at a time) are those of the
spectators row (bench/spectators.py); the watcher processes are spread over
the relays in turn.

Baseline: the same spectator events, one command's at a time, published by
this process to a NATS subject with as many subscribers, in the same number
of processes and connections, each parsing every message as a watcher
does: what the broker alone costs on this machine. The issue's target is a
relayed p99 at most 1.5x that.

The server's CPU per delivered message is its process's user + system time
(/proc) over the commands of a delivery run, divided by the messages the
watchers received in it: through the relays, and with the same spectators
watching on the server itself (as without relays). The writer's
SubmitCommand p50 with 100 and 1,000 spectators on the relays is compared
with none, and 10,000 spectators over 4 relays are tried last.
"""

from __future__ import annotations

import asyncio
import math
import os
import random
import shutil
import socket
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import nats

from bench import load
from bench.bots import LONG, Command, Table, move, seated_game
from bench.broker import NATS_BINARY, private_nats
from bench.config import Run
from bench.load import Link, Worker
from bench.report import Row, count, failed, ms, p50, percentile, times
from bench.servers import Server, cardroom_command, cpu_seconds, fresh_database
from bench.spectators import (
    CATCH_UP_SECONDS,
    DELIVERY_SECONDS,
    STREAMS_PER_CONNECTION,
    Watchers,
    arrivals,
    spectator_events,
    writer_p50,
)
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb

# A broker of the run's own (bench/broker.py) unless this names one.
NATS_URL = os.environ.get("CARDROOM_BENCH_NATS")
# (relays, transport): one relay on each transport (cardroom relay
# --transport), old and new in the same run; more relays on h2.
RELAY_RUNS = ((1, "grpc"), (1, "h2"), (2, "h2"), (4, "h2"))
CROWD_RELAYS = 4
CROWD_PER_PROCESS = 500
PROBE_SECONDS = 0.05  # between two probes while the watchers subscribe


def nats_reachable() -> str | None:
    """None if the broker answers (or one of the run's own can start),
    else why not."""
    if NATS_URL is None:
        return (
            None
            if shutil.which("nats-server") or Path(NATS_BINARY).exists()
            else ("nats-server is not installed")
        )
    url = urlparse(NATS_URL)
    try:
        socket.create_connection((url.hostname or "127.0.0.1", url.port or 4222), 3).close()
    except OSError as error:
        return str(error)
    return None


@contextmanager
def broker_url() -> Iterator[str]:
    """CARDROOM_BENCH_NATS, else a private nats-server for the run."""
    if NATS_URL is not None:
        yield NATS_URL
        return
    with private_nats() as url:
        yield url


@dataclass
class Delivery:
    seconds: list[float]  # per command: start -> its last event at the last watcher
    server_cpu: float  # the server's CPU seconds over the commands
    relay_cpu: float  # the relays' CPU seconds over the commands
    messages: int  # messages the watchers received over the commands
    table: Table
    events: list[epb.EventEnvelope]


async def delivery(
    server: Server, relays: list[Server], watchers: int, commands: int, per_process: int
) -> Delivery:
    """One game, ``watchers`` spectators on the relays (or on the server
    when there are none), ``commands`` commands each timed to its last
    watcher, with the CPU the server and relays spent meanwhile."""
    rng = random.Random(3)
    addresses = [r.address for r in relays] or [server.address]
    async with load.client(server.address) as client:
        table = await seated_game(client, rounds_to_win=LONG)
        group = Watchers(addresses, table.game_id, watchers, per_process=per_process)
        try:
            await group.reach(table.version, CATCH_UP_SECONDS * max(1, watchers // 1000))
            first = table.version
            server_cpu = cpu_seconds(server.pid)
            relay_cpu = sum(cpu_seconds(r.pid) for r in relays)
            for _ in range(commands):
                command = await move(client, table, rng)
                if command is None:
                    break
                await group.reach(command.after, DELIVERY_SECONDS)
            server_cpu = cpu_seconds(server.pid) - server_cpu
            relay_cpu = sum(cpu_seconds(r.pid) for r in relays) - relay_cpu
            messages = watchers * (table.version - first)
        finally:
            outcomes = await group.stop()
        events = await spectator_events(client, table)
    seconds = arrivals(table, outcomes, watchers)
    return Delivery(seconds, server_cpu, relay_cpu, messages, table, events)


async def nats_job(link: Link, address: str, game_id: str, streams: int) -> dict[str, Any]:
    """``streams`` NATS subscriptions to the game's bench subject, over as
    many connections as the WatchEvents watchers use. Sends ("ready",) once
    every subscription has received a probe (an empty message), ("reached",
    seq) once every subscription holds event ``seq``; on ("stop",) returns
    the arrivals as watch_job does.

    Ready means a probe arrived, not that a flush returned: nats-py's flush
    writes its PING straight to the socket, ahead of SUBs still waiting in
    its buffer for the flusher task, so its PONG can come back before the
    server has every subscription, and an event published then misses some
    (a command never "reached": the baseline's TimeoutError)."""
    connections = [
        await nats.connect(address) for _ in range(math.ceil(streams / STREAMS_PER_CONNECTION))
    ]
    latest: dict[int, float] = {}
    received: dict[int, int] = {}
    probed: set[tuple[int, int]] = set()  # (connection, subscription id)

    def handler(index: int) -> Any:
        async def handle(msg: Any) -> None:
            now = time.monotonic()
            if not msg.data:  # a probe: this subscription stands
                if len(probed) < streams:
                    probed.add((index, msg.sid))
                    if len(probed) == streams:
                        link.send("ready")
                return
            sequence = gpb.WatchEventsResponse.FromString(msg.data).event.sequence
            latest[sequence] = max(latest.get(sequence, 0.0), now)
            received[sequence] = received.get(sequence, 0) + 1
            if received[sequence] == streams:
                link.send("reached", sequence)

        return handle

    try:
        for stream in range(streams):
            index = stream // STREAMS_PER_CONNECTION
            await connections[index].subscribe(f"bench.{game_id}", cb=handler(index))
        for connection in connections:
            await connection.flush()
        await link.receive()  # ("stop",)
    finally:
        for connection in connections:
            await connection.close()
    return {"latest": latest, "received": received, "resumes": 0}


async def probe(publisher: Any, subject: str, workers: list[Worker]) -> None:
    """Publish probes (empty messages) until every worker says each of its
    subscriptions received one (a bounded poll): from then on the broker
    delivers every message on ``subject`` to every subscription."""
    ready: set[int] = set()
    deadline = time.monotonic() + CATCH_UP_SECONDS
    while len(ready) < len(workers):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{len(ready)} of {len(workers)} watcher processes subscribed")
        await publisher.publish(subject, b"")
        await publisher.flush()
        await asyncio.sleep(PROBE_SECONDS)
        for index, worker in enumerate(workers):
            for message in worker.pending():
                assert message[0] == "ready", message
                ready.add(index)


async def nats_delivery(
    url: str, delivered: Delivery, watchers: int, per_process: int
) -> list[float]:
    """The same events, one command's at a time, through bare NATS."""
    table = Table(delivered.table.game_id, [])
    by_sequence = {e.sequence: e for e in delivered.events}
    data = {s: gpb.WatchEventsResponse(event=e).SerializeToString() for s, e in by_sequence.items()}
    subject = f"bench.{table.game_id}"
    publisher = await nats.connect(url)
    group = Watchers(url, table.game_id, watchers, job=nats_job, per_process=per_process)
    try:
        await probe(publisher, subject, group.workers)
        for command in delivered.table.commands:
            started = time.monotonic()
            for sequence in range(command.before + 1, command.after + 1):
                await publisher.publish(subject, data[sequence])
            await publisher.flush()
            table.commands.append(
                Command(started, time.monotonic() - started, command.before, command.after)
            )
            await group.reach(command.after, DELIVERY_SECONDS)
    finally:
        outcomes = await group.stop()
        await publisher.close()
    return arrivals(table, outcomes, watchers)


def start_relays(
    run: Run, database: str, relays: int, url: str, transport: str = "grpc"
) -> list[Server]:
    """``relays`` ``cardroom relay`` processes, on ``transport`` (--transport)."""
    return [
        run.servers.start_command(
            [
                *cardroom_command(),
                "relay",
                "--address",
                "127.0.0.1:0",
                "--database",
                database,
                "--broker",
                url,
                "--transport",
                transport,
            ],
            database,
        )
        for _ in range(relays)
    ]


def micro(seconds: float) -> str:
    return f"{seconds * 1e6:.1f} µs"


async def measure(run: Run) -> list[Row]:
    with broker_url() as url:
        return await measure_on(run, url)


async def measure_on(run: Run, url: str) -> list[Row]:
    scale = run.scale
    rows: list[Row] = []
    spectators = scale.relay_spectators
    commands = scale.spectator_commands
    with fresh_database(run.backend) as database:
        server = run.servers.start(database, "--broker", url)
        try:
            # The server serving the spectators itself: the CPU baseline.
            direct = await delivery(server, [], spectators, commands, 250)
            for relays, transport in RELAY_RUNS:
                started = start_relays(run, database, relays, url, transport)
                try:
                    relayed = await delivery(server, started, spectators, commands, 250)
                finally:
                    for relay in started:
                        run.servers.stop(relay)
                bare = await nats_delivery(url, relayed, spectators, 250)
                p99 = percentile(relayed.seconds, 99)
                rows.append(
                    Row(
                        f"{count(spectators)} spectators on one game through {relays} "
                        f"relay{'s' if relays > 1 else ''} (--transport {transport}): delivery "
                        "to the last one from "
                        f"the command's start, p50 / p99 of {len(relayed.seconds)} commands",
                        f"{ms(p50(relayed.seconds))} / {ms(p99)}",
                        f"bare NATS fan-out of the same events {ms(p50(bare))} / "
                        f"{ms(percentile(bare, 99))}",
                        f"{times(p50(relayed.seconds) / p50(bare))} / "
                        f"{times(p99 / percentile(bare, 99))}",
                        "p99 ≤ 1.5x NATS",
                    )
                )
                if relays == 1:
                    rows.append(
                        Row(
                            f"the server's CPU per delivered message, {count(spectators)} "
                            f"spectators through 1 relay, --transport {transport} (the "
                            "relay's own beside it)",
                            f"{micro(relayed.server_cpu / relayed.messages)} (relay "
                            f"{micro(relayed.relay_cpu / relayed.messages)})",
                            f"the spectators on the server itself "
                            f"{micro(direct.server_cpu / direct.messages)}",
                            times(
                                (relayed.server_cpu / relayed.messages)
                                / (direct.server_cpu / direct.messages)
                            ),
                            "",
                        )
                    )
            rows += await writer_rows(run, server, database, url)
            if scale.relay_crowd:
                try:
                    rows.append(
                        await crowd_row(run, server, database, url, scale.relay_crowd, commands)
                    )
                except Exception as error:  # the machine did not hold it: say so, keep the rest
                    traceback.print_exc()
                    rows.append(
                        failed(
                            f"{count(scale.relay_crowd)} spectators on one game through "
                            f"{CROWD_RELAYS} relays",
                            error,
                        )
                    )
        finally:
            run.servers.stop(server)
    return rows


async def writer_rows(run: Run, server: Server, database: str, url: str) -> list[Row]:
    """The writer alone and with spectators on 2 relays; beside each p50,
    the p50 of the same calls' time inside the server (its access log), so
    the row tells the server's own slowdown from the machine's (the relays
    and the watcher processes share its cores here)."""
    scale = run.scale
    started = start_relays(run, database, 2, url)
    try:
        addresses = [r.address for r in started]
        since = server.log_size()
        alone = await writer_p50(server.address, 0, scale.writer_commands)
        alone_inside = p50(server.call_seconds("SubmitCommand", since))
        rows = []
        for watchers in (scale.writer_spectators, scale.relay_spectators):
            since = server.log_size()
            watched = await writer_p50(server.address, watchers, scale.writer_commands, addresses)
            inside = p50(server.call_seconds("SubmitCommand", since))
            rows.append(
                Row(
                    f"writer SubmitCommand p50 with {count(watchers)} spectators on 2 relays vs 0 "
                    "(of it inside the server)",
                    f"{ms(watched)} ({ms(inside)})",
                    f"no watchers {ms(alone)} ({ms(alone_inside)})",
                    f"{times(watched / alone)} ({times(inside / alone_inside)})",
                    "≤ 1.2x",
                )
            )
        return rows
    finally:
        for relay in started:
            run.servers.stop(relay)


async def crowd_row(
    run: Run, server: Server, database: str, url: str, crowd: int, commands: int
) -> Row:
    started = start_relays(run, database, CROWD_RELAYS, url)
    what = (
        f"{count(crowd)} spectators on one game through {CROWD_RELAYS} relays: delivery, p50 / p99"
    )
    try:
        relayed = await delivery(server, started, crowd, commands, CROWD_PER_PROCESS)
    finally:
        for relay in started:
            run.servers.stop(relay)
    seconds = relayed.seconds
    return Row(
        f"{what} of {len(seconds)} commands",
        f"{ms(p50(seconds))} / {ms(percentile(seconds, 99))}",
        f"server CPU per delivered message {micro(relayed.server_cpu / relayed.messages)}",
        "",
        "if the machine holds it",
    )
