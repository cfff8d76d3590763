"""What the server's words cost (``WatchEventsRequest.narrate``): a same-run A/B.

``python -m bench.narration`` starts a server on a fresh SQLite database,
plays ``--games`` games of Smoke & Mirrors with random bots to their end,
then reads every game's whole feed as a spectator and as each seat, in
alternating rounds without and with ``narrate``, and measures the server's
own CPU time (``/proc/PID/stat`` utime+stime) per event served: the first
narrated read of a feed tells it (a fold of the viewer's copies), later
ones reuse the words kept for that viewer, so it prints the first narrated
round apart from the rest. Prints the medians and their ratios to the plain
reads of the same run. Like every bench, it imports nothing of service/.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
from pathlib import Path

from bench.servers import Servers, fresh_database
from cardroom.client import Client
from cardroom.client.bots.runner import BotSeat, play_bots
from cardroom.v1 import game_service_pb2 as gpb

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def read_feeds(client: Client, games: list[tuple[str, list[str]]], narrate: bool) -> int:
    """Every game's whole feed, for a spectator and each seat; events read."""
    events = 0
    for game_id, tokens in games:
        for token in [None, *tokens]:
            metadata = (("authorization", f"Bearer {token}"),) if token else ()
            call = client.stub.WatchEvents(
                gpb.WatchEventsRequest(game_id=game_id, narrate=narrate), metadata=metadata
            )
            async for _ in call:
                events += 1
    return events


async def measure(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-narration-") as folder:
        servers = Servers(Path(folder))
        try:
            with fresh_database("sqlite") as database:
                server = servers.start(database)
                async with Client.connect(server.address) as client:
                    games = []
                    for number in range(args.games):
                        game_id = await client.create_game("smoke-and-mirrors", seat_count=3)
                        tokens = [(await client.join(game_id, f"P{i}")).token for i in range(3)]
                        await client.start(game_id, tokens[0])
                        seats = [BotSeat(i, token, "random") for i, token in enumerate(tokens)]
                        await play_bots(client, game_id, "smoke-and-mirrors", seats, seed=number)
                        games.append((game_id, tokens))
                    costs: dict[str, list[float]] = {"plain": [], "told": [], "kept": []}
                    for round_ in range(args.rounds):
                        for narrate in (False, True) if round_ % 2 == 0 else (True, False):
                            before = cpu_seconds(server.pid)
                            events = await read_feeds(client, games, narrate)
                            spent = (cpu_seconds(server.pid) - before) / events
                            side = "plain" if not narrate else "kept" if costs["told"] else "told"
                            costs[side].append(spent)
                            print(
                                f"round {round_ + 1} {side}: {spent * 1e6:.1f} µs/event "
                                f"({events} events)",
                                flush=True,
                            )
                servers.stop(server)
        finally:
            servers.stop_all()
    plain = statistics.median(costs["plain"])
    print()
    print(f"server CPU per event served, plain: {plain * 1e6:.1f} µs (median)")
    for side, words in (
        ("told", "first narrated read (telling)"),
        ("kept", "later narrated reads"),
    ):
        if costs[side]:
            value = statistics.median(costs[side])
            print(f"{words}: {value * 1e6:.1f} µs, ratio to plain {value / plain:.2f}")


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.narration", description=__doc__)
    parser.add_argument("--games", type=int, default=5, help="games played (default 5)")
    parser.add_argument("--rounds", type=int, default=6, help="A/B rounds (default 6)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(measure(arguments()))
