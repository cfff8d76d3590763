"""The terminal apps, driven by Textual's own pilot against a real server:
a whole game played by pressing keys, a game watched to its end, a game
replayed back and forth, and a seat picked up again after a restart."""

from __future__ import annotations

import asyncio
import random
import re

import pytest
from google.protobuf.message import Message
from textual.widgets import RichLog, Static

from cardroom.client import Client
from cardroom.client.bots.runner import play_bots, seat_bots
from cardroom.client.entropy import new_entropy
from cardroom.domain import registry
from cardroom.smile_life.v1 import smile_life_pb2 as sl_pb
from cardroom.tui.play import PlayApp
from cardroom.tui.replay import ReplayApp
from cardroom.tui.watch import WatchApp
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN as OPERATOR
from tests.conftest import Served

KINDS = sorted(registry.games())
SIZE = (150, 45)
MAX_MOVES = 400
SM_CARD = re.compile(r"\[[★@☠][0-9M]\]")


async def first_of(*events: asyncio.Event, timeout: float = 60) -> None:
    """Wait until one of the events is set (failing after ``timeout``)."""
    waits = [asyncio.create_task(e.wait()) for e in events]
    done, pending = await asyncio.wait(waits, timeout=timeout, return_when="FIRST_COMPLETED")
    for task in pending:
        task.cancel()
    assert done, "the app did not get there"


def feed_text(app: PlayApp | WatchApp | ReplayApp) -> str:
    return "\n".join(line.text for line in app.query_one("#feed", RichLog).lines)


def shown(app: PlayApp | WatchApp | ReplayApp, widget: str) -> str:
    return str(app.query_one(widget, Static).render())


def short(kind: str) -> Message | None:
    """Options for a shorter whole game where the game has them: a Smile
    Life pile of 40 cards instead of about 180 (the screens are the same,
    the game a fifth as long)."""
    return sl_pb.Options(draw_pile_size=40) if kind == "smile-life" else None


async def new_table(server: Served, kind: str, bots: int, seed: int) -> PlayApp:
    """A new game: Ada, at the terminal, and heuristic bots."""
    game_id = await server.client.create_game(kind, seat_count=bots + 1, options=short(kind))
    me = await server.client.join(game_id, "Ada")
    seated = await seat_bots(server.client, game_id, bots, "heuristic")
    return seat_again(server, kind, game_id, me.token, me.seat, seated, seed)


def seat_again(
    server: Served, kind: str, game_id: str, token: str, seat: int, bots: tuple, seed: int
) -> PlayApp:
    connect = lambda: Client.connect(server.address)  # noqa: E731
    return PlayApp(connect, game_id, token=token, seat=seat, bots=bots, kind=kind, seed=seed)


async def press_until_over(app: PlayApp, pilot: object, rng: random.Random, moves: int) -> int:
    """Press the number of a legal move (or stop after ``moves``); the moves made."""
    made = 0
    while made < moves:
        await first_of(app.moves_ready, app.over)
        if app.over.is_set():
            break
        await pilot.press(str(rng.randint(1, min(9, len(app.actions)))))  # type: ignore[attr-defined]
        made += 1
    return made


@pytest.mark.parametrize("kind", KINDS)
async def test_a_whole_game_is_played_against_bots_by_pressing_keys(
    server: Served, kind: str
) -> None:
    app = await new_table(server, kind, 2, seed=5)
    async with app.run_test(size=SIZE) as pilot:
        made = await press_until_over(app, pilot, random.Random(5), MAX_MOVES)
        assert app.over.is_set() and made > 0
        await pilot.pause()
        assert "Game over: " in feed_text(app)
        assert "Ada (you)" in shown(app, "#table")
    assert (await server.client.view(app.game_id)).table.finished


@pytest.mark.parametrize("kind", KINDS)
async def test_a_spectator_watches_a_game_to_its_end(server: Served, kind: str) -> None:
    game_id = await server.client.create_game(kind, seat_count=3, options=short(kind))
    bots = await seat_bots(server.client, game_id, 1, "heuristic")
    bots += await seat_bots(server.client, game_id, 2, "random")  # a quicker game
    app = WatchApp(lambda: Client.connect(server.address), game_id)
    async with app.run_test(size=SIZE) as pilot:
        playing = asyncio.create_task(play_bots(server.client, game_id, kind, bots, seed=3))
        await first_of(app.over, timeout=400)  # a ceiling: Smile Life is ~1,000 events
        await playing
        await pilot.pause()
        told = feed_text(app)
        log = await server.client.audit(game_id, OPERATOR)
        assert told.startswith(f"A game of {registry.game(kind).title}")
        assert "Game over: " in told and f"version {len(log)}" in app.sub_title
        assert "(you)" not in shown(app, "#table")
        if kind == "smoke-and-mirrors":  # spectators never see a card of this game
            assert not SM_CARD.search(told + shown(app, "#table"))


async def test_a_game_is_replayed_back_and_forth_from_a_seat(server: Served) -> None:
    kind = "smoke-and-mirrors"
    game_id = await server.client.create_game(kind, seat_count=3)
    bots = await seat_bots(server.client, game_id, 3, "heuristic")
    await play_bots(server.client, game_id, kind, bots, seed=8)
    last = (await server.client.view(game_id)).version
    app = ReplayApp(lambda: Client.connect(server.address), game_id, token=bots[0].token)
    async with app.run_test(size=SIZE) as pilot:
        await first_of(app.loaded)
        assert app.current_version == last and app.seat == 0
        await pilot.press("home")
        assert app.current_version == 1
        await pilot.press("right", "right", "right")
        assert app.current_version == 4
        await pilot.press("left")
        assert app.current_version == 3
        await pilot.press("g", "1", "2", "enter")
        assert app.current_version == 12 and shown(app, "#event").startswith("#12: ")
        assert feed_text(app).count("\n") >= 11  # the feed up to version 12
        await pilot.press("end")
        assert app.current_version == last
        assert "Game over" in shown(app, "#event") and "(you)" in shown(app, "#table")


async def test_a_player_picks_up_their_seat_again_after_leaving(server: Served) -> None:
    first = await new_table(server, "smoke-and-mirrors", 2, seed=9)
    async with first.run_test(size=SIZE) as pilot:
        assert await press_until_over(first, pilot, random.Random(9), 2) == 2
        await first_of(first.moves_ready, first.over)
        before = feed_text(first)
        version = first.version
    again = seat_again(server, first.kind, first.game_id, first.token, 0, first.bot_seats, seed=9)
    async with again.run_test(size=SIZE) as pilot:
        await first_of(again.moves_ready, again.over)
        await pilot.pause()
        assert again.version >= version
        assert feed_text(again).startswith(before)  # the whole feed, told again
        assert await press_until_over(again, pilot, random.Random(10), 2) == 2
        await first_of(again.moves_ready, again.over)
        assert again.version > version  # and the game goes on from there


async def test_the_table_is_saved_as_an_svg_screenshot(server: Served, tmp_path) -> None:
    app = await new_table(server, "smiles-and-daggers", 3, seed=1)
    async with app.run_test(size=SIZE):
        await first_of(app.moves_ready, app.over)
        path = app.save_screenshot(filename="table.svg", path=str(tmp_path))
    svg = (tmp_path / "table.svg").read_text()
    assert path.endswith("table.svg") and svg.startswith("<svg") and "Your" in svg


async def test_bots_that_cannot_play_say_so_instead_of_leaving_you_waiting(
    server: Served,
) -> None:
    # Given a table whose only bot is of a kind that does not exist
    game_id = await server.client.create_game("smoke-and-mirrors", seat_count=2)
    me = await server.client.join(game_id, "Ada")
    seated = await seat_bots(server.client, game_id, 1, "no-such-bot")
    app = seat_again(server, "smoke-and-mirrors", game_id, me.token, me.seat, seated, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        # When its worker gives up (at once: the bot kind is checked first)
        for _ in steps(100, "the bots' worker"):
            if "The bots stopped" in feed_text(app):
                break
            await pilot.pause(0.1)
        # Then the feed says why, rather than waiting for its move forever
        assert "The bots stopped" in feed_text(app)
        assert "no-such-bot" in feed_text(app)


async def test_ctrl_r_twice_resigns_and_the_bots_finish_the_game(server: Served) -> None:
    app = await new_table(server, "smoke-and-mirrors", 2, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await first_of(app.moves_ready, app.over)
        await pilot.press("ctrl+r")  # asks first: nothing is sent
        await pilot.pause()
        assert app.resign_asked, shown(app, "#note")
        assert list((await server.client.view(app.game_id)).table.resigned_seats) == []
        await pilot.press("ctrl+r")
        await first_of(app.over)
        await pilot.pause()
        assert "Ada resigns" in feed_text(app)
    view = await server.client.view(app.game_id)
    assert list(view.table.resigned_seats) == [0]
    assert view.table.finished and 0 not in view.table.winners


async def test_a_seat_that_committed_its_entropy_ends_with_its_deal_verified(
    server: Served,
) -> None:
    """cardroom play's seat commits to its own entropy, reveals it when the
    game starts, and at the end is told its deal is verified (T-ENTROPY)."""
    kind = "smoke-and-mirrors"
    game_id = await server.client.create_game(kind, seat_count=3)
    me = await server.client.join(game_id, "Ada", entropy=new_entropy())
    seated = await seat_bots(server.client, game_id, 2, "heuristic")
    connect = lambda: Client.connect(server.address)  # noqa: E731
    app = PlayApp(
        connect,
        game_id,
        token=me.token,
        seat=me.seat,
        bots=seated,
        kind=kind,
        seed=4,
        entropy=me.entropy,
    )
    async with app.run_test(size=SIZE) as pilot:
        await press_until_over(app, pilot, random.Random(4), MAX_MOVES)
        assert app.over.is_set() and app.revealed
        await first_of(app.deal_checked)
        await pilot.pause()
        assert app.deal_verdict == "Deal verified ✓", app.deal_verdict
        assert "Deal verified ✓" in feed_text(app)


async def test_q_leaves_a_replay_as_its_help_says(server: Served) -> None:
    kind = "smiles-and-daggers"
    game_id = await server.client.create_game(kind, seat_count=3)
    bots = await seat_bots(server.client, game_id, 3, "random")
    await play_bots(server.client, game_id, kind, bots, seed=8)
    app = ReplayApp(lambda: Client.connect(server.address), game_id)
    async with app.run_test(size=SIZE) as pilot:
        await first_of(app.loaded)
        # The help lists "q  leave": read there, q leaves.
        await pilot.press("question_mark")
        await pilot.pause()
        assert "leave" in str(app.screen.query_one("#guide", Static).render())
        await pilot.press("q")
        await pilot.pause()
        assert app._exit, "q did not leave"
