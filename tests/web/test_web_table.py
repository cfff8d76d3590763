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
test-artifacts/ (listed at the end of the run)."""

from __future__ import annotations

import os
from pathlib import Path

from tests.service.helpers import web_server_process
from tests.web.support import ARTIFACTS, npm_test

CHROMIUM = Path(os.environ.get("CARDROOM_CHROMIUM", "/usr/bin/chromium"))
SCREENSHOTS = (
    "list.png",
    "watch-end.png",
    "replay-middle.png",
    "play.png",
    # A table people come back to: created from the page, an invitation
    # taken in a second browser (a phone, 390x844), a server bot, resumed.
    "table-invite-1280.png",
    "table-play-390.png",
    "table-list-390.png",
    "table-over-1280.png",
    "table-over-390.png",
)


def test_the_web_table_works_in_a_real_browser(tmp_path: Path) -> None:
    assert CHROMIUM.exists(), f"no Chromium at {CHROMIUM}: `python3 dev.py test` installs it"
    for name in SCREENSHOTS:
        (ARTIFACTS / name).unlink(missing_ok=True)
    with web_server_process(str(tmp_path / "cardroom.sqlite3")) as (_, web_url):
        npm_test(
            "web",
            {
                "CARDROOM_WEB_URL": web_url.rstrip("/"),
                "CARDROOM_ARTIFACTS": str(ARTIFACTS),
                "CARDROOM_CHROMIUM": str(CHROMIUM),
            },
        )
    for name in SCREENSHOTS:
        assert (ARTIFACTS / name).read_bytes().startswith(b"\x89PNG"), name
