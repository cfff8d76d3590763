"""The table's bounds over gRPC: the server's game length limit is recorded
in each game and ends it (T-LENGTH); a clocked game whose seats time out
N times in a row loses them and ends (T-TIMEOUTS); a game whose seats all
left ends (T-RESIGN)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest

from cardroom.client import CardroomError, Client
from cardroom.server.api.server import RunningServer, Settings, start
from cardroom.server.limits import Limits
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.trust.envelopes import unpack
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN
from tests.service.helpers import SM

LIMIT = 120


@pytest.fixture
async def bounded(tmp_path: Path) -> AsyncIterator[tuple[RunningServer, Client]]:
    server = await start(
        Settings(
            address="127.0.0.1:0",
            database=str(tmp_path / "cardroom.sqlite3"),
            operator_token=OPERATOR_TOKEN,
            limits=Limits(max_game_events=LIMIT, resign_after_timeouts=1),
        )
    )
    client = Client.connect(f"127.0.0.1:{server.port}")
    try:
        yield server, client
    finally:
        await client.close()
        await server.stop(grace=None)


async def _seated(
    client: Client, seats: int, table_options: tpb.TableOptions | None = None
) -> tuple[str, list[str]]:
    # Rounds enough that only the table's limit ends it.
    options = sm.Options(rounds_to_win=50)
    game_id = await client.create_game(
        SM, seat_count=seats, options=options, table_options=table_options
    )
    tokens = [(await client.join(game_id, f"P{i}")).token for i in range(seats)]
    await client.start(game_id, tokens[0])
    return game_id, tokens


def _finished(log: list[epb.EventEnvelope]) -> tpb.GameFinished:
    last = unpack(log[-1].event)
    assert isinstance(last, tpb.GameFinished)
    return last


async def test_the_servers_length_limit_is_recorded_and_ends_the_game(
    bounded: tuple[RunningServer, Client],
) -> None:
    _, client = bounded
    with pytest.raises(CardroomError) as refused:
        await client.create_game(SM, seat_count=3, table_options=tpb.TableOptions(max_events=500))
    assert refused.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert f"at most {LIMIT}" in refused.value.details
    game_id, tokens = await _seated(client, 3)
    assert (await client.view(game_id)).table.table_options.max_events == LIMIT
    await client.resign(game_id, tokens[2])
    rng = random.Random(2)
    for _ in steps(LIMIT, "commands"):
        view = await client.view(game_id)
        if view.table.finished:
            break
        for seat in range(2):
            actions = await client.legal_actions(game_id, tokens[seat])
            if actions:
                await client.act(game_id, tokens[seat], rng.choice(actions))
                break
    log = await client.audit(game_id, OPERATOR_TOKEN)
    finished = _finished(log)
    assert finished.reason == tpb.GameFinished.REASON_LENGTH_LIMIT
    assert LIMIT <= len(log) < LIMIT + 60
    assert finished.winners and 2 not in finished.winners


async def test_seats_whose_clocks_run_out_leave_and_the_abandoned_game_ends(
    bounded: tuple[RunningServer, Client],
) -> None:
    _, client = bounded
    clock = tpb.TableOptions(seconds_per_decision=1)  # the server's 1 timeout in a row
    game_id, _ = await _seated(client, 2, clock)
    assert (await client.view(game_id)).table.table_options.resign_after_timeouts == 1
    seen: list[epb.EventEnvelope] = []

    async def follow() -> None:
        async for envelope in client.watch(game_id):
            seen.append(envelope)

    await asyncio.wait_for(follow(), timeout=60)  # the feed ends with the game
    finished = _finished(seen)
    resigned = [
        e for e in map(lambda env: unpack(env.event), seen) if isinstance(e, tpb.SeatResigned)
    ]
    assert [r.reason for r in resigned] == [tpb.SeatResigned.REASON_TIMED_OUT]
    timed_out = [
        e for e in map(lambda env: unpack(env.event), seen) if isinstance(e, tpb.SeatTimedOut)
    ]
    assert [t.seat for t in timed_out] == [resigned[0].seat]
    assert list(finished.winners) == [1 - resigned[0].seat]


async def test_a_game_whose_seats_all_left_ends(bounded: tuple[RunningServer, Client]) -> None:
    _, client = bounded
    game_id, tokens = await _seated(client, 3)
    await client.resign(game_id, tokens[0])
    await client.remove_seat(game_id, 1, OPERATOR_TOKEN)
    view = await client.view(game_id)
    assert view.table.finished
    assert list(_finished(await client.audit(game_id, OPERATOR_TOKEN)).winners) == [2]


async def test_a_game_whose_seats_are_all_absent_ends(tmp_path: Path) -> None:
    server = await start(
        Settings(
            address="127.0.0.1:0",
            database=str(tmp_path / "cardroom.sqlite3"),
            operator_token=OPERATOR_TOKEN,
            absent_after=1,
            limits=Limits(end_absent_games_after=1),
        )
    )
    client = Client.connect(f"127.0.0.1:{server.port}")
    try:
        game_id, tokens = await _seated(client, 3)
        assert (await client.view(game_id)).table.table_options.end_when_absent_seconds == 1
        await client.resign(game_id, tokens[1])
        seen: list[epb.EventEnvelope] = []

        async def follow() -> None:  # a spectator: nobody's presence
            async for envelope in client.watch(game_id):
                seen.append(envelope)

        await asyncio.wait_for(follow(), timeout=60)  # the feed ends with the game
        events = [unpack(e.event) for e in seen]
        absent = [
            e.seat
            for e in events
            if isinstance(e, tpb.SeatResigned) and e.reason == tpb.SeatResigned.REASON_ABSENT
        ]
        assert absent == [0, 2]
        assert list(_finished(seen).winners) == []
        log = await client.audit(game_id, OPERATOR_TOKEN)
        assert log[-3].command.actor.kind == epb.Actor.KIND_CLOCK
        assert unpack(log[-3].command.command) == tpb.SeatsAbsent(version=len(log) - 3)
    finally:
        await client.close()
        await server.stop(grace=None)


def test_a_present_seat_keeps_its_game(tmp_path: Path) -> None:
    """On an injected clock: at the absent deadline a seat that called
    lately keeps the game running; once it is absent too, the game ends."""
    from datetime import UTC, datetime, timedelta

    from cardroom.server.games.application import Games
    from cardroom.server.storage.log import GameLog

    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    games = Games(
        GameLog(str(tmp_path / "cardroom.sqlite3")),
        operator_token=OPERATOR_TOKEN,
        clock=lambda: now[0],
        absent_after=120,
    )
    games.commands.end_when_absent_seconds = 600
    try:
        game_id = games.create_game(SM, None, 2)
        tokens = [games.join(game_id, None, f"P{i}")[1] for i in range(2)]
        games.start(game_id, tokens[0])
        alarm = games.clocks.absent_alarm(game_id)
        assert alarm is not None and alarm.deadline == now[0] + timedelta(seconds=600)
        now[0] += timedelta(seconds=599)
        games.view(game_id, tokens[0], None)  # seat 0 is here
        now[0] += timedelta(seconds=1)
        assert games.clocks.fire_due() == 0
        assert not games.load(game_id).table.finished
        now[0] += timedelta(seconds=150)  # its re-check: seat 0 is absent now
        assert games.clocks.fire_due() == 1
        table = games.load(game_id).table
        assert table.finished and table.resigned == frozenset({0, 1})
    finally:
        games.close()
        games.log.close()


def test_an_open_game_nobody_starts_ends(tmp_path: Path) -> None:
    """T-ABSENT for open games, on an injected clock: a game nobody starts
    ends once it has recorded nothing for its seconds, whoever is calling;
    a write in between keeps it; the clock is re-armed after a restart; the
    record audits, and the game is not rated."""
    from datetime import UTC, datetime, timedelta

    from cardroom.server.games.application import Games
    from cardroom.server.storage.log import GameLog
    from cardroom.trust.audit import audit_record
    from cardroom.v1 import game_service_pb2 as gpb

    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    path = str(tmp_path / "cardroom.sqlite3")

    def open_games() -> Games:
        games = Games(
            GameLog(path), operator_token=OPERATOR_TOKEN, clock=lambda: now[0], absent_after=120
        )
        games.commands.end_when_absent_seconds = 600
        return games

    games = open_games()
    try:
        game_id = games.create_game(SM, None, 3)
        token = games.join(game_id, None, "P0")[1]
        now[0] += timedelta(seconds=599)
        games.join(game_id, None, "P1")  # a write: the game's 600 s count again
        now[0] += timedelta(seconds=1)
        assert games.clocks.fire_due() == 0
        assert not games.load(game_id).table.finished
    finally:
        games.close()
        games.log.close()
    games = open_games()  # a restart: the open game's clock is armed from its events
    try:
        games.clocks.rearm()
        now[0] += timedelta(seconds=598)
        games.view(game_id, token, None)  # a call is no write: it keeps nothing
        assert games.clocks.fire_due() == 0
        now[0] += timedelta(seconds=1)
        assert games.clocks.fire_due() == 1
        table = games.load(game_id).table
        assert table.finished and not table.started and table.winners == ()
        log = games.audit_log(game_id, OPERATOR_TOKEN)
        assert log[-1].command.actor.kind == epb.Actor.KIND_CLOCK
        assert unpack(log[-1].command.command) == tpb.NeverStarted(version=len(log) - 1)
        assert _finished(log).reason == tpb.GameFinished.REASON_NEVER_STARTED
        with pytest.raises(Exception, match="T-PLAY"):
            games.join(game_id, None, "late")
        report = audit_record(games.export_record(game_id, OPERATOR_TOKEN))
        assert report.ok, report.render()

        # The game list: finished, and no longer a free seat to take.
        def listed(request: gpb.ListGamesRequest) -> list[str]:
            return [g.game_id for g in games.game_list.page(request).games]

        assert listed(gpb.ListGamesRequest(status=gpb.GAME_STATUS_FINISHED)) == [game_id]
        assert listed(gpb.ListGamesRequest(open_seats_only=True)) == []
        assert listed(gpb.ListGamesRequest(status=gpb.GAME_STATUS_OPEN)) == []
    finally:
        games.close()
        games.log.close()
