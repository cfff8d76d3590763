"""Draw the README's pictures of the terminal table from real games on a
temporary server: docs/images/play.svg (`cardroom play`, a seat at Smoke &
Mirrors with two bots) and docs/images/watch.svg (`cardroom watch`, a
spectator of a Smiles & Daggers game between four bots).

    .venv/bin/python scripts/screenshots.py
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

from cardroom.client import Client
from cardroom.client.bots.runner import play_bots, seat_bots
from cardroom.domain.presentation import strategy
from cardroom.server.api.server import Settings, start
from cardroom.tui.play import PlayApp
from cardroom.tui.watch import WatchApp

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
SIZE = (132, 34)
STEPS = 2_000


async def play_picture(address: str, client: Client) -> None:
    kind = "smoke-and-mirrors"
    game_id = await client.create_game(kind, seat_count=3)
    me = await client.join(game_id, "Ada")
    bots = await seat_bots(client, game_id, 2, "heuristic")
    app = PlayApp(
        lambda: Client.connect(address),
        game_id,
        token=me.token,
        seat=me.seat,
        bots=bots,
        kind=kind,
        seed=4,
    )
    judge, rng = strategy(kind), random.Random(4)
    assert judge is not None
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(6):  # Ada plays sensibly for a few turns
            await asyncio.wait_for(app.moves_ready.wait(), 60)
            assert app.view is not None
            choice = judge.choose(app.view.game, app.actions, me.seat, rng)
            await pilot.press(str(min(9, app.actions.index(choice) + 1)))
        await asyncio.wait_for(app.moves_ready.wait(), 60)
        await pilot.pause()
        app.save_screenshot(filename="play.svg", path=str(IMAGES))


async def watch_picture(address: str, client: Client) -> None:
    kind = "smiles-and-daggers"
    game_id = await client.create_game(kind, seat_count=4)
    bots = await seat_bots(client, game_id, 4, "heuristic")
    app = WatchApp(lambda: Client.connect(address), game_id)
    async with app.run_test(size=SIZE) as pilot:
        playing = asyncio.create_task(play_bots(client, game_id, kind, bots, seed=2))
        for _ in range(STEPS):  # a picture of a later challenge, with bets on it
            await pilot.pause(0.01)
            game = app.view.game if app.view is not None else None
            if app.version >= 60 and game is not None and game.challenge.bets:  # type: ignore[attr-defined]
                break
        app.save_screenshot(filename="watch.svg", path=str(IMAGES))
        await playing


async def main() -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        server = await start(
            Settings(
                address="127.0.0.1:0",
                database=str(Path(folder) / "pictures.sqlite3"),
                signing_key=str(Path(folder) / "key.pem"),
            )
        )
        address = f"127.0.0.1:{server.port}"
        try:
            async with Client.connect(address) as client:
                await play_picture(address, client)
                await watch_picture(address, client)
        finally:
            await server.stop(grace=None)
    print(f"wrote {IMAGES / 'play.svg'} and {IMAGES / 'watch.svg'}")


if __name__ == "__main__":
    asyncio.run(main())
