"""``cardroom export GAME_ID --output FILE``: fetch a finished game's signed
record from a server and write it (docs/trust.md)."""

from __future__ import annotations

import argparse
import asyncio
import sys

import grpc

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
    """Stream the record (StreamGameRecord) straight into the file, a chunk
    at a time, then check what was written is a readable record."""
    where = "standard output" if output == "-" else output
    try:
        with record.open_for_writing(output) as sink:
            try:
                async with connect(args) as client:
                    async for chunk in client.record_chunks(game_id, token):
                        sink.write(chunk)
            except CardroomError as error:
                if error.code != grpc.StatusCode.UNIMPLEMENTED:
                    raise UsageError(f"{args.address}: {explain(error)}") from None
                async with connect(args) as client:  # a server without StreamGameRecord
                    sink.write(record.to_bytes(await client.export_record(game_id, token)))
        summary = None if output == "-" else record.summarize(output)
    except CardroomError as error:
        raise UsageError(f"{args.address}: {explain(error)}") from None
    except record.RecordError as error:
        raise UsageError(f"the server sent an unreadable record: {error}") from None
    except OSError as error:
        raise UsageError(f"{output}: {error.strerror or error}") from None
    described = (
        f"({summary.kind}, {summary.event_count} events), signed by key "
        f"{signing.fingerprint(summary.public_key)}, "
        if summary is not None
        else ""
    )
    print(
        f"exported game {game_id} {described}to {where}",
        file=sys.stderr if output == "-" else sys.stdout,
    )
    return EXIT_OK
