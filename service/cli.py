"""The ``cardroom`` command.

    cardroom serve [--address HOST:PORT] [--database PATH_OR_URL]
                   [--operator-token SECRET] [--signing-key PATH]
    cardroom demo [--game KIND] [--address HOST:PORT] ...
    cardroom export [--address HOST:PORT] GAME_ID --output FILE
    cardroom audit FILE [--public-key HEX]
    cardroom audit --address HOST:PORT GAME_ID [--operator-token SECRET] [--public-key HEX]

``serve`` settings come from flags, else environment variables
(CARDROOM_ADDRESS, CARDROOM_DATABASE, CARDROOM_OPERATOR_TOKEN,
CARDROOM_SIGNING_KEY), else the defaults. ``export`` writes a finished game's
signed record; ``audit`` verifies one (docs/trust.md, "Auditing") from a file,
fully offline, or fetched from a live server whose served key it must carry.
``audit`` exits 0 when everything checks, 1 on any discrepancy, 2 when it
cannot run (bad arguments, unreadable file, unreachable server, unknown or
unfinished game).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from cardroom.client import CardroomError, Client, RuleBroken
from service.server import Settings, serve
from service.trust import record, signing
from service.trust.audit import Report, audit_record, compare_viewer_stream, main_audit
from service.trust.problems import Problem

EXIT_OK, EXIT_DISCREPANCY, EXIT_USAGE = 0, 1, 2


def _settings(args: argparse.Namespace) -> Settings:
    return Settings(
        address=args.address,
        database=args.database,
        operator_token=args.operator_token,
        signing_key=args.signing_key,
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardroom", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)

    serve_cmd = commands.add_parser("serve", help="run the gRPC server")
    serve_cmd.add_argument(
        "--address", default=os.environ.get("CARDROOM_ADDRESS", "127.0.0.1:50051")
    )
    serve_cmd.add_argument(
        "--database",
        default=os.environ.get("CARDROOM_DATABASE", "cardroom.sqlite3"),
        help="a SQLite file path (default ./cardroom.sqlite3) or a postgresql:// URL",
    )
    serve_cmd.add_argument(
        "--operator-token",
        default=os.environ.get("CARDROOM_OPERATOR_TOKEN"),
        help="secret granting the operator's powers (audit any game, set deals)",
    )
    serve_cmd.add_argument(
        "--signing-key",
        metavar="PATH",
        default=os.environ.get("CARDROOM_SIGNING_KEY"),
        help="the Ed25519 key file that signs exported records, created if missing "
        "(default: <database>.ed25519 beside a SQLite file, else ./cardroom-signing-key.pem)",
    )

    demo_cmd = commands.add_parser("demo", help="bots play one game; print a spectator's feed")
    demo_cmd.add_argument("--game", default="smoke-and-mirrors", help="game kind")
    demo_cmd.add_argument("--seats", type=int, default=None, help="number of bots")
    demo_cmd.add_argument(
        "--address", default=None, help="use the server at HOST:PORT instead of starting one"
    )
    demo_cmd.add_argument("--seed", type=int, default=None, help="seed the bots' choices")
    demo_cmd.add_argument("--quiet", action="store_true", help="print only the summary")

    export_cmd = commands.add_parser(
        "export", help="write a finished game's signed record to a file"
    )
    export_cmd.add_argument(
        "--address",
        default=os.environ.get("CARDROOM_ADDRESS", "127.0.0.1:50051"),
        help="the server, HOST:PORT",
    )
    export_cmd.add_argument("game_id", metavar="GAME_ID")
    export_cmd.add_argument(
        "--output", "-o", required=True, metavar="FILE", help="where to write it ('-': stdout)"
    )
    export_cmd.add_argument(
        "--operator-token",
        default=os.environ.get("CARDROOM_OPERATOR_TOKEN"),
        help="sent as the caller's credential (exports need none today)",
    )

    audit_cmd = commands.add_parser(
        "audit",
        help="verify a game record: signature, chain, commitments, chance, rules re-run",
        description="Verify a signed game record: from FILE, offline, or with --address "
        "fetched from a live server (its record must carry the key the server serves, and "
        "the copies it serves must agree with the record). Exit 0 verified, 1 discrepancy, "
        "2 could not run.",
    )
    audit_cmd.add_argument(
        "target", metavar="FILE | GAME_ID", help="a record file, or with --address a game id"
    )
    audit_cmd.add_argument(
        "--address", default=None, help="fetch the record of GAME_ID from the server HOST:PORT"
    )
    audit_cmd.add_argument(
        "--operator-token",
        default=None,
        help="with --address: the operator's credential, used to fetch the full log",
    )
    audit_cmd.add_argument(
        "--public-key",
        metavar="HEX",
        help="the server's Ed25519 public key (64 hex digits) to require",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "serve":
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
        try:
            asyncio.run(serve(_settings(args)))
        except KeyboardInterrupt:
            pass
        return 0
    if args.command == "demo":
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
        from service.demo import run_demo

        return asyncio.run(
            run_demo(args.game, args.seats, args.address, seed=args.seed, quiet=args.quiet)
        )
    if args.command == "export":
        return asyncio.run(export(args.address, args.game_id, args.output, args.operator_token))
    if args.address is None:
        if args.operator_token is not None:
            return _usage("audit", "--operator-token needs --address (a file needs no credential)")
        pinned = [] if args.public_key is None else ["--public-key", args.public_key]
        return main_audit([args.target, *pinned])
    pinned_key = _public_key(args.public_key)
    if pinned_key is not None and not pinned_key:
        return _usage("audit", "--public-key must be 64 hex digits")
    return asyncio.run(
        audit_live(
            args.address,
            args.target,
            operator_token=args.operator_token,
            public_key=pinned_key,
        )
    )


def _usage(command: str, message: str) -> int:
    print(f"cardroom {command}: {message}", file=sys.stderr)
    return EXIT_USAGE


def _public_key(text: str | None) -> bytes | None:
    """The pinned key: None when not given, b"" when malformed."""
    if text is None:
        return None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        return b""
    return key if len(key) == signing.PUBLIC_KEY_BYTES else b""


# ------------------------------------------------------------------ export


async def export(address: str, game_id: str, output: str, token: str | None = None) -> int:
    """``cardroom export``: fetch a finished game's signed record, write it."""
    try:
        async with Client.connect(address) as client:
            signed = await client.export_record(game_id, token)
    except CardroomError as error:
        return _usage("export", f"{address}: {_explain(error)}")
    try:
        body = record.record_body(signed)
    except record.RecordError as error:
        return _usage("export", f"the server sent an unreadable record: {error}")
    try:
        if output == "-":
            sys.stdout.buffer.write(record.to_bytes(signed))
            sys.stdout.buffer.flush()
        else:
            record.write_record(signed, output)
    except OSError as error:
        return _usage("export", f"{output}: {error}")
    where = "standard output" if output == "-" else output
    print(
        f"exported game {body.game_id} ({body.kind}, {len(body.events)} events), "
        f"signed by key {signing.fingerprint(signed.public_key)}, to {where}",
        file=sys.stderr if output == "-" else sys.stdout,
    )
    return EXIT_OK


def _explain(error: Exception) -> str:
    if isinstance(error, RuleBroken):
        return f"{error.details} (only a finished game has a record)"
    if isinstance(error, CardroomError):
        return f"{error.code.name}: {error.details}"
    return str(error)


# ------------------------------------------------------------- live audit


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
    operator_token: str | None = None,
    public_key: bytes | None = None,
    address: str = "",
) -> LiveAudit:
    """Audit a game on a live server: fetch the key the server serves
    (GetServerKey) and the game's signed record (ExportGameRecord), require
    the record to be signed with that key (and the served key to be the
    pinned one, when given), run the offline audit on the record, then check
    that the server's own copies of the game (the full log, and the
    spectators' feed) are exactly the events the record holds."""
    try:
        served = await client.server_key()
        signed = await client.export_record(game_id, operator_token)
    except CardroomError as error:
        raise CannotAudit(f"{address or 'server'}: {_explain(error)}") from None
    served_key = bytes(served.public_key)
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
    if bytes(signed.public_key) != served_key:
        problems.append(
            Problem(
                "signature",
                f"the record names key {signing.fingerprint(bytes(signed.public_key))}, the "
                f"server serves {signing.fingerprint(served_key)}",
            )
        )
    report = audit_record(signed, public_key=public_key if public_key is not None else served_key)
    report.problems[:0] = problems
    try:
        stored = list(record.record_body(signed).events)
    except record.RecordError:
        return LiveAudit(report, served_key, notes)
    try:
        full_log = await client.audit(game_id, operator_token)
        feed = [e async for e in client.watch(game_id)]
    except CardroomError as error:
        report.add("chain", f"the server's copies of the game cannot be read: {_explain(error)}")
        return LiveAudit(report, served_key, notes)
    for name, copies in (("full log (GetAuditLog)", full_log), ("spectators' feed", feed)):
        found = compare_viewer_stream(copies, stored)
        if [c.sequence for c in copies] != list(range(1, len(stored) + 1)):
            found.append(
                Problem(
                    "chain",
                    f"the server serves {len(copies)} events, not the record's "
                    f"{len(stored)} in order",
                )
            )
        for problem in found:
            report.problems.append(
                Problem(problem.check, f"{name}: {problem.message}", problem.event)
            )
        verdict = "agree with the record" if not found else f"{len(found)} difference(s)"
        notes.append(f"  served copy: {name}, {len(copies)} events: {verdict}")
    return LiveAudit(report, served_key, notes)


async def audit_live(
    address: str,
    game_id: str,
    *,
    operator_token: str | None = None,
    public_key: bytes | None = None,
) -> int:
    """``cardroom audit --address HOST:PORT GAME_ID``."""
    async with Client.connect(address) as client:
        try:
            audit = await fetch_and_audit(
                client,
                game_id,
                operator_token=operator_token,
                public_key=public_key,
                address=address,
            )
        except CannotAudit as error:
            return _usage("audit", str(error))
    print(audit.render())
    return EXIT_OK if audit.ok else EXIT_DISCREPANCY


if __name__ == "__main__":
    sys.exit(main())
