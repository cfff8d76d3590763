"""The game list with many games.

    python -m bench.game_list [--games N] [--sqlite FILE] [--postgres URL] [--rebuild]

Writes N synthetic games (their table events and filler events, straight
through the store's recorder) into each database, unless it holds events
already (so a kept database is timed again without the wait); without
--sqlite or --postgres, into a temporary SQLite file and a temporary
PostgreSQL schema. Then it builds the game list's table from the events,
times pages of 100 as the server reads them (the first page and one 50
pages in, for each filter), and has a client page through every game of a
fresh server, noting the server's memory after the first page, after a tenth
of the games and after all of them: it must not grow with the games listed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from bench.__main__ import POSTGRES_URL, fresh_postgres
from cardroom.client import Client
from cardroom.v1 import game_service_pb2 as gpb
from service.game_list import GameList
from service.store import GameLog
from tests.service.many_games import drop, plan, write

PAGE = 100
REPEATS = 100
FILTERS: dict[str, gpb.ListGamesRequest] = {
    "all": gpb.ListGamesRequest(),
    "kind": gpb.ListGamesRequest(kind="smiles-and-daggers"),
    "open": gpb.ListGamesRequest(status=gpb.GAME_STATUS_OPEN),
    "open seats": gpb.ListGamesRequest(open_seats_only=True),
    "running": gpb.ListGamesRequest(status=gpb.GAME_STATUS_RUNNING),
    "finished": gpb.ListGamesRequest(status=gpb.GAME_STATUS_FINISHED),
    "kind, open seats": gpb.ListGamesRequest(kind="smoke-and-mirrors", open_seats_only=True),
    "kind, running": gpb.ListGamesRequest(
        kind="smiles-and-daggers", status=gpb.GAME_STATUS_RUNNING
    ),
}


@contextmanager
def temporary_sqlite() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as folder:
        yield str(Path(folder) / "bench.sqlite3")


@contextmanager
def temporary_postgres() -> Iterator[str]:
    made = fresh_postgres()
    if made is None:
        sys.exit(f"PostgreSQL is unreachable at {POSTGRES_URL}")
    url, drop_schema = made
    try:
        yield url
    finally:
        drop_schema()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def request_for(name: str, token: str = "") -> gpb.ListGamesRequest:
    request = gpb.ListGamesRequest(page_size=PAGE, page_token=token)
    request.MergeFrom(FILTERS[name])
    return request


def time_call(call: Callable[[], object]) -> str:
    """Median and best wall time, and the median CPU time this process spent
    (the machine may be busy with other work)."""
    wall, cpu = [], []
    for _ in range(REPEATS):
        t0, c0 = time.perf_counter(), time.process_time()
        call()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return f"{ms(statistics.median(wall))} (best {ms(min(wall))}, cpu {ms(statistics.median(cpu))})"


def time_page(games: GameList, request: gpb.ListGamesRequest) -> str:
    found = len(games.page(request).games)
    return f"{time_call(lambda: games.page(request))}, {found} games"


def token_after(games: GameList, name: str, pages: int) -> str:
    """The token of the page ``pages`` pages in (or of the last one)."""
    token = ""
    for _ in range(pages):
        response = games.page(request_for(name, token))
        if not response.next_page_token:
            break
        token = response.next_page_token
    return token


def bench(database: str, count: int, rebuild: bool) -> None:
    log = GameLog(database)
    if rebuild and log.recorder.max_notification_id() is not None:
        GameList(log)  # the table exists, to be dropped
        drop(database, "the table and its tracking row")
    if log.recorder.max_notification_id() is None:
        games = plan(
            random.Random(20261129), count, delayed=0.01, running=0.1, finished=0.85, max_moves=10
        )
        t0 = time.perf_counter()
        write(log, games, chunk=1000)
        print(f"  wrote {count} games in {time.perf_counter() - t0:.1f} s")
    print(f"  {log.recorder.max_notification_id()} events")
    t0, c0 = time.perf_counter(), time.process_time()
    game_list = GameList(log)
    game_list.catch_up()
    print(
        f"  game list caught up with the events in {time.perf_counter() - t0:.1f} s "
        f"(cpu {time.process_time() - c0:.1f} s)"
    )
    baseline = time_call(log.recorder.max_notification_id)
    print(f"  baseline, one trivial query on this store: {baseline}")
    for name in FILTERS:
        first = time_page(game_list, request_for(name))
        deep = time_page(game_list, request_for(name, token_after(game_list, name, 50)))
        print(f"  page of {PAGE}, {name}:\n    first page  {first}\n    50 pages in {deep}")
    log.close()
    asyncio.run(server_memory(database, count))


def kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise LookupError(field)


async def server_memory(database: str, count: int) -> None:
    """A fresh ``cardroom serve`` on the database, paged through every game
    by a client: the server's memory after the first page, after a tenth of
    the games and after all of them."""
    with tempfile.TemporaryDirectory() as folder:
        key = str(Path(folder) / "key.pem")
        serve = ["serve", "--address", "127.0.0.1:0", "--database", database, "--signing-key", key]
        server = subprocess.Popen(
            [sys.executable, "-m", "service.cli", *serve],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        try:
            assert server.stdout is not None
            address = server.stdout.readline().split()[3]
            async with Client.connect(address) as client:
                token, listed = "", 0
                while True:
                    request = gpb.ListGamesRequest(page_size=PAGE, page_token=token)
                    response = await client._call("ListGames", request)
                    listed += len(response.games)
                    token = response.next_page_token
                    if listed in (PAGE, count // 10) or not token:
                        print(
                            f"  the server, {listed} games listed: RSS {kib(server.pid, 'VmRSS')} "
                            f"KiB (peak {kib(server.pid, 'VmHWM')} KiB)"
                        )
                    if not token:
                        break
        finally:
            server.terminate()
            server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--sqlite", help="a SQLite file to use (and keep)")
    parser.add_argument("--postgres", help="a postgresql:// URL to use (and keep)")
    parser.add_argument(
        "--rebuild", action="store_true", help="drop a kept database's game list first"
    )
    args = parser.parse_args()
    with ExitStack() as stack:
        databases = {
            "SQLite": args.sqlite or stack.enter_context(temporary_sqlite()),
            "PostgreSQL": args.postgres or stack.enter_context(temporary_postgres()),
        }
        for name, database in databases.items():
            print(f"{name}:")
            bench(database, args.games, args.rebuild)


if __name__ == "__main__":
    main()
