"""cardroom benchmarks: ``python3 dev.py bench`` (or ``python -m bench``).

Measures the server from outside only: ``cardroom serve`` processes on free
ports, load from separate worker processes over gRPC, memory from /proc,
plus a raw eventsourcing save as a baseline. Prints one table per backend
(SQLite, PostgreSQL), every row with its same-run baseline, the ratio and
the target of issue 10, then the scale-out figures (several servers on one
PostgreSQL) and the store's own write scale (appends from several processes,
with and without what serialises them). docs/benchmarks.md says what each
row measures and how.

``python3 dev.py bench fairness [--games N | --quick]`` runs the fairness
benchmark instead (``bench/fairness.py``: win shares when a seat leaves or
times out; no server, about an hour at 300 games a run).
``python3 dev.py bench abandoned [--games N] [--seconds S]``: events/s that
abandoned clocked games write by themselves, before and after T-TIMEOUTS
(``bench/abandoned.py``).
``python3 dev.py bench heads [--rounds N]``: what signing every served
event's head costs, signed against ``--no-signed-heads`` (``bench/heads.py``).
``python3 dev.py bench cpu [--pin] [--check | --record]``: CPU per command and
per relayed message against same-run baselines and bench/reference.json
(``bench/cpu.py``).
``python3 dev.py bench instructions [--commands N] [--check | --record]``: the
same command ratio in instructions (valgrind's callgrind), which repeat
whatever the machine does, against bench/instructions.json
(``bench/instructions.py``).
``python3 dev.py bench search [--games 500] [--jobs N]``: the search bot
against two heuristic bots, win rate against the fair share and CPU time per
move (``bench/search.py``; docs/bots.md).
``python3 dev.py bench bot-shares [--before DIR]``: the server's bots under
attack from another client (waiting bots, search bots, fast bots), before
and after in one run (``bench/bot_shares.py``; docs/bots.md).
``python3 dev.py bench tournament [--quick]``: a 64-player Swiss of bots over
5 rounds per game kind, in process: wall time, CPU per game against a lone
game's, the audit's time per game (``bench/tournament.py``).
``python3 dev.py bench attacks [--before TREE]``: issue 34's stream attacks
from separate processes, before and after (``bench/attacks.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
import time
import traceback
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from bench import (
    commands,
    game_list,
    long_game,
    memory,
    pin,
    relays,
    restart,
    scale_out,
    spectators,
    store_writes,
)
from bench.config import FULL, QUICK, Run, Scale, scaled
from bench.report import Row, failed, table
from bench.servers import POSTGRES_URL, Server, fresh_database, postgres_reachable, servers

MEASUREMENTS = (
    "commands",
    "long_game",
    "restart",
    "spectators",
    "memory",
    "game_list",
    "scale_out",
    "store_writes",
    "relays",
)
BACKENDS = {"sqlite": ["sqlite"], "postgres": ["postgres"], "both": ["sqlite", "postgres"]}
SHOWN_PROBLEMS = 5


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python3 dev.py bench", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument(
        "--quick", action="store_true", help="every row at a small scale (a 1-2 minute smoke run)"
    )
    parser.add_argument(
        "--only",
        default=",".join(MEASUREMENTS),
        metavar="NAME[,NAME]",
        help=f"measure only these ({', '.join(MEASUREMENTS)}); default all",
    )
    parser.add_argument("--backend", choices=sorted(BACKENDS), default="both")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the writer's server on the first CPU, the benchmark, watchers, relays and "
        "broker on the others (taskset): separate hosts on one machine",
    )
    parser.add_argument("--games", type=int, help="games for the RSS and ListGames rows")
    parser.add_argument(
        "--fill-seconds", type=int, help="time budget for creating those games (per backend)"
    )
    parser.add_argument("--spectators", type=int, help="watchers for the delivery row")
    parser.add_argument(
        "--crowd", type=int, help="watchers over 4 relays in the last relay row (0: skip it)"
    )
    args = parser.parse_args(argv)
    chosen = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = sorted(set(chosen) - set(MEASUREMENTS))
    if unknown or not chosen:
        parser.error(f"--only takes names from {', '.join(MEASUREMENTS)}, not {unknown}")
    args.only = set(chosen)
    return args


@contextmanager
def step(run: Run, name: str) -> Iterator[None]:
    """Tell standard error what runs, and how long it took."""
    began = time.monotonic()
    print(f"[{run.backend}] {name} ...", file=sys.stderr, flush=True)
    try:
        yield
    finally:
        took = time.monotonic() - began
        print(f"[{run.backend}] {name}: {took:.0f} s", file=sys.stderr, flush=True)


async def guarded(run: Run, name: str, what: str, measure: Awaitable[list[Row]]) -> list[Row]:
    """The rows of measurement ``name``, or one FAILED row saying ``what``
    failed (with the traceback on standard error)."""
    with step(run, name):
        try:
            return await measure
        except Exception as error:
            traceback.print_exc()
            return [failed(what, error)]


async def first_server_rows(run: Run, only: set[str]) -> list[Row]:
    """The rows that share one server and database: commands, the long
    game, the restart (which replaces the server) and the spectators."""
    rows: list[Row] = []
    game: long_game.LongGame | None = None
    with fresh_database(run.backend) as database:
        server: Server = run.servers.start(database)
        try:
            if "commands" in only:
                rows += await guarded(run, "commands", commands.WHAT, commands.measure(run, server))
            if only & {"long_game", "restart"}:
                with step(run, "long_game"):
                    try:
                        built, game = await long_game.measure(run, server)
                    except Exception as error:
                        traceback.print_exc()
                        what = long_game.what(run.scale.long_game_events)
                        built, game = [failed(what, error)], None
                rows += built
            if "restart" in only and game is not None:
                with step(run, "restart"):
                    try:
                        read, server = await restart.measure(run, server, game)
                    except Exception as error:
                        traceback.print_exc()
                        read = [failed("first GetView after a restart", error)]
                rows += read
            if "spectators" in only:
                rows += await guarded(
                    run, "spectators", "spectators", spectators.measure(run, server)
                )
        finally:
            run.servers.stop_all()
    return rows


async def backend_table(
    backend: str, scale: Scale, only: set[str], writer: str | None = None
) -> tuple[str, bool]:
    """The backend's table (and the scale-out figures on PostgreSQL), and
    whether every measurement ran (``writer``: the pinned server's CPUs)."""
    with servers(writer) as started:
        run = Run(backend, scale, started)
        rows: list[Row] = []
        if only & {"commands", "long_game", "restart", "spectators"}:
            rows += await first_server_rows(run, only)
        if "memory" in only:
            rows += await guarded(run, "memory", "memory per game", memory.measure(run))
        if only & {"memory", "game_list"}:
            rows += await guarded(
                run, "game_list", "server RSS while games are created", game_list.measure(run)
            )
        if "relays" in only:
            why = relays.nats_reachable()
            if why is None:
                rows += await guarded(run, "relays", "relays", relays.measure(run))
            else:
                where = relays.NATS_URL or "a private nats-server"
                rows.append(failed(f"relays (NATS: {where})", OSError(why)))
        parts = [f"## {run.title}", "", table(rows)] if rows else [f"## {run.title}"]
        ok = not any(row.measured.startswith("FAILED") for row in rows)
        if backend == "postgres" and "scale_out" in only:
            parts += ["", "### Several servers on one PostgreSQL", ""]
            with step(run, "scale_out"):
                try:
                    text, passed = await scale_out.measure(run)
                    parts.append(text)
                    ok = ok and passed
                except Exception as error:
                    traceback.print_exc()
                    parts.append(f"scale-out FAILED: {error}")
                    ok = False
        if backend == "postgres" and "store_writes" in only:
            parts += ["", "### Appends from several processes, the store alone", ""]
            with step(run, "store_writes"):
                try:
                    parts.append(await store_writes.measure(run))
                except Exception as error:
                    traceback.print_exc()
                    parts.append(f"store writes FAILED: {error}")
                    ok = False
        problems = started.problems()
        parts += ["", f"Server logs: {len(problems)} warning or error lines."]
        parts += [f"    {line[:200]}" for line in dict.fromkeys(problems)][:SHOWN_PROBLEMS]
    return "\n".join(parts), ok


def header(argv: list[str]) -> str:
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    machine = (
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    command = " ".join(["python3 dev.py bench", *argv])
    return f"# cardroom benchmarks, {now}\n\n{machine}, {load_average()}; `{command}`"


def load_average() -> str:
    """The machine's load (other work on it makes every figure slower)."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min)"


async def main(argv: list[str]) -> int:
    if argv[:1] == ["fairness"]:
        from bench import fairness

        return fairness.main(argv[1:])
    if argv[:1] == ["abandoned"]:
        from bench import abandoned

        return await abandoned.main(argv[1:])
    if argv[:1] == ["heads"]:
        from bench import heads

        await heads.measure(heads.arguments(argv[1:]))
        return 0
    if argv[:1] == ["cpu"]:
        from bench import cpu

        return await cpu.main(argv[1:])
    if argv[:1] == ["instructions"]:
        from bench import instructions

        return await instructions.main(argv[1:])
    if argv[:1] == ["search"]:
        from bench import search

        return search.main(argv[1:])
    if argv[:1] == ["bot-shares"]:
        from bench import bot_shares

        return await asyncio.to_thread(bot_shares.main, argv[1:])
    if argv[:1] == ["tournament"]:
        from bench import tournament

        return tournament.main(argv[1:])
    if argv[:1] == ["attacks"]:
        from bench import attacks

        return await attacks.main(argv[1:])
    args = arguments(argv)
    writer = pin.pin() if args.pin else None
    scale = scaled(
        QUICK if args.quick else FULL,
        many_games=args.games,
        fill_seconds=args.fill_seconds,
        spectators=args.spectators,
        relay_crowd=args.crowd,
    )
    began = time.monotonic()
    print(header(argv), flush=True)
    print(f"\n{pin.described(writer)}", flush=True)
    ok = True
    for backend in BACKENDS[args.backend]:
        if backend == "postgres" and (why := postgres_reachable()) is not None:
            print(f"\n## PostgreSQL\n\nnot measured: unreachable at {POSTGRES_URL} ({why})")
            ok = False
            continue
        # The relays rows once, on the last backend measured (PostgreSQL when both).
        only = args.only if backend == BACKENDS[args.backend][-1] else args.only - {"relays"}
        text, measured = await backend_table(backend, scale, only, writer)
        print("\n" + text, flush=True)
        ok = ok and measured
    minutes, seconds = divmod(round(time.monotonic() - began), 60)
    print(f"\nThe run took {minutes} min {seconds} s; at the end, {load_average()}.")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
