"""The store feed (PostgreSQL's LISTEN/NOTIFY subscription) leaves no
thread behind: once ``stop`` returns, the library's listen and pull threads
have ended, so none queries the store after it closes."""

from __future__ import annotations

import threading
import time

from cardroom.server.games.application import Games
from cardroom.server.live.store_feed import StoreFeed
from cardroom.server.storage.log import GameLog
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN

SUBSCRIPTION_THREADS = ("(_listen)", "(_loop_on_pull)")


def subscription_threads() -> list[threading.Thread]:
    return [
        t for t in threading.enumerate() if t.is_alive() and t.name.endswith(SUBSCRIPTION_THREADS)
    ]


def test_stopping_the_feed_ends_the_subscriptions_threads(postgres_database: str) -> None:
    already = set(subscription_threads())  # another test's, on this worker
    log = GameLog(postgres_database)
    heard: list[tuple[str, int]] = []
    feed = StoreFeed(log, lambda game_id, version: heard.append((game_id, version)))
    try:
        games = Games(log, operator_token=OPERATOR_TOKEN, refresh="notified")
        game_id = games.create_game("smoke-and-mirrors", None, 3)
        for _ in steps(500, "the feed hearing of the game"):
            if heard:
                break
            time.sleep(0.01)
        assert heard[0] == (game_id, 1)
        assert set(subscription_threads()) - already  # the subscription runs its threads
        games.close()
    finally:
        feed.stop()
        assert set(subscription_threads()) - already == set()
        log.close()
