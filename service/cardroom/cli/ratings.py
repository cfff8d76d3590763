"""``cardroom ratings``: a game kind's leaderboard (``list KIND``), a
player's ratings and rated games (``player ID``), both from a server; and
``rebuild``, which empties the ratings tables of a database and folds its
whole log again (docs/rules/table.md, T-RATING; docs/operations.md)."""

from __future__ import annotations

import argparse
import asyncio

from cardroom.cli.common import EXIT_OK, UsageError, add_server_flags, connect, env, unreachable
from cardroom.client import CardroomError, Client
from cardroom.client.follow import transient
from cardroom.v1 import competition_service_pb2 as cpb

NAME = "ratings"
HELP = "leaderboards and players' ratings; rebuild the ratings from the log"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    listing = actions.add_parser("list", help="a game kind's leaderboard, best first")
    listing.add_argument("kind", metavar="KIND")
    listing.add_argument("--limit", type=int, default=20, metavar="N", help="(default 20)")
    add_server_flags(listing)
    player = actions.add_parser("player", help="a player's ratings and rated games")
    player.add_argument("player_id", metavar="PLAYER_ID", help="32 hex digits")
    add_server_flags(player)
    rebuild = actions.add_parser(
        "rebuild", help="empty the ratings tables and fold the whole log again"
    )
    rebuild.add_argument(
        "--database",
        default=env("CARDROOM_DATABASE", "cardroom.sqlite3"),
        metavar="PATH_OR_URL",
        help="the server's database, as `cardroom serve --database` (env CARDROOM_DATABASE)",
    )


def _line(place: int, rating: cpb.PlayerRating) -> str:
    return (
        f"{place:>4}. {rating.rating:7.2f}  {rating.display_name or '?':<20} "
        f"{rating.games:>5} games  {rating.player_id}"
    )


def run(args: argparse.Namespace) -> int:
    if args.action == "rebuild":
        return _rebuild(args.database)
    return asyncio.run(_read(args))


async def _read(args: argparse.Namespace) -> int:
    try:
        async with connect(args) as client:
            await (_list(args, client) if args.action == "list" else _player(args, client))
    except CardroomError as error:
        if transient(error):
            raise unreachable(args.address, error.details) from None
        raise
    return EXIT_OK


async def _list(args: argparse.Namespace, client: Client) -> None:
    if args.limit < 1:
        raise UsageError("--limit must be 1 or more")
    board = await client.ratings(args.kind, limit=args.limit)
    if not board:
        print(f"No rated {args.kind} games yet.")
    for place, rating in enumerate(board, start=1):
        print(_line(place, rating))


async def _player(args: argparse.Namespace, client: Client) -> None:
    found = await client.player(args.player_id)
    if not found.ratings:
        print(f"Player {args.player_id} has no rated game yet.")
        return
    print(f"{found.display_name or '?'}  ({found.player_id})")
    for rating in found.ratings:
        print(
            f"  {rating.kind:<20} {rating.rating:7.2f}  (mu {rating.mu:.2f}, "
            f"sigma {rating.sigma:.2f}, {rating.games} games)"
        )
    print("Latest rated games:")
    for game in found.games:
        after = game.rating_after
        print(f"  {game.game_id}  {game.kind:<20} rank {game.rank}  then {after.rating:.2f}")


def _rebuild(database: str) -> int:
    try:
        from cardroom.server.games.ratings import Ratings
        from cardroom.server.storage.log import GameLog
    except ImportError as error:
        raise UsageError(
            f"`cardroom ratings rebuild` needs the server: pip install 'cardroom[server]' ({error})"
        ) from None
    log = GameLog(database)
    try:
        read = Ratings(log).rebuild()
    finally:
        log.close()
    print(f"Ratings rebuilt from {read} finished game(s) in {database}.")
    return EXIT_OK
