"""A gRPC watcher whose process is killed while its stream waits for the
next event stops counting as a watcher at once, not at the next event
(issue 20, item 6)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from cardroom.client import Client
from cardroom.server.server import Settings, start
from tests.bounded import steps
from tests.service.helpers import seated_game

WATCHER = r"""
import sys, time, grpc
from cardroom.v1 import game_service_pb2 as gpb, game_service_pb2_grpc as rpc
channel = grpc.insecure_channel(sys.argv[1])
request = gpb.WatchEventsRequest(game_id=sys.argv[2], as_spectator=True)
call = rpc.GameServiceStub(channel).WatchEvents(request)  # opened, never read
print("watching", flush=True)
time.sleep(600)
"""


async def test_a_killed_watcher_of_an_idle_game_frees_its_slot(tmp_path: Path) -> None:
    server = await start(
        Settings(address="127.0.0.1:0", database=str(tmp_path / "cardroom.sqlite3"))
    )
    try:
        assert server.servicer is not None
        client = Client.connect(f"127.0.0.1:{server.port}")
        table = await seated_game(client)  # running, and nobody moves
        watcher = subprocess.Popen(
            [sys.executable, "-c", WATCHER, f"127.0.0.1:{server.port}", table.game_id],
            stdout=subprocess.PIPE,
        )
        try:
            assert watcher.stdout is not None
            assert await asyncio.to_thread(watcher.stdout.readline) == b"watching\n"
            for _ in steps(3000, "the watcher to be counted"):
                if server.servicer.watchers == 1:
                    break
                await asyncio.sleep(0.01)
        finally:
            watcher.kill()
            watcher.wait()
        for _ in steps(3000, "the killed watcher to be freed"):
            if server.servicer.watchers == 0:
                break
            await asyncio.sleep(0.01)
        await client.close()
    finally:
        await server.stop(grace=None)
