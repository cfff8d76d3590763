"""The service, the clients and the rules never use ``asyncio.wait_for``.

On Python 3.11 (the interpreter this project supports first), ``wait_for``
swallows a cancellation that arrives in the same turn of the event loop as
the thing it waits for completes (CPython gh-86296, fixed in 3.12). A loop
around it then never stops: a server bot waiting for a nudge went on waiting
after ``BotRunner.stop`` cancelled it, and stopping the server hung until
the test's 600 s timeout (CI, 2026-12-04). ``asyncio.timeout()`` honours
the cancellation. The first test shows that on this interpreter, in exactly
that race; the second holds the code to it. (The benchmarks, one-shot
harness code, may still use it.)"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["service/cardroom", "clients/cardroom", "domain/cardroom"]


def test_a_loop_waiting_under_asyncio_timeout_stops_when_cancelled_as_its_wait_ends() -> None:
    async def race() -> tuple[bool, int]:
        nudged = asyncio.Event()
        laps = 0

        async def bot() -> None:
            nonlocal laps
            while True:
                laps += 1
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(30):
                        await nudged.wait()
                nudged.clear()
                await asyncio.sleep(0)

        task = asyncio.create_task(bot())
        await asyncio.sleep(0)  # the bot waits for a nudge
        nudged.set()  # the nudge and the cancellation in the same turn
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            async with asyncio.timeout(5):
                await task
        return task.cancelled(), laps

    cancelled, laps = asyncio.run(race())
    assert cancelled and laps == 1


def test_no_package_module_uses_asyncio_wait_for() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if not path.name.endswith(("_pb2.py", "_pb2_grpc.py", "_connect.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "asyncio.wait_for(" in line and not line.lstrip().startswith("#")
    ]
    assert found == [], f"use asyncio.timeout() instead of asyncio.wait_for (gh-86296): {found}"
