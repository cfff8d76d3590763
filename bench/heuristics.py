"""Each game's heuristic bot against random bots, through a server:
``python -m bench.heuristics [--games 500]``.

For every game with a heuristic strategy, one heuristic bot and random bots
fill a table (the heuristic bot moves one seat on each game), on a fresh
temporary server (``cardroom serve`` in a child process, SQLite). Printed per
game: the simulation report (win rates by bot and by seat with 95% Wilson
intervals, game lengths, bot commands per second), and a closing line with
the heuristic bot's win rate against its fair share.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from cardroom.cli.temporary import temporary_server
from cardroom.client import Client
from cardroom.client.bots.simulate import Report, simulate
from cardroom.domain import registry
from cardroom.domain.presentation import strategy

# The table each game is measured at: the number of seats most of its
# players would sit down with.
SEATS = {"smoke-and-mirrors": 3, "smiles-and-daggers": 4}


def seats_for(kind: str) -> int:
    game = registry.game(kind)
    return SEATS.get(kind, max(game.min_seats, min(game.max_seats, 3)))


async def measure(kind: str, games: int, parallel: int, seed: int) -> Report:
    seats = seats_for(kind)
    bots = ["heuristic", *["random"] * (seats - 1)]
    with temporary_server() as server:
        async with Client.connect(server.address) as client:
            return await simulate(
                client,
                kind,
                bots,
                games,
                seed=seed,
                parallel=parallel,
                operator_token=server.operator_token,
            )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.heuristics", description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--parallel", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    kinds = args.game or [k for k in registry.games() if strategy(k) is not None]
    summary = []
    for kind in kinds:
        started = time.perf_counter()
        report = asyncio.run(measure(kind, args.games, args.parallel, args.seed))
        print(f"\n== {kind}\n{report.render()}\n(wall time {time.perf_counter() - started:.0f} s)")
        rate = report.by_bot()["heuristic"]
        low, high = rate.interval
        summary.append(
            f"{kind}: heuristic wins {rate.wins}/{rate.games} = {rate.rate:.1%} "
            f"[95% {low:.1%}-{high:.1%}] against {len(report.bots) - 1} random bots "
            f"(fair share {1 / len(report.bots):.1%}); "
            f"{report.commands_per_second:.0f} bot commands/s"
        )
    print("\n== summary")
    print("\n".join(summary))


if __name__ == "__main__":
    main()
