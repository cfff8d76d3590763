"""``cardroom serve`` processes for the benchmarks, and the databases they use.

The benchmark sees the server only from outside: it starts the ``cardroom``
command on a free port, reads the address from its "listening on" line,
talks gRPC to it, reads its memory from /proc, and stops or kills it. So the
same benchmark runs against any server that keeps that command line.
"""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

POSTGRES_URL = os.environ.get(
    "CARDROOM_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"
)
OPERATOR_TOKEN = "bench-operator-token"
START_SECONDS = 60.0
STOP_SECONDS = 20.0
LISTENING = re.compile(r"listening on (\S+)")
# The per-client shares a server (and a relay) gives one client address by
# default are far below what the benchmark asks of it from 127.0.0.1 alone
# (1,000 and 10,000 watchers of one game): every process it starts gets
# them lifted. The quick run crosses the watcher share (bench/config.py),
# and tests/bench/test_bench_shares.py fails when a ``--*-per-client-*`` flag
# of ``cardroom serve`` or ``cardroom relay`` is missing here.
LIFTED_SHARES = {
    "CARDROOM_WATCHERS_PER_CLIENT": "1000000",
    "CARDROOM_GAMES_PER_CLIENT_PER_HOUR": "0",  # 0: no limit
    "CARDROOM_JOINS_PER_CLIENT_PER_HOUR": "0",  # the memory row seats 930 players
    "CARDROOM_INVITATIONS_PER_CLIENT_PER_HOUR": "0",
    "CARDROOM_RECORDS_PER_CLIENT": "1000000",
}
CALL_LOG = "cardroom.calls: "  # the access log's lines: this, then one JSON object


class ServerFailed(RuntimeError):
    """A server did not start, or stopped on its own."""


def cardroom_command() -> list[str]:
    """The installed ``cardroom`` command (beside this Python, else on PATH)."""
    beside = Path(sys.executable).parent / "cardroom"
    if beside.exists():
        return [str(beside)]
    found = shutil.which("cardroom")
    if found:
        return [found]
    return [sys.executable, "-m", "cardroom.cli"]


@dataclass
class Server:
    """One ``cardroom serve`` process; its log (standard error) is kept in a file."""

    process: subprocess.Popen[str]
    address: str
    database: str
    log_path: Path
    flags: tuple[str, ...] = ()

    @property
    def pid(self) -> int:
        return self.process.pid

    def rss_kib(self) -> int:
        """Resident memory now (VmRSS), in KiB."""
        status = Path(f"/proc/{self.pid}/status").read_text()
        match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
        if match is None:
            raise ServerFailed(f"no VmRSS for server {self.pid}: has it exited?")
        return int(match.group(1))

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        """SIGTERM (a graceful stop), then SIGKILL if it hangs."""
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.kill()
        self._close()

    def kill(self) -> None:
        """SIGKILL: the server dies mid-call, as in a crash."""
        if self.alive():
            self.process.kill()
        self.process.wait(timeout=STOP_SECONDS)
        self._close()

    def _close(self) -> None:
        if self.process.stdout is not None:
            self.process.stdout.close()

    def log_size(self) -> int:
        """Where its log ends now (for ``call_seconds`` of what follows)."""
        return self.log_path.stat().st_size if self.log_path.exists() else 0

    def call_seconds(self, method: str, since: int = 0) -> list[float]:
        """The server's own time for each call of ``method`` logged after
        byte ``since``: the access log's ``duration_ms`` (cardroom.server.observability),
        from the call's start to its last response inside the server."""
        if not self.log_path.exists():
            return []
        with self.log_path.open("rb") as log:
            log.seek(since)
            lines = log.read().decode(errors="replace").splitlines()
        seconds = []
        for line in lines:
            _, found, text = line.partition(CALL_LOG)
            if not found:
                continue
            call = json.loads(text)
            if call.get("method") == method:
                seconds.append(call["duration_ms"] / 1000)
        return seconds

    def problems(self) -> list[str]:
        """The WARNING, ERROR and CRITICAL lines of its log, and tracebacks."""
        if not self.log_path.exists():
            return []
        wanted = ("WARNING", "ERROR", "CRITICAL", "Traceback")
        with self.log_path.open(errors="replace") as log:
            return [line.rstrip() for line in log if line.startswith(wanted)]


def cpu_seconds(pid: int) -> float:
    """A process's user + system CPU time so far (/proc/PID/stat, every
    thread): a figure the machine's other load changes far less than a
    wall time."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_ns(pid: int) -> int:
    """A process's CPU time so far in nanoseconds, summed over its threads
    (/proc/PID/task/*/schedstat, the scheduler's own run-time count): fine
    enough to read around one call, where /proc/PID/stat counts 10 ms ticks.
    A thread that has exited no longer counts, so read it around work whose
    threads outlive it (a server's)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            continue  # the thread ended between the listing and the read
    return total


def _first_line(process: subprocess.Popen[str], timeout: float) -> str:
    """The server's first line of standard output, or "" if none in time."""
    stdout = process.stdout
    assert stdout is not None
    ready, _, _ = select.select([stdout], [], [], timeout)
    return stdout.readline() if ready else ""


@dataclass
class Servers:
    """Starts servers into one folder (logs, signing key) and stops them all."""

    folder: Path
    # ``--pin``: the CPUs (taskset's list) of every ``cardroom serve`` (the
    # writer's server), away from the benchmark, its workers and relays.
    writer_cpus: str | None = None
    running: list[Server] = field(default_factory=list)
    stopped: list[Server] = field(default_factory=list)

    def start(self, database: str, *flags: str, under: tuple[str, ...] = ()) -> Server:
        """``cardroom serve`` on ``database``; ``under`` is a command to run
        it under (valgrind: bench/instructions.py), which then gets the
        interpreter itself, not the console script."""
        pinned = ["taskset", "-c", self.writer_cpus] if self.writer_cpus else []
        program = [*under, sys.executable, "-m", "cardroom.cli"] if under else cardroom_command()
        command = [
            *pinned,
            *program,
            "serve",
            "--address",
            "127.0.0.1:0",
            "--database",
            database,
            # One key for every server of a run: the first start creates it.
            "--signing-key",
            str(self.folder / "signing-key.pem"),
            "--operator-token",
            OPERATOR_TOKEN,
            # The load is one client (127.0.0.1): no creation limit.
            "--games-per-client-per-hour",
            "0",
            # The command rows read each call's time inside the server from it.
            "--access-log",
            *flags,
        ]
        return self.start_command(command, database, flags)

    def start_command(
        self,
        command: list[str],
        database: str = "",
        flags: tuple[str, ...] = (),
        *,
        lifted: bool = True,
    ) -> Server:
        """Any server command that prints "listening on HOST:PORT" first;
        with the per-client shares lifted unless not ``lifted`` (an attack
        measures them)."""
        index = len(self.running) + len(self.stopped)
        log_path = self.folder / f"server-{index}.log"
        with log_path.open("w") as log:
            process = subprocess.Popen(
                command,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                cwd=self.folder,
                env={**os.environ, "PYTHONUNBUFFERED": "1", **(LIFTED_SHARES if lifted else {})},
            )
        line = _first_line(process, START_SECONDS)
        match = LISTENING.search(line)
        if match is None:
            process.kill()
            process.wait()
            tail = log_path.read_text(errors="replace")[-2000:]
            raise ServerFailed(f"{command[0]} did not start: {line!r}\n{tail}")
        server = Server(process, match.group(1), database, log_path, flags)
        self.running.append(server)
        return server

    def restart(self, server: Server) -> Server:
        """Stop ``server`` and start a new process on the same database."""
        self.stop(server)
        return self.start(server.database, *server.flags)

    def stop(self, server: Server) -> None:
        server.stop()
        self._retire(server)

    def kill(self, server: Server) -> None:
        server.kill()
        self._retire(server)

    def _retire(self, server: Server) -> None:
        if server in self.running:
            self.running.remove(server)
            self.stopped.append(server)

    def stop_all(self) -> None:
        for server in list(self.running):
            self.stop(server)

    def problems(self) -> list[str]:
        return [line for s in [*self.stopped, *self.running] for line in s.problems()]


@contextmanager
def servers(writer_cpus: str | None = None) -> Iterator[Servers]:
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-") as folder:
        started = Servers(Path(folder), writer_cpus)
        try:
            yield started
        finally:
            started.stop_all()


# ----------------------------------------------------------------- databases


def postgres_reachable() -> str | None:
    """None if PostgreSQL answers, else why not."""
    try:
        psycopg.connect(POSTGRES_URL, connect_timeout=3).close()
    except psycopg.OperationalError as error:
        return str(error).strip().splitlines()[0]
    return None


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A postgresql:// URL whose tables live in a fresh schema, dropped after."""
    schema = f"cardroom_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{POSTGRES_URL}?schema={schema}"
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@contextmanager
def sqlite_file() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-db-") as folder:
        yield str(Path(folder) / "cardroom.sqlite3")


@contextmanager
def fresh_database(backend: str) -> Iterator[str]:
    """A new, empty database of ``backend`` ("sqlite" or "postgres")."""
    maker = postgres_schema if backend == "postgres" else sqlite_file
    with maker() as database:
        yield database
