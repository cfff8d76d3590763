"""The game list is a table next to the events, kept by a tracking recorder:
dropped, it is rebuilt the same from the events; after a restart it goes on
from where it stopped; two processes catching it up at once neither skip nor
repeat anything; and it pages through thousands of games, every filter, each
match once, newest first."""

from __future__ import annotations

import logging
import random
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from eventsourcing.persistence import OperationalError

from cardroom.client import Client
from cardroom.server.games import game_list as game_list_module
from cardroom.server.games.application import Games
from cardroom.server.games.game_list import GameList
from cardroom.server.storage.game_list_recorders import GameListRecorder, ProjectionMoved
from cardroom.server.storage.log import GameLog
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN, Served
from tests.service.helpers import SM, seated_game
from tests.service.many_games import (
    KINDS,
    PlannedGame,
    drop,
    game_list_sql,
    plan,
    stored,
    write,
)

REQUESTS = [
    gpb.ListGamesRequest(),
    gpb.ListGamesRequest(kind=KINDS[1]),
    gpb.ListGamesRequest(status=gpb.GAME_STATUS_OPEN),
    gpb.ListGamesRequest(status=gpb.GAME_STATUS_RUNNING),
    gpb.ListGamesRequest(status=gpb.GAME_STATUS_FINISHED),
    gpb.ListGamesRequest(open_seats_only=True),
    gpb.ListGamesRequest(kind=KINDS[0], status=gpb.GAME_STATUS_RUNNING),
    gpb.ListGamesRequest(kind=KINDS[0], open_seats_only=True),
    gpb.ListGamesRequest(status=gpb.GAME_STATUS_FINISHED, open_seats_only=True),
]


def every_page(game_list: GameList, request: gpb.ListGamesRequest, size: int) -> list[Any]:
    listed: list[gpb.GameSummary] = []
    token = ""
    for _ in steps(1000, "paging through the game list"):
        page = gpb.ListGamesRequest()
        page.CopyFrom(request)
        page.page_size, page.page_token = size, token
        response = game_list.page(page)
        assert len(response.games) <= size
        listed += response.games
        token = response.next_page_token
        if not token:
            return listed
    raise AssertionError("unreachable")


def matches(game: gpb.GameSummary, request: gpb.ListGamesRequest) -> bool:
    """The filters as game_service.proto describes them."""
    status = (
        gpb.GAME_STATUS_FINISHED
        if game.finished
        else gpb.GAME_STATUS_RUNNING
        if game.started
        else gpb.GAME_STATUS_OPEN
    )
    free_seat = not game.started and game.seats_taken < game.seat_count
    return (
        (not request.kind or game.kind == request.kind)
        and (not request.status or status == request.status)
        and (not request.open_seats_only or free_seat)
    )


def summaries(games: list[PlannedGame]) -> list[gpb.GameSummary]:
    return [g.summary() for g in games]


async def every_listing(client: Client) -> list[list[gpb.GameSummary]]:
    return [
        await client.list_games(
            kind=r.kind, status=r.status, open_seats_only=r.open_seats_only, page_size=2
        )
        for r in REQUESTS
    ]


async def test_a_game_list_dropped_behind_the_servers_back_is_rebuilt_the_same(
    served: Served, database: str
) -> None:
    c = served.client
    await c.create_game(SM, seat_count=2)
    await seated_game(c, players=2, start=False)
    await seated_game(c, players=2)
    delayed = tpb.SpectatorPolicy(kind=tpb.SpectatorPolicy.KIND_DELAYED, delay_events=2)
    late = await c.create_game(SM, seat_count=3, spectator_policy=delayed)
    for name in ("Ada", "Bo", "Cy"):
        await c.join(late, name)
    await c.create_game("smiles-and-daggers", seat_count=3)
    before = await every_listing(c)
    assert len(before[0]) == 5

    drop(database, "the table and its tracking row")

    assert await every_listing(c) == before


@pytest.mark.parametrize(
    "dropped", ["the table and its tracking row", "the table", "the tracking row"]
)
def test_a_table_or_position_lost_alone_is_rebuilt_without_counting_twice(
    database: str, dropped: str
) -> None:
    """Rows and position only mean something together. Small batches, so
    seats are taken in other batches than their games' creation."""
    games = plan(random.Random(6), 60)
    log = GameLog(database)
    write(log, games)
    game_list = GameList(log, batch=4)
    before = [every_page(game_list, request, size=7) for request in REQUESTS]
    assert before[0] == summaries(games)[::-1]

    drop(database, dropped)

    assert [every_page(game_list, request, size=7) for request in REQUESTS] == before
    log.close()


def test_after_a_restart_the_game_list_goes_on_from_where_it_stopped(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(1)
    first, later = plan(rng, 40), plan(rng, 30)
    log = GameLog(database)
    write(log, first)
    assert GameList(log).summaries() == summaries(first)
    stopped_at = log.recorder.max_notification_id()
    log.close()

    log = GameLog(database)  # the restart
    write(log, later)
    starts: list[int] = []
    apply = GameListRecorder.apply

    def noting_where_it_starts(self: GameListRecorder, changes: Any, **at: int) -> None:
        starts.append(at["after"])
        apply(self, changes, **at)

    monkeypatch.setattr(GameListRecorder, "apply", noting_where_it_starts)
    assert GameList(log).summaries() == summaries(first + later)
    assert starts[0] == stopped_at
    log.close()


def test_two_processes_catching_up_at_once_skip_nothing_and_count_nothing_twice(
    database: str,
) -> None:
    """Small batches, so the two interleave many transactions."""
    games = plan(random.Random(2), 200)
    one, two = GameLog(database), GameLog(database)
    lists = [GameList(one, batch=5), GameList(two, batch=5)]
    with ThreadPoolExecutor(2) as pool:
        for part in (games[:120], games[120:]):
            write(one, part)
            list(pool.map(GameList.catch_up, lists))
    assert lists[0].summaries() == lists[1].summaries() == summaries(games)
    one.close()
    two.close()


def test_a_batch_read_before_another_process_moved_the_list_on_is_not_applied(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = plan(random.Random(3), 30)
    one, two = GameLog(database), GameLog(database)
    write(one, games)
    first, second = GameList(one), GameList(two)
    apply = GameListRecorder.apply
    refused: list[int] = []

    def the_other_gets_there_first(self: GameListRecorder, changes: Any, **at: int) -> None:
        if not refused:
            refused.append(-1)
            first.catch_up()  # between this batch's read and its write
        try:
            apply(self, changes, **at)
        except ProjectionMoved:
            refused.append(at["after"])
            raise

    monkeypatch.setattr(GameListRecorder, "apply", the_other_gets_there_first)
    second.catch_up()
    assert refused == [-1, 0]  # the late batch was refused...
    assert second.summaries() == summaries(games)  # ...and nothing counted twice
    one.close()
    two.close()


def every_filter_pages_the_matches_newest_first(
    database: str, games: list[PlannedGame], size: int
) -> None:
    log = GameLog(database)
    write(log, games)
    game_list = GameList(log)
    newest_first = summaries(games)[::-1]
    for request in REQUESTS:
        wanted = [g for g in newest_first if matches(g, request)]
        assert every_page(game_list, request, size) == wanted, request
    log.close()


def test_pages_through_thousands_of_games_list_every_match_once_newest_first(
    database: str,
) -> None:
    games = plan(random.Random(4), 3000, delayed=0.1)
    assert sum(g.delay > 0 and not g.finished for g in games) > 97  # more than a page of them
    every_filter_pages_the_matches_newest_first(database, games, size=97)


def test_pages_of_delayed_games_are_filtered_as_their_spectators_see_them(
    database: str,
) -> None:
    """Every game delayed and not over: the filters apply to what spectators
    see, so many a candidate is passed over to fill a page."""
    games = plan(random.Random(7), 200, delayed=1.0, running=0.6, finished=0.0)
    every_filter_pages_the_matches_newest_first(database, games, size=5)


def test_a_game_whose_creation_cannot_be_read_is_left_out_with_a_warning(
    database: str, caplog: pytest.LogCaptureFixture
) -> None:
    before, broken, after = plan(random.Random(5), 3)
    log = GameLog(database)
    write(log, [before])
    events = broken.events()
    log.recorder.insert_events(
        [
            stored(log, events[0], b"\xff\xff not an envelope"),
            *(stored(log, e, e.SerializeToString()) for e in events[1:]),
        ]
    )
    write(log, [after])
    with caplog.at_level(logging.WARNING, logger="cardroom.server.games.game_list"):
        assert GameList(log).summaries() == summaries([before, after])
    assert f"game {broken.game_id}: GameCreated cannot be read; not listed" in caplog.text
    log.close()


@pytest.mark.postgres
def test_after_a_rebuild_postgresql_has_statistics_of_the_game_list(
    postgres_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without them (autovacuum off, or not yet run) it may sort every match
    of a filter instead of reading an index in order."""
    monkeypatch.setattr(game_list_module, "ANALYZE_AFTER", 20)
    log = GameLog(postgres_database)
    write(log, plan(random.Random(8), 30))
    GameList(log).catch_up()
    with game_list_sql(postgres_database) as (db, games, _):
        [(rows,)] = db.execute(f"SELECT reltuples FROM pg_class WHERE oid = '{games}'::regclass")
    assert rows == 30  # -1 until analyzed
    log.close()


def test_the_list_follows_new_games_in_the_background_before_anyone_asks(database: str) -> None:
    """A lobby's first ListGames after many writes must not fold them all in
    the call: the list is caught up in the background as games are written."""
    log = GameLog(database)
    games = Games(log, operator_token=OPERATOR_TOKEN)
    try:
        for _ in range(5):
            games.create_game(SM, None, 3)
        projection = games.game_list._tables
        for _ in steps(600, "the game list's background catch-up"):
            head, position = projection.positions()
            if position is not None and position >= head:
                break
            time.sleep(0.05)
    finally:
        games.close()
        log.close()


@pytest.mark.postgres
def test_a_page_on_postgresql_is_read_again_on_a_live_connection(
    postgres_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server pings no pooled connection before using it: one that the
    database closed (a restart, an idle timeout) fails its first use and the
    page is read again on another, however many dead ones come first, as
    eventsourcing's own recorder methods are."""
    rng = random.Random(9)
    games = plan(rng, 12)
    log = GameLog(postgres_database)
    write(log, games)
    game_list = GameList(log)
    real = game_list._tables.positions
    dead = iter(range(3))  # more than the one second try a dropped table gets

    def on_a_closed_connection() -> tuple[int, int | None]:
        if next(dead, None) is not None:
            raise OperationalError("terminating connection due to administrator command")
        return real()

    monkeypatch.setattr(game_list._tables, "positions", on_a_closed_connection)
    try:
        assert game_list.summaries() == summaries(games)
        assert next(dead, None) is None  # every dead connection was met
    finally:
        log.close()
