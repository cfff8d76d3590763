"""``cardroom key``: the server's Ed25519 public key, in full (the 64 hex
digits ``cardroom audit --public-key`` takes), and its short fingerprint."""

from __future__ import annotations

import argparse
import asyncio
import sys

from cardroom.cli.common import EXIT_OK, UsageError, add_server_flags, connect
from cardroom.client import CardroomError
from cardroom.trust import signing

NAME = "key"
HELP = "print the server's public key (for cardroom audit --public-key)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_server_flags(parser)


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_key(args))


async def _key(args: argparse.Namespace) -> int:
    try:
        async with connect(args) as client:
            served = await client.server_key()
    except CardroomError as error:
        raise UsageError(f"{args.address}: {error.code.name}: {error.details}") from None
    public = bytes(served.public_key)
    print(public.hex())
    print(f"fingerprint {signing.fingerprint(public)}", file=sys.stderr)
    return EXIT_OK
