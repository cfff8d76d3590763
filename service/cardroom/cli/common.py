"""What the ``cardroom`` subcommands share: exit codes, one-line usage
errors, and the flags that reach a server (address, TLS, credentials)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import grpc
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from cardroom.client import Client
from cardroom.client.sessions import SessionError, Sessions

EXIT_OK, EXIT_DISCREPANCY, EXIT_USAGE = 0, 1, 2
DEFAULT_ADDRESS = "127.0.0.1:50051"


class UsageError(Exception):
    """A user error: printed as one line ``cardroom <command>: <message>``,
    exit code 2, never a traceback."""


def env(name: str, default: str | None = None) -> str | None:
    return os.environ.get(name) or default


def int_env(name: str, default: int) -> int:
    """A whole number from the environment variable ``name``, else ``default``."""
    text = env(name)
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"{name} must be a whole number, not {text[:40]!r}") from None


def add_server_flags(
    parser: argparse.ArgumentParser,
    *,
    address_default: str | None = "",
    address_help: str = "the cardroom server (env CARDROOM_ADDRESS; default %(default)s)",
) -> None:
    """--address (by default from CARDROOM_ADDRESS, else 127.0.0.1:50051) and
    the client side of TLS."""
    parser.add_argument(
        "--address",
        default=env("CARDROOM_ADDRESS", DEFAULT_ADDRESS) if address_default == "" else None,
        metavar="HOST:PORT",
        help=address_help,
    )
    parser.add_argument(
        "--tls-ca",
        metavar="PEM",
        default=env("CARDROOM_TLS_CA"),
        help="connect with TLS, trusting the CA certificate(s) in this file "
        "(env CARDROOM_TLS_CA); without it the connection is plaintext",
    )
    parser.add_argument(
        "--tls-client-cert",
        metavar="PEM",
        default=env("CARDROOM_TLS_CLIENT_CERT"),
        help="with --tls-ca: this client's certificate, for a server that requires mutual TLS",
    )
    parser.add_argument(
        "--tls-client-key",
        metavar="PEM",
        default=env("CARDROOM_TLS_CLIENT_KEY"),
        help="with --tls-client-cert: its private key",
    )


def add_credential_flags(
    parser: argparse.ArgumentParser, *, what: str, from_env: bool = True
) -> None:
    """--operator-token and --seat-token (by default also read from
    CARDROOM_OPERATOR_TOKEN and CARDROOM_SEAT_TOKEN)."""
    operator_env = " (env CARDROOM_OPERATOR_TOKEN)" if from_env else ""
    seat_env = " (env CARDROOM_SEAT_TOKEN)" if from_env else ""
    parser.add_argument(
        "--operator-token",
        metavar="SECRET",
        default=env("CARDROOM_OPERATOR_TOKEN") if from_env else None,
        help=f"the operator's token, to {what}{operator_env}",
    )
    parser.add_argument(
        "--seat-token",
        metavar="TOKEN",
        default=env("CARDROOM_SEAT_TOKEN") if from_env else None,
        help=f"a seat token of the game, to {what} as that seat{seat_env}",
    )


def add_seat_token_flag(parser: argparse.ArgumentParser, *, what: str) -> None:
    """--seat-token alone (also read from CARDROOM_SEAT_TOKEN), for the
    commands that play a seat."""
    parser.add_argument(
        "--seat-token",
        metavar="TOKEN",
        default=env("CARDROOM_SEAT_TOKEN"),
        help=f"{what} (env CARDROOM_SEAT_TOKEN)",
    )


def add_anonymous_flag(parser: argparse.ArgumentParser) -> None:
    """--anonymous, for the commands that take a seat: without it the seat
    is signed with your player key (docs/trust.md, "Players")."""
    parser.add_argument(
        "--anonymous",
        action="store_true",
        help="take the seat without your player key (kept beside your seats): "
        "the game is then unrated for everyone",
    )


def player_key(args: argparse.Namespace, sessions: Sessions) -> Ed25519PrivateKey | None:
    """The key that signs the seat: the player's own, made on first use
    beside the kept seats; None with --anonymous."""
    if getattr(args, "anonymous", False):
        return None
    try:
        return sessions.player_key()
    except SessionError as error:
        raise UsageError(f"cannot use your player key: {error}") from None


def credential(args: argparse.Namespace) -> str | None:
    """The one credential a command sends: the operator's, else a seat's."""
    if args.operator_token and args.seat_token:
        raise UsageError("pass --operator-token or --seat-token, not both")
    return str(args.operator_token or args.seat_token or "") or None


def _read(path: str, flag: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise UsageError(f"{flag} {path}: {error.strerror or error}") from None


def channel_credentials(args: argparse.Namespace) -> grpc.ChannelCredentials | None:
    """TLS credentials from the flags, or None for plaintext."""
    cert, key = args.tls_client_cert, args.tls_client_key
    if args.tls_ca is None:
        if cert or key:
            raise UsageError("--tls-client-cert and --tls-client-key need --tls-ca")
        return None
    if bool(cert) != bool(key):
        raise UsageError("--tls-client-cert and --tls-client-key go together")
    return grpc.ssl_channel_credentials(
        root_certificates=_read(args.tls_ca, "--tls-ca"),
        private_key=_read(key, "--tls-client-key") if key else None,
        certificate_chain=_read(cert, "--tls-client-cert") if cert else None,
    )


def connect(args: argparse.Namespace, address: str | None = None) -> Client:
    """A client of ``--address`` (or ``address``) with the TLS flags, and
    ``--relay`` for watching where the command has it."""
    return Client.connect(
        address or args.address,
        credentials=channel_credentials(args),
        relays=getattr(args, "relay", None) or (),
    )


def add_relay_flag(parser: argparse.ArgumentParser) -> None:
    """--relay HOST:PORT (repeatable; else CARDROOM_RELAYS, comma-separated)."""
    relays = [r.strip() for r in (env("CARDROOM_RELAYS") or "").split(",") if r.strip()]
    parser.add_argument(
        "--relay",
        action="append",
        metavar="HOST:PORT",
        default=relays or None,
        help="watch through this `cardroom relay` (repeat for several; env CARDROOM_RELAYS, "
        "comma-separated); every other call goes to --address",
    )


def unreachable(address: str, details: str) -> UsageError:
    """The one line for a server that does not answer."""
    reason = details.splitlines()[0] if details else "unavailable"
    return UsageError(f"no server answers at {address} ({reason}); start one with `cardroom serve`")
