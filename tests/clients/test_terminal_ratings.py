"""The terminal shows each seated player's rating beside their name
(docs/rules/table.md, T-RATING), as `cardroom games` does: "Ada (21.4)";
an anonymous seat stays a bare name."""

from __future__ import annotations

import re

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from textual.widgets import Static

from cardroom.client import Client
from cardroom.client.ratings import rated_name, rated_names
from cardroom.trust import players
from cardroom.tui.watch import WatchApp
from tests.bounded import steps
from tests.conftest import Served
from tests.service.helpers import bots_finish, start_unless_started

KIND = "smoke-and-mirrors"


def test_a_rating_is_written_after_the_name_and_only_for_keyed_seats() -> None:
    assert rated_name("Ada", 21.44) == "Ada (21.4)"
    assert rated_name("Ada", None) == "Ada" and rated_name("", 3.0) == ""
    ratings = {b"k" * 32: -1.25}
    names = rated_names(["Ada", "Bo", ""], [b"k" * 32, b""], ratings)
    assert names == ["Ada (-1.2)", "Bo", ""]


async def test_the_table_shows_the_seated_players_ratings(server: Served) -> None:
    client = server.client
    key = Ed25519PrivateKey.generate()
    # One rated game: Ada (keyed) and two server bots (keyed by level).
    rated = await client.create_game(KIND, seat_count=3)
    ada = await client.join(rated, "Ada", player=key)
    await client.add_bot(rated, ada.token, "random")
    await client.add_bot(rated, ada.token, "heuristic")
    await start_unless_started(client, rated, ada.token)
    await client.resign(rated, ada.token)
    await bots_finish(client, rated)
    ada_key = players.signing.public_key_bytes(key)
    (rating,) = await client.ratings(KIND, public_keys=[ada_key])

    # A new table: Ada again, an anonymous player, and the random bot.
    game_id = await client.create_game(KIND, seat_count=3)
    again = await client.join(game_id, "Ada", player=key)
    await client.join(game_id, "Bo")
    await client.add_bot(game_id, again.token, "random")
    (bot,) = [r for r in await client.ratings(KIND) if r.display_name == "random bot"]
    app = WatchApp(lambda: Client.connect(server.address), game_id)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in steps(200, "the ratings on the table"):
            await pilot.pause(0.05)
            table = str(app.query_one("#table", Static).render())
            if f"Ada ({rating.rating:.1f})" in table:
                break
        # The bot's seat name is numbered ("random bot 1"); the status line
        # may name it too (whose move it is), so look for it with its rating.
        assert re.search(rf"random bot \d* ?\({re.escape(f'{bot.rating:.1f}')}\)", table), table
        assert "Bo (" not in table and "Bo" in table
