"""The client's errors: one class per status code the server uses, so
callers catch ``RuleBroken`` rather than inspect codes (docs/design.md, the
error table)."""

from __future__ import annotations

import grpc


class CardroomError(Exception):
    code: grpc.StatusCode = grpc.StatusCode.UNKNOWN

    def __init__(self, details: str) -> None:
        super().__init__(details)
        self.details = details


class InvalidArgument(CardroomError):
    code = grpc.StatusCode.INVALID_ARGUMENT


class RuleBroken(CardroomError):
    """The rules refuse the command; the message names the rule."""

    code = grpc.StatusCode.FAILED_PRECONDITION


class Unauthenticated(CardroomError):
    code = grpc.StatusCode.UNAUTHENTICATED


class PermissionDenied(CardroomError):
    code = grpc.StatusCode.PERMISSION_DENIED


class GameNotFound(CardroomError):
    code = grpc.StatusCode.NOT_FOUND


class Conflict(CardroomError):
    """Another command changed the game first (ABORTED): reload and retry."""

    code = grpc.StatusCode.ABORTED


class DataLoss(CardroomError):
    """The game's stored events were changed outside the server (DATA_LOSS)."""

    code = grpc.StatusCode.DATA_LOSS


_ERRORS = {
    cls.code: cls
    for cls in (
        InvalidArgument,
        RuleBroken,
        Unauthenticated,
        PermissionDenied,
        GameNotFound,
        Conflict,
        DataLoss,
    )
}


def error_from(rpc_error: grpc.aio.AioRpcError) -> CardroomError:
    cls = _ERRORS.get(rpc_error.code(), CardroomError)
    error = cls(rpc_error.details() or "")
    error.code = rpc_error.code()
    return error
