"""``cardroom new KIND --seats N --bots K``: create a game, seat K bots,
and print how the others join; the bots then play from this process until
the game ends (Ctrl-C stops them; `cardroom bot --seat-token` can take a
seat over again)."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from cardroom.cli.common import EXIT_OK, UsageError, add_server_flags, connect, unreachable
from cardroom.client import CardroomError
from cardroom.client.bots import BOT_KINDS, NoSuchBot, strategy_for
from cardroom.client.bots.runner import play_bots, seat_bots
from cardroom.client.feed import title
from cardroom.client.follow import transient
from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import Game
from cardroom.v1 import table_pb2 as tpb

NAME = "new"
HELP = "create a game, seat bots, and print how others join"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", metavar="KIND", help=f"the game: {', '.join(registry.games())}")
    parser.add_argument(
        "--seats",
        type=int,
        metavar="N",
        help="seats (default: the fewest the game takes without a variant)",
    )
    parser.add_argument("--bots", type=int, default=0, metavar="K", help="bots to seat (default 0)")
    parser.add_argument(
        "--bot", choices=BOT_KINDS, default="heuristic", help="which bots (default %(default)s)"
    )
    parser.add_argument("--seed", type=int, help="seed the bots' choices")
    parser.add_argument(
        "--seconds-per-decision",
        type=int,
        default=0,
        metavar="S",
        help="a turn clock: each awaited seat has S seconds, then the game makes its default "
        "choice for it (docs/rules/table.md T-CLOCK; default 0, no clock)",
    )
    add_server_flags(parser)


def default_seats(game: Game[Any]) -> int:
    """The fewest seats the game plays without a variant (T-VARIANT)."""
    plain = range(game.min_seats, game.max_seats + 1)
    return next((n for n in plain if tables.seat_variant(game, n) is None), game.min_seats)


def run(args: argparse.Namespace) -> int:
    if args.kind not in registry.games():
        raise UsageError(f"unknown game {args.kind!r}; known: {', '.join(registry.games())}")
    game = registry.game(args.kind)
    seats = args.seats if args.seats is not None else default_seats(game)
    if not game.min_seats <= seats <= game.max_seats:
        raise UsageError(
            f"{game.title} is played by {game.min_seats} to {game.max_seats} players, not {seats}"
        )
    if args.seconds_per_decision < 0:
        raise UsageError("--seconds-per-decision must be 0 (no clock) or more")
    if not 0 <= args.bots <= seats:
        raise UsageError(f"--bots must be between 0 and the {seats} seats")
    try:
        strategy_for(args.kind, args.bot)
    except NoSuchBot as error:
        raise UsageError(str(error)) from None
    return asyncio.run(create(args, seats))


async def create(args: argparse.Namespace, seats: int) -> int:
    try:
        async with connect(args) as client:
            clock = tpb.TableOptions(seconds_per_decision=args.seconds_per_decision)
            game_id = await client.create_game(args.kind, seat_count=seats, table_options=clock)
            bots = await seat_bots(client, game_id, args.bots, args.bot)
            free = seats - len(bots)
            where = f"--address {args.address} "
            print(f"game id: {game_id}")
            print(
                f"{title(args.kind)} for {seats}: {len(bots)} {args.bot} bot(s) seated, "
                f"{free} seat(s) free."
            )
            if free:
                print(f"Join with:   cardroom play {where}--game-id {game_id}")
                print(f"   or a bot: cardroom bot {where}--game-id {game_id}")
            print(f"Watch with:  cardroom watch {where}{game_id}")
            if not bots:
                return EXIT_OK
            print("The bots play from here until the game ends (Ctrl-C stops them).", flush=True)
            outcomes = await play_bots(client, game_id, args.kind, bots, args.seed)
    except CardroomError as error:
        if transient(error):
            raise unreachable(args.address, error.details) from None
        raise
    names = outcomes[0].names
    winners = ", ".join(names[s] or f"seat {s + 1}" for s in outcomes[0].winners) or "nobody"
    print(f"Game over: {winners} won.")
    return EXIT_OK
