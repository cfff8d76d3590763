"""The game list with many games: ``python -m bench.game_list [--games N]``.

Writes N synthetic games (their table events and filler, straight through
the store's recorder) into a fresh SQLite file and a fresh PostgreSQL
schema, builds the game list's table from the events, then times pages of
100 (first pages and deep ones, each filter) as the server reads them. Last,
the peak memory of a fresh process that pages through every game, on a
tenth of the games and on all of them: the list must not grow with them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

from cardroom.v1 import game_service_pb2 as gpb
from service.game_list import GameList
from service.store import GameLog
from tests.service.many_games import plan, write

POSTGRES_URL = os.environ.get(
    "CARDROOM_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"
)
PAGE = 100
REPEATS = 50
FILTERS: dict[str, gpb.ListGamesRequest] = {
    "all": gpb.ListGamesRequest(),
    "kind": gpb.ListGamesRequest(kind="smiles-and-daggers"),
    "open": gpb.ListGamesRequest(status=gpb.GAME_STATUS_OPEN),
    "open seats": gpb.ListGamesRequest(open_seats_only=True),
    "running": gpb.ListGamesRequest(status=gpb.GAME_STATUS_RUNNING),
    "finished": gpb.ListGamesRequest(status=gpb.GAME_STATUS_FINISHED),
    "kind+open seats": gpb.ListGamesRequest(kind="smoke-and-mirrors", open_seats_only=True),
    "kind+running": gpb.ListGamesRequest(kind="smiles-and-daggers", status=2),
}


@contextmanager
def databases(which: list[str]) -> Iterator[dict[str, str]]:
    with tempfile.TemporaryDirectory() as folder:
        found = {}
        if "sqlite" in which:
            found["sqlite"] = str(Path(folder) / "bench.sqlite3")
        schema = f"cardroom_bench_{uuid.uuid4().hex[:12]}"
        if "postgres" in which:
            with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
                conn.execute(f"CREATE SCHEMA {schema}")
            found["postgres"] = f"{POSTGRES_URL}?schema={schema}"
        try:
            yield found
        finally:
            if "postgres" in which:
                with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
                    conn.execute(f"DROP SCHEMA {schema} CASCADE")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def time_page(games: GameList, request: gpb.ListGamesRequest) -> str:
    """Median and best wall time, and median CPU time of this process (the
    machine may be busy with other work)."""
    wall, cpu = [], []
    found = 0
    for _ in range(REPEATS):
        t0, c0 = time.perf_counter(), time.process_time()
        found = len(games.page(request).games)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return (
        f"{ms(statistics.median(wall))} (best {ms(min(wall))}, "
        f"cpu {ms(statistics.median(cpu))}) {found} games"
    )


def deep_token(games: GameList, request: gpb.ListGamesRequest, pages: int) -> str:
    """The token of the page ``pages`` pages in (or of the last one)."""
    token = ""
    for _ in range(pages):
        response = games.page(
            gpb.ListGamesRequest(
                page_size=request.page_size,
                page_token=token,
                kind=request.kind,
                status=request.status,
                open_seats_only=request.open_seats_only,
            )
        )
        if not response.next_page_token:
            break
        token = response.next_page_token
    return token


def bench(database: str, count: int, rng: random.Random) -> None:
    games = plan(rng, count, delayed=0.01, running=0.1, finished=0.85, max_moves=10)
    log = GameLog(database)
    t0 = time.perf_counter()
    write(log, games, chunk=1000)
    head = log.recorder.max_notification_id()
    print(f"  wrote {count} games, {head} events in {time.perf_counter() - t0:.1f} s")
    t0, c0 = time.perf_counter(), time.process_time()
    game_list = GameList(log)
    game_list.catch_up()
    print(
        f"  built the game list from the events in {time.perf_counter() - t0:.1f} s "
        f"(cpu {time.process_time() - c0:.1f} s)"
    )
    for name, request in FILTERS.items():
        request.page_size = PAGE
        first = time_page(game_list, request)
        request.page_token = deep_token(game_list, request, 50)
        deep = time_page(game_list, request)
        print(f"  page of {PAGE}, {name}:\n    first page  {first}\n    50 pages in {deep}")
    log.close()


def peak_rss_paging_everything(database: str) -> dict[str, int]:
    """In a fresh process: open the store, page through every game, report
    the peak resident memory before and after."""
    script = (
        "import json, resource\n"
        "from cardroom.v1 import game_service_pb2 as gpb\n"
        "from service.game_list import GameList\n"
        "from service.store import GameLog\n"
        f"log = GameLog({database!r}); games = GameList(log)\n"
        "games.page(gpb.ListGamesRequest())\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "token, listed = '', 0\n"
        "while True:\n"
        "    r = games.page(gpb.ListGamesRequest(page_size=100, page_token=token))\n"
        "    listed += len(r.games); token = r.next_page_token\n"
        "    if not token: break\n"
        "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(json.dumps({'listed': listed, 'before_kib': before, 'after_kib': after}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout
    return dict(json.loads(out))


def memory(count: int, rng: random.Random) -> None:
    with databases(["sqlite"]) as found:
        log = GameLog(found["sqlite"])
        games = plan(rng, count, delayed=0.01, running=0.1, finished=0.85)
        write(log, games[: count // 10], chunk=1000)
        GameList(log).catch_up()
        small = peak_rss_paging_everything(found["sqlite"])
        write(log, games[count // 10 :], chunk=1000)
        GameList(log).catch_up()
        log.close()
        large = peak_rss_paging_everything(found["sqlite"])
    for result in (small, large):
        print(
            f"  paged through {result['listed']} games: peak RSS {result['before_kib']} KiB "
            f"after the first page, {result['after_kib']} KiB after the last"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--backends", default="sqlite,postgres")
    args = parser.parse_args()
    rng = random.Random(20261129)
    with databases(args.backends.split(",")) as found:
        for backend, database in found.items():
            print(f"{backend}:")
            bench(database, args.games, rng)
    print("memory (SQLite):")
    memory(args.games, rng)


if __name__ == "__main__":
    main()
