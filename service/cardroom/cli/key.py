"""``cardroom key``: the server's Ed25519 public key, in full (the 64 hex
digits ``cardroom audit --public-key`` takes), and its short fingerprint;
``--list FILE`` saves every key it has signed with (a key list file, for
``cardroom audit --keys`` and ``cardroom heads compare --keys``).
``cardroom key rotate`` makes a new signing key beside the database
(docs/trust.md, "Keys and their rotation"): it refuses while a server that
signs with the key runs, since that server would go on signing with the
retired key."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from cardroom.cli.common import EXIT_OK, UsageError, add_server_flags, connect, env
from cardroom.client import CardroomError
from cardroom.trust import keyring, signing

NAME = "key"
HELP = "print the server's public key (for cardroom audit --public-key), or rotate it"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "action",
        nargs="?",
        choices=("show", "rotate"),
        default="show",
        help="show (default): the key a live server serves; rotate: make a new signing key "
        "in the key file (the old public key stays listed, so what it signed still audits)",
    )
    add_server_flags(parser)
    parser.add_argument(
        "--list",
        metavar="FILE",
        help="show: also write every key the server lists, with its validity, to FILE "
        "(a key list file; '-' for standard output)",
    )
    parser.add_argument(
        "--signing-key",
        metavar="PATH",
        default=env("CARDROOM_SIGNING_KEY"),
        help="rotate: the server's key file (env CARDROOM_SIGNING_KEY)",
    )
    parser.add_argument(
        "--database",
        metavar="PATH",
        help="rotate: the server's SQLite database, whose key file is <database>.ed25519",
    )


def run(args: argparse.Namespace) -> int:
    if args.action == "rotate":
        return rotate(args)
    return asyncio.run(_key(args))


def rotate(args: argparse.Namespace) -> int:
    path = Path(args.signing_key) if args.signing_key else None
    if path is None and args.database:
        path = signing.key_path_for(args.database)
    if path is None:
        raise UsageError("rotate needs --signing-key PATH (or --database for a SQLite file)")
    if not path.exists():
        raise UsageError(f"{path}: no key file to rotate")
    try:
        ring = keyring.rotate(path)
    except keyring.KeyInUse as error:
        raise UsageError(str(error)) from None
    except (OSError, keyring.KeyListError, ValueError) as error:
        raise UsageError(f"{path}: {error}") from None
    print(signing.public_key_bytes(ring.current).hex())
    retired = ring.listed.keys[-2]
    print(
        f"new key {ring.current_id}; retired {retired.key_id}; "
        f"{len(ring.listed.keys)} keys listed in {keyring.list_path(path)}; "
        "servers sign with it from their next start",
        file=sys.stderr,
    )
    return EXIT_OK


async def _key(args: argparse.Namespace) -> int:
    try:
        async with connect(args) as client:
            served = await client.server_key()
    except CardroomError as error:
        raise UsageError(f"{args.address}: {error.code.name}: {error.details}") from None
    public = bytes(served.public_key)
    print(public.hex())
    print(f"fingerprint {signing.fingerprint(public)}", file=sys.stderr)
    if args.list:
        text = keyring.served_keys(served.keys, public).dumps()
        if args.list == "-":
            sys.stdout.write(text)
        else:
            Path(args.list).write_text(text)
    return EXIT_OK
