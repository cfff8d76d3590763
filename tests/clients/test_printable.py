"""Hostile names (issue 34): a player's name is anyone's text, and it
reaches other people's terminals. Names carrying terminal commands (a
window title, a clear screen, a clipboard write, a lone C1 CSI, a bidi
override) are shown, never obeyed: in `cardroom watch --plain`, in the
terminal table, and in the story a Python frontend prints."""

from __future__ import annotations

import re
import unicodedata

import pytest

from cardroom.cli import parser
from cardroom.cli.watch import plain
from cardroom.client import Client
from cardroom.client.bots.runner import play_bots
from cardroom.client.printable import printable
from cardroom.client.sessions import BotSeat
from cardroom.tui.watch import WatchApp
from tests.clients.test_terminal_apps import first_of
from tests.clients.test_terminal_screens import screen_text
from tests.conftest import Served

HOSTILE = (
    "Ada\x1b]0;you are hacked\x07",  # OSC 0: the window's title
    "Bo\x1b[2J\x1b[H",  # CSI: clear the screen, cursor home
    "Cy\x1b]52;c;cm0gLXJmIH4=\x07",  # OSC 52: write the clipboard
    "Di\x9b31m\x9d2;title\x9c",  # C1 CSI, OSC and ST, one byte each
    "Eve\u202etxt.exe\u2066\u2069",  # a bidi override and isolates
    "Flo\nGame over: Flo wins.",  # a forged line
)
# What a terminal obeys: C0 controls and DEL, C1 controls, bidi controls,
# line and paragraph separators.
OBEYED = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_is_shown_not_obeyed(name: str) -> None:
    shown = printable(name)
    assert not OBEYED.search(shown) and "\n" not in shown
    assert shown[:2] == name[:2]  # still the player's name
    assert len(shown) == len(name)  # every character shown as something


def test_plain_names_and_scripts_are_kept() -> None:
    for name in (
        "Ada",
        "Zoë",
        "李小龍",
        "👩‍💻 Ada",
        "عائشة",
        "Dorothea Lovelace-Byron (heuristic bot)",
    ):
        assert printable(name) == name
    assert printable("Ada\x1b") == "Ada␛" and printable("a\tb") == "a␉b"
    assert all(unicodedata.category(c) != "Cc" for c in printable("".join(map(chr, range(0xA0)))))


async def hostile_game(server: Served) -> str:
    """A game of three hostile names, played to its end by random bots."""
    game_id = await server.client.create_game("smiles-and-daggers", seat_count=3)
    seats = [await server.client.join(game_id, name) for name in HOSTILE[:3]]
    bots = [BotSeat(seat.seat, seat.token, "random") for seat in seats]
    await play_bots(server.client, game_id, "smiles-and-daggers", bots, seed=3)
    return game_id


async def test_watch_plain_prints_hostile_names_safely(
    server: Served, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = await hostile_game(server)
    args = parser().parse_args(["watch", "--plain", game_id, "--address", server.address])
    await plain(args, None)
    printed = capsys.readouterr()
    assert "Ada␛]0;you are hacked␇" in printed.out  # the name, shown
    assert not OBEYED.search(printed.out + printed.err)
    # Every line is an event's line: no name forged one of its own.
    assert all(re.match(r"#\d+ |      ", line) for line in printed.out.splitlines())


async def test_the_terminal_table_shows_hostile_names_safely(server: Served) -> None:
    game_id = await hostile_game(server)
    app = WatchApp(lambda: Client.connect(server.address), game_id)
    async with app.run_test(size=(120, 40)) as pilot:
        await first_of(app.over)
        await pilot.pause()
        shown = screen_text(app)
        assert "Ada␛]0;you are hacked␇" in shown and "Bo␛[2J␛[H" in shown
        assert not OBEYED.search(shown + app.sub_title + app.title)
