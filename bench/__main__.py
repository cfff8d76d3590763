"""cardroom benchmarks: ``python3 dev.py bench`` (or ``python -m bench``).

In one run, on one machine, against a real gRPC server on loopback:

* baseline: a trivial unary call (grpc.health.v1 Check) on the same server;
* bot games: complete games played through the API (ListLegalActions then
  SubmitCommand per move), reporting SubmitCommand throughput and p50/p99
  latency, on SQLite and on PostgreSQL;
* replay: the time to rebuild a long game's view from its events;
* on PostgreSQL, two servers sharing the database: how long an event written
  through one takes to reach a watcher on the other.

Timings vary with the machine and its load: read the ratios to the baseline
measured in the same run, not the absolute numbers.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import grpc
import psycopg
from grpc_health.v1 import health_pb2, health_pb2_grpc

from cardroom.client import Client, RuleBroken
from service.server import Settings, start

POSTGRES_URL = os.environ.get(
    "CARDROOM_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"
)


@dataclass
class Timings:
    samples: list[float]

    @property
    def p50(self) -> float:
        return statistics.median(self.samples)

    @property
    def p99(self) -> float:
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]

    @property
    def per_second(self) -> float:
        return len(self.samples) / sum(self.samples)


async def timed(samples: list[float], call: Callable[[], Awaitable[object]]) -> None:
    t0 = time.perf_counter()
    await call()
    samples.append(time.perf_counter() - t0)


async def baseline(address: str, calls: int) -> Timings:
    samples: list[float] = []
    async with grpc.aio.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        request = health_pb2.HealthCheckRequest()
        for _ in range(50):
            await stub.Check(request)
        for _ in range(calls):
            await timed(samples, lambda: stub.Check(request))
    return Timings(samples)


async def bot_games(
    client: Client, kind: str, games: int, seats: int, seed: int
) -> tuple[Timings, list[str]]:
    rng = random.Random(seed)
    samples: list[float] = []
    ids = []
    for _ in range(games):
        game_id = await client.create_game(kind, seat_count=seats)
        tokens = [(await client.join(game_id, f"bot{i}")).token for i in range(seats)]
        await client.start(game_id, tokens[0])
        finished = False
        while not finished:
            moved = False
            for token in tokens:
                actions = await client.legal_actions(game_id, token)
                if not actions:
                    continue
                action = rng.choice(actions)
                try:
                    await timed(samples, functools.partial(client.act, game_id, token, action))
                except RuleBroken:
                    samples.pop()
                    continue
                moved = True
            if not moved:
                finished = (await client.view(game_id)).table.finished
        ids.append(game_id)
    return Timings(samples), ids


def fresh_postgres() -> tuple[str, Callable[[], None]] | None:
    schema = f"cardroom_bench_{uuid.uuid4().hex[:10]}"
    try:
        with psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=3) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
    except psycopg.OperationalError:
        return None

    def drop() -> None:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")

    return f"{POSTGRES_URL}?schema={schema}", drop


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.3f} ms"


async def run_backend(name: str, database: str, args: argparse.Namespace) -> None:
    key = Path(tempfile.mkdtemp()) / "bench-signing-key.pem"  # never in the checkout
    server = await start(Settings(address="127.0.0.1:0", database=database, signing_key=str(key)))
    address = f"127.0.0.1:{server.port}"
    try:
        async with Client.connect(address) as client:
            base = await baseline(address, args.baseline_calls)
            commands, ids = await bot_games(client, args.game, args.games, args.seats, args.seed)
            # Replay: rebuild the longest game's full view from its stored events.
            games = server.games
            longest = max(ids, key=games.version)
            events = games.version(longest)
            replay: list[float] = []
            for _ in range(args.replays):
                games.cache.clear()  # nothing cached: as after a restart
                t0 = time.perf_counter()
                games.view(longest, None, None)  # read, fold the table, fold the view
                replay.append(time.perf_counter() - t0)
            rpc_view: list[float] = []
            for _ in range(args.replays):
                await timed(rpc_view, lambda: client.view(longest))
    finally:
        await server.stop(grace=None)
    r = Timings(replay)
    v = Timings(rpc_view)
    print(f"\n== {name} ({args.games} {args.game} games, {args.seats} bots each)")
    print(
        f"baseline unary (health Check): p50 {ms(base.p50)}  p99 {ms(base.p99)}"
        f"  {base.per_second:8.0f} calls/s"
    )
    print(
        f"SubmitCommand ({len(commands.samples)} commands): p50 {ms(commands.p50)}"
        f"  p99 {ms(commands.p99)}  {commands.per_second:8.0f} commands/s"
        f"  = {commands.p50 / base.p50:5.1f}x baseline p50"
    )
    print(
        f"rebuild view of a {events}-event game from the store: p50 {ms(r.p50)}"
        f"  ({r.p50 / events * 1e6:6.1f} us/event, {r.p50 / base.p50:5.1f}x baseline p50)"
    )
    print(
        f"GetView RPC of that game (spectator, cached fold): p50 {ms(v.p50)}"
        f"  = {v.p50 / base.p50:5.1f}x baseline p50"
    )


async def cross_server_feed(url: str, commands: int, seed: int) -> None:
    """Two servers on one PostgreSQL database: commands go through the first,
    a spectator watches through the second (which hears of them only through
    its store subscription). Delivery = from sending the command until the
    watcher holds its last event; the command's own latency is part of it."""
    folder = Path(tempfile.mkdtemp())
    servers = [
        await start(
            Settings(address="127.0.0.1:0", database=url, signing_key=str(folder / "key.pem"))
        )
        for _ in range(2)
    ]
    rng = random.Random(seed)
    delivery: list[float] = []
    acked: list[float] = []
    try:
        async with (
            Client.connect(f"127.0.0.1:{servers[0].port}") as writer,
            Client.connect(f"127.0.0.1:{servers[1].port}") as reader,
        ):
            game_id = await writer.create_game("smoke-and-mirrors", seat_count=3)
            tokens = [(await writer.join(game_id, f"bot{i}")).token for i in range(3)]
            await writer.start(game_id, tokens[0])
            stream = reader.watch(game_id).__aiter__()
            seen = 0
            version = (await writer.view(game_id)).version
            while seen < version:
                seen = (await anext(stream)).sequence
            while len(delivery) < commands:
                for token in tokens:
                    actions = await writer.legal_actions(game_id, token)
                    if not actions or len(delivery) >= commands:
                        continue
                    t0 = time.perf_counter()
                    response = await writer.act(game_id, token, rng.choice(actions))
                    acked.append(time.perf_counter() - t0)
                    while seen < response.version:
                        seen = (await anext(stream)).sequence
                    delivery.append(time.perf_counter() - t0)
                if (await writer.view(game_id)).table.finished:
                    break
            await stream.aclose()
    finally:
        for server in servers:
            await server.stop(grace=None)
    d, a = Timings(delivery), Timings(acked)
    print("\n== PostgreSQL, two servers: write through one, watch through the other")
    print(
        f"SubmitCommand acknowledged: p50 {ms(a.p50)}  p99 {ms(a.p99)};"
        f"  delivered to the other server's watcher: p50 {ms(d.p50)}  p99 {ms(d.p99)}"
        f"  ({len(delivery)} commands; delivery p50 = {d.p50 / a.p50:4.1f}x the command's)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--game", default="smoke-and-mirrors")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline-calls", type=int, default=2000)
    parser.add_argument("--replays", type=int, default=20)
    parser.add_argument("--feed-commands", type=int, default=200)
    parser.add_argument("--skip-postgres", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        await run_backend("SQLite", str(Path(folder) / "bench.sqlite3"), args)
    if args.skip_postgres:
        return
    postgres = fresh_postgres()
    if postgres is None:
        print(f"\n== PostgreSQL: unreachable at {POSTGRES_URL}, skipped")
        return
    url, drop = postgres
    try:
        await run_backend("PostgreSQL", url, args)
        await cross_server_feed(url, args.feed_commands, args.seed)
    finally:
        drop()


if __name__ == "__main__":
    asyncio.run(main())
