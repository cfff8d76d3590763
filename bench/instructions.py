"""Instructions per command: a figure that does not move with the machine.

``python3 dev.py bench instructions [--backend B] [--commands N] [--check | --record]``

The CPU figures (bench/cpu.py) move 10-30% between runs on a shared
machine, and more between days: a core that idled before a call spends
more time on the same work. An instruction count does not: valgrind's
callgrind counts the instructions a process executes, whatever the other
processes do and however cold the caches are. So this reads the same
ratio as ``bench cpu``'s command row, in instructions:

* **served**: ``cardroom serve`` runs under callgrind. After a warm-up
  the benchmark (not under valgrind) turns counting on, then zeroes the
  counters just before each ``SubmitCommand`` and reads them (a dump)
  once its answer is back and the server has had a settle time to finish
  the call (``vgdb``, from outside). The bots' ``ListLegalActions``
  between the commands are not counted. Every thread of the server counts
  (the event loop, gRPC's own, the call threads, the checkpoints), and is
  shown apart; the kernel and the database server (PostgreSQL's backend)
  do not count. A window with no call (the settle time's idle wake-ups)
  is taken out of each call's figure.
* **the baseline**: a health ``Check`` counted the same way on the same
  server, plus one raw eventsourcing save (bench/raw_save.py's tally) in
  a process of its own under callgrind, counted over its whole loop.
* **in a process**: the same bots' play through ``Games.submit`` with no
  gRPC (bench/submit_cpu.py), its randomness seeded, so the command's own
  thread runs the same instructions every run: the figure to measure a
  cut of the command path with.

A served run of N commands gives the mean over the bots' N commands. The
server's deals are random (its own entropy), so two runs differ by about
1% (docs/benchmarks.md); the count itself is exact.
``bench/instructions.json`` holds the release's reference, and
``--check`` fails (exit 1) when a ratio is worse than it by more than
that file's margin: 5%, where the CPU figures need 30%.

Under callgrind the server runs some 50-100 times slower, so the run
takes minutes for a few hundred commands; it is a bench, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from grpc_health.v1 import health_pb2, health_pb2_grpc

from bench import load, raw_save, submit_cpu
from bench.bots import LONG, seated_game
from bench.config import QUICK, Run
from bench.cpu import Figure, _moves, checked, medians, merged, reachable, rows
from bench.pin import described, pin
from bench.report import table
from bench.servers import fresh_database, servers

REFERENCE = Path(__file__).with_name("instructions.json")
UNIT = "thousand instructions"  # the figures' unit in the reference file
MARGIN = 0.05  # a ratio this much worse than the reference is a regression
WARM_UP = 20  # commands (and Checks) played before counting: imports, caches, specialization
# After an answer is back, the server still finishes the call (its access
# log line, gRPC's bookkeeping); under valgrind that takes milliseconds.
# A window is dumped this long after the answer, so the call's tail is counted
# (and the idle loop's few wake-ups in it: measured as a window with no call).
SETTLE_SECONDS = 0.2
IDLE_WINDOWS = 20
JOB_SECONDS = 1800.0
TOTALS = re.compile(r"^totals:\s+(\d+)", re.MULTILINE)
R = TypeVar("R")


class NoValgrind(RuntimeError):
    """valgrind (with callgrind and vgdb) is not installed here."""


def callgrind(out: Path) -> tuple[str, ...]:
    """The command prefix that runs a program under callgrind, counting
    off until told otherwise, one dump per thread (``out``.PID.N-TT, the
    main thread 01)."""
    for program in ("valgrind", "vgdb"):
        if shutil.which(program) is None:
            raise NoValgrind(f"{program} not found (Debian: apt install valgrind)")
    return (
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        "--separate-threads=yes",
        "--dump-instr=no",
        "--dump-line=no",
        f"--callgrind-out-file={out}.%p",
    )


def valgrind_version() -> str:
    """valgrind's version: a count holds for the versions that made it
    (valgrind's, Python's and the libraries')."""
    return subprocess.run(
        ["valgrind", "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()


def totals(path: Path) -> int:
    """The instruction count of one callgrind dump."""
    found = TOTALS.search(path.read_text())
    if found is None:
        raise RuntimeError(f"{path}: no totals line")
    return int(found.group(1))


@dataclass
class Dumps:
    """The dumps of one process under callgrind, read in order and removed
    (one per window: hundreds of files of some 300 KB)."""

    out: Path
    pid: int
    read_so_far: int = 0

    def next(self) -> dict[int, int]:
        """The next dump's instructions, by thread (1: the main thread)."""
        self.read_so_far += 1
        prefix = f"{self.out.name}.{self.pid}.{self.read_so_far}-"
        counts = {}
        for dump in self.out.parent.glob(f"{prefix}*"):
            counts[int(dump.name.removeprefix(prefix))] = totals(dump)
            dump.unlink()
        if not counts:
            raise RuntimeError(f"callgrind wrote no dump {prefix}* for process {self.pid}")
        return counts


async def monitor(pid: int, *command: str) -> None:
    """A callgrind monitor command (``zero``, ``dump``, ``instrumentation
    on``) sent to the process ``pid`` through vgdb; it has been carried
    out when this returns."""
    process = await asyncio.create_subprocess_exec(
        "vgdb",
        f"--pid={pid}",
        *command,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    _, error = await process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"vgdb {' '.join(command)} (pid {pid}): {error.decode().strip()}")


@dataclass
class Counted:
    """Calls of ``methods`` counted one at a time on a server under
    callgrind: the counters are zeroed just before each and dumped once it
    is over, so the bots' other calls between them are not counted.
    Counting must be on (``start``): it stays on, since turning it on
    again re-translates the whole program (slow, and callgrind's memory
    grows with each)."""

    dumps: Dumps
    methods: frozenset[str]
    counts: dict[str, dict[int, int]] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)

    async def start(self) -> None:
        await monitor(self.dumps.pid, "instrumentation", "on")
        await self.timed("", asyncio.sleep(0))  # vgdb's first visit: not a call's
        self.counts.clear()

    async def timed(self, method: str, call: Awaitable[R]) -> R:
        """``call`` (a coroutine: it starts only when awaited) counted if
        its method is one of ours (or ""); the name matches ``cpu.Windows``."""
        if method and method not in self.methods:
            return await call
        await monitor(self.dumps.pid, "zero")
        try:
            return await call
        finally:
            await asyncio.sleep(SETTLE_SECONDS)
            await monitor(self.dumps.pid, "dump")
            into = self.counts.setdefault(method, {})
            for thread, count in self.dumps.next().items():
                into[thread] = into.get(thread, 0) + count
            self.calls[method] = self.calls.get(method, 0) + 1

    def per_call(self, method: str) -> dict[int, float]:
        """Instructions per call of ``method``, by thread."""
        calls = self.calls.get(method, 0)
        return {n: count / calls for n, count in self.counts.get(method, {}).items()}


@dataclass(frozen=True)
class Served:
    """Instructions per call on a served server, each less an empty
    window's; ``by_thread``: a SubmitCommand's, thread by thread."""

    check: float
    submit: float
    idle: float
    by_thread: dict[int, float]

    def threads(self, shown: int = 4) -> str:
        """The threads that counted most, as "thread 1 (the event loop) N k, ..."."""
        top = sorted(self.by_thread.items(), key=lambda item: -item[1])[:shown]
        named = {1: " (the event loop)"}
        return ", ".join(f"thread {n}{named.get(n, '')} {kilo(count)}" for n, count in top)


async def served(run: Run, out: Path, commands: int) -> Served:
    """Instructions per health Check, per SubmitCommand, and per idle
    window, on a server of ``run``'s backend under callgrind. A call's
    figure leaves out the idle window's (each window is a settle time
    longer than its call)."""
    with fresh_database(run.backend) as database:
        server = run.servers.start(database, under=callgrind(out))
        counted = Counted(Dumps(out, server.pid), frozenset({"Check", "SubmitCommand", "idle"}))
        try:
            async with load.channel(server.address) as channel:
                stub = health_pb2_grpc.HealthStub(channel)
                request = health_pb2.HealthCheckRequest()
                for _ in range(WARM_UP):
                    await stub.Check(request)
                await counted.start()
                for _ in range(IDLE_WINDOWS):
                    await counted.timed("idle", asyncio.sleep(0))

                async def check_once() -> health_pb2.HealthCheckResponse:
                    # A coroutine: the call starts when awaited, inside the window
                    # (a grpc.aio call object would start as soon as it is made).
                    return await stub.Check(request)

                for _ in range(commands):
                    await counted.timed("Check", check_once())
            rng = random.Random(1)
            async with load.client(server.address) as client:
                game = await seated_game(client, rounds_to_win=LONG)
                await _moves(client, game, rng, WARM_UP, Counted(counted.dumps, frozenset()))
                await _moves(client, game, rng, commands, counted)
        finally:
            run.servers.stop(server)
    idle = sum(counted.per_call("idle").values())
    by_thread = counted.per_call("SubmitCommand")
    check = sum(counted.per_call("Check").values()) - idle
    return Served(check, sum(by_thread.values()) - idle, idle, by_thread)


class Counts(NamedTuple):
    """A job's instructions per unit: on its own thread (less an empty
    window's), on the other threads while its windows were open, and the
    median window's on its own thread (less an empty one's), which one
    window with a garbage collection in it does not move."""

    own: float
    others: float
    median: float


def in_a_process(out: Path, job: str, backend: str, count: int) -> Counts:
    """Instructions per unit of ``job`` ("raw-save" or "submit"), run
    ``count`` times in a process of its own under callgrind
    (``python -m bench.instructions JOB DATABASE COUNT OUT``, which counts
    itself: see ``Job``): on its own thread less an empty window's, and on
    the others (checkpoints, warming, the projections' followers) while
    its windows were open.

    The job's randomness is seeded, so its own thread runs the same
    instructions each run (within 0.3% over 200 commands). The other threads' work falls in
    or out of the windows with their timing, so theirs is not repeatable,
    and it is not part of the figure."""
    with fresh_database(backend) as database:
        command = [*callgrind(out), sys.executable, "-m", "bench.instructions"]
        process = subprocess.run(
            [*command, job, database, str(count), str(out)],
            capture_output=True,
            text=True,
            timeout=JOB_SECONDS,
            env={**os.environ, "PYTHONHASHSEED": "0"},
            cwd=Path(__file__).parent.parent,  # where ``bench`` imports from
        )
        if process.returncode != 0:
            raise RuntimeError(f"{job} under callgrind failed:\n{process.stderr[-2000:]}")
    own, others, median = (float(word) for word in process.stdout.split()[-3:])
    return Counts(own, others, median)


class Job:
    """A process under callgrind that counts its own windows, zeroing and
    dumping the counters through vgdb (a child process, which valgrind
    does not follow). A window also counts the tail of the vgdb call that
    opened it and the start of the one that closes it: ``report`` counts
    empty windows apart and takes theirs out."""

    def __init__(self, out: Path) -> None:
        self.vgdb = ["vgdb", f"--pid={os.getpid()}"]
        self.dumps = Dumps(out, os.getpid())
        self.own = self.others = self.windows = 0
        self.each: list[int] = []  # each window's count on this thread

    def _send(self, *command: str) -> None:
        subprocess.run([*self.vgdb, *command], check=True, capture_output=True)

    def start(self) -> None:
        """Counting on, once; vgdb's first visit in a window of its own."""
        self._send("instrumentation", "on")
        with self.window():
            pass
        self.own = self.others = self.windows = 0
        self.each.clear()

    @contextmanager
    def window(self) -> Iterator[None]:
        self._send("zero")
        try:
            yield
        finally:
            self._send("dump")
            counts = self.dumps.next()
            self.own += counts.get(1, 0)
            self.each.append(counts.get(1, 0))
            self.others += sum(counts.values()) - counts.get(1, 0)
            self.windows += 1

    def report(self, units: int) -> None:
        """Print what ``in_a_process`` reads (``Counts``): instructions per
        unit on this thread (less the empty windows') and on the others,
        and the median window's on this thread (less an empty one's)."""
        own, others, windows, each = self.own, self.others, self.windows, list(self.each)
        self.own = 0
        for _ in range(IDLE_WINDOWS):
            with self.window():
                pass
        empty = self.own / IDLE_WINDOWS
        median = statistics.median(each) - empty
        print((own - empty * windows) / units, others / units, median)


def seeded(seed: int = 1) -> None:
    """Make the server's randomness (deals, salts, tokens, ids) repeat, so
    a run of the in-process job executes the same instructions every
    time. For this bench process only: it replaces ``secrets.token_bytes``
    and ``uuid.uuid4``, which the service draws every random byte from."""
    rng = random.Random(seed)
    secrets.token_bytes = lambda nbytes=None: rng.randbytes(32 if nbytes is None else nbytes)
    uuid.uuid4 = lambda: uuid.UUID(bytes=rng.randbytes(16), version=4)


def raw_save_job(database: str, saves: int, out: Path) -> None:
    """Create the tallies, warm up, then count ``saves`` saves in one window."""
    job = Job(out)
    app = raw_save.Tallies(env=raw_save.storage_env(database))
    try:
        tallies = [raw_save.Tally() for _ in range(raw_save.AGGREGATES)]
        app.save(*tallies)

        def save(i: int) -> None:
            tally = tallies[i % raw_save.AGGREGATES]
            tally.add(1)
            app.save(tally)

        for i in range(WARM_UP):
            save(i)
        job.start()
        with job.window():
            for i in range(saves):
                save(i)
    finally:
        app.close()
    job.report(saves)


def submit_job(database: str, commands: int, out: Path) -> None:
    """The bots' game through ``Games.submit`` (bench/submit_cpu.py), each
    command in its own window (the seat's legal actions outside it)."""
    seeded()
    job = Job(out)
    with submit_cpu.started_game(database) as (games, game_id, tokens):
        rng = random.Random(1)
        for i in range(WARM_UP + commands):
            token, command = submit_cpu.next_command(games, game_id, tokens, rng)
            if i < WARM_UP:
                submit_cpu.submit(games, game_id, token, command)
                if i == WARM_UP - 1:
                    job.start()
                continue
            with job.window():
                submit_cpu.submit(games, game_id, token, command)
    job.report(commands)


async def command_figures(run: Run, commands: int) -> list[Figure]:
    with tempfile.TemporaryDirectory(prefix="cardroom-callgrind-") as folder:
        out = Path(folder) / f"callgrind.{run.backend}"
        calls = await served(run, out, commands)
        save, _, _ = await asyncio.to_thread(in_a_process, out, "raw-save", run.backend, commands)
        alone, beside, _ = await asyncio.to_thread(
            in_a_process, out, "submit", run.backend, commands
        )
    return [
        Figure(
            f"{run.backend} SubmitCommand",
            f"{run.title}: the server's instructions per SubmitCommand ({commands} commands; "
            f"{calls.threads()}; a window with no call {kilo(calls.idle)})",
            calls.submit / 1e3,
            (calls.check + save) / 1e3,
            f"health Check {kilo(calls.check)} + raw save {kilo(save)}",
        ),
        Figure(
            f"{run.backend} submit in process",
            f"{run.title}: the same play's Games.submit in a process, no gRPC, "
            "its randomness seeded, its own thread (bench/submit_cpu.py; the other "
            f"threads {kilo(beside)} while it ran)",
            alone / 1e3,
            save / 1e3,
            "raw save",
        ),
    ]


def kilo(instructions: float) -> str:
    return f"{instructions / 1e3:,.0f} k"


def recorded(reference: dict[str, Any], figures: list[Figure], note: str) -> dict[str, Any]:
    """The reference file after ``--record``: bench/cpu.py's ``merged``,
    with the figures under their unit's name instead of microseconds."""
    as_cpu = {key: value for key, value in reference.items() if key != UNIT}
    as_cpu["microseconds"] = reference.get(UNIT, {})
    new = merged({"margin": MARGIN, **as_cpu}, figures, note)
    new[UNIT] = new.pop("microseconds")
    return new


def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python3 dev.py bench instructions", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--pin", action="store_true", help="the writer's server on its own core")
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--commands", type=int, default=200, help="SubmitCommands per backend")
    parser.add_argument("--rounds", type=int, default=1, help="runs per backend (medians)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true", help="exit 1 on a regression")
    what.add_argument(
        "--record", action="store_true", help=f"merge the figures into {REFERENCE.name}"
    )
    return parser.parse_args(argv)


async def main(argv: list[str]) -> int:
    args = arguments(argv)
    try:
        callgrind(Path("check"))
    except NoValgrind as error:
        print(f"bench instructions: {error}", file=sys.stderr)
        return 2
    writer = pin() if args.pin else None
    backends = ["sqlite", "postgres"] if args.backend == "both" else [args.backend]
    figures: list[Figure] = []
    with servers(writer) as started:
        for backend in reachable(backends):
            run = Run(backend, QUICK, started)
            for _ in range(args.rounds):
                figures += await command_figures(run, args.commands)
        problems = started.problems()
    summary = medians(figures)
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"# cardroom instruction counts (callgrind), {now}, {described(writer)}\n")
    print(table(rows(figures, summary, lambda thousands: kilo(thousands * 1e3))))
    print(f"\nServer logs: {len(problems)} warning or error lines.")
    reference = json.loads(REFERENCE.read_text()) if REFERENCE.exists() else {}
    if args.record:
        versions = f"Python {platform.python_version()}, {valgrind_version()}"
        note = f"{now}, {versions}, `python3 dev.py bench instructions {' '.join(argv)}`"
        REFERENCE.write_text(json.dumps(recorded(reference, summary, note), indent=2) + "\n")
        print(f"\nwrote {', '.join(f.key for f in summary)} into {REFERENCE}")
        return 0
    if args.check:
        return checked(summary, reference, REFERENCE.name)
    return 0


JOBS = {"raw-save": raw_save_job, "submit": submit_job}

if __name__ == "__main__":
    if sys.argv[1:2] and sys.argv[1] in JOBS:
        JOBS[sys.argv[1]](sys.argv[2], int(sys.argv[3]), Path(sys.argv[4]))
    else:
        sys.exit(asyncio.run(main(sys.argv[1:])))
