"""Ratings rebuilt from many finished games (issue 32; docs/benchmarks.md).

``python -m bench.ratings [--games 10000] [--played 40]`` plays
``--played`` real games of server bots (a random and a heuristic bot: rated) on a
fresh SQLite database through ``cardroom serve``, stops the server, then
copies those games' stored events under new game ids until the log holds
``--games`` finished games (the ratings read only each game's public
events, so copies are as costly to rate as the originals). It then runs,
each ``--rounds`` times in separate processes:

* ``cardroom ratings rebuild``: empty the ratings tables, fold every
  finished game (wall time, peak RSS of the process);
* the baseline, a raw pass: the same process reading every stored event of
  the log once (``SELECT state FROM stored_events``), and its peak RSS;

and prints the medians and their same-run ratios. Like every bench it
imports nothing of service/.

``python -m bench.ratings --strength KIND --games N [--lineup
search,heuristic,random] [--think-ms MS]``: instead, N games of the server's
bots (one key per strategy, the line-up turned one seat each game) and each
level's rating with a 95% interval of its mu. KIND is one of the four game
kinds or ``all`` (each in turn, a fresh server each). The options a kind
needs to be played by these line-ups are set and printed (``STRENGTH_OPTIONS``):
Smiles & Daggers at two seats takes ``allow_two_players`` (SD-12), and Smile
Life is played with a short draw pile so that hundreds of games fit a run.
A search bot thinks ``--think-ms`` a move (the server's ``--bot-think-ms``):
a smaller budget than the server's default measures a weaker search bot, so
the output names it.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from google.protobuf.message import Message

from bench.servers import OPERATOR_TOKEN, Servers, cardroom_command
from cardroom.client import CardroomError, Client, RuleBroken
from cardroom.smile_life.v1 import smile_life_pb2 as slpb
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as sdpb

T = TypeVar("T")
KIND = "smoke-and-mirrors"
LINEUP = ("random", "heuristic")  # one key per level: every game is rated
WAVE = 5  # games played at once: SQLite serves one writer
KINDS = ("smoke-and-mirrors", "silver-dagger", "smiles-and-daggers", "smile-life")
SMILE_LIFE_PILE = 50  # cards in Smile Life's draw pile for --strength (SL-36)


def strength_options(kind: str, seats: int) -> tuple[Message | None, str]:
    """The options ``kind`` is created with for a --strength line-up of
    ``seats``, and how the output states them ("" for the rulebook's)."""
    if kind == "smiles-and-daggers" and seats == 2:
        return sdpb.Options(allow_two_players=True), "allow_two_players (SD-12)"
    if kind == "smile-life":
        pile = SMILE_LIFE_PILE
        return slpb.Options(draw_pile_size=pile), f"draw_pile_size {pile} (SL-36, a short game)"
    return None, ""


RAW_PASS = """
import sqlite3, sys, time
start = time.perf_counter()
db = sqlite3.connect(sys.argv[1])
total = sum(len(row[0]) for row in db.execute("SELECT state FROM stored_events"))
print(time.perf_counter() - start, total)
"""


async def play(
    address: str,
    games: int,
    kind: str = KIND,
    lineup: tuple[str, ...] = LINEUP,
    options: Message | None = None,
    progress: bool = False,
) -> None:
    """``games`` games of server bots, one seat per strategy of ``lineup``,
    the line-up turned one seat further each game (every level plays every seat);
    with ``progress``, a line on standard error after each wave."""
    async with Client.connect(address) as client:

        async def patiently(call: Callable[[], Awaitable[T]]) -> T:
            """A call the store was too busy for wrote nothing: try again."""
            for _ in range(50):
                try:
                    return await call()
                except CardroomError as error:
                    if "busy" not in error.details:
                        raise
                    await asyncio.sleep(0.2)
            return await call()

        turn = 0

        async def one() -> str:
            nonlocal turn
            game_id = await patiently(
                lambda: client.create_game(
                    kind, seat_count=len(lineup), options=options, operator_token=OPERATOR_TOKEN
                )
            )
            turn += 1
            for strategy in lineup[turn % len(lineup) :] + lineup[: turn % len(lineup)]:
                await patiently(
                    functools.partial(client.add_bot, game_id, OPERATOR_TOKEN, strategy)
                )
            try:
                await patiently(lambda: client.start(game_id, OPERATOR_TOKEN))
            except RuleBroken as error:  # a busy answer after the start was written
                if "already started" not in error.details:
                    raise
            return game_id

        for wave in range(0, games, WAVE):
            ids = [await one() for _ in range(min(WAVE, games - wave))]
            for game_id in ids:
                while not (await patiently(functools.partial(client.view, game_id))).table.finished:
                    await asyncio.sleep(0.2)
            if progress:
                print(f"  {kind}: {wave + len(ids)}/{games} games", file=sys.stderr, flush=True)


def copy_games(database: str, target: int) -> tuple[int, int]:
    """Copy the played games' events under new ids until ``target`` games
    are stored; returns (games, events)."""
    db = sqlite3.connect(database)
    with db:
        originals = [r[0] for r in db.execute("SELECT DISTINCT originator_id FROM stored_events")]
        rows = {
            game: db.execute(
                "SELECT originator_version, topic, state FROM stored_events "
                "WHERE originator_id = ? ORDER BY originator_version",
                (game,),
            ).fetchall()
            for game in originals
        }
        count = len(originals)
        while count < target:
            source = originals[count % len(originals)]
            new_id = uuid.uuid4().hex
            db.executemany(
                "INSERT INTO stored_events (originator_id, originator_version, topic, state) "
                "VALUES (?, ?, ?, ?)",
                [(new_id, v, t, s) for v, t, s in rows[source]],
            )
            count += 1
    events = db.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0]
    db.close()
    return count, events


def measured(command: list[str]) -> tuple[float, float, str]:
    """``timed`` in a fresh interpreter of its own, so each peak RSS is that
    command's alone."""
    probe = (
        "import json, resource, subprocess, sys, time\n"
        "start = time.perf_counter()\n"
        "done = subprocess.run(sys.argv[1:], capture_output=True, text=True, check=True)\n"
        "seconds = time.perf_counter() - start\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(json.dumps([seconds, peak, done.stdout]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, *command], capture_output=True, text=True, check=True
    )
    seconds, peak, stdout = json.loads(out.stdout)
    return float(seconds), float(peak), str(stdout)


async def strength(address: str, kind: str) -> None:
    """Each server bot level's rating (one key per strategy, T-PLAYER) with
    a 95% interval of its mu, and its ordinal mu - 3 sigma."""
    async with Client.connect(address) as client:
        for rating in await client.ratings(kind):
            low, high = rating.mu - 1.96 * rating.sigma, rating.mu + 1.96 * rating.sigma
            print(
                f"  {rating.display_name:<16} mu {rating.mu:6.2f}  95% [{low:6.2f}, {high:6.2f}]"
                f"  ordinal {rating.rating:6.2f}  ({rating.games} games)"
            )


def bot_strength(
    kind: str, games: int, lineup: tuple[str, ...], think_ms: int | None, move_ms: int
) -> None:
    options, stated = strength_options(kind, len(lineup))
    flags = ["--bot-move-ms", str(move_ms)]
    if think_ms is not None:
        flags += ["--bot-think-ms", str(think_ms)]
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-strength-") as folder:
        database = str(Path(folder) / "cardroom.sqlite3")
        servers = Servers(Path(folder))
        server = servers.start(database, *flags)
        try:
            start = time.perf_counter()
            asyncio.run(play(server.address, games, kind, lineup, options, progress=True))
            seconds = time.perf_counter() - start
            think = f"{think_ms} ms" if think_ms is not None else "the server's default"
            print(
                f"{kind}: {games} rated games of server bots {', '.join(lineup)} "
                f"({len(lineup)} seats, turned each game) in {seconds:.0f} s; "
                f"options: {stated or 'the rulebook'}; "
                + (f"search bot thinks {think} a move" if "search" in lineup else "no search bot")
            )
            asyncio.run(strength(server.address, kind))
            problems = servers.problems()
            if problems:
                print(f"  server log: {len(problems)} problem lines, first: {problems[0]}")
        finally:
            servers.stop_all()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ratings")
    parser.add_argument("--games", type=int, default=10_000, help="finished games in the log")
    parser.add_argument("--played", type=int, default=40, help="real games played first")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--strength",
        metavar="KIND",
        choices=[*KINDS, "all"],
        help="instead: the server bots' ratings in KIND (or each kind in turn: all) after "
        "--games games of --lineup",
    )
    parser.add_argument("--lineup", default=",".join(LINEUP), help="bot strategies, one a seat")
    parser.add_argument(
        "--think-ms",
        type=int,
        help="--strength: a search bot's time a move (the server's --bot-think-ms; default: "
        "the server's own)",
    )
    parser.add_argument(
        "--move-ms",
        type=int,
        default=0,
        help="--strength: the server's --bot-move-ms, the least time between two moves of a "
        "bot (a pace, not a strength; default %(default)s)",
    )
    args = parser.parse_args(argv)
    if args.strength:
        lineup = tuple(args.lineup.split(","))
        if len(lineup) < 2 or not all(lineup):
            parser.error("--lineup names at least two strategies, comma-separated")
        for kind in KINDS if args.strength == "all" else (args.strength,):
            bot_strength(kind, args.games, lineup, args.think_ms, args.move_ms)
        return
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-ratings-") as folder:
        database = str(Path(folder) / "cardroom.sqlite3")
        servers = Servers(Path(folder))
        server = servers.start(database)
        try:
            asyncio.run(play(server.address, args.played))
        finally:
            servers.stop_all()
        games, events = copy_games(database, args.games)
        print(f"{games} finished games, {events} stored events ({events / games:.0f} a game)")
        rebuild = [*cardroom_command(), "ratings", "rebuild", "--database", database]
        raw = [sys.executable, "-c", RAW_PASS, database]
        rebuild_s, rebuild_mib, raw_s, raw_mib = [], [], [], []
        for _ in range(args.rounds):
            seconds, peak, out = measured(rebuild)
            rebuild_s.append(seconds)
            rebuild_mib.append(peak)
            seconds, peak, _ = measured(raw)
            raw_s.append(seconds)
            raw_mib.append(peak)
        print(out.strip())
        med = statistics.median
        print(
            f"ratings rebuild: {med(rebuild_s):.2f} s wall ({med(rebuild_s) / games * 1e3:.2f} ms "
            f"a game), peak RSS {med(rebuild_mib):.0f} MiB"
        )
        print(f"raw pass over every event: {med(raw_s):.2f} s, peak RSS {med(raw_mib):.0f} MiB")
        print(
            f"ratio rebuild / raw pass: time {med(rebuild_s) / med(raw_s):.1f}x, "
            f"memory {med(rebuild_mib) / med(raw_mib):.1f}x  (medians of {args.rounds} rounds)"
        )


if __name__ == "__main__":
    main()
