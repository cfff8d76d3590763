"""Load-generating worker processes, and the gRPC channels they use.

A client in the server's own process would share its event loop and GIL and
hide what the server really costs, and one client process cannot load a
server the way many users do. So every concurrent load runs in worker
processes (``multiprocessing`` with *spawn*: a fresh interpreter, never a
fork of a process that already runs gRPC), each with its own event loop.

A job is ``async def job(link: Link, **kwargs) -> result``; it may exchange
messages with the parent through ``link`` while it runs (progress, "stop"),
and its return value goes back to the parent. Timestamps compared across
processes come from ``time.monotonic()``: on Linux that is CLOCK_MONOTONIC,
one clock for the whole machine, so a watcher's arrival time and the
writer's start time can be subtracted.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import traceback
from collections.abc import Callable, Coroutine
from multiprocessing.connection import Connection
from typing import Any

import grpc

from cardroom.client import MAX_MESSAGE_BYTES, Client

RESULT = "result"
ERROR = "error"
JOIN_SECONDS = 30.0


class WorkerFailed(RuntimeError):
    """A worker raised (its traceback is the message) or died."""


async def receive(conn: Connection) -> Any:
    """The next message on ``conn``, awaited without blocking the loop."""
    if not conn.poll():
        loop = asyncio.get_running_loop()
        readable = loop.create_future()
        fd = conn.fileno()

        def ready() -> None:
            if not readable.done():
                readable.set_result(None)

        loop.add_reader(fd, ready)
        try:
            await readable
        finally:
            loop.remove_reader(fd)
    try:
        return conn.recv()
    except EOFError:
        raise WorkerFailed("the other process closed its end (did it die?)") from None


class Link:
    """The worker's end: talk to the parent while the job runs."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def send(self, *message: Any) -> None:
        self.conn.send(message)

    async def receive(self) -> tuple[Any, ...]:
        message: tuple[Any, ...] = await receive(self.conn)
        return message

    def waiting(self) -> bool:
        """Whether a message from the parent is waiting."""
        return self.conn.poll()


Job = Callable[..., Coroutine[Any, Any, Any]]


def _child(job: Job, kwargs: dict[str, Any], conn: Connection) -> None:
    try:
        result: Any = asyncio.run(job(Link(conn), **kwargs))
    except BaseException:
        conn.send((ERROR, traceback.format_exc()))
    else:
        conn.send((RESULT, result))
    finally:
        conn.close()


class Worker:
    """The parent's end of one worker process."""

    def __init__(self, job: Job, **kwargs: Any) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_child, args=(job, kwargs, child), daemon=True)
        self.process.start()
        child.close()
        self.result_value: Any = None
        self.finished = False

    def send(self, *message: Any) -> None:
        self.conn.send(message)

    def _take(self, message: tuple[Any, ...]) -> tuple[Any, ...]:
        """Note the job's result or failure, which end its messages."""
        if message[0] == ERROR:
            self.finished = True
            raise WorkerFailed(message[1])
        if message[0] == RESULT:
            self.finished = True
            self.result_value = message[1]
        return message

    async def receive(self) -> tuple[Any, ...]:
        """The job's next message."""
        return self._take(await receive(self.conn))

    def pending(self) -> list[tuple[Any, ...]]:
        """Messages already waiting (without waiting for more)."""
        found = []
        while not self.finished and self.conn.poll():
            found.append(self._take(self.conn.recv()))
        return found

    async def result(self, timeout: float) -> Any:
        """The job's return value (messages not yet read are dropped)."""

        async def until_done() -> None:
            while not self.finished:
                await self.receive()

        await asyncio.wait_for(until_done(), timeout)
        self.process.join(JOIN_SECONDS)
        return self.result_value

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(JOIN_SECONDS)


async def results(workers: list[Worker], timeout: float) -> list[Any]:
    return list(await asyncio.gather(*(w.result(timeout) for w in workers)))


def kill_all(workers: list[Worker]) -> None:
    for worker in workers:
        worker.kill()


async def wind_down(tasks: list[asyncio.Task[Any]], clients: list[Client]) -> None:
    """Cancel a job's tasks and close its clients."""
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for each in clients:
        await each.close()


# ------------------------------------------------------------------ channels


# gRPC's own retries, for loads that only need the server to take the
# calls in the end (creating games): a call that fails UNAVAILABLE is sent
# again after a short backoff, up to 5 times. The server logs each failure,
# and the benchmark reports the server's warnings.
RETRY_UNAVAILABLE: dict[str, Any] = {
    "methodConfig": [
        {
            "name": [{}],
            "retryPolicy": {
                "maxAttempts": 5,
                "initialBackoff": "0.1s",
                "maxBackoff": "2s",
                "backoffMultiplier": 2,
                "retryableStatusCodes": ["UNAVAILABLE"],
            },
        }
    ]
}


def channel(
    addresses: list[str] | str, *, own_connection: bool = False, retry: bool = False
) -> grpc.aio.Channel:
    """An insecure channel to one server, or to several with client-side
    round-robin (one target listing every address). ``own_connection``
    keeps the channel off the process-wide connection pool, so each such
    channel is one more TCP connection (a server limits the calls open on
    one connection); ``retry`` retries calls that fail UNAVAILABLE."""
    options: list[tuple[str, Any]] = [("grpc.max_receive_message_length", MAX_MESSAGE_BYTES)]
    if own_connection:
        options.append(("grpc.use_local_subchannel_pool", 1))
    config: dict[str, Any] = dict(RETRY_UNAVAILABLE) if retry else {}
    if isinstance(addresses, str):
        target = addresses
    else:
        config["loadBalancingConfig"] = [{"round_robin": {}}]
        target = "ipv4:" + ",".join(addresses)
    if config:
        options.append(("grpc.service_config", json.dumps(config)))
    return grpc.aio.insecure_channel(target, options=options)


def client(
    addresses: list[str] | str, *, own_connection: bool = False, retry: bool = False
) -> Client:
    return Client(channel(addresses, own_connection=own_connection, retry=retry))
