"""``cardroom replay GAME_ID``: step forward and back through a game from
any side you may see it from: a spectator (no token), a seat (its token),
the operator (the operator token). ``--version`` starts at a version;
``--plain`` prints the feed up to it and the table there."""

from __future__ import annotations

import argparse
import asyncio

from rich.console import Console

from cardroom.cli.common import (
    EXIT_OK,
    UsageError,
    add_credential_flags,
    add_server_flags,
    connect,
    credential,
    unreachable,
)
from cardroom.cli.watch import print_lines
from cardroom.client import CardroomError, ReplayStep
from cardroom.client.feed import Feed, scene
from cardroom.client.follow import transient
from cardroom.tui.render import table_text
from cardroom.v1 import game_service_pb2 as gpb

NAME = "replay"
HELP = "step through a game, as a spectator, a seat or the operator"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", metavar="GAME_ID", help="the game to replay")
    parser.add_argument("--version", type=int, metavar="V", help="start at this version (event)")
    parser.add_argument(
        "--plain", action="store_true", help="print the feed up to --version and the table there"
    )
    add_server_flags(parser)
    add_credential_flags(parser, what="replay as the operator or as a seat")


def run(args: argparse.Namespace) -> int:
    token = credential(args)
    if args.version is not None and args.version < 1:
        raise UsageError("--version must be 1 or more")
    if args.plain:
        return asyncio.run(plain(args, token))
    from cardroom.tui.replay import ReplayApp

    ReplayApp(lambda: connect(args), args.game_id, token=token, version=args.version).run()
    return EXIT_OK


async def steps_of(args: argparse.Namespace, token: str | None) -> list[ReplayStep]:
    try:
        async with connect(args) as client:
            return [step async for step in client.replay(args.game_id, token)]
    except CardroomError as error:
        if transient(error):
            raise unreachable(args.address, error.details) from None
        raise


async def plain(args: argparse.Namespace, token: str | None) -> int:
    steps = await steps_of(args, token)
    if not steps:
        raise UsageError(f"game {args.game_id} has nothing to replay yet")
    end = len(steps) if args.version is None else min(args.version, len(steps))
    feed = Feed()
    for step in steps[:end]:
        print_lines(step.event, feed.tell(step.event))
    view = steps[end - 1].view
    seat = view.response.seat if view.response.viewer_kind == gpb.VIEWER_KIND_SEAT else None
    print()
    Console(highlight=False).print(table_text(scene(view, seat), view.table.player_names, seat))
    return EXIT_OK
