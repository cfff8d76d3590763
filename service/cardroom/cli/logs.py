"""What `cardroom serve` and `cardroom relay` log: the lifecycle and
problems at INFO and WARNING, and the per-call access log (one JSON line a
call, logger ``cardroom.calls``) only when asked for, as web servers do: a
person's session is thousands of calls, and an operator asks for them when
they feed a log pipeline (docs/operations.md, "Observability")."""

from __future__ import annotations

import argparse
import logging
import os

ACCESS_LOG = "cardroom.calls"
TRUE = {"1", "true", "yes", "on"}


def add_access_log_flag(parser: argparse.ArgumentParser, variable: str) -> None:
    parser.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=os.environ.get(variable, "").strip().lower() in TRUE,
        help=f"log one JSON line per call on the {ACCESS_LOG} logger (env {variable}=1; "
        "default off: only the start, the stop and problems are logged)",
    )


def configure(access_log: bool) -> None:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger(ACCESS_LOG).setLevel(logging.INFO if access_log else logging.WARNING)
