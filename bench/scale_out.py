"""Several servers on one PostgreSQL database: throughput and failover.

Throughput: 1, 2 and 3 ``cardroom serve`` processes share one fresh schema;
load processes use one channel each whose target lists every server, with
gRPC's client-side round-robin, and play bot games (each process several at
once) for a fixed time. The table gives the acknowledged commands per second
over that window.

Failover: three servers, the same load, and a spectator process watching
every game on every server. Halfway through, one server is killed
(SIGKILL). Clients retry a call that failed UNAVAILABLE (or ABORTED) on the
same channel, with the same ``command_id``, which the server answers with
the first outcome instead of applying it twice. At the end every game's
full log (GetAuditLog, operator token) must hold every acknowledged command
exactly once, and each spectator on a surviving server must have received
every event of its game, in order (sequence numbers and, event by event,
the public part and the hash-chain link, against the log).
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import grpc

from bench import load
from bench.bots import LONG, seated_game
from bench.config import Run
from bench.load import Link, Worker
from bench.report import count, ms, p50, percentile, times
from bench.servers import OPERATOR_TOKEN, Server, fresh_database
from cardroom.client import CardroomError
from cardroom.v1 import envelope_pb2 as epb

# An acknowledged command: game, command id, version after, start, acknowledgement.
Acked = tuple[str, str, int, float, float]
# What a spectator got of one game on one server: (sequence, digest, arrival).
Received = list[tuple[int, str, float]]

RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.ABORTED)
MAX_ATTEMPTS = 100
RETRY_SECONDS = 0.05
CALL_SECONDS = 10.0
READY_SECONDS = 120.0
CATCH_UP_SECONDS = 60.0
VICTIM = 1  # the server killed in the failover run (of 0, 1, 2)


@dataclass
class Attempts:
    retries: int = 0

    async def call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)``, again while it fails UNAVAILABLE or ABORTED."""
        for attempt in range(MAX_ATTEMPTS):
            try:
                return await asyncio.wait_for(fn(*args, **kwargs), CALL_SECONDS)
            except (CardroomError, TimeoutError) as error:
                code = getattr(error, "code", grpc.StatusCode.DEADLINE_EXCEEDED)
                if code not in RETRYABLE or attempt == MAX_ATTEMPTS - 1:
                    raise
                self.retries += 1
                await asyncio.sleep(RETRY_SECONDS)
        raise AssertionError("unreachable")


async def bots_job(link: Link, addresses: list[str], games: int, seed: int) -> dict[str, Any]:
    """Seat and start ``games`` long games, send ("ready", game ids), wait
    for ("go", start, end) (time.monotonic()), then play them until end.
    Returns every acknowledged command as (game, command id, version
    after, start, acknowledgement) and how many calls were retried."""
    client = load.client(addresses)
    attempts = Attempts()
    acked: list[Acked] = []
    try:
        tables = [
            await attempts.call(seated_game, client, rounds_to_win=LONG) for _ in range(games)
        ]
        link.send("ready", [t.game_id for t in tables])
        _, start, end = await link.receive()
        await asyncio.sleep(max(0.0, start - time.monotonic()))

        async def play(index: int) -> None:
            table = tables[index]
            rng = random.Random(seed * 1000 + index)
            while time.monotonic() < end:
                moved = False
                for token in table.tokens:
                    actions = await attempts.call(client.legal_actions, table.game_id, token)
                    if not actions:
                        continue
                    command_id = uuid.uuid4().hex
                    began = time.monotonic()
                    response = await attempts.call(
                        client.act, table.game_id, token, rng.choice(actions), command_id=command_id
                    )
                    acked.append(
                        (table.game_id, command_id, response.version, began, time.monotonic())
                    )
                    moved = True
                    break
                if not moved:
                    return  # the game is over

        await asyncio.gather(*(play(i) for i in range(games)))
    finally:
        await client.close()
    return {"acked": acked, "retries": attempts.retries}


def digest(envelope: epb.EventEnvelope) -> str:
    """The public part of an event and its chain link: equal in every
    viewer's copy of that event."""
    body = envelope.event.SerializeToString(deterministic=True) + envelope.previous_hash
    return hashlib.sha256(body).hexdigest()


async def spectator_job(link: Link, addresses: list[str], game_ids: list[str]) -> dict[str, Any]:
    """Watch every game on every server as a spectator. Sends ("ready",)
    once the streams are open; on ("final", {game: version}) waits until
    every stream still open holds that version, and returns, per server
    and game, the (sequence, digest) of each event received and the error
    that ended the stream, if any."""
    clients = [load.client(address, own_connection=True) for address in addresses]
    seen: dict[tuple[int, str], Received] = {}
    errors: dict[tuple[int, str], str] = {}
    progress = asyncio.Event()

    async def follow(server: int, game_id: str) -> None:
        key = (server, game_id)
        seen[key] = []
        try:
            async for envelope in clients[server].watch(game_id):
                seen[key].append((envelope.sequence, digest(envelope), time.monotonic()))
                progress.set()
        except CardroomError as error:
            errors[key] = f"{error.code.name}: {error.details[:80]}"
            progress.set()

    tasks = [asyncio.create_task(follow(s, g)) for s in range(len(addresses)) for g in game_ids]
    try:
        await asyncio.sleep(1.0)  # let every stream open and take its backlog
        link.send("ready")
        _, final = await link.receive()
        deadline = time.monotonic() + CATCH_UP_SECONDS

        def behind() -> bool:
            return any(
                key not in errors and (not events or events[-1][0] < final[key[1]])
                for key, events in seen.items()
            )

        while behind() and time.monotonic() < deadline:
            progress.clear()
            try:
                await asyncio.wait_for(progress.wait(), 1.0)
            except TimeoutError:
                pass
    finally:
        await load.wind_down(tasks, clients)
    return {"seen": seen, "errors": errors}


@dataclass
class Load:
    """The bot processes of one run, and what they reported."""

    workers: list[Worker]
    game_ids: list[str] = field(default_factory=list)
    acked: list[Acked] = field(default_factory=list)
    retries: int = 0

    @classmethod
    async def ready(cls, run: Run, addresses: list[str]) -> Load:
        scale = run.scale
        workers = [
            Worker(bots_job, addresses=addresses, games=scale.games_per_worker, seed=i)
            for i in range(scale.load_workers)
        ]
        started = cls(workers)
        for worker in workers:
            _, ids = await asyncio.wait_for(worker.receive(), READY_SECONDS)
            started.game_ids += ids
        return started

    def go(self, seconds: float) -> tuple[float, float]:
        start = time.monotonic() + 0.2
        for worker in self.workers:
            worker.send("go", start, start + seconds)
        return start, start + seconds

    async def finish(self, seconds: float) -> None:
        try:
            for outcome in await load.results(self.workers, seconds + READY_SECONDS):
                self.acked += outcome["acked"]
                self.retries += outcome["retries"]
        finally:
            load.kill_all(self.workers)


async def throughput(run: Run, started: list[Server]) -> float:
    """Acknowledged commands per second through the ``started`` servers."""
    bots = await Load.ready(run, [s.address for s in started])
    seconds = run.scale.scale_seconds
    bots.go(seconds)
    await bots.finish(seconds)
    return len(bots.acked) / seconds


@dataclass
class Failover:
    acked: int
    acked_after_kill: int
    retries: int
    lost: int
    duplicated: int
    spectators_ok: int
    spectators_checked: int
    spectator_problems: list[str]
    killed_streams: int
    delivery: list[float]  # before the kill: start of a command -> its last spectator

    @property
    def passed(self) -> bool:
        return self.lost == 0 and self.duplicated == 0 and not self.spectator_problems


def exactly_once(logs: dict[str, list[epb.EventEnvelope]], acked: list[Acked]) -> tuple[int, int]:
    """How many acknowledged commands the logs lack, and hold twice or more."""
    seen: Counter[tuple[str, str]] = Counter(
        (game_id, e.command.command_id)
        for game_id, log in logs.items()
        for e in log
        if e.HasField("command") and e.command.command_id
    )
    held = [seen[(game_id, command_id)] for game_id, command_id, *_ in acked]
    return held.count(0), sum(1 for n in held if n > 1)


def spectator_problems(
    logs: dict[str, list[epb.EventEnvelope]],
    seen: dict[tuple[int, str], Received],
    errors: dict[tuple[int, str], str],
    survivors: list[int],
) -> tuple[int, list[str]]:
    """How many streams on surviving servers were checked against their
    game's log, and what was wrong with those that did not match."""
    problems = []
    checked = 0
    for (server, game_id), events in sorted(seen.items()):
        if server not in survivors:
            continue
        checked += 1
        expected = [(e.sequence, digest(e)) for e in logs[game_id]]
        if [(sequence, hashed) for sequence, hashed, _ in events] != expected:
            why = errors.get((server, game_id), "no error")
            problems.append(
                f"server {server} game {game_id[:8]}: {len(events)} events of "
                f"{len(expected)} ({why})"
            )
    return checked, problems


def delivery(
    acked: list[Acked], seen: dict[tuple[int, str], Received], until: float
) -> list[float]:
    """For each command started before ``until``: its start until the last
    of its spectators (one per server) received its last event."""
    arrivals: dict[tuple[str, int], float] = {}
    for (_, game_id), events in seen.items():
        for sequence, _, arrived in events:
            key = (game_id, sequence)
            arrivals[key] = max(arrivals.get(key, 0.0), arrived)
    return [
        arrivals[(game_id, version)] - began
        for game_id, _, version, began, _ in acked
        if began < until and (game_id, version) in arrivals
    ]


async def failover(run: Run, started: list[Server]) -> Failover:
    """Load on three servers, one of which is killed halfway; then the checks."""
    seconds = run.scale.failover_seconds
    addresses = [s.address for s in started]
    bots = await Load.ready(run, addresses)
    watcher = Worker(spectator_job, addresses=addresses, game_ids=bots.game_ids)
    try:
        await asyncio.wait_for(watcher.receive(), READY_SECONDS)
        start, _ = bots.go(seconds)
        await asyncio.sleep(max(0.0, start + seconds / 2 - time.monotonic()))
        killed_at = time.monotonic()
        run.servers.kill(started[VICTIM])
        await bots.finish(seconds)
        async with load.client(addresses[0]) as client:
            logs = {g: await client.audit(g, OPERATOR_TOKEN) for g in bots.game_ids}
        watcher.send("final", {g: len(log) for g, log in logs.items()})
        outcome = await watcher.result(CATCH_UP_SECONDS + READY_SECONDS)
    finally:
        watcher.kill()
    lost, duplicated = exactly_once(logs, bots.acked)
    survivors = [i for i in range(3) if i != VICTIM]
    checked, problems = spectator_problems(logs, outcome["seen"], outcome["errors"], survivors)
    return Failover(
        acked=len(bots.acked),
        acked_after_kill=sum(1 for *_, acked_at in bots.acked if acked_at > killed_at),
        retries=bots.retries,
        lost=lost,
        duplicated=duplicated,
        spectators_ok=checked - len(problems),
        spectators_checked=checked,
        spectator_problems=problems,
        killed_streams=sum(1 for server, _ in outcome["seen"] if server == VICTIM),
        delivery=delivery(bots.acked, outcome["seen"], killed_at),
    )


def report(rates: dict[int, float], result: Failover, seconds: float, note: str) -> str:
    lines = [
        "| servers on one PostgreSQL | commands/s (total) | vs 1 server |",
        "|---|---|---|",
    ]
    for servers, rate in rates.items():
        base = rates.get(1)
        ratio = times(rate / base) if base else ""
        lines.append(f"| {servers} | {rate:.0f} | {ratio} |")
    spread = (
        f"{ms(p50(result.delivery))} / {ms(percentile(result.delivery, 99))}"
        if result.delivery
        else "none measured"
    )
    lines += [
        "",
        note,
        "",
        f"Failover ({'passed' if result.passed else 'FAILED'}): 3 servers, server {VICTIM} "
        f"killed (SIGKILL) {seconds / 2:.0f} s into {seconds:.0f} s of load; "
        f"{count(result.acked)} commands acknowledged, {count(result.acked_after_kill)} of "
        f"them after the kill; {count(result.retries)} calls retried (same command_id). "
        f"The audit logs hold every acknowledged command exactly once: lost "
        f"{result.lost}, applied twice {result.duplicated}. Spectators on the surviving "
        f"servers: {result.spectators_ok} of {result.spectators_checked} streams received "
        f"every event in order ({result.killed_streams} streams ended with the killed "
        f"server). Before the kill, delivery from a command's start to its spectator on "
        f"every server (whichever server took the command): p50 / p99 {spread}.",
    ]
    lines += [f"- {problem}" for problem in result.spectator_problems[:10]]
    return "\n".join(lines)


async def measure(run: Run) -> tuple[str, bool]:
    """The scale-out table and failover report, and whether failover passed."""
    scale = run.scale
    rates: dict[int, float] = {}
    for servers in (1, 2, 3):
        with fresh_database("postgres") as database:
            started = [run.servers.start(database) for _ in range(servers)]
            try:
                rates[servers] = await throughput(run, started)
                if servers == 3:  # the same servers and database, one of them to be killed
                    result = await failover(run, started)
            finally:
                for server in started:
                    run.servers.stop(server)
    note = (
        f"Load: {scale.load_workers} processes x {scale.games_per_worker} bot games each, "
        f"{scale.scale_seconds:.0f} s per server count, one round-robin channel per process."
    )
    return report(rates, result, scale.failover_seconds, note), result.passed
