"""CPU per command and per delivered message: figures the machine's load barely moves.

``python3 dev.py bench cpu [--pin] [--check | --record]``

Wall times on a shared machine move 2x between runs; the CPU time a process
spends (``/proc/PID/stat`` user + system, every thread) on a fixed amount of
work moves far less, since waiting for a core is not counted. Each figure is
read beside a baseline of the same run, in the same unit:

* **a command**: the server's CPU per ``SubmitCommand``, over bots playing
  ordinary games (the CPU of the bots' ``ListLegalActions`` calls, measured
  apart on the same server, taken out), against the server's CPU per health
  ``Check`` plus the CPU of one raw eventsourcing save in a process of its
  own: the CPU form of issue 10's first row.
* **a relay**: ``cardroom relay``'s CPU per message delivered to N spectators
  of one game, on each of its transports (``--transport grpc``, then ``h2``,
  alternating when ``--rounds`` > 1), against a bare grpc.aio server's
  (bench/bare_fanout.py) for the same events to the same watcher processes.

With ``--rounds`` > 1 a key's figure is the median of its rounds (the
commands on each backend, and each relay transport, run that many times).
``bench/reference.json`` holds the release's reference figures, each key
with the note of the run that measured it; ``--check`` fails (exit 1) when
a ratio is worse than its reference by more than the file's margin, and
says which keys it skipped for want of a reference; ``--record`` merges
this run's figures into it (the keys it did not measure, say the commands
under ``--only relay``, keep theirs). Not a test: CPU time still moves by
some percent with the load (shared caches, frequency), so the check
belongs to a bench run, not the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

from grpc_health.v1 import health_pb2, health_pb2_grpc

from bench import load, raw_save, submit_cpu
from bench.bots import LONG, Table, seated_game
from bench.broker import private_nats
from bench.config import QUICK, Run
from bench.pin import described, pin
from bench.relays import Delivery, delivery, start_relays
from bench.report import Row, table, times
from bench.servers import cpu_ns, fresh_database, postgres_reachable, servers
from bench.spectators import bare_delivery
from cardroom.client import Client, RuleBroken

REFERENCE = Path(__file__).with_name("reference.json")
MARGIN = 0.30  # a ratio this much worse than the reference is a regression
RAW_SECONDS = 300.0
R = TypeVar("R")


@dataclass(frozen=True)
class Figure:
    key: str  # its name in reference.json
    what: str
    value: float  # µs
    baseline: float  # µs
    baseline_what: str

    @property
    def ratio(self) -> float:
        return self.value / self.baseline


def medians(figures: list[Figure]) -> list[Figure]:
    """One figure per key, in the order first measured: the median of its
    rounds' values over the median of their baselines (the relay's rounds
    share one baseline, so this is also the median of their ratios)."""
    keys: dict[str, list[Figure]] = {}
    for figure in figures:
        keys.setdefault(figure.key, []).append(figure)
    return [
        rounds[0]
        if len(rounds) == 1
        else Figure(
            key,
            f"{rounds[0].what}: median of {len(rounds)} rounds",
            statistics.median(f.value for f in rounds),
            statistics.median(f.baseline for f in rounds),
            rounds[0].baseline_what,
        )
        for key, rounds in keys.items()
    ]


def micro(seconds: float) -> str:
    return f"{seconds * 1e6:.1f} µs"


@dataclass
class Windows:
    """The server's CPU inside each call's window (from just before the
    request to just after the response), summed per method: what a call
    costs as played, without subtracting one method's cost measured apart
    (a ListLegalActions right after a command folds that command's events
    for its seat; one repeated at the same version folds nothing, so
    subtracting the repeated cost would charge the folds to the command)."""

    pid: int
    ns: dict[str, int] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)

    async def timed(self, method: str, call: Awaitable[R]) -> R:
        began = cpu_ns(self.pid)
        try:
            return await call
        finally:
            self.ns[method] = self.ns.get(method, 0) + cpu_ns(self.pid) - began
            self.calls[method] = self.calls.get(method, 0) + 1

    def per_call(self, method: str) -> float:
        """Seconds of the server's CPU per call of ``method``."""
        return self.ns.get(method, 0) / max(self.calls.get(method, 0), 1) / 1e9


class Meter(Protocol):
    """What measures each call of play: ``Windows`` here, callgrind's
    counting in bench/instructions.py."""

    async def timed(self, method: str, call: Awaitable[R]) -> R: ...


async def _moves(
    client: Client, table: Table, rng: random.Random, commands: int, windows: Meter
) -> None:
    """Play ``commands`` random legal commands, each call in its window."""
    done = 0
    while done < commands:
        for token in table.tokens:
            actions = await windows.timed(
                "ListLegalActions", client.legal_actions(table.game_id, token)
            )
            if not actions:
                continue
            try:
                response = await windows.timed(
                    "SubmitCommand", client.act(table.game_id, token, rng.choice(actions))
                )
            except RuleBroken:
                continue
            table.version = response.version
            done += 1
            break
        else:
            raise RuntimeError(f"game {table.game_id}: no seat can act")


async def _check_cpu(address: str, pid: int, calls: int) -> float:
    """The server's CPU per health Check, each in its window."""
    windows = Windows(pid)
    async with load.channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        request = health_pb2.HealthCheckRequest()
        for _ in range(50):
            await stub.Check(request)
        for _ in range(calls):
            await windows.timed("Check", stub.Check(request))
    return windows.per_call("Check")


async def command_figures(run: Run, commands: int) -> list[Figure]:
    with fresh_database(run.backend) as database:
        server = run.servers.start(database)
        try:
            check = await _check_cpu(server.address, server.pid, commands * 2)
            rng = random.Random(1)
            async with load.client(server.address) as client:
                table = await seated_game(client, rounds_to_win=LONG)
                await _moves(client, table, rng, 20, Windows(server.pid))  # warm up
                windows = Windows(server.pid)
                await _moves(client, table, rng, commands, windows)
        finally:
            run.servers.stop(server)
    save: float = await _in_a_worker(run, raw_save.cpu_job, saves=commands * 2)
    submit: float = await _in_a_worker(run, submit_cpu.cpu_job, commands=commands)
    return [
        Figure(
            f"{run.backend} SubmitCommand",
            f"{run.title}: the server's CPU per SubmitCommand ({commands} commands; "
            f"ListLegalActions {micro(windows.per_call('ListLegalActions'))})",
            windows.per_call("SubmitCommand") * 1e6,
            (check + save) * 1e6,
            f"health Check {micro(check)} + raw save {micro(save)}",
        ),
        Figure(
            f"{run.backend} submit in process",
            f"{run.title}: the same play's Games.submit in a process, no gRPC "
            "(bench/submit_cpu.py)",
            submit * 1e6,
            save * 1e6,
            "raw save",
        ),
    ]


async def _in_a_worker(run: Run, job: Any, **arguments: int) -> Any:
    """``job``'s result, run in a process of its own on a fresh database."""
    with fresh_database(run.backend) as database:
        worker = load.Worker(job, database=database, **arguments)
        try:
            return await worker.result(RAW_SECONDS)
        finally:
            worker.kill()


async def relayed(run: Run, spectators: int, commands: int, transport: str) -> Delivery:
    with private_nats() as url, fresh_database(run.backend) as database:
        server = run.servers.start(database, "--broker", url)
        try:
            relays = start_relays(run, database, 1, url, transport)
            try:
                return await delivery(server, relays, spectators, commands, 250)
            finally:
                for relay in relays:
                    run.servers.stop(relay)
        finally:
            run.servers.stop(server)


RELAY_KEYS = {"grpc": "relay message", "h2": "relay message h2"}


async def relay_figures(
    run: Run, spectators: int, commands: int, transports: list[str], rounds: int
) -> list[Figure]:
    """Each transport's relay in turn (``rounds`` times: old and new
    alternating on the same machine and hour), then the bare baseline."""
    runs: list[tuple[str, Delivery]] = []
    for _ in range(rounds):
        for transport in transports:
            runs.append((transport, await relayed(run, spectators, commands, transport)))
    bare = await bare_delivery(run, runs[0][1], spectators)
    baseline = bare.cpu / runs[0][1].messages * 1e6
    return [
        Figure(
            RELAY_KEYS[transport],
            f"the relay's CPU per delivered message, --transport {transport} "
            f"({spectators} spectators, {len(done.seconds)} commands)",
            done.relay_cpu / done.messages * 1e6,
            baseline,
            "bare grpc.aio fan-out of the same events",
        )
        for transport, done in runs
    ]


def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python3 dev.py bench cpu", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--pin", action="store_true", help="the writer's server on its own core")
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument(
        "--only", choices=("commands", "relay"), help="one of the figures (default both)"
    )
    parser.add_argument("--commands", type=int, default=300, help="SubmitCommands per backend")
    parser.add_argument("--spectators", type=int, default=500, help="watchers of the relay")
    parser.add_argument("--relay-commands", type=int, default=40, help="commands they watch")
    parser.add_argument(
        "--transport",
        choices=("grpc", "h2", "both"),
        default="both",
        help="the relay's transport (cardroom relay --transport; default both, alternating)",
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="runs per backend and per relay transport (medians)"
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true", help="exit 1 on a regression")
    what.add_argument(
        "--record", action="store_true", help=f"merge the figures into {REFERENCE.name}"
    )
    return parser.parse_args(argv)


def merged(reference: dict[str, Any], figures: list[Figure], note: str) -> dict[str, Any]:
    """The reference file after ``--record``: each figure measured now
    replaces its key's, with ``note`` (when, how pinned, the command) as
    that key's ``measured``; every other key keeps its figure and its note.
    A file of one ``measured`` string for all keys (as first written) gives
    that string to each of its keys."""
    old = reference.get("measured", {})
    notes = dict(old) if isinstance(old, dict) else dict.fromkeys(reference.get("ratios", {}), old)
    microseconds = dict(reference.get("microseconds", {}))
    ratios = dict(reference.get("ratios", {}))
    for figure in figures:
        notes[figure.key] = note
        microseconds[figure.key] = round(figure.value, 1)
        ratios[figure.key] = round(figure.ratio, 2)
    return {
        "release": reference.get("release", "unreleased"),
        "margin": reference.get("margin", MARGIN),
        "measured": notes,
        "microseconds": microseconds,
        "ratios": ratios,
    }


def unreferenced(figures: list[Figure], reference: dict[str, Any]) -> list[str]:
    """The keys ``--check`` skips: measured, but with no reference ratio."""
    known = reference.get("ratios", {})
    return [figure.key for figure in figures if figure.key not in known]


def regressions(figures: list[Figure], reference: dict[str, Any]) -> list[str]:
    margin = float(reference.get("margin", MARGIN))
    found = []
    for figure in figures:
        known = reference.get("ratios", {}).get(figure.key)
        if known is not None and figure.ratio > known * (1 + margin):
            found.append(
                f"{figure.key}: {times(figure.ratio)} against the reference {times(known)} "
                f"(margin {margin:.0%})"
            )
    return found


def reachable(backends: list[str]) -> list[str]:
    """The backends that can be measured now: PostgreSQL may be down (said,
    then left out)."""
    if "postgres" in backends and postgres_reachable() is not None:
        print("PostgreSQL unreachable: not measured", file=sys.stderr)
        return [backend for backend in backends if backend != "postgres"]
    return backends


def rows(figures: list[Figure], summary: list[Figure], amount: Callable[[float], str]) -> list[Row]:
    """The printed table: each round's figure, then each key's median where
    rounds made one; ``amount`` writes a value in the figures' unit."""
    return [
        Row(f.what, amount(f.value), f"{f.baseline_what}: {amount(f.baseline)}", times(f.ratio), "")
        for f in figures + [m for m in summary if m not in figures]
    ]


async def main(argv: list[str]) -> int:
    args = arguments(argv)
    writer = pin() if args.pin else None
    backends = ["sqlite", "postgres"] if args.backend == "both" else [args.backend]
    figures: list[Figure] = []
    with servers(writer) as started:
        for backend in reachable(backends) if args.only != "relay" else ():
            run = Run(backend, QUICK, started)
            for _ in range(args.rounds):
                figures += await command_figures(run, args.commands)
        if args.only != "commands":
            run = Run(backends[0], QUICK, started)
            transports = ["grpc", "h2"] if args.transport == "both" else [args.transport]
            figures += await relay_figures(
                run, args.spectators, args.relay_commands, transports, args.rounds
            )
        problems = started.problems()
    summary = medians(figures)  # what --check and --record read
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    load_average = "/".join(f"{x:.1f}" for x in os.getloadavg())  # the machine is shared
    print(f"# cardroom CPU figures, {now}, load {load_average}, {described(writer)}\n")
    print(table(rows(figures, summary, lambda value: f"{value:.1f} µs")))
    print(f"\nServer logs: {len(problems)} warning or error lines.")
    reference = json.loads(REFERENCE.read_text()) if REFERENCE.exists() else {}
    if args.record:
        note = (
            f"{now}, load {load_average}, {described(writer)}, "
            f"`python3 dev.py bench cpu {' '.join(argv)}`"
        )
        REFERENCE.write_text(json.dumps(merged(reference, summary, note), indent=2) + "\n")
        print(f"\nwrote {', '.join(f.key for f in summary)} into {REFERENCE}")
        return 0
    if args.check:
        return checked(summary, reference, REFERENCE.name)
    return 0


def checked(figures: list[Figure], reference: dict[str, Any], name: str) -> int:
    """``--check``: print the skipped keys and the regressions against the
    reference file ``name``; the exit status (1 on a regression)."""
    for key in unreferenced(figures, reference):
        print(f"skipped {key}: no reference in {name}")
    found = regressions(figures, reference)
    for line in found:
        print(f"REGRESSION {line}")
    print("\nno regression against the reference" if not found else "")
    return 1 if found else 0
