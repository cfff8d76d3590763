"""The store feed (PostgreSQL's LISTEN/NOTIFY) hears every append, this
process's and another's, in order, and leaves no thread behind: once
``stop`` returns its thread has ended and given its connection back, so
nothing queries the store after it closes."""

from __future__ import annotations

import contextlib
import threading
import time

from cardroom.server.games.application import Games
from cardroom.server.live.store_feed import StoreFeed
from cardroom.server.storage.log import GameLog
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN


def feed_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.is_alive() and t.name == "cardroom-feed"]


def heard_until(heard: list[tuple[str, int]], count: int) -> None:
    for _ in steps(500, f"the feed hearing {count} appends"):
        if len(heard) >= count:
            return
        time.sleep(0.01)


def test_stopping_the_feed_ends_its_thread(postgres_database: str) -> None:
    already = set(feed_threads())  # another test's, on this worker
    log = GameLog(postgres_database)
    heard: list[tuple[str, int]] = []
    feed = StoreFeed(log, lambda game_id, version: heard.append((game_id, version)))
    try:
        games = Games(log, operator_token=OPERATOR_TOKEN, refresh="notified")
        game_id = games.create_game("smoke-and-mirrors", None, 3)
        heard_until(heard, 1)
        assert heard[0] == (game_id, 1)
        assert set(feed_threads()) - already  # the feed runs its thread
        games.close()
    finally:
        feed.stop()
        assert set(feed_threads()) - already == set()
        log.close()


def test_the_feed_hears_another_process_appends_in_order(postgres_database: str) -> None:
    """Another writer's appends (a second store, as a second server has),
    game by game and version by version, and none from before it started."""
    writer_log, reader_log = GameLog(postgres_database), GameLog(postgres_database)
    writer = Games(writer_log, operator_token=OPERATOR_TOKEN, refresh="notified")
    before = writer.create_game("smoke-and-mirrors", None, 3)
    heard: list[tuple[str, int]] = []
    feed = StoreFeed(reader_log, lambda game_id, version: heard.append((game_id, version)))
    try:
        first = writer.create_game("smoke-and-mirrors", None, 3)
        writer.join(first, None, "ann")
        second = writer.create_game("smoke-and-mirrors", None, 3)
        heard_until(heard, 3)
        time.sleep(0.3)  # a wait's length: nothing more comes
        assert heard == [(first, 1), (first, 2), (second, 1)]
        assert before not in {game_id for game_id, _ in heard}
    finally:
        feed.stop()
        writer.close()
        writer_log.close()
        reader_log.close()


def test_the_feed_hears_its_own_appends_and_a_backend_taken_for_its_own(
    postgres_database: str,
) -> None:
    """This process's own appends are read back (when quiet, or once a
    second), and so are another process's sent from a backend the feed
    takes for its own (a pid reused after its connection closed): delayed,
    never lost."""
    writer_log, reader_log = GameLog(postgres_database), GameLog(postgres_database)
    writer = Games(writer_log, operator_token=OPERATOR_TOKEN, refresh="notified")
    own = Games(reader_log, operator_token=OPERATOR_TOKEN, refresh="notified")
    heard: list[tuple[str, int]] = []
    feed = StoreFeed(reader_log, lambda game_id, version: heard.append((game_id, version)))
    try:
        mine = own.create_game("smoke-and-mirrors", None, 3)
        heard_until(heard, 1)
        writer_log.probe()  # the writer's backend is now known...
        reader_log.own_backends.update(writer_log.own_backends)  # ...and taken for ours
        theirs = writer.create_game("smoke-and-mirrors", None, 3)
        heard_until(heard, 2)
        assert heard == [(mine, 1), (theirs, 1)]
        assert writer_log.own_backends <= reader_log.own_backends  # it was sent as "ours"
    finally:
        feed.stop()
        own.close()
        writer.close()
        writer_log.close()
        reader_log.close()


def test_the_feed_gives_its_connection_back_deaf(postgres_database: str) -> None:
    """Once stopped, the connection it listened on goes back to the pool no
    longer listening: a pooled connection that still listened would keep
    every later notification unread for as long as it lived."""
    log = GameLog(postgres_database)
    feed = StoreFeed(log, lambda game_id, version: None)
    try:
        games = Games(log, operator_token=OPERATOR_TOKEN, refresh="notified")
        games.create_game("smoke-and-mirrors", None, 3)
        games.close()
    finally:
        feed.stop()
    try:
        datastore = log.recorder.datastore  # type: ignore[attr-defined]
        with contextlib.ExitStack() as taken:  # every pooled connection at once
            for _ in range(datastore.pool.get_stats()["pool_size"]):
                connection = taken.enter_context(datastore.get_connection())
                listening = connection.execute("SELECT pg_listening_channels()").fetchall()
                assert listening == []
    finally:
        log.close()
