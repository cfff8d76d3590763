"""The same-run baseline for every RPC: grpc.health.v1 ``Check`` on the same
server process (a call that does no work), timed call by call."""

from __future__ import annotations

import time

from grpc_health.v1 import health_pb2, health_pb2_grpc

from bench import load

WARMUP_CALLS = 50


async def check_samples(address: str, calls: int) -> list[float]:
    """Seconds of each of ``calls`` sequential Check calls, after a warm-up."""
    async with load.channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        request = health_pb2.HealthCheckRequest()
        for _ in range(WARMUP_CALLS):
            await stub.Check(request)
        samples = []
        for _ in range(calls):
            started = time.monotonic()
            await stub.Check(request)
            samples.append(time.monotonic() - started)
        return samples
