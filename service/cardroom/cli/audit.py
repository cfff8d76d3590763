"""``cardroom audit``: verify a signed game record (docs/trust.md,
"Auditing") from a file, fully offline, or fetched from a live server whose
served key it must carry. Exit 0 verified, 1 discrepancy, 2 could not run
(bad arguments, unreadable file, unreachable server, unknown, unfinished or
unreadable game)."""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from dataclasses import dataclass, field

from cardroom.cli import audit_tournament
from cardroom.cli.common import (
    EXIT_DISCREPANCY,
    EXIT_OK,
    UsageError,
    add_credential_flags,
    add_server_flags,
    connect,
    credential,
)
from cardroom.cli.export import explain
from cardroom.client import CardroomError, Client
from cardroom.trust import keyring, record, signing
from cardroom.trust.audit import Report, audit_scanned, compare_viewer_stream, main_audit
from cardroom.trust.key_audit import audit_with_keys, named_key_id
from cardroom.trust.problems import Problem
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb

# The copies the server serves are compared with the record this many at a time.
COMPARE_BATCH = 1000

NAME = "audit"
HELP = "verify a game record: signature, chain, commitments, chance, rules re-run"
DESCRIPTION = (
    "Verify a signed game record: from FILE, offline, or with --address fetched from a "
    "live server (its record must carry the key the server serves, and the copies it "
    "serves must agree with the record). `cardroom audit tournament RECORD GAME_RECORD...` "
    "verifies a tournament: every round re-drawn from its seed and standings, every game "
    "audited and its result compared. Exit 0 verified, 1 discrepancy, 2 could not run."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "target",
        metavar="FILE | GAME_ID | tournament | ratings",
        help="a record file, or with --address a game id; `tournament RECORD GAME_RECORD...` "
        "audits a tournament record and its games' records offline; `ratings RECORD...` "
        "recomputes every rating from finished games' records (docs/rules/table.md T-RATING)",
    )
    parser.add_argument("games", nargs="*", metavar="RECORD GAME_RECORD", help=argparse.SUPPRESS)
    add_server_flags(
        parser,
        address_default=None,
        address_help="fetch GAME_ID's record from the server at HOST:PORT (without it, "
        "audit the file FILE offline)",
    )
    parser.add_argument(
        "--public-key",
        metavar="HEX",
        help="the server's Ed25519 public key (64 hex digits, as `cardroom key` prints it) "
        "to require; without it the key the record (or the server) names is used, which "
        "shows integrity but not who signed",
    )
    parser.add_argument(
        "--keys",
        metavar="FILE",
        help="FILE only: a key list file (cardroom key --list); the record must be signed by "
        "the key its key id names, within that key's validity (with --address the server's "
        "own list is used)",
    )
    add_credential_flags(
        parser, what="with --address, read a game whose log is not public", from_env=False
    )


def public_key(text: str | None) -> bytes | None:
    """The pinned key: None when not given; a usage error when malformed."""
    if text is None:
        return None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != signing.PUBLIC_KEY_BYTES:
        raise UsageError("--public-key must be 64 hex digits")
    return key


def run(args: argparse.Namespace) -> int:
    if args.target == "tournament":
        return audit_tournament.run(args, public_key(args.public_key))
    if args.target == "ratings":
        return _audit_ratings(args)
    if args.games:
        raise UsageError(f"one record at a time (or: {audit_tournament.USAGE})")
    token = credential(args)
    if args.address is None:
        if token is not None:
            raise UsageError("--operator-token and --seat-token need --address (a file needs none)")
        pinned = [] if args.public_key is None else ["--public-key", args.public_key]
        listed = [] if args.keys is None else ["--keys", args.keys]
        return main_audit([args.target, *pinned, *listed])
    if args.keys is not None:
        raise UsageError("--keys is for a FILE: with --address the server's key list is used")
    pinned_key = public_key(args.public_key)
    return asyncio.run(audit_live(args, args.target, token=token, public_key=pinned_key))


def _audit_ratings(args: argparse.Namespace) -> int:
    """Every record audited, then every rating recomputed from them, offline."""
    if args.address is not None or args.keys is not None:
        raise UsageError("`cardroom audit ratings` reads record files: no --address or --keys")
    from cardroom.trust.ratings_audit import audit_ratings

    if not args.games:
        raise UsageError("cardroom audit ratings RECORD...: name the games' records")
    audit = audit_ratings(args.games, public_key=public_key(args.public_key))
    print(audit.render())
    return EXIT_OK if audit.ok else EXIT_DISCREPANCY


@dataclass
class LiveAudit:
    """A record fetched from a server, audited, and the server's own copies
    of the game checked against it."""

    report: Report
    served_key: bytes
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.report.ok

    def render(self) -> str:
        return "\n".join([*self.notes, "", self.report.render()])


class CannotAudit(Exception):
    """The audit could not run (the server, the game or the arguments)."""


async def fetch_and_audit(
    client: Client,
    game_id: str,
    *,
    token: str | None = None,
    public_key: bytes | None = None,
    address: str = "",
) -> LiveAudit:
    """Audit a game on a live server: fetch the key the server serves
    (GetServerKey) and the game's signed record (streamed,
    StreamGameRecord, into a temporary file), require the record to be
    signed with that key (and the served key to be the pinned one, when
    given), run the offline audit on the record, then check that the
    server's own copies of the game (the full log a page at a time, and the
    spectators' feed) are exactly the events the record holds. Nothing holds
    the whole game as messages: the record is read in place, the copies a
    page at a time."""
    with tempfile.TemporaryFile(prefix="cardroom-record-") as file:
        try:
            served = await client.server_key()
            async for chunk in client.record_chunks(game_id, token):
                file.write(chunk)
        except CardroomError as error:
            raise CannotAudit(f"{address or 'server'}: {explain(error)}") from None
        file.flush()
        try:
            with record.mapped(file) as scanned:
                return await _audit_fetched(
                    client, game_id, scanned, served, token, public_key, address
                )
        except record.RecordError as error:
            raise CannotAudit(f"the server sent an unreadable record: {error}") from None


async def _audit_fetched(
    client: Client,
    game_id: str,
    scanned: record.ScannedRecord,
    served_keys: gpb.GetServerKeyResponse,
    token: str | None,
    public_key: bytes | None,
    address: str,
) -> LiveAudit:
    served_key = bytes(served_keys.public_key)
    notes = [
        f"live audit of game {game_id} at {address or 'the server'}",
        f"  server key:  {signing.fingerprint(served_key)} (served by GetServerKey)",
    ]
    problems: list[Problem] = []
    if public_key is not None and served_key != public_key:
        problems.append(
            Problem(
                "signature",
                f"the server serves key {signing.fingerprint(served_key)}, not the pinned key "
                f"{signing.fingerprint(public_key)}",
            )
        )
    if public_key is not None:
        report = audit_scanned(scanned, public_key=public_key)
    else:
        # The key the record's key id names, among every key the server
        # lists (a server older than rotation lists its one key).
        keys = keyring.served_keys(served_keys.keys, served_key)
        report = audit_with_keys(scanned, keys, holder="the server serves")
        if len(keys.keys) > 1:
            notes.append(f"  record key:  {named_key_id(scanned)} (of {len(keys.keys)} listed)")
    report.problems[:0] = problems
    stored = scanned.stored
    copies_of = (
        ("full log (GetAuditLog)", lambda: client.audit_pages(game_id, token)),
        ("spectators' feed", lambda: client.watch(game_id)),
    )
    for name, copies in copies_of:
        found: list[Problem] = []
        served = 0
        in_order = True
        page: list[epb.EventEnvelope] = []
        try:
            async for copy in copies():
                served += 1
                in_order = in_order and copy.sequence == served
                page.append(copy)
                if len(page) >= COMPARE_BATCH:
                    found += compare_viewer_stream(page, stored)
                    page = []
        except CardroomError as error:
            report.add("chain", f"the server's copies of the game cannot be read: {explain(error)}")
            return LiveAudit(report, served_key, notes)
        found += compare_viewer_stream(page, stored)
        if not in_order or served != len(stored):
            found.append(
                Problem(
                    "chain",
                    f"the server serves {served} events, not the record's {len(stored)} in order",
                )
            )
        for problem in found:
            report.problems.append(
                Problem(problem.check, f"{name}: {problem.message}", problem.event)
            )
        verdict = "agree with the record" if not found else f"{len(found)} difference(s)"
        notes.append(f"  served copy: {name}, {served} events: {verdict}")
    return LiveAudit(report, served_key, notes)


async def audit_live(
    args: argparse.Namespace,
    game_id: str,
    *,
    token: str | None = None,
    public_key: bytes | None = None,
) -> int:
    """``cardroom audit --address HOST:PORT GAME_ID``."""
    address = args.address
    async with connect(args) as client:
        try:
            audit = await fetch_and_audit(
                client,
                game_id,
                token=token,
                public_key=public_key,
                address=address,
            )
        except CannotAudit as error:
            raise UsageError(str(error)) from None
    print(audit.render())
    return EXIT_OK if audit.ok else EXIT_DISCREPANCY
