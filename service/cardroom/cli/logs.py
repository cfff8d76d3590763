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
# grpc.aio logs this, with a traceback, at ERROR when the core cannot send a
# stream's next message or its status because the client has already gone
# (grpc/grpc#32551): a client going away, not a problem of the server's.
GRPC_LOGGER = "grpc._cython.cygrpc"
CLIENT_GONE = "ExecuteBatchError raised in core by servicer method"


class ClientGone(logging.Filter):
    """Turns grpc's "ExecuteBatchError raised in core" traceback into one
    DEBUG line: the peer left while its stream was being written."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if CLIENT_GONE not in message:
            return True
        method = message.rsplit("[", 1)[-1].rstrip("]") if "[" in message else "?"
        logging.getLogger("cardroom.server").debug("a client left during %s", method)
        return False


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
    grpc_log = logging.getLogger(GRPC_LOGGER)
    if not any(isinstance(f, ClientGone) for f in grpc_log.filters):
        grpc_log.addFilter(ClientGone())
