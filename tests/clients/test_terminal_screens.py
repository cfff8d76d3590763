"""What a person reads in the terminal, read back from the rendered screen
(Textual's pilot, the screen's text as the terminal would show it), for
every game at 120x40 and 80x24: the hand and the move list with every card
named, the goal, seats named (numbered from 1 where a number shows), the
turn clock counting down, the help screen, a round's summary and the end.
SVG screenshots of each moment go to test-artifacts/terminal/."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from rich.console import Console
from textual.app import App
from textual.containers import VerticalScroll
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import OptionList, Static

from cardroom.client import Client
from cardroom.client.bots.runner import seat_bots
from cardroom.domain import registry
from cardroom.domain.presentation import guide
from cardroom.tui.play import PlayApp, options_beyond
from cardroom.v1 import table_pb2 as tpb
from tests.clients.test_terminal_apps import first_of, short
from tests.conftest import Served

KINDS = sorted(registry.games())
SIZES = {"120x40": (120, 40), "80x24": (80, 24)}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "terminal"
# A card as the narrators draw it: "[Bandit]", "[★1]", "[♔ Lord ☺]", "[↑4]".
CARD = re.compile(r"\[[^\[\]]{1,16}\]")
COUNTDOWN = re.compile(r"⏱ \d+:\d\d\b")


def screen_lines(app: App[None]) -> list[str]:
    """The screen as the terminal shows it, line by line (what
    ``App.export_screenshot`` draws, as text)."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, legacy_windows=False
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    text = console.export_text(styles=False)
    return text.splitlines()[:height]


def screen_text(app: App[None]) -> str:
    return "\n".join(screen_lines(app))


def inside(app: App[None], widget: Widget) -> str:
    """The text drawn inside a widget's box (its border left out), its
    wrapped lines joined with single spaces."""
    region: Region = widget.content_region
    lines = screen_lines(app)[region.y : region.bottom]
    cropped = [line[region.x : region.right] for line in lines]
    return " ".join(" ".join(cropped).split())


async def read_through(app: App[None], pilot: Pilot[None], box: VerticalScroll) -> str:
    """What a person reads in a scrolling box: its first page, then each
    page PgDn brings, until the last (a round summary at 80x24 may hold
    more lines than the rows left to it)."""
    pages = [inside(app, box)]
    for _ in range(20):
        if box.scroll_y >= box.max_scroll_y:
            break
        await pilot.press("pagedown")
        await pilot.pause()
        pages.append(inside(app, box))
    return " ".join(pages)


def snapshot(app: App[None], name: str) -> str:
    """Save the screen as an SVG (cheap, for a person to look at) and
    return its text."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    app.save_screenshot(filename=f"{name}.svg", path=str(ARTIFACTS))
    return screen_text(app)


async def new_table(server: Served, kind: str, seed: int, **create: object) -> PlayApp:
    game_id = await server.client.create_game(kind, seat_count=3, options=short(kind), **create)  # type: ignore[arg-type]
    me = await server.client.join(game_id, "Ada")
    bots = await seat_bots(server.client, game_id, 2, "heuristic")
    connect = lambda: Client.connect(server.address)  # noqa: E731
    return PlayApp(connect, game_id, token=me.token, seat=me.seat, bots=bots, kind=kind, seed=seed)


def labels(app: PlayApp) -> list[str]:
    moves = app.query_one("#moves", OptionList)
    return [str(moves.get_option_at_index(i).prompt) for i in range(moves.option_count)]


def check_moves_read_whole(app: PlayApp) -> None:
    """Every card a move names is in its label, and the moves in sight are
    on the screen as the narrator wrote them (no bracket eaten)."""
    moves = app.query_one("#moves", OptionList)
    told = labels(app)
    assert told and all(label[: len("1. ")] == f"{i}. " for i, label in enumerate(told[:9], 1))
    box = inside(app, moves)
    first = " ".join(told[0].split())
    assert box.startswith(first[: min(len(first), len(box))]), (box, first)
    for label in told:
        assert not re.search(r"\s{2,}\S", label.removeprefix("   ")), label  # nothing eaten


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("kind", KINDS)
async def test_the_first_moves_name_their_cards_and_the_goal_is_on_screen(
    server: Served, kind: str, size: str
) -> None:
    app = await new_table(server, kind, seed=4)
    game_guide = guide(kind)
    assert game_guide is not None
    rng = random.Random(4)
    async with app.run_test(size=SIZES[size]) as pilot:
        carded = None
        for _ in range(60):  # until a move names a card (Smile Life: its first play)
            await first_of(app.moves_ready, app.over)
            assert not app.over.is_set()
            await pilot.pause()
            if not app.moves_ready.is_set():
                continue  # new events withdrew the offer during the pause: wait for the next
            if any(CARD.search(label) for label in labels(app)):
                carded = labels(app)
                break
            await pilot.press(str(rng.randint(1, min(9, len(app.actions)))))
        assert carded is not None, "no move ever named a card"
        shown = snapshot(app, f"{kind}-{size}-moves")
        check_moves_read_whole(app)
        cards_named = [CARD.search(label) for label in carded]
        assert any(cards_named)
        # The goal, whole or as far as the screen is wide, and where the help is.
        goal = inside(app, app.query_one("#goal", Static))
        assert goal.startswith("Goal: ") and game_guide.goal[:30] in goal
        assert "Ada (you)" in shown
        assert not re.search(r"\bseat 0\b", shown)  # seats are named, numbered from 1
        if size == "80x24":
            # The move list fits the screen: what is out of sight is counted.
            moves = app.query_one("#moves", OptionList)
            _, below = options_beyond(moves)
            assert moves.region.bottom <= 24
            if moves.option_count > moves.scrollable_content_region.height:
                assert below > 0
            if below:
                assert f"↓ {below} more" in shown


@pytest.mark.parametrize("kind", KINDS)
async def test_the_help_screen_explains_the_goal_the_rules_and_every_symbol(
    server: Served, kind: str
) -> None:
    app = await new_table(server, kind, seed=2)
    game_guide = guide(kind)
    assert game_guide is not None
    async with app.run_test(size=(120, 40)) as pilot:
        await first_of(app.moves_ready, app.over)
        await pilot.press("question_mark")
        await pilot.pause()
        shown = snapshot(app, f"{kind}-help")
        assert "Goal: " + game_guide.goal in " ".join(shown.split())
        assert "Symbols" in shown and "Rules in short" in shown
        for symbol, _ in game_guide.symbols:
            assert symbol in shown, symbol  # every symbol, brackets and all
        await pilot.press("escape")
        await pilot.pause()
        assert "Symbols" not in screen_text(app)
        await pilot.press("f1")
        await pilot.pause()
        assert "Symbols" in screen_text(app)


async def test_seats_not_yet_taken_are_numbered_from_one(server: Served) -> None:
    game_id = await server.client.create_game("smoke-and-mirrors", seat_count=3)
    me = await server.client.join(game_id, "Ada")
    connect = lambda: Client.connect(server.address)  # noqa: E731
    app = PlayApp(connect, game_id, token=me.token, seat=me.seat, kind="smoke-and-mirrors")
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            await pilot.pause(0.05)
            if "seat 3" in screen_text(app):
                break
        shown = screen_text(app)
        assert "Ada (you)" in shown and "seat 2" in shown and "seat 3" in shown
        assert not re.search(r"\bseat 0\b", shown)
        assert "Waiting for 2 more player(s)" in shown


async def test_a_turn_clock_counts_down_on_screen(server: Served) -> None:
    clock = tpb.TableOptions(seconds_per_decision=1800)
    app = await new_table(server, "smiles-and-daggers", seed=6, table_options=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await first_of(app.moves_ready, app.over)
        await pilot.pause()
        shown = snapshot(app, "smiles-and-daggers-clock")
        found = COUNTDOWN.findall(shown)
        assert found and "UTC" not in shown
        minutes = int(found[0].split()[1].split(":")[0])
        assert 25 <= minutes <= 30  # a half-hour clock, started seconds ago


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("kind", KINDS)
async def test_a_round_summary_and_the_end_are_on_screen(
    server: Served, kind: str, size: str
) -> None:
    app = await new_table(server, kind, seed=7)
    rng = random.Random(7)
    summaries: list[str] = []
    warned = 0
    async with app.run_test(size=SIZES[size]) as pilot:
        summary = app.query_one("#summary", VerticalScroll)
        for _ in range(600):
            await first_of(app.moves_ready, app.over)
            await pilot.pause()
            if summary.has_class("open") and not summaries:
                shown = snapshot(app, f"{kind}-{size}-round-end")
                # What the summary's box says, read page by page as a person
                # would, its wrapped lines joined (the screen's rows also
                # cross the boxes beside it).
                told = await read_through(app, pilot, summary)
                summaries.append(f"{summary.border_title} {told}")
            if app.over.is_set():
                break
            if not app.moves_ready.is_set():
                continue  # new events withdrew the offer during the pause: wait for the next
            check_moves_read_whole(app)
            choice = str(rng.randint(1, min(9, len(app.actions))))
            await pilot.press(choice)
            if app.confirming is not None:  # a move the guide warns of: asked twice
                warned += 1
                assert "⚠" in screen_text(app)
                await pilot.press(choice)
        assert app.over.is_set()
        await pilot.pause()
        shown = snapshot(app, f"{kind}-{size}-end")
        assert "Game over" in shown
        assert summary.has_class("open") and summary.border_title == "Game over"
        if kind in ("smoke-and-mirrors", "silver-dagger"):  # games of rounds
            assert summaries and "Round over" in summaries[0]
            assert re.search(r"wins round \d|Round \d is scored", " ".join(summaries[0].split()))
