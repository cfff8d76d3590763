"""``cardroom export GAME_ID --output FILE``: fetch a finished game's signed
record from a server and write it (docs/trust.md)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from cardroom.cli.common import (
    EXIT_OK,
    UsageError,
    add_credential_flags,
    add_server_flags,
    connect,
    credential,
)
from cardroom.client import CardroomError, RuleBroken
from cardroom.trust import record, signing

NAME = "export"
HELP = "write a finished game's signed record to a file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_server_flags(parser)
    parser.add_argument("game_id", metavar="GAME_ID", help="the game to export")
    parser.add_argument(
        "--output",
        "-o",
        required=True,
        metavar="FILE",
        help="where to write the record ('-': standard output); keep it out of your checkout",
    )
    add_credential_flags(parser, what="read a game whose log is not public")


def explain(error: CardroomError) -> str:
    if isinstance(error, RuleBroken):
        return f"{error.details} (only a finished game has a record)"
    return f"{error.code.name}: {error.details}"


def run(args: argparse.Namespace) -> int:
    token = credential(args)
    return asyncio.run(export(args, args.game_id, args.output, token))


async def export(args: argparse.Namespace, game_id: str, output: str, token: str | None) -> int:
    try:
        async with connect(args) as client:
            signed = await client.export_record(game_id, token)
    except CardroomError as error:
        raise UsageError(f"{args.address}: {explain(error)}") from None
    try:
        body = record.record_body(signed)
    except record.RecordError as error:
        raise UsageError(f"the server sent an unreadable record: {error}") from None
    try:
        if output == "-":
            sys.stdout.buffer.write(record.to_bytes(signed))
            sys.stdout.buffer.flush()
        else:
            record.write_record(signed, output)
    except OSError as error:
        raise UsageError(f"{output}: {error.strerror or error}") from None
    where = "standard output" if output == "-" else output
    print(
        f"exported game {body.game_id} ({body.kind}, {len(body.events)} events), "
        f"signed by key {signing.fingerprint(signed.public_key)}, to {where}",
        file=sys.stderr if output == "-" else sys.stdout,
    )
    return EXIT_OK
