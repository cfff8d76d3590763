"""Turn clocks (T-CLOCK) on an injected clock: nothing here sleeps. An
expiry makes the seat's default choice once; a move just before the deadline
wins; a restart re-arms from the events; two servers on one PostgreSQL fire
one expiry, not two; a game played by its clocks alone ends and audits."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import any_pb2

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import CLOCK, RuleViolation
from cardroom.server.games.application import Games
from cardroom.server.storage.log import GameLog
from cardroom.trust.audit import audit_record
from cardroom.trust.envelopes import unpack
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN

SECONDS = 30


class Now:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.at = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


def packed(message: Any) -> any_pb2.Any:
    a = any_pb2.Any()
    a.Pack(message)
    return a


def new_games(database: str, now: Now, **kwargs: Any) -> Games:
    return Games(GameLog(database), operator_token=OPERATOR_TOKEN, clock=now, **kwargs)


def clocked_game(games: Games, kind: str = "smoke-and-mirrors", seats: int = 3) -> list[str]:
    game_id = games.create_game(
        kind, None, seats, table_options=tpb.TableOptions(seconds_per_decision=SECONDS)
    )
    tokens = [games.join(game_id, None, f"P{i}")[1] for i in range(seats)]
    games.start(game_id, tokens[0])
    return [game_id, *tokens]


def timeouts(games: Games, game_id: str) -> list[epb.EventEnvelope]:
    return [
        e
        for e in games.audit_log(game_id, OPERATOR_TOKEN)
        if e.event.Is(tpb.SeatTimedOut.DESCRIPTOR)
    ]


@pytest.fixture
def sqlite(tmp_path: Path) -> str:
    return str(tmp_path / "cardroom.sqlite3")


@pytest.fixture
def now() -> Now:
    return Now()


@pytest.fixture
def games(sqlite: str, now: Now) -> Iterator[Games]:
    games = new_games(sqlite, now)
    yield games
    games.close()
    games.log.close()


def test_the_deadline_is_public_and_counted_from_the_latest_event(games: Games, now: Now) -> None:
    game_id, *_ = clocked_game(games)
    alarm = games.clocks.alarm(game_id)
    assert alarm is not None
    assert alarm.deadline == now.at + timedelta(seconds=SECONDS)
    assert alarm.version == games.version(game_id)
    view = games.view(game_id, None, None)
    assert view.table.table_options.seconds_per_decision == SECONDS
    assert [c.seat for c in view.table.clocks] == list(alarm.seats)
    assert view.table.clocks[0].deadline.ToDatetime(tzinfo=UTC) == alarm.deadline


def test_an_expiry_makes_the_default_choice_once(games: Games, now: Now) -> None:
    game_id, *_ = clocked_game(games)
    alarm = games.clocks.alarm(game_id)
    assert alarm is not None
    now.advance(SECONDS - 1)
    assert games.clocks.fire_due() == 0
    now.advance(1)
    assert games.clocks.fire_due() == 1
    assert games.clocks.fire_due() == 0  # the next seat has a new deadline
    fired = timeouts(games, game_id)
    assert [unpack(e.event).seat for e in fired] == [alarm.seats[0]]  # type: ignore[attr-defined]
    assert fired[0].command.actor.kind == epb.Actor.KIND_CLOCK
    command = unpack(fired[0].command.command)
    assert command == tpb.ClockExpired(seat=alarm.seats[0], version=alarm.version)
    # The seat is still in the game: it timed out, it did not resign.
    assert games.load(game_id).table.resigned == frozenset()
    # The same expiry again is stale: refused, and nothing is written.
    version = games.version(game_id)
    with pytest.raises(RuleViolation) as refused:
        games.commands.execute(game_id, CLOCK, command, "again", None)
    assert refused.value.rule == "T-CLOCK"
    assert games.version(game_id) == version


def test_a_move_just_before_the_deadline_wins_the_race(games: Games, now: Now) -> None:
    game_id, *tokens = clocked_game(games)
    alarm = games.clocks.alarm(game_id)
    assert alarm is not None
    seat = alarm.seats[0]
    now.at = alarm.deadline - timedelta(microseconds=1)
    table = games.load(game_id).table
    move = tables.legal_actions(table, seat)[0]
    games.submit(game_id, tokens[seat], packed(move), "just-in-time", None)
    now.at = alarm.deadline  # the old deadline passes: nothing fires
    assert games.clocks.fire_due() == 0
    assert timeouts(games, game_id) == []
    # A clock computed at the old version is refused as stale.
    with pytest.raises(RuleViolation) as refused:
        games.commands.execute(
            game_id, CLOCK, tpb.ClockExpired(seat=seat, version=alarm.version), "late", None
        )
    assert refused.value.rule == "T-CLOCK"


def test_an_expiry_before_the_deadline_is_refused(games: Games, now: Now) -> None:
    game_id, *_ = clocked_game(games)
    alarm = games.clocks.alarm(game_id)
    assert alarm is not None
    now.at = alarm.deadline - timedelta(seconds=1)
    command = tpb.ClockExpired(seat=alarm.seats[0], version=alarm.version)
    with pytest.raises(RuleViolation) as refused:
        games.commands.execute(game_id, CLOCK, command, "early", None)
    assert refused.value.rule == "T-CLOCK"
    assert "has until" in refused.value.message


def test_a_game_without_a_clock_has_none(games: Games) -> None:
    game_id = games.create_game("smoke-and-mirrors", None, 3)
    tokens = [games.join(game_id, None, f"P{i}")[1] for i in range(3)]
    games.start(game_id, tokens[0])
    assert games.clocks.alarm(game_id) is None
    assert list(games.view(game_id, None, None).table.clocks) == []
    seat = tables.awaited(games.load(game_id).table)[0]
    with pytest.raises(RuleViolation) as refused:
        games.commands.execute(
            game_id, CLOCK, tpb.ClockExpired(seat=seat, version=games.version(game_id)), "x", None
        )
    assert refused.value.rule == "T-CLOCK"


def test_a_restart_rearms_from_the_events(sqlite: str, now: Now) -> None:
    first = new_games(sqlite, now)
    game_id, *_ = clocked_game(first)
    before = first.clocks.alarm(game_id)
    first.close()
    first.log.close()
    now.advance(SECONDS * 10)  # the server was down past the deadline
    second = new_games(sqlite, now)
    try:
        assert second.clocks.alarm(game_id) is None
        assert second.clocks.rearm() == 1
        assert second.clocks.alarm(game_id) == before
        assert second.clocks.fire_due() == 1
        assert len(timeouts(second, game_id)) == 1
    finally:
        second.close()
        second.log.close()


@pytest.mark.postgres
def test_two_servers_on_one_postgres_fire_one_expiry(postgres_database: str, now: Now) -> None:
    # Caches that may be behind, as servers sharing PostgreSQL have.
    first = new_games(postgres_database, now, refresh="notified")
    second = new_games(postgres_database, now, refresh="notified")
    try:
        game_id, *_ = clocked_game(first)
        assert second.clocks.rearm() == 1  # the second server found it at its start
        assert second.clocks.alarm(game_id) == first.clocks.alarm(game_id)
        now.advance(SECONDS)
        assert first.clocks.fire_due() == 1
        assert second.clocks.fire_due() == 0  # refused as stale, then re-armed
        assert len(timeouts(first, game_id)) == len(timeouts(second, game_id)) == 1
        assert second.clocks.alarm(game_id) == first.clocks.alarm(game_id)
        # Both at once on the next deadline: still one.
        now.advance(SECONDS)
        assert first.clocks.fire_due() + second.clocks.fire_due() == 1
        assert len(timeouts(first, game_id)) == 2
    finally:
        for games in (first, second):
            games.close()
            games.log.close()


@pytest.mark.parametrize("kind", sorted(registry.games()))
def test_a_game_played_by_its_clocks_alone_ends_and_audits(
    games: Games, now: Now, kind: str
) -> None:
    seats = max(3, registry.game(kind).min_seats)
    game_id, *_ = clocked_game(games, kind, seats)
    for _ in steps(5000, "the clocks"):
        if games.load(game_id).finished:
            break
        now.advance(SECONDS)
        assert games.clocks.fire_due() == 1
    assert games.clocks.alarm(game_id) is None
    record = games.export_record(game_id, OPERATOR_TOKEN)
    report = audit_record(record)
    assert report.ok, report.render()


async def test_the_server_loop_rearms_then_fires_each_deadline_once(games: Games, now: Now) -> None:
    """cardroom.server.table.clocks.run as the server runs it, on the injected clock: its
    sleeps move the clock instead of waiting."""
    import asyncio

    from cardroom.server.table import clocks

    game_id, *_ = clocked_game(games)
    games.clocks._alarms.clear()  # as after a restart: only the events know
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now.advance(seconds)
        if len(timeouts(games, game_id)) >= 2:
            raise asyncio.CancelledError
        await asyncio.sleep(0)

    async def in_thread(fn: Any) -> Any:
        return fn()

    with pytest.raises(asyncio.CancelledError):
        await clocks.run(games.clocks, in_thread, poll_seconds=10, sleep=sleep)
    assert len(timeouts(games, game_id)) == 2
    # Woken at each deadline, not after it (the last sleep is the one cancelled).
    assert sum(slept[:-1]) == 2 * SECONDS


@pytest.mark.postgres
def test_a_server_takes_over_the_clock_of_a_game_created_after_it_started(
    postgres_database: str, now: Now
) -> None:
    """Issue 20: server B starts, then server A creates and starts a clocked
    game and dies. B heard of A's writes through the store's subscription,
    so B fires the clock (once) without a restart."""
    import time

    from cardroom.server.live.store_feed import StoreFeed

    second = new_games(postgres_database, now, refresh="notified")
    feed = StoreFeed(second.log, second.announce)  # as `cardroom serve` wires it
    first = new_games(postgres_database, now, refresh="notified")
    try:
        assert second.clocks.rearm() == 0  # B's start: no game yet
        game_id, *_ = clocked_game(first)
        expected = first.clocks.alarm(game_id)
        for _ in steps(500, "B hearing of A's game"):
            if second.clocks.pending():
                second.clocks.refresh()
            if second.clocks.alarm(game_id) == expected:
                break
            time.sleep(0.01)
        first.close()  # A dies
        first.log.close()
        now.advance(SECONDS)
        assert second.clocks.fire_due() == 1
        assert len(timeouts(second, game_id)) == 1
    finally:
        feed.stop()
        second.close()
        second.log.close()
