"""Fair shares of the server's bot turns and search workers (issue 34): one
client's bots hold at most their share, leaving the reserve to others;
waiting clients are served round-robin; a cancelled wait frees its place.
Asserted on who holds what, never on time."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from cardroom.server.table.bots import half_share
from cardroom.server.table.shares import FairShares


class Holders:
    """Tasks that each take one turn and hold it until told to let go."""

    def __init__(self, shares: FairShares) -> None:
        self.shares = shares
        self.holding: list[str] = []
        self._tasks: list[tuple[asyncio.Task[None], asyncio.Event]] = []

    def want(self, client: str) -> asyncio.Event:
        let_go = asyncio.Event()

        async def hold() -> None:
            async with self.shares.turn(client):
                self.holding.append(client)
                await let_go.wait()

        self._tasks.append((asyncio.create_task(hold()), let_go))
        return let_go

    async def close(self) -> None:
        for task, _ in self._tasks:
            task.cancel()
        for task, _ in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task


@pytest.fixture
async def holders() -> AsyncIterator[Holders]:
    found = Holders(half_share(2))  # two search workers: one client holds at most one
    yield found
    await found.close()


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_one_clients_many_bots_leave_the_reserve_to_another(holders: Holders) -> None:
    for _ in range(12):
        holders.want("attacker")
    await _settle()
    assert holders.holding == ["attacker"]  # one of two: the other is the reserve
    holders.want("victim")
    await _settle()
    assert holders.holding == ["attacker", "victim"]
    assert holders.shares.held == 2


async def test_waiting_clients_are_served_round_robin() -> None:
    holders = Holders(FairShares(1, reserve=0))
    try:
        first = holders.want("a")
        await _settle()
        later = [holders.want("a") for _ in range(3)]
        holders.want("b")
        await _settle()
        first.set()  # a's second turn would come next in a plain queue; b's comes first
        await _settle()
        assert holders.holding == ["a", "b"]
        for let_go in later:
            let_go.set()
    finally:
        await holders.close()


async def test_a_cancelled_wait_gives_its_place_back(holders: Holders) -> None:
    shares = holders.shares
    holding = holders.want("attacker")
    await _settle()

    async def wait_in_line() -> None:
        async with shares.turn("attacker"):
            raise AssertionError("granted past the client's share")

    waiting = asyncio.create_task(wait_in_line())
    await _settle()
    waiting.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await waiting
    holding.set()
    await _settle()
    assert shares.held == 0
    holders.want("victim")
    await _settle()
    assert holders.holding == ["attacker", "victim"] and shares.held == 1
