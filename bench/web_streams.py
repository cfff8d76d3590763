"""Stalled browser streams against gRPC: ``python -m bench.web_streams``.

Issue 20, item 2: never-read HTTP/1.1 ``WatchEvents`` streams (Connect, from
cursor 0 of a long game) must not slow the gRPC clients of the same server.
One ``cardroom serve`` process with its browser port; bots play one game to
``--events`` events; then gRPC ``GetView`` is started ``--rate`` times a
second for ``--seconds`` (open loop, over 8 connections) with nothing else
running (idle), then ``--streams`` raw sockets each post a Connect
``WatchEvents`` from cursor 0 and never read, and ``GetView`` is timed the
same way at once, while the streams send what they can. Prints both p50s
(and p90, max) and their same-run ratio (issue 20's target: within 2x), the
server's CPU time meanwhile, and calls that failed. The server's per-client
cap refuses streams beyond it (64 under a large file limit), as it would an
attacker's.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from bench import load
from bench.bots import LONG, play, seated_game
from bench.report import ms, p50, percentile, times
from bench.servers import Servers
from cardroom.client import CardroomError, Client
from cardroom.v1 import game_service_pb2 as gpb


def watch_request(game_id: str, web_url: str) -> bytes:
    message = gpb.WatchEventsRequest(game_id=game_id, as_spectator=True).SerializeToString()
    body = b"\x00" + len(message).to_bytes(4, "big") + message
    host = urlsplit(web_url).netloc.encode()
    return (
        b"POST /cardroom.v1.GameService/WatchEvents HTTP/1.1\r\nhost: %s\r\n"
        b"content-type: application/connect+proto\r\nconnect-protocol-version: 1\r\n"
        b"content-length: %d\r\n\r\n%s" % (host, len(body), body)
    )


def stalled_streams(web_url: str, request: bytes, count: int) -> list[socket.socket]:
    """``count`` connections, each with one WatchEvents posted and never read."""
    parts = urlsplit(web_url)
    assert parts.hostname is not None and parts.port is not None
    opened = []
    for _ in range(count):
        sock = socket.create_connection((parts.hostname, parts.port))
        sock.sendall(request)
        opened.append(sock)
    return opened


def cpu_seconds(pid: int) -> float:
    """The process's user + system CPU time so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def get_views(
    clients: list[Client],
    game_id: str,
    seconds: float,
    rate: float,
    failures: list[str] | None = None,
) -> list[float]:
    """GetView started every 1/``rate`` s for ``seconds`` whether or not the
    earlier ones have answered (open loop: a stalled server shows in every
    call that waits, not only in the few that get through); each one's time."""

    async def one(client: Client) -> float:
        began = time.perf_counter()
        try:
            await client.view(game_id)
        except CardroomError as error:
            failed.append(str(error))  # timed all the same: the caller waited that long
        return time.perf_counter() - began

    failed: list[str] = failures if failures is not None else []

    calls = []
    began = time.monotonic()
    for n in range(int(seconds * rate)):
        await asyncio.sleep(max(0.0, began + n / rate - time.monotonic()))
        calls.append(asyncio.ensure_future(one(clients[n % len(clients)])))
    return list(await asyncio.gather(*calls))


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.web_streams")
    parser.add_argument("--events", type=int, default=1500, help="length of the watched game")
    parser.add_argument("--streams", type=int, default=100, help="stalled web streams")
    parser.add_argument("--seconds", type=float, default=15.0, help="GetView timed per phase")
    parser.add_argument("--rate", type=float, default=50.0, help="GetView calls a second")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cardroom-web-streams-") as folder:
        servers = Servers(Path(folder))
        server = servers.start(str(Path(folder) / "bench.sqlite3"), "--web-address", "127.0.0.1:0")
        sockets: list[socket.socket] = []
        try:
            assert server.process.stdout is not None
            web_url = server.process.stdout.readline().split()[-1]  # "browsers: URL"
            async with load.client(server.address) as client:
                table = await seated_game(client, rounds_to_win=LONG)
                table = await play(client, table, random.Random(20), until_version=args.events)
                print(f"game: {table.version} events", file=sys.stderr)
                # Calls in flight may pile up: several connections (each
                # takes 100 open calls).
                viewers = [load.client(server.address, own_connection=True) for _ in range(8)]
                await get_views(viewers, table.game_id, 1.0, args.rate)  # warm
                idle = await get_views(viewers, table.game_id, args.seconds, args.rate)
                cpu, wall = cpu_seconds(server.pid), time.monotonic()
                request = watch_request(table.game_id, web_url)
                sockets = stalled_streams(web_url, request, args.streams)
                failures: list[str] = []
                stalled = await get_views(viewers, table.game_id, args.seconds, args.rate, failures)
                cpu, wall = cpu_seconds(server.pid) - cpu, time.monotonic() - wall
            for viewer in viewers:
                await viewer.close()
            print(f"gRPC GetView p50, idle: {ms(p50(idle))}")
            print(f"gRPC GetView p50, {args.streams} stalled web streams: {ms(p50(stalled))}")
            for name, q in (("p90", 90.0), ("max", 100.0)):
                idle_q, stalled_q = ms(percentile(idle, q)), ms(percentile(stalled, q))
                print(f"gRPC GetView {name}: idle {idle_q}, stalled {stalled_q}")
            print(f"stalled phase: {wall:.1f} s, the server's CPU meanwhile {cpu:.1f} s")
            if failures:
                print(f"failed GetView calls while stalled: {len(failures)} ({failures[0][:80]})")
            print(f"ratio: {times(p50(stalled) / p50(idle))} (target: within 2x)")
            for line in server.problems()[:10]:
                print(f"server log: {line[:300]}", file=sys.stderr)
        finally:
            for sock in sockets:
                sock.close()
            servers.stop_all()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
