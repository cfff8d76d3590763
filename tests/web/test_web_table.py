"""The reference web table (clients/web) in a real browser: its tests, run
by node's test runner, drive Debian's Chromium headless with playwright-core
against a real ``cardroom serve``: the game list, a bot game watched live to
its end, the replay scrubber to the middle and back (over gRPC-Web), a seat
played from the page, every game kind drawn, and a game created from the
page, its invitation opened in a second browser context, a server bot
added, the tab closed and resumed, played to the end with every card shown
after it; each browser committed to its seat's entropy (its SeatTaken in
the log), revealed it, and says at the end what it checked of the deal; a
seat whose entropy the browser lacks says it cannot reveal. Screenshots are saved in
test-artifacts/ (listed at the end of the run).

The node tests run in groups, each a pytest item of its own (so xdist
spreads them over its workers), on one server per worker (as they all ran
on one before) with a browser per group. Every test of the file is in
exactly one group, checked by name."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.service.helpers import web_server_process
from tests.web.support import ARTIFACTS, CLIENTS, node_tests

CHROMIUM = Path(os.environ.get("CARDROOM_CHROMIUM", "/usr/bin/chromium"))
TESTS = CLIENTS / "web" / "test" / "table.test.ts"
# Each group: the start of each of its tests' names (node's name patterns)
# and the screenshots its tests save. The replay needs the game the first
# test watched, so they run together.
GROUPS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "watch-and-replay": (
        ("lists a bot game, and a spectator watches it live", "replays the finished game"),
        ("list.png", "watch-end.png", "replay-middle.png"),
    ),
    "play": (("plays a seat with its token",), ("play.png",)),
    "entropy-lost": (("a seat whose entropy this browser does not hold",), ()),
    "every-kind": (("draws every kind the server plays",), ()),
    "come-back": (
        ("a table people come back to",),
        # Created from the page, an invitation taken in a second browser (a
        # phone, 390x844), a server bot, resumed.
        (
            "table-invite-1280.png",
            "table-play-390.png",
            "table-list-390.png",
            "table-over-1280.png",
            "table-over-390.png",
        ),
    ),
    "phone": (("on a phone the page stays on your move",), ()),
    "other-hosts": (("a link naming another",), ()),
    "ratings": (("the lobby shows each keyed player's rating",), ()),
    "tournament": (("a tournament's page",), ()),
    "tournament-entry": (
        ("a player enters a tournament",),
        ("tournament-seat-390.png", "tournament-entry-390.png"),
    ),
    "costly-move": (("a costly move is marked",), ()),
}


def test_every_node_test_of_the_web_table_is_in_one_group() -> None:
    names = re.findall(r'^  test\("([^"]+)"', TESTS.read_text(), flags=re.MULTILINE)
    starts = [start for starts, _ in GROUPS.values() for start in starts]
    assert names and len(names) == len(starts)
    for name in names:
        assert [s for s in starts if name.startswith(s)] != [], f"no group runs {name!r}"
    for start in starts:
        assert len([n for n in names if n.startswith(start)]) == 1, start


@pytest.fixture(scope="module")
def web_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("web-table") / "cardroom.sqlite3"
    with web_server_process(str(database)) as (_, url):
        yield url.rstrip("/")


@pytest.mark.parametrize("group", GROUPS)
def test_the_web_table_works_in_a_real_browser(web_url: str, group: str) -> None:
    assert CHROMIUM.exists(), f"no Chromium at {CHROMIUM}: `python3 dev.py test` installs it"
    starts, screenshots = GROUPS[group]
    for name in screenshots:
        (ARTIFACTS / name).unlink(missing_ok=True)
    node_tests(
        "web",
        {
            "CARDROOM_WEB_URL": web_url,
            "CARDROOM_ARTIFACTS": str(ARTIFACTS),
            "CARDROOM_CHROMIUM": str(CHROMIUM),
        },
        names=[re.escape(start) for start in starts],
        passed=len(starts),
    )
    for name in screenshots:
        assert (ARTIFACTS / name).read_bytes().startswith(b"\x89PNG"), name
