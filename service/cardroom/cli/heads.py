"""``cardroom heads compare``: look for proof that a server showed two
histories (docs/trust.md, "Signed heads"). Each source is a heads file
(JSON lines, as the clients and the web table export them) or, with
``--live ADDRESS --game GAME_ID``, the signed heads that server serves a
spectator of the game now. Two valid signed heads for the same game and
sequence with different chain heads are the proof: printed (both heads,
as lines of a heads file), exit 1. Otherwise "no equivocation found", exit
0. Only the server's own keys prove anything: its key list (``--keys``),
or the keys ``--address`` or the ``--live`` servers publish; a key a saved
line carries is the line's word, never trusted (anyone can sign a head with
a key of their own). A head whose key is not listed or whose signature
fails proves nothing: it is counted and left out. Exit 2: no key list to
check against, a source could not be read, or not one head verified."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from cardroom.cli.common import (
    EXIT_DISCREPANCY,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    add_server_flags,
    connect,
)
from cardroom.client import CardroomError, Client
from cardroom.trust import heads, keyring

NAME = "heads"
HELP = "compare saved or live signed heads: proof that a server showed two histories"
# Rejected heads named one by one; the rest are counted.
SHOWN_REJECTIONS = 5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("compare",), help="compare: look for equivocation")
    parser.add_argument("files", nargs="*", metavar="FILE", help="a heads file (JSON lines)")
    parser.add_argument(
        "--live",
        action="append",
        default=[],
        metavar="HOST:PORT",
        help="a source: the heads a spectator of --game is served by this server (repeatable)",
    )
    parser.add_argument("--game", metavar="GAME_ID", help="the game watched with --live")
    parser.add_argument(
        "--keys",
        metavar="FILE",
        help="the server's key list file (cardroom key --list): only heads by these keys "
        "count; without it, the keys --address or the --live servers list",
    )
    add_server_flags(
        parser,
        address_default=None,
        address_help="take the server's key list from the server at HOST:PORT (GetServerKey)",
    )


def run(args: argparse.Namespace) -> int:
    if not args.files and not args.live:
        raise UsageError("compare needs sources: heads files, or --live addresses")
    if args.live and not args.game:
        raise UsageError("--live needs --game GAME_ID")
    if not (args.keys or args.address or args.live):
        raise UsageError(
            "compare needs the server's keys to verify a head: --address HOST:PORT (the keys "
            "it publishes), --keys FILE (cardroom key --list) or --live HOST:PORT"
        )
    return asyncio.run(_compare(args))


def _read(path: str) -> list[heads.SavedHead]:
    try:
        with Path(path).open() as file:
            return list(heads.read_heads(file))
    except OSError as error:
        raise UsageError(f"{path}: {error.strerror or error}") from None
    except heads.HeadError as error:
        raise UsageError(f"{path}: {error}") from None


async def live_heads(client: Client, game_id: str) -> tuple[list[heads.SavedHead], keyring.KeyList]:
    """The signed heads a spectator of the game is served up to now, and
    the keys the server lists."""
    served = await client.server_key()
    keys = keyring.served_keys(served.keys, bytes(served.public_key))
    version = (await client.view(game_id, as_spectator=True)).version
    if version:
        async for event in client.watch(game_id, as_spectator=True):
            if event.sequence >= version:
                break
    return [heads.SavedHead(h) for h in client.heads.heads(game_id)], keys


async def _compare(args: argparse.Namespace) -> int:
    sources = [_read(path) for path in args.files]
    keys: keyring.KeyList | None = None
    if args.keys:
        try:
            keys = keyring.read_key_list(args.keys)
        except keyring.KeyListError as error:
            raise UsageError(str(error)) from None
    listed: list[keyring.ListedKey] = []
    try:
        for address in args.live:
            async with connect(args, address) as client:
                found, served = await live_heads(client, args.game)
            sources.append(found)
            listed += [k for k in served.keys if k not in listed]
        if args.address and keys is None:
            async with connect(args) as client:
                served_key = await client.server_key()
            keys = keyring.served_keys(served_key.keys, bytes(served_key.public_key))
    except CardroomError as error:
        raise UsageError(f"{error.code.name}: {error.details}") from None
    if keys is None:
        keys = keyring.KeyList(tuple(listed))
    result = heads.compare(sources, heads.key_finder(keys))
    for why in result.rejected[:SHOWN_REJECTIONS]:
        print(f"rejected (proves nothing): {why}", file=sys.stderr)
    if len(result.rejected) > SHOWN_REJECTIONS:
        more = len(result.rejected) - SHOWN_REJECTIONS
        print(f"rejected (proves nothing): {more} more heads", file=sys.stderr)
    origin = "the server's key list"
    if not result.compared:
        print(
            f"nothing verified: none of the {len(result.rejected)} heads is signed by a key in "
            f"{origin} ({', '.join(k.key_id for k in keys.keys) or 'no keys'})",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if not result.proofs:
        print(
            f"no equivocation found: {result.compared} signed heads checked against {origin}, "
            f"{result.common} (game, sequence) held by more than one source"
        )
        return EXIT_OK
    print(f"EQUIVOCATION: {len(result.proofs)} proof(s), keys checked against {origin}")
    for proof in result.proofs:
        first = proof.first
        print(
            f"game {first.game_id} sequence {first.sequence}: chain head "
            f"{first.chain_head.hex()} and {proof.second.chain_head.hex()}, both signed"
        )
        for line in proof.lines():
            print(line)
    return EXIT_DISCREPANCY
