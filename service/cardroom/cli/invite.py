"""``cardroom invite GAME_ID``: hold a free seat for someone and print its
code; ``cardroom accept GAME_ID CODE``: take that seat (kept like any seat
of ``cardroom play``, so ``cardroom play --game-id`` sits you down there);
``cardroom add-bot GAME_ID``: a bot the server runs takes a free seat.

A seat token is needed for ``invite`` and ``add-bot``: ``--seat-token``, or
the one kept for this game by ``cardroom play`` / ``accept``."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable

from cardroom.cli.common import (
    EXIT_OK,
    UsageError,
    add_anonymous_flag,
    add_credential_flags,
    add_server_flags,
    connect,
    credential,
    player_key,
    unreachable,
)
from cardroom.client import CardroomError, Client
from cardroom.client.bots import BOT_KINDS
from cardroom.client.follow import transient
from cardroom.client.sessions import SeatRecord, SessionError, Sessions


def _token(args: argparse.Namespace) -> str:
    """The credential given, else the seat kept for this game."""
    given = credential(args)
    if given:
        return given
    try:
        kept = Sessions.at(args.token_file).find(args.address, args.game_id)
    except SessionError as error:
        raise UsageError(str(error)) from None
    if kept is None:
        raise UsageError(
            f"no seat of game {args.game_id} is kept for {args.address}: pass --seat-token"
        )
    return kept.token


def _common(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("game_id", metavar="GAME_ID")
    add_server_flags(parser)
    add_credential_flags(parser, what=what)
    parser.add_argument(
        "--token-file", metavar="PATH", help="the kept seats (default: cardroom play's)"
    )


async def _call(args: argparse.Namespace, work: Callable[[Client], Awaitable[int]]) -> int:
    try:
        async with connect(args) as client:
            return await work(client)
    except CardroomError as error:
        if transient(error):
            raise unreachable(args.address, error.details) from None
        raise


class Invite:
    """Hold a free seat of a game for someone and print its code."""

    NAME = "invite"
    HELP = "hold a free seat of a game for someone: print the invitation's code"

    @staticmethod
    def add_arguments(parser: argparse.ArgumentParser) -> None:
        _common(parser, "invite")
        parser.add_argument("--seat", type=int, metavar="N", help="the seat (1..N) to hold")

    @staticmethod
    def run(args: argparse.Namespace) -> int:
        token = _token(args)
        seat = None if args.seat is None else args.seat - 1

        async def work(client: Client) -> int:
            invitation = await client.invite(args.game_id, token, seat)
            print(f"seat {invitation.seat + 1} is held for code: {invitation.code}")
            print(
                f"They join with:  cardroom accept --address {args.address} "
                f"{args.game_id} {invitation.code}"
            )
            return EXIT_OK

        return asyncio.run(_call(args, work))


class Accept:
    """Take the seat an invitation holds, once; its token is kept for `cardroom play`."""

    NAME = "accept"
    HELP = "take the seat an invitation holds (once) and keep its token"

    @staticmethod
    def add_arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("game_id", metavar="GAME_ID")
        parser.add_argument("code", metavar="CODE")
        parser.add_argument("--name", default="You", help="your name at the table")
        add_anonymous_flag(parser)
        add_server_flags(parser)
        parser.add_argument(
            "--token-file", metavar="PATH", help="the kept seats (default: cardroom play's)"
        )

    @staticmethod
    def run(args: argparse.Namespace) -> int:
        sessions = Sessions.at(args.token_file)

        async def work(client: Client) -> int:
            handle = await client.accept_invitation(
                args.game_id, args.code, args.name, player=player_key(args, sessions)
            )
            view = await client.view(args.game_id, handle.token)
            record = SeatRecord(
                args.address, args.game_id, view.table.kind, handle.seat, handle.token, args.name
            )
            try:
                sessions.save(record)
            except SessionError as error:
                raise UsageError(str(error)) from None
            print(f"You took seat {handle.seat + 1}; your token is kept in {sessions.path}.")
            print(f"Play with:  cardroom play --address {args.address} --game-id {args.game_id}")
            return EXIT_OK

        return asyncio.run(_call(args, work))


class AddBot:
    """A bot the server runs takes a free seat and plays it to the end."""

    NAME = "add-bot"
    HELP = "a bot the server runs takes a free seat (it plays on when you leave)"

    @staticmethod
    def add_arguments(parser: argparse.ArgumentParser) -> None:
        _common(parser, "add the bot")
        parser.add_argument(
            "--strategy",
            choices=BOT_KINDS,
            default="heuristic",
            help="how it plays: random, heuristic (the game's own strategy) or search "
            "(information-set search; the server gives it --bot-think-ms a move) "
            "(default %(default)s)",
        )

    @staticmethod
    def run(args: argparse.Namespace) -> int:
        token = _token(args)

        async def work(client: Client) -> int:
            added = await client.add_bot(args.game_id, token, args.strategy)
            print(f"{added.player_name} took seat {added.seat + 1}; the server plays it.")
            return EXIT_OK

        return asyncio.run(_call(args, work))
