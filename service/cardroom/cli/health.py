"""``cardroom health``: ask a server's standard ``grpc.health.v1`` service
whether it serves (exit 0), does not (1), or cannot be reached (2). The
Docker image's HEALTHCHECK runs it."""

from __future__ import annotations

import argparse
import asyncio

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from cardroom.cli.common import EXIT_DISCREPANCY, EXIT_OK, UsageError, add_server_flags, connect

NAME = "health"
HELP = "check whether a server is serving (grpc.health.v1)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_server_flags(parser)
    parser.add_argument(
        "--service",
        default="",
        help="the service to ask about (default: the whole server)",
    )
    parser.add_argument(
        "--timeout", type=float, default=5.0, metavar="SECONDS", help="default %(default)s"
    )


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_check(args))


async def _check(args: argparse.Namespace) -> int:
    async with connect(args) as client:
        stub = health_pb2_grpc.HealthStub(client.channel)
        try:
            response = await stub.Check(
                health_pb2.HealthCheckRequest(service=args.service), timeout=args.timeout
            )
        except grpc.aio.AioRpcError as error:
            raise UsageError(f"{args.address}: {error.code().name}: {error.details()}") from None
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)
    print(status)
    return (
        EXIT_OK if response.status == health_pb2.HealthCheckResponse.SERVING else EXIT_DISCREPANCY
    )
