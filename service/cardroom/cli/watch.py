"""``cardroom watch GAME_ID``: a live view of a game, as a spectator (or,
with a token, as the operator or a seat), resuming from its cursor after a
disconnect; ``--plain`` prints the narrated feed line by line instead, for
logs and pipes."""

from __future__ import annotations

import argparse
import asyncio
import sys

from cardroom.cli.common import (
    EXIT_OK,
    UsageError,
    add_credential_flags,
    add_relay_flag,
    add_server_flags,
    connect,
    credential,
    unreachable,
)
from cardroom.client import CardroomError
from cardroom.client.feed import numbered
from cardroom.client.follow import Follower, transient
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb

NAME = "watch"
HELP = "watch a game live in the terminal (--plain: the narrated feed as lines)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", metavar="GAME_ID", help="the game to watch")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="print the narrated feed line by line and exit at the end",
    )
    parser.add_argument(
        "--save-heads",
        metavar="FILE",
        help="with --plain: write the signed heads received to FILE when the feed ends (a "
        "heads file for cardroom heads compare, docs/trust.md §13)",
    )
    add_server_flags(parser)
    add_relay_flag(parser)
    add_credential_flags(parser, what="watch with more than a spectator sees")


def run(args: argparse.Namespace) -> int:
    token = credential(args)
    if args.save_heads and not args.plain:
        raise UsageError("--save-heads needs --plain")
    if args.plain:
        return asyncio.run(plain(args, token))
    seat = asyncio.run(seat_of(args, token))
    from cardroom.tui.watch import WatchApp

    WatchApp(lambda: connect(args), args.game_id, token=token, seat=seat).run()
    return EXIT_OK


async def seat_of(args: argparse.Namespace, token: str | None) -> int | None:
    """The seat this token holds in the game (None for the operator or a
    spectator); checks the game can be read at all."""
    try:
        async with connect(args) as client:
            view = await client.view(args.game_id, token)
    except CardroomError as error:
        if transient(error):
            raise unreachable(args.address, error.details) from None
        raise
    return view.response.seat if view.response.viewer_kind == gpb.VIEWER_KIND_SEAT else None


def print_lines(envelope: epb.EventEnvelope, lines: list[str]) -> None:
    for line in numbered(envelope.sequence, lines):
        print(line, flush=True)


async def plain(args: argparse.Namespace, token: str | None) -> int:
    await seat_of(args, token)
    async with connect(args) as client:
        follower = Follower(
            client,
            args.game_id,
            token,
            listener=print_lines,
            on_reconnect=lambda attempt, error: print(
                f"({error.code.name}: reconnecting from event {follower.feed.cursor})",
                file=sys.stderr,
            ),
        )
        try:
            while await follower.next() is not None:
                pass
        finally:
            await follower.close()
            if args.save_heads:
                client.heads.export(args.save_heads, args.game_id)
    return EXIT_OK
