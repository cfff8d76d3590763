"""A client that leaves while its stream is written is not a server error:
grpc.aio's "ExecuteBatchError raised in core by servicer method [...]"
traceback (grpc/grpc#32551) becomes one DEBUG line in `cardroom serve`'s log."""

from __future__ import annotations

import logging

import pytest

from cardroom.cli import logs


def grpc_record(message: str) -> logging.LogRecord:
    try:
        raise RuntimeError('Failed "execute_batch": (SendMessageOperation,)')
    except RuntimeError as error:
        return logging.LogRecord(
            logs.GRPC_LOGGER, logging.ERROR, "server.pyx.pxi", 1, message, None,
            (type(error), error, error.__traceback__),
        )  # fmt: skip


def test_a_client_leaving_mid_stream_is_not_logged_as_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    logs.configure(access_log=False)
    gone = grpc_record(
        "ExecuteBatchError raised in core by servicer method [/cardroom.v1.GameService/WatchEvents]"
    )
    with caplog.at_level(logging.DEBUG):
        logging.getLogger(logs.GRPC_LOGGER).handle(gone)
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.DEBUG, "a client left during /cardroom.v1.GameService/WatchEvents")
    ]


def test_other_grpc_errors_are_still_logged(caplog: pytest.LogCaptureFixture) -> None:
    logs.configure(access_log=False)
    other = grpc_record("Unexpected [KeyError] raised by servicer method [/x/Y]")
    with caplog.at_level(logging.DEBUG):
        logging.getLogger(logs.GRPC_LOGGER).handle(other)
    assert [r.levelno for r in caplog.records] == [logging.ERROR]
