"""One table from domain and service errors to gRPC status codes."""

from __future__ import annotations

import grpc

from domain.kernel import Forbidden, MalformedCommand, RuleViolation
from service.games import (
    CorruptGame,
    ExpectedVersionMismatch,
    GameNotFound,
    PermissionDenied,
    Unauthenticated,
)
from service.store import VersionConflict

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
)


def status_of(error: BaseException) -> tuple[grpc.StatusCode, str] | None:
    """The status and message for a known error; None for a bug."""
    for kind, code in STATUS_BY_ERROR:
        if isinstance(error, kind):
            if isinstance(error, RuleViolation):
                return code, f"rule {error.rule}: {error.message}"
            if isinstance(error, VersionConflict):
                return code, "another command changed the game first; reload and retry"
            return code, str(error)
    return None
