"""One table from the rules' and the service's errors to gRPC status codes,
and the bound on what an error message may quote."""

from __future__ import annotations

import grpc

from cardroom.domain.kernel import Forbidden, MalformedCommand, RuleViolation
from cardroom.server.errors import (
    CorruptGame,
    ExpectedVersionMismatch,
    FellBehind,
    GameNotFound,
    PermissionDenied,
    Unauthenticated,
)
from cardroom.server.limits import TooBusy
from cardroom.server.storage.log import (
    StoreUnavailable,
    VersionConflict,
    bounded,
    is_store_busy,
    is_store_failure,
)

# A client's default limit on a status message is about 8 KiB: any longer
# and it sees RESOURCE_EXHAUSTED instead of the error.
MAX_DETAILS = 1000


STATUS_BY_ERROR: tuple[tuple[type[BaseException], grpc.StatusCode], ...] = (
    (MalformedCommand, grpc.StatusCode.INVALID_ARGUMENT),
    (RuleViolation, grpc.StatusCode.FAILED_PRECONDITION),
    (Unauthenticated, grpc.StatusCode.UNAUTHENTICATED),
    (PermissionDenied, grpc.StatusCode.PERMISSION_DENIED),
    (Forbidden, grpc.StatusCode.PERMISSION_DENIED),
    (GameNotFound, grpc.StatusCode.NOT_FOUND),
    (ExpectedVersionMismatch, grpc.StatusCode.ABORTED),
    (VersionConflict, grpc.StatusCode.ABORTED),
    (CorruptGame, grpc.StatusCode.DATA_LOSS),
    (FellBehind, grpc.StatusCode.ABORTED),
    (TooBusy, grpc.StatusCode.RESOURCE_EXHAUSTED),
    (StoreUnavailable, grpc.StatusCode.UNAVAILABLE),
)


def status_of(error: BaseException) -> tuple[grpc.StatusCode, str] | None:
    """The status and message for a known error; None for a bug."""
    if is_store_busy(error):
        return grpc.StatusCode.UNAVAILABLE, "the store is busy; try again shortly"
    if is_store_failure(error):
        return (
            grpc.StatusCode.UNAVAILABLE,
            "the store cannot be reached or read; try again later",
        )
    for kind, code in STATUS_BY_ERROR:
        if isinstance(error, kind):
            if isinstance(error, RuleViolation):
                return code, bounded(f"rule {error.rule}: {error.message}")
            if isinstance(error, VersionConflict):
                return code, "another command changed the game first; reload and retry"
            return code, bounded(str(error))
    return None
