"""``cardroom games``: the games on a server (kind, seats taken, open,
running or finished), newest first; ``--kinds`` lists the kinds it plays."""

from __future__ import annotations

import argparse
import asyncio
import sys

from rich.console import Console
from rich.table import Table

from cardroom.cli.common import EXIT_OK, add_server_flags, connect, unreachable
from cardroom.client import CardroomError, Client
from cardroom.client.feed import title
from cardroom.client.follow import transient
from cardroom.client.ratings import rated_name
from cardroom.v1 import game_service_pb2 as gpb

NAME = "games"
HELP = "list the games on a server (or, with --kinds, the kinds it plays)"

STATUSES = {
    "open": gpb.GAME_STATUS_OPEN,
    "running": gpb.GAME_STATUS_RUNNING,
    "finished": gpb.GAME_STATUS_FINISHED,
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_server_flags(parser)
    parser.add_argument("--kind", default="", metavar="KIND", help="only games of this kind")
    parser.add_argument("--status", choices=sorted(STATUSES), help="only games that are ...")
    parser.add_argument("--open-seats", action="store_true", help="only games with a free seat")
    parser.add_argument(
        "--limit", type=int, default=50, metavar="N", help="at most N (default %(default)s)"
    )
    parser.add_argument("--kinds", action="store_true", help="list the game kinds instead")


def run(args: argparse.Namespace) -> int:
    return asyncio.run(show(args))


def status(game: gpb.GameSummary) -> str:
    if game.finished:
        return "finished"
    if game.started:
        return "running"
    return "open"


async def show(args: argparse.Namespace) -> int:
    # A pipe or a log gets whole lines, however wide.
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 400)
    try:
        async with connect(args) as client:
            table = await (kinds_table(client) if args.kinds else games_table(client, args))
    except CardroomError as error:
        if transient(error):
            raise unreachable(args.address, error.details) from None
        raise
    console.print(table)
    return EXIT_OK


async def kinds_table(client: Client) -> Table:
    table = Table("kind", "game", "players", "rules", box=None)
    for kind in await client.game_kinds():
        table.add_row(
            kind.kind, kind.title, f"{kind.min_seats}-{kind.max_seats}", kind.rules_version
        )
    return table


async def games_table(client: Client, args: argparse.Namespace) -> Table:
    found = await client.list_games(
        kind=args.kind,
        status=STATUSES.get(args.status or "", gpb.GAME_STATUS_UNSPECIFIED),
        open_seats_only=args.open_seats,
        limit=max(1, args.limit),
    )
    ratings = await seat_ratings(client, found)
    table = Table(box=None)
    for column in ("game", "kind", "seats taken", "status", "events", "players"):
        table.add_column(column, no_wrap=column != "players")
    for game in found:
        table.add_row(
            game.game_id,
            title(game.kind),
            f"{game.seats_taken}/{game.seat_count}",
            status(game),
            str(game.version),
            players(game, ratings),
        )
    if not found:
        table.add_row("(no games)", "", "", "", "", "")
    return table


async def seat_ratings(
    client: Client, games: list[gpb.GameSummary]
) -> dict[tuple[bytes, str], float]:
    """The rating of every keyed seat listed, in its game's kind (T-RATING):
    one ListRatings per kind."""
    keys: dict[str, set[bytes]] = {}
    for game in games:
        keys.setdefault(game.kind, set()).update(k for k in game.player_keys if k)
    found: dict[tuple[bytes, str], float] = {}
    for kind, wanted in keys.items():
        for rating in await client.ratings(kind, public_keys=sorted(wanted)[:1000]):
            found[bytes(rating.public_key), kind] = rating.rating
    return found


def players(game: gpb.GameSummary, ratings: dict[tuple[bytes, str], float]) -> str:
    """The seated players' names, each with its rating in this kind where
    its key has one."""
    shown = []
    keys = list(game.player_keys) or [b""] * len(game.player_names)
    for name, key in zip(game.player_names, keys, strict=False):
        if not name:
            continue
        shown.append(rated_name(name, ratings.get((bytes(key), game.kind))))
    return ", ".join(shown)
