"""The ``cardroom`` command: ``serve`` runs the server, ``demo`` plays bots.

Settings come from flags, else environment variables (CARDROOM_ADDRESS,
CARDROOM_DATABASE, CARDROOM_OPERATOR_TOKEN), else the defaults.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence

from service.server import Settings, serve


def _settings(args: argparse.Namespace) -> Settings:
    return Settings(
        address=args.address,
        database=args.database,
        operator_token=args.operator_token,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cardroom", description=__doc__)
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

    demo_cmd = commands.add_parser("demo", help="bots play one game; print a spectator's feed")
    demo_cmd.add_argument("--game", default="smoke-and-mirrors", help="game kind")
    demo_cmd.add_argument("--seats", type=int, default=None, help="number of bots")
    demo_cmd.add_argument(
        "--address", default=None, help="use the server at HOST:PORT instead of starting one"
    )
    demo_cmd.add_argument("--seed", type=int, default=None, help="seed the bots' choices")
    demo_cmd.add_argument("--quiet", action="store_true", help="print only the summary")

    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if args.command == "serve":
        try:
            asyncio.run(serve(_settings(args)))
        except KeyboardInterrupt:
            pass
        return 0
    from service.demo import run_demo

    return asyncio.run(
        run_demo(args.game, args.seats, args.address, seed=args.seed, quiet=args.quiet)
    )


if __name__ == "__main__":
    sys.exit(main())
