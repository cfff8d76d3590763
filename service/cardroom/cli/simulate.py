"""``cardroom simulate [--game KIND] [--games N] [--bots search,heuristic,...]``:
bots play N games through a server (a temporary one of its own unless
``--address``), with a progress bar; then win rates by bot and by seat with
95% intervals, game lengths and commands per second."""

from __future__ import annotations

import argparse
import asyncio

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from cardroom.cli.common import EXIT_OK, UsageError, add_server_flags, connect, env, unreachable
from cardroom.cli.temporary import temporary_server
from cardroom.client import CardroomError
from cardroom.client.bots import DEFAULT_THINK_MS, NoSuchBot, strategy_for
from cardroom.client.bots.simulate import Report, simulate
from cardroom.client.follow import transient
from cardroom.domain import registry
from cardroom.domain.presentation import strategy

NAME = "simulate"
DEFAULT_GAME = "smoke-and-mirrors"
HELP = "bots play many games through a server; print win rates and speed"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game",
        default=DEFAULT_GAME,
        metavar="KIND",
        help=f"one of {', '.join(registry.games())} (default %(default)s)",
    )
    parser.add_argument(
        "--games", type=int, default=100, metavar="N", help="games to play (default %(default)s)"
    )
    parser.add_argument(
        "--bots",
        metavar="BOT,BOT,...",
        help="one bot per seat, e.g. search,heuristic,random (turned one seat on each game; "
        "default: a heuristic bot against random ones, three seats where the game allows)",
    )
    parser.add_argument(
        "--think-ms",
        type=int,
        default=DEFAULT_THINK_MS,
        metavar="MS",
        help="a search bot's thinking time per move (default %(default)s)",
    )
    parser.add_argument(
        "--parallel", type=int, default=4, metavar="P", help="games at a time (default %(default)s)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed the bots' choices (default 0)")
    add_server_flags(
        parser,
        address_default=None,
        address_help="play on this running server (default: a temporary server of its own)",
    )
    parser.add_argument(
        "--operator-token",
        metavar="SECRET",
        default=env("CARDROOM_OPERATOR_TOKEN"),
        help="with --address: create the games as the operator (no hourly limit)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def default_bots(kind: str) -> str:
    """A heuristic bot (random where the game has none) against random
    ones: three seats, or as near as the game allows."""
    game = registry.game(kind)
    seats = min(max(3, game.min_seats), game.max_seats)
    first = "heuristic" if strategy(kind) is not None else "random"
    return ",".join([first] + ["random"] * (seats - 1))


def bots_of(args: argparse.Namespace) -> list[str]:
    if args.game not in registry.games():
        raise UsageError(f"unknown game {args.game!r}; known: {', '.join(registry.games())}")
    game = registry.game(args.game)
    chosen = args.bots if args.bots is not None else default_bots(args.game)
    bots = [b.strip() for b in chosen.split(",") if b.strip()]
    if not game.min_seats <= len(bots) <= game.max_seats:
        raise UsageError(
            f"{game.title} is played by {game.min_seats} to {game.max_seats} players: "
            f"--bots names {len(bots)}"
        )
    for bot in bots:
        try:
            strategy_for(args.game, bot, think_ms=args.think_ms)
        except NoSuchBot as error:
            raise UsageError(str(error)) from None
    if args.games < 1 or args.parallel < 1:
        raise UsageError("--games and --parallel must be 1 or more")
    return bots


def run(args: argparse.Namespace) -> int:
    bots = bots_of(args)
    if args.address is None:
        with temporary_server() as server:
            print(f"started a temporary server on {server.address}")
            report = asyncio.run(play(args, bots, server.address, server.operator_token))
    else:
        report = asyncio.run(play(args, bots, args.address, args.operator_token))
    print(report.render())
    return EXIT_OK


async def play(
    args: argparse.Namespace, bots: list[str], address: str, operator: str | None
) -> Report:
    with Progress(
        TextColumn(f"{args.game}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeRemainingColumn(),
        disable=args.quiet,
    ) as progress:
        task = progress.add_task("games", total=args.games)
        try:
            async with connect(args, address) as client:
                return await simulate(
                    client,
                    args.game,
                    bots,
                    args.games,
                    seed=args.seed,
                    parallel=args.parallel,
                    operator_token=operator,
                    on_game=lambda played: progress.advance(task),
                    think_ms=args.think_ms,
                )
        except CardroomError as error:
            if transient(error):
                raise unreachable(address, error.details) from None
            raise
