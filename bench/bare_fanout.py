"""The floor under the spectators row: bare grpc.aio fanning out the same bytes.

A separate process (``python -m bench.bare_fanout``) serves only
``GameService/WatchEvents`` and one ``Publish`` call, with nothing of
cardroom behind them: no store, no rules, no redaction, no interceptor. A
published batch of events is appended to a list, already serialized, and
every stream yields the new ones, the way grpc.aio's own streaming examples
do. The benchmark replays a real game's spectator events through it, one
command's events per ``Publish``, to the same watcher processes, so the
ratio to it says how much of a delivery's time is cardroom's and how much
is the cost of gRPC on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

import grpc

from cardroom.v1 import game_service_pb2 as gpb

WATCH = "/cardroom.v1.GameService/WatchEvents"
PUBLISH = "/cardroom.bench.BareFanout/Publish"


def _same(data: bytes) -> bytes:
    return data


class Fanout:
    """Serialized responses and the streams waiting for more."""

    def __init__(self) -> None:
        self.responses: list[bytes] = []
        self.grew = asyncio.Condition()

    async def publish(self, request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        batch = gpb.GetAuditLogResponse.FromString(request)
        self.responses.extend(
            gpb.WatchEventsResponse(event=event).SerializeToString() for event in batch.events
        )
        async with self.grew:
            self.grew.notify_all()
        return b""

    async def watch(self, request: gpb.WatchEventsRequest, context: grpc.aio.ServicerContext):  # type: ignore[no-untyped-def]
        cursor = request.after_sequence  # sequences start at 1, one per response
        while True:
            while cursor < len(self.responses):
                cursor += 1
                yield self.responses[cursor - 1]
            async with self.grew:
                while cursor >= len(self.responses):
                    await self.grew.wait()


async def serve(address: str) -> None:
    fanout = Fanout()
    handlers = grpc.method_handlers_generic_handler(
        "cardroom.v1.GameService",
        {
            "WatchEvents": grpc.unary_stream_rpc_method_handler(
                fanout.watch, gpb.WatchEventsRequest.FromString, _same
            )
        },
    )
    publish = grpc.method_handlers_generic_handler(
        "cardroom.bench.BareFanout",
        {"Publish": grpc.unary_unary_rpc_method_handler(fanout.publish, _same, _same)},
    )
    # The same per-connection stream limit as cardroom serve.
    server = grpc.aio.server(options=[("grpc.max_concurrent_streams", 100)])
    server.add_generic_rpc_handlers([handlers, publish])
    port = server.add_insecure_port(address)
    await server.start()
    print(f"listening on 127.0.0.1:{port}", flush=True)
    await server.wait_for_termination()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--address", default="127.0.0.1:0")
    args = parser.parse_args(argv)
    try:
        asyncio.run(serve(args.address))
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()
