"""``cardroom play``: sit at a table in the terminal. Create a game with
bots (``cardroom play smoke-and-mirrors --bots 2``), join one
(``--game-id ID``), or resume your seat after a restart (``cardroom play
--game-id ID`` again, or ``cardroom play`` for your latest game): the seat
token is kept in a file of yours ($XDG_STATE_HOME/cardroom/seats.json)."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import time
from contextlib import nullcontext
from dataclasses import replace

from cardroom.cli.common import (
    EXIT_OK,
    UsageError,
    add_anonymous_flag,
    add_relay_flag,
    add_seat_token_flag,
    add_server_flags,
    connect,
    env,
    player_key,
    unreachable,
)
from cardroom.cli.temporary import temporary_server
from cardroom.client import CardroomError, Client
from cardroom.client.bots import BOT_KINDS, NoSuchBot, strategy_for
from cardroom.client.bots.runner import seat_bots
from cardroom.client.entropy import new_entropy
from cardroom.client.feed import title
from cardroom.client.follow import transient
from cardroom.client.sessions import SeatRecord, SessionError, Sessions
from cardroom.domain import registry

NAME = "play"
HELP = "play in the terminal: a new game with bots, a game by id, or your latest seat"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "kind",
        nargs="?",
        metavar="KIND",
        help=f"create a game of this kind: {', '.join(registry.games())}",
    )
    parser.add_argument("--game-id", metavar="ID", help="join (or resume your seat in) this game")
    parser.add_argument(
        "--bots", type=int, default=0, metavar="K", help="seat K bots beside you (default 0)"
    )
    parser.add_argument(
        "--bot",
        choices=BOT_KINDS,
        default="heuristic",
        help="which bots (default %(default)s; random for a game without a heuristic bot)",
    )
    parser.add_argument(
        "--seats", type=int, metavar="N", help="seats in a new game (default: you and the bots)"
    )
    parser.add_argument("--seat", type=int, metavar="N", help="the seat to take when joining")
    parser.add_argument(
        "--name",
        default=env("CARDROOM_NAME") or _login(),
        help="your name at the table (env CARDROOM_NAME; default your login name)",
    )
    add_seat_token_flag(parser, what="play the seat this token holds")
    parser.add_argument(
        "--token-file",
        metavar="PATH",
        help="where your seats and their tokens are kept "
        "(default $XDG_STATE_HOME/cardroom/seats.json, else ~/.local/state/cardroom/seats.json)",
    )
    parser.add_argument(
        "--local",
        action="store_true",
        help="play on a temporary server of your own (gone when you leave)",
    )
    parser.add_argument("--seed", type=int, help="seed the bots' choices")
    add_anonymous_flag(parser)
    add_server_flags(parser)
    add_relay_flag(parser)


def _login() -> str:
    try:
        return getpass.getuser() or "You"
    except (OSError, KeyError):
        return "You"


def run(args: argparse.Namespace) -> int:
    # The terminal table first: without the tui extra, no game is created
    # nor seat taken (main() says which extra to install).
    from cardroom.tui.play import PlayApp

    sessions = Sessions.at(args.token_file)
    if args.local and not args.kind:
        raise UsageError("--local needs a game kind: cardroom play KIND --local --bots K")
    with temporary_server() if args.local else nullcontext() as temporary:
        address = temporary.address if temporary is not None else args.address
        record = asyncio.run(prepare(args, address, sessions))
        app = PlayApp(
            lambda: connect(args, record.address),
            record.game_id,
            token=record.token,
            seat=record.seat,
            bots=record.bots,
            kind=record.kind,
            seed=args.seed,
            entropy=bytes.fromhex(record.entropy),
        )
        app.run()
        finished = app.over.is_set()
        if app.deal_verdict:
            print(app.deal_verdict)
    if not finished and not args.local:
        print(
            f"Your seat in game {record.game_id} is kept in {sessions.path}; come back with:\n"
            f"  cardroom play --address {record.address} --game-id {record.game_id}"
        )
    return EXIT_OK


async def prepare(args: argparse.Namespace, address: str, sessions: Sessions) -> SeatRecord:
    """Your seat: created, joined, or found again; saved for the next run
    (unless the server is a temporary one)."""
    if args.kind and args.game_id:
        raise UsageError("give a game KIND to create a game, or --game-id to join one, not both")
    try:
        if args.kind:
            async with connect(args, address) as client:
                record = await _create(args, client, address, sessions)
        else:
            record = await _find_or_join(args, address, sessions)
    except CardroomError as error:
        if transient(error):
            raise unreachable(address, error.details) from None
        raise
    try:
        if not args.local:
            sessions.save(record)
    except SessionError as error:
        raise UsageError(f"cannot keep your seat token: {error}") from None
    return record


async def _find_or_join(args: argparse.Namespace, address: str, sessions: Sessions) -> SeatRecord:
    """The seat of --seat-token, else the one kept for this game, else a new
    one; with no --game-id, the latest seat kept."""
    try:
        kept = sessions.find(address, args.game_id) if args.game_id else sessions.latest()
    except SessionError as error:
        raise UsageError(str(error)) from None
    if args.game_id is None and kept is None:
        raise UsageError(
            f"name a game to create ({', '.join(registry.games())}) or --game-id ID to join one"
        )
    if kept is not None and not args.seat_token:
        async with connect(args, kept.address) as client:
            await client.view(kept.game_id, kept.token)  # the seat is still there
        return replace(kept, saved_at=time.time())
    game_id = args.game_id
    async with connect(args, address) as client:
        if args.seat_token:
            view = await client.view(game_id, args.seat_token)
            seat = view.response.seat
            name = view.table.player_names[seat]
            return SeatRecord(address, game_id, view.table.kind, seat, args.seat_token, name)
        handle = await client.join(
            game_id, args.name, args.seat, entropy=new_entropy(), player=player_key(args, sessions)
        )
        kind = (await client.view(game_id, handle.token)).table.kind
        bots = (
            await seat_bots(client, game_id, args.bots, _bot(kind, args.bot)) if args.bots else ()
        )
        return SeatRecord(
            address,
            game_id,
            kind,
            handle.seat,
            handle.token,
            args.name,
            bots,
            entropy=handle.entropy.hex(),
        )


async def _create(
    args: argparse.Namespace, client: Client, address: str, sessions: Sessions
) -> SeatRecord:
    kind = args.kind
    if kind not in registry.games():
        raise UsageError(f"unknown game {kind!r}; known: {', '.join(registry.games())}")
    game = registry.game(kind)
    if args.bots < 0:
        raise UsageError("--bots must be 0 or more")
    seats = args.seats if args.seats is not None else max(game.min_seats, args.bots + 1)
    if not game.min_seats <= seats <= game.max_seats:
        raise UsageError(
            f"{title(kind)} is played by {game.min_seats} to {game.max_seats} players, not {seats}"
        )
    if args.bots >= seats:
        raise UsageError(f"{seats} seats leave room for at most {seats - 1} bots beside you")
    bot = _bot(kind, args.bot)
    game_id = await client.create_game(kind, seat_count=seats)
    me = await client.join(
        game_id, args.name, entropy=new_entropy(), player=player_key(args, sessions)
    )
    bots = await seat_bots(client, game_id, args.bots, bot)
    return SeatRecord(
        address, game_id, kind, me.seat, me.token, args.name, bots, entropy=me.entropy.hex()
    )


def _bot(kind: str, bot: str) -> str:
    """The bot kind to seat: the one asked for, else random for a game without it."""
    try:
        strategy_for(kind, bot)
    except NoSuchBot:
        return "random"
    return bot
