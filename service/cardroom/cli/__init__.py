"""The ``cardroom`` command: one module per subcommand, each with ``NAME``,
``HELP``, ``add_arguments(parser)`` and ``run(args) -> exit code``.

Every user error is one line on standard error and exit code 2 (audit: 1
for a discrepancy), never a traceback.
"""

from __future__ import annotations

import os

# gRPC's own log lines would follow our one-line errors (a port in use is
# also reported by the C core); GRPC_VERBOSITY=ERROR (or DEBUG) brings them
# back. Set before grpc starts.
os.environ.setdefault("GRPC_VERBOSITY", "NONE")

import argparse
import sys
from collections.abc import Sequence
from importlib import metadata
from types import ModuleType
from typing import Any

from cardroom.cli import (
    audit,
    bot,
    demo,
    export,
    games,
    heads,
    health,
    invite,
    key,
    new,
    play,
    ratings,
    relay,
    replay,
    serve,
    simulate,
    tournament,
    watch,
)
from cardroom.cli.common import EXIT_USAGE, UsageError
from cardroom.client import CardroomError
from cardroom.client.printable import printable

# The name on the package index (`pip install cardroom-games`); the import
# name stays `cardroom`. `cardroom` itself on PyPI is an unrelated project.
DISTRIBUTION = "cardroom-games"

COMMANDS: tuple[ModuleType | Any, ...] = (
    play,
    watch,
    replay,
    games,
    new,
    invite.Invite,
    invite.Accept,
    invite.AddBot,
    bot,
    simulate,
    ratings,
    tournament,
    serve,
    relay,
    demo,
    export,
    audit,
    heads,
    key,
    health,
)


def version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a bare checkout
        return "unknown"


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="cardroom",
        description="Event-sourced hidden-information card games over gRPC. "
        "`cardroom COMMAND --help` describes each command.",
    )
    top.add_argument("--version", action="version", version=f"cardroom {version()}")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS:
        sub = commands.add_parser(
            module.NAME,
            help=module.HELP,
            description=getattr(module, "DESCRIPTION", None) or (module.__doc__ or "").strip(),
        )
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return top


# What each extra brings (pyproject.toml): a command that needs one that is
# not installed says which, in one line.
EXTRAS = {
    "server": (
        "grpc_reflection",
        "eventsourcing",
        "psycopg",
        "prometheus_client",
        "connectrpc",
        "uvicorn",
        "starlette",
        "nats",
    ),
    "tui": ("textual",),
}


def missing_extra(error: ModuleNotFoundError) -> str | None:
    top = (error.name or "").partition(".")[0]
    return next((extra for extra, modules in EXTRAS.items() if top in modules), None)


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except ModuleNotFoundError as error:
        extra = missing_extra(error)
        if extra is None:
            raise
        install = f"pip install '{DISTRIBUTION}[{extra}]'"
        print(f"cardroom {args.command} needs the {extra} extra: {install}", file=sys.stderr)
        return EXIT_USAGE
    except UsageError as error:
        print(f"cardroom {args.command}: {printable(str(error))}", file=sys.stderr)
        return EXIT_USAGE
    except CardroomError as error:
        said = printable(f"{error.code.name}: {error.details}")
        print(f"cardroom {args.command}: {said}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`cardroom watch --plain ID | head`)
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - nothing more is written
        return 0
