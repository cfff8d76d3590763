"""The search bot on the client side: information-set Monte Carlo tree
search (``cardroom.domain.search``) from the bot's own seat.

The bot holds its seat's token and nothing else. It searches from its own
fold, the state its seat's redacted feed folds into (the same events the
server sends it, told by its :class:`~cardroom.client.feed.Feed`), so it can
no more see a hidden card than a person in that seat. The search runs in a
worker process (a shared :class:`~concurrent.futures.ProcessPoolExecutor`),
so the bot's event loop, and any table it shares a process with, is never
held up while it thinks; the worker stops between rollouts once
``think_ms`` have passed (or ``iterations`` are done).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from google.protobuf.message import Message

from cardroom.client.bots import DEFAULT_THINK_MS
from cardroom.domain import registry
from cardroom.domain.presentation import strategy
from cardroom.domain.search.ismcts import (
    Search,
    Settings,
    determinizer,
    random_policy,
    strategy_policies,
)

# An upper bound: the clock ends a search first on any machine we know.
MAX_ITERATIONS = 100_000
# Added to the worker processes' niceness (lower CPU priority).
WORKER_NICENESS = 10

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def _lower_priority() -> None:
    """In each worker: think at a lower CPU priority (where there is one)."""
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)


def pool() -> ProcessPoolExecutor:
    """The worker processes every search bot of this process shares (as
    many as there are cores; started on first use)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            # spawn, not fork: the parent runs gRPC threads and an event loop.
            context = multiprocessing.get_context("spawn")
            # Niced: the process that thinks yields the cores to the one
            # that serves (a server's event loop, a terminal table).
            _pool = ProcessPoolExecutor(
                max_workers=os.cpu_count() or 1,
                mp_context=context,
                initializer=_lower_priority,
            )
        return _pool


@cache
def searcher(kind: str) -> Search:
    """The search for one game, in a worker process (built once)."""
    game, det = registry.game(kind), determinizer(kind)
    if det is None:
        raise ValueError(f"{kind} has no determinizer (cardroom.domain.<game>.determinize)")
    heuristic = strategy(kind)
    if heuristic is None:
        return Search(game, det, Settings(), random_policy)
    return Search(game, det, Settings(), *strategy_policies(game, heuristic, det))


def think(
    kind: str, fold: Any, seat: int, seats: int, seed: int, think_ms: int, iterations: int
) -> tuple[Message, int]:
    """One move, in a worker process: the search from ``fold`` until the
    clock or the iterations run out. The clock is read here, outside the
    pure search, which only asks ``stop`` between rollouts."""
    deadline = time.monotonic() + think_ms / 1000
    search = searcher(kind)
    search.settings = Settings(iterations=iterations)
    result = search.choose(
        fold, seat, random.Random(seed), stop=lambda: time.monotonic() >= deadline, seats=seats
    )
    return result.move, result.iterations


@dataclass(frozen=True)
class SearchBot:
    """What a runner needs to play a seat by search."""

    kind: str
    think_ms: int = DEFAULT_THINK_MS
    iterations: int = MAX_ITERATIONS
    # Runs ``think`` with its arguments in a worker process: by default the
    # shared pool at once; a server gives each client's bots a fair share
    # of it instead (cardroom.server.table.bots).
    run: Callable[..., Awaitable[tuple[Message, int]]] | None = field(default=None, compare=False)

    @property
    def label(self) -> str:
        return f"search bot ({self.think_ms} ms)"

    async def choose(
        self, fold: Any, seat: int, seats: int, legal: list[Message], rng: random.Random
    ) -> Message:
        """One of ``legal`` for ``seat``, from its own fold, thought out in a
        worker process. The seed comes from ``rng``, so a seeded bot plays
        the same game again."""
        if len(legal) == 1:
            return legal[0]
        seed = rng.getrandbits(64)
        args = (self.kind, fold, seat, seats, seed, self.think_ms, self.iterations)
        if self.run is not None:
            move, _ = await self.run(think, *args)
        else:
            move, _ = await asyncio.get_running_loop().run_in_executor(pool(), think, *args)
        # The server's legal actions are the word; the search reads the same
        # fold, so this holds unless the bot is behind (it then looks again).
        return move if move in legal else legal[rng.randrange(len(legal))]
