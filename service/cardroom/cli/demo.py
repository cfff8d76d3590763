"""``cardroom demo``: bots play one game through the API while a spectator's
feed is printed (cardroom.cli.demo_game)."""

from __future__ import annotations

import argparse
import asyncio
import logging

from cardroom.cli.common import UsageError, add_server_flags, channel_credentials
from cardroom.domain import registry

NAME = "demo"
HELP = "bots play one game; print a spectator's feed"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game",
        default="smoke-and-mirrors",
        metavar="KIND",
        help=f"the game kind: {', '.join(registry.games())} (default %(default)s)",
    )
    parser.add_argument(
        "--seats", type=int, default=None, metavar="N", help="number of bots (default: 3)"
    )
    add_server_flags(
        parser,
        address_default=None,
        address_help="play on the server at HOST:PORT instead of a temporary one; the game "
        "stays there, so it can be exported and audited afterwards",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed the bots' choices")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")


def run(args: argparse.Namespace) -> int:
    if args.game not in registry.games():
        raise UsageError(f"unknown game {args.game!r}; known: {', '.join(registry.games())}")
    game = registry.game(args.game)
    if args.seats is not None and not game.min_seats <= args.seats <= game.max_seats:
        raise UsageError(
            f"{game.title} is played by {game.min_seats} to {game.max_seats} players, "
            f"not {args.seats}"
        )
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from cardroom.cli.demo_game import run_demo

    credentials = channel_credentials(args) if args.address else None
    return asyncio.run(
        run_demo(
            args.game,
            args.seats,
            args.address,
            seed=args.seed,
            quiet=args.quiet,
            credentials=credentials,
        )
    )
