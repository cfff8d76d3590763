"""Draw every picture in the docs from the real screens, on a temporary
server of its own, in one command:

    .venv/bin/python scripts/screenshots.py            # all of them
    .venv/bin/python scripts/screenshots.py --terminal # only the terminal's

* docs/images/play.svg: `cardroom play`, a seat at Smoke & Mirrors with two
  bots, a few turns in (Textual's own SVG export of the screen);
* docs/images/watch.svg: `cardroom watch`, a spectator of a Smiles & Daggers
  game between four bots, at a challenge with bets on it;
* docs/images/web-table.png (1280x900), web-table-phone.png (390x844) and
  web-table-after-the-end.png (1280x900): the web table served by that
  server, a seat of Smiles & Daggers in Chromium (/usr/bin/chromium, or
  $CARDROOM_CHROMIUM), driven by playwright-core from clients/node_modules
  (`python3 -c "import dev; dev.node_packages()"` installs it).

Bots play with fixed seeds, so the pictures change only when the screens do.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from cardroom.client import Client
from cardroom.client.bots.runner import play_bots, seat_bots
from cardroom.domain.presentation import strategy
from cardroom.server.api.server import Settings, start
from cardroom.tui.play import PlayApp
from cardroom.tui.watch import WatchApp

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
CLIENTS = ROOT / "clients"
SIZE = (132, 34)
STEPS = 2_000

# Chromium, driven by playwright-core (as the web tests drive it): one page
# per shot, the seat kept in localStorage as the page itself keeps it.
BROWSER = r"""
import { createRequire } from "node:module";
const require = createRequire(process.env.CARDROOM_CLIENTS + "/package.json");
const { chromium } = require("playwright-core");
const job = JSON.parse(await new Promise((done) => {
  let text = "";
  process.stdin.on("data", (chunk) => (text += chunk)).on("end", () => done(text));
}));
const browser = await chromium.launch({
  executablePath: job.chromium, headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
try {
  for (const shot of job.shots) {
    const phone = shot.width < 600;
    const context = await browser.newContext({
      viewport: { width: shot.width, height: shot.height }, isMobile: phone, hasTouch: phone,
    });
    await context.addInitScript((kept) => {
      for (const [key, value] of Object.entries(kept)) localStorage.setItem(key, value);
    }, job.storage);
    const page = await context.newPage();
    page.setDefaultTimeout(60000);
    await page.goto(`${job.url}/#${shot.hash}`);
    await page.waitForSelector(shot.ready);
    await page.waitForTimeout(300); // the cards' drawing settles
    await page.screenshot({ path: shot.path, fullPage: shot.fullPage });
    await context.close();
  }
} finally {
  await browser.close();
}
"""


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


def browse(url: str, storage: dict[str, str], shots: list[dict[str, object]]) -> None:
    """Take ``shots`` of the web table at ``url`` in headless Chromium."""
    node = shutil.which("node")
    if node is None or not (CLIENTS / "node_modules" / "playwright-core").is_dir():
        raise SystemExit(
            "the web table's pictures need Node.js and clients/node_modules: "
            'python3 -c "import dev; dev.node_packages()"'
        )
    job = {
        "url": url,
        "storage": storage,
        "shots": shots,
        "chromium": os.environ.get("CARDROOM_CHROMIUM", "/usr/bin/chromium"),
    }
    subprocess.run(
        [node, "--input-type=module", "-e", BROWSER],
        input=json.dumps(job),
        text=True,
        check=True,
        env={**os.environ, "CARDROOM_CLIENTS": str(CLIENTS)},
        timeout=300,
    )


async def web_pictures(web: str, client: Client) -> None:
    """A seat of Smiles & Daggers (Ada) against two bots: at her move a few
    turns in (1280x900, and a phone at 390x844), and after the end."""
    kind = "smiles-and-daggers"
    game_id = await client.create_game(kind, seat_count=3)
    me = await client.join(game_id, "Ada")
    bots = await seat_bots(client, game_id, 2, "heuristic")
    judge, rng = strategy(kind), random.Random(5)
    assert judge is not None
    playing = asyncio.create_task(play_bots(client, game_id, kind, bots, seed=5))
    kept = {
        "gameId": game_id,
        "token": me.token,
        "name": "Ada",
        "seat": me.seat,
        "savedAt": 0,
    }
    storage = {f"cardroom.seat.{game_id}": json.dumps(kept)}

    async def my_move() -> bool:
        """Wait for Ada's move (False once the game is over)."""
        for _ in range(STEPS):
            view = await client.view(game_id, me.token)
            if view.table.finished:
                return False
            if not view.table.started:
                await client.start(game_id, me.token)
            elif await client.legal_actions(game_id, me.token):
                return True
            await asyncio.sleep(0.05)
        raise TimeoutError("Ada's move never came")

    moves = 0
    while await my_move():
        if moves == 6:
            shots = [
                {"hash": f"/play/{game_id}", "width": w, "height": h, "fullPage": False}
                for w, h in ((1280, 900), (390, 844))
            ]
            paths = ("web-table.png", "web-table-phone.png")
            for shot, path in zip(shots, paths, strict=True):
                shot |= {"path": str(IMAGES / path), "ready": '[data-state="your-turn"]'}
            await asyncio.to_thread(browse, web, storage, shots)
        view = await client.view(game_id, me.token)
        legal = await client.legal_actions(game_id, me.token)
        await client.act(game_id, me.token, judge.choose(view.game, legal, me.seat, rng))
        moves += 1
    await playing
    end = {
        "hash": f"/play/{game_id}",
        "width": 1280,
        "height": 900,
        "fullPage": False,
        "path": str(IMAGES / "web-table-after-the-end.png"),
        "ready": '[data-state="over"]',
    }
    await asyncio.to_thread(browse, web, storage, [end])


async def main(terminal_only: bool) -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        server = await start(
            Settings(
                address="127.0.0.1:0",
                database=str(Path(folder) / "pictures.sqlite3"),
                signing_key=str(Path(folder) / "key.pem"),
                web_address=None if terminal_only else "127.0.0.1:0",
            )
        )
        address = f"127.0.0.1:{server.port}"
        try:
            async with Client.connect(address) as client:
                await play_picture(address, client)
                await watch_picture(address, client)
                if server.web is not None:
                    await web_pictures(f"http://127.0.0.1:{server.web.port}", client)
        finally:
            await server.stop(grace=None)
    drawn = ["play.svg", "watch.svg"]
    if not terminal_only:
        drawn += ["web-table.png", "web-table-phone.png", "web-table-after-the-end.png"]
    print("wrote " + ", ".join(str(IMAGES / name) for name in drawn))


if __name__ == "__main__":
    flags = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    flags.add_argument("--terminal", action="store_true", help="only the terminal's pictures")
    asyncio.run(main(flags.parse_args().terminal))
