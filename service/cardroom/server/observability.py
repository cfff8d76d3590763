"""What an operator sees of a running server: Prometheus metrics and one
structured log line per call (docs/operations.md).

Every call goes through :class:`CallInterceptor`, which times it, counts it by
method and status code, and logs ``method``, ``code``, ``duration_ms`` and the
request's ``game_id`` as one JSON line. Tokens travel in metadata, which is
never logged. The metrics live in a registry of the server's own, so several
servers in one process (the tests) do not collide.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

log = logging.getLogger("cardroom.calls")

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.rpc_seconds = Histogram(
            "cardroom_rpc_seconds",
            "gRPC call latency (streams: until the stream ends)",
            ["method", "code"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.commands = Counter(
            "cardroom_commands",
            "Commands submitted, by game kind and status code",
            ["kind", "code"],
            registry=self.registry,
        )
        self.live_watchers = Gauge(
            "cardroom_live_watchers",
            "Open WatchEvents and ReplayViews streams",
            registry=self.registry,
        )
        self.games_in_memory = Gauge(
            "cardroom_games_in_memory", "Games held in the cache", registry=self.registry
        )
        self.store_append_seconds = Histogram(
            "cardroom_store_append_seconds",
            "Time to append one command's events to the store",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.store_up = Gauge(
            "cardroom_store_up",
            "1 while the store answers, 0 while it fails",
            registry=self.registry,
        )
        self.store_up.set(1)
        self.port = 0  # where /metrics is served, once it is

    def watch_broker(self, broker: Any) -> None:
        """The broker's gauges (only a process with a broker has them)."""
        up = Gauge(
            "cardroom_broker_up",
            "1 while the broker (NATS) answers, 0 while it does not",
            registry=self.registry,
        )
        up.set_function(lambda: 1 if broker.up else 0)
        published = Gauge(
            "cardroom_broker_published",
            "Live copies published to the broker since the start",
            registry=self.registry,
        )
        published.set_function(lambda: broker.published)
        dropped = Gauge(
            "cardroom_broker_dropped",
            "Live copies not published because the broker was unreachable (relays read "
            "them from the store instead)",
            registry=self.registry,
        )
        dropped.set_function(lambda: broker.dropped)

    def serve(self, address: str) -> Callable[[], None]:
        """Expose /metrics on HOST:PORT; returns the function that stops it."""
        host, _, port = address.rpartition(":")
        server, thread = start_http_server(
            int(port), addr=host.strip("[]") or "127.0.0.1", registry=self.registry
        )
        self.port = server.server_port

        def stop() -> None:
            server.shutdown()
            server.server_close()
            thread.join(timeout=5)

        return stop


def _code(context: grpc.aio.ServicerContext, error: BaseException | None) -> grpc.StatusCode:
    # A cancelled call's context may already be gone: do not ask it.
    if isinstance(error, (asyncio.CancelledError, GeneratorExit)):
        return grpc.StatusCode.CANCELLED
    code = context.code()
    if isinstance(code, grpc.StatusCode):
        return code
    return grpc.StatusCode.UNKNOWN if error is not None else grpc.StatusCode.OK


class CallInterceptor(grpc.aio.ServerInterceptor):
    """Times, counts and logs every unary and server-streaming call."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def _finish(
        self,
        method: str,
        request: Any,
        context: grpc.aio.ServicerContext,
        peer: str,
        start: float,
        error: BaseException | None,
    ) -> None:
        seconds = time.perf_counter() - start
        code = _code(context, error)
        name = method.rsplit("/", 1)[-1]
        self.metrics.rpc_seconds.labels(name, code.name).observe(seconds)
        if not log.isEnabledFor(logging.INFO):
            return  # the access log is opt-in (--access-log): build no line for nobody
        line = {
            "method": name,
            "code": code.name,
            "duration_ms": round(seconds * 1000, 3),
            "game_id": str(getattr(request, "game_id", ""))[:64],
            "peer": peer[:64],
        }
        log.info(json.dumps(line, separators=(",", ":")))

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Any],
        details: grpc.HandlerCallDetails,
    ) -> Any:
        handler = await continuation(details)
        if handler is None or handler.request_streaming:
            return handler
        method = details.method
        finish = self._finish
        if handler.response_streaming:
            inner_stream = handler.unary_stream

            async def stream(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
                # The peer is read now: once a call is over, its context may not be asked.
                peer, start, error = context.peer(), time.perf_counter(), None
                try:
                    result = inner_stream(request, context)
                    if inspect.isasyncgen(result):
                        async for item in result:
                            yield item
                    else:
                        await result
                except BaseException as caught:
                    error = caught
                    raise
                finally:
                    finish(method, request, context, peer, start, error)

            return grpc.unary_stream_rpc_method_handler(
                stream, handler.request_deserializer, handler.response_serializer
            )
        inner = handler.unary_unary

        async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            peer, start, error = context.peer(), time.perf_counter(), None
            try:
                return await inner(request, context)
            except BaseException as caught:
                error = caught
                raise
            finally:
                finish(method, request, context, peer, start, error)

        return grpc.unary_unary_rpc_method_handler(
            unary, handler.request_deserializer, handler.response_serializer
        )
