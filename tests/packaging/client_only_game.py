"""A whole game through ``cardroom.client``, as a frontend developer would
write it. test_client_only_install runs it with a fresh venv's Python that
has only ``pip install cardroom-games``; it prints what a spectator reads.

    python client_only_game.py HOST:PORT
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

import cardroom.client
from cardroom.client import Client, RuleBroken
from cardroom.client.feed import NarratedEvent

NAMES = ("Ada", "Bo", "Cy")


async def play(address: str) -> None:
    async with Client.connect(address) as client:
        game_id = await client.create_game("smoke-and-mirrors", seat_count=len(NAMES))
        seats = [await client.join(game_id, name) for name in NAMES]
        await client.start(game_id, seats[0].token)

        async def spectate() -> list[NarratedEvent]:
            return [event async for event in client.story(game_id)]

        spectator = asyncio.create_task(spectate())
        rng = random.Random(7)
        for _ in range(5_000):
            moved = False
            for seat in seats:
                actions = await client.legal_actions(game_id, seat.token)
                if actions:
                    try:
                        await client.act(game_id, seat.token, rng.choice(actions))
                        moved = True
                    except RuleBroken:
                        pass  # another seat's move came first
            if not moved and (await client.view(game_id)).table.finished:
                break
        for event in await spectator:
            print(f"#{event.sequence} {event}")
        view = await client.view(game_id)
        print(f"finished={view.table.finished} winners={list(view.table.winners)}")


if __name__ == "__main__":
    # The installed copy, not a checkout's folders.
    print(f"client={Path(cardroom.client.__file__).resolve()}")
    asyncio.run(play(sys.argv[1]))
