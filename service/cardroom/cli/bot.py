"""``cardroom bot --game-id ID``: a bot takes a seat (or plays the seat of
``--seat-token``) and plays until the game ends, through the API with that
seat's token only: its view, its legal actions, its moves."""

from __future__ import annotations

import argparse
import asyncio
import random
import sys

from cardroom.cli.common import (
    EXIT_OK,
    UsageError,
    add_seat_token_flag,
    add_server_flags,
    connect,
    unreachable,
)
from cardroom.cli.watch import print_lines
from cardroom.client import CardroomError
from cardroom.client.bots import BOT_KINDS, DEFAULT_THINK_MS, NoSuchBot, label, strategy_for
from cardroom.client.bots.runner import Bot, NotASeat
from cardroom.client.follow import transient

NAME = "bot"
HELP = "a bot takes a seat in a game (or uses a seat token) and plays it to the end"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_server_flags(parser)
    parser.add_argument("--game-id", required=True, metavar="ID", help="the game to play")
    add_seat_token_flag(parser, what="play the seat this token holds; else take a free seat")
    parser.add_argument(
        "--seat", type=int, metavar="N", help="the seat to take (default: the lowest free)"
    )
    parser.add_argument("--name", default=None, help="the bot's name at the table")
    parser.add_argument(
        "--strategy",
        choices=BOT_KINDS,
        default="heuristic",
        help="how it plays (default %(default)s)",
    )
    parser.add_argument(
        "--think-ms",
        type=int,
        default=DEFAULT_THINK_MS,
        metavar="MS",
        help="--strategy search: thinking time per move (default %(default)s)",
    )
    parser.add_argument("--seed", type=int, help="seed its choices")
    parser.add_argument("--quiet", action="store_true", help="print only the outcome")


def bot_name(kind: str, names: list[str]) -> str:
    """A name at this table that says how the bot plays (``kind``, its
    label: "heuristic bot", "search bot (500 ms)"), numbered: "heuristic bot 2"."""
    count = 1 + sum(name.startswith(kind) for name in names)
    while f"{kind} {count}" in names:
        count += 1
    return f"{kind} {count}"


def run(args: argparse.Namespace) -> int:
    return asyncio.run(play(args))


async def play(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    listener = None if args.quiet else print_lines
    try:
        async with connect(args) as client:
            table = (await client.view(args.game_id, args.seat_token)).table
            kind = table.kind
            try:
                strategy = strategy_for(kind, args.strategy, think_ms=args.think_ms)
            except NoSuchBot as error:
                raise UsageError(str(error)) from None
            if args.seat_token:
                try:
                    bot = await Bot.with_token(
                        client, args.game_id, args.seat_token, strategy, rng, listener=listener
                    )
                except NotASeat as error:
                    raise UsageError(str(error)) from None
            else:
                name = args.name or bot_name(
                    label(args.strategy, think_ms=args.think_ms), list(table.player_names)
                )
                bot = await Bot.join(
                    client, args.game_id, name, strategy, rng, seat=args.seat, listener=listener
                )
                print(
                    f"{name} took seat {bot.seat + 1}; to play it again: --seat-token={bot.token}",
                    file=sys.stderr,
                )
            outcome = await bot.play()
    except CardroomError as error:
        if transient(error):
            raise unreachable(args.address, error.details) from None
        raise
    names = outcome.names
    winners = ", ".join(names[s] or f"seat {s + 1}" for s in outcome.winners) or "nobody"
    print(
        f"game {args.game_id} is over; winner: {winners}; this bot (seat {outcome.seat + 1}) "
        f"made {outcome.commands} moves"
    )
    return EXIT_OK
