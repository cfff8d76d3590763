"""Resigning and removing seats through the service (T-RESIGN, T-REMOVE):
recorded as events with the right actor, shown in the table view, refused
(writing nothing) when not allowed; the game goes on for the others and ends
when one seat is left, and its record audits."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import any_pb2

from cardroom.client import Client
from cardroom.domain.kernel import Forbidden, RuleViolation
from cardroom.server.errors import PermissionDenied
from cardroom.server.games.application import Games
from cardroom.server.storage.log import GameLog
from cardroom.trust.audit import audit_record
from cardroom.trust.envelopes import unpack
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from tests.conftest import OPERATOR_TOKEN, Served


def packed(message: Any) -> any_pb2.Any:
    a = any_pb2.Any()
    a.Pack(message)
    return a


@pytest.fixture
def games(tmp_path: Path) -> Iterator[Games]:
    games = Games(GameLog(str(tmp_path / "cardroom.sqlite3")), operator_token=OPERATOR_TOKEN)
    yield games
    games.close()
    games.log.close()


def seated(games: Games, seats: int = 3) -> tuple[str, list[str]]:
    game_id = games.create_game("smoke-and-mirrors", None, seats)
    tokens = [games.join(game_id, None, f"P{i}")[1] for i in range(seats)]
    games.start(game_id, tokens[0])
    return game_id, tokens


def test_a_resignation_and_a_removal_end_the_game_for_the_last_seat(games: Games) -> None:
    game_id, tokens = seated(games)
    games.submit(game_id, tokens[1], packed(tpb.Resign()), "bye", None)
    view = games.view(game_id, tokens[0], None)
    assert list(view.table.resigned_seats) == [1] and not view.table.finished
    assert games.legal_actions(game_id, tokens[1])[1] == []
    with pytest.raises(RuleViolation) as refused:
        games.submit(game_id, tokens[1], packed(tpb.Resign()), "again", None)
    assert refused.value.rule == "T-RESIGN"
    version = games.version(game_id)
    with pytest.raises(PermissionDenied):
        games.remove_seat(game_id, tokens[0], 2, "not-the-operator")
    assert games.version(game_id) == version
    games.remove_seat(game_id, OPERATOR_TOKEN, 2, "remove")
    view = games.view(game_id, None, None)
    assert view.table.finished and list(view.table.winners) == [0]
    assert list(view.table.resigned_seats) == [1, 2]
    log = games.audit_log(game_id, OPERATOR_TOKEN)
    resigned = [
        (e.command.actor.kind, unpack(e.event))
        for e in log
        if e.event.Is(tpb.SeatResigned.DESCRIPTOR)
    ]
    assert resigned == [
        (epb.Actor.KIND_SEAT, tpb.SeatResigned(seat=1, reason=tpb.SeatResigned.REASON_RESIGNED)),
        (
            epb.Actor.KIND_OPERATOR,
            tpb.SeatResigned(seat=2, reason=tpb.SeatResigned.REASON_REMOVED),
        ),
    ]
    report = audit_record(games.export_record(game_id, OPERATOR_TOKEN))
    assert report.ok, report.render()


def test_only_the_clock_sends_clock_expiries(games: Games) -> None:
    game_id, tokens = seated(games)
    version = games.version(game_id)
    with pytest.raises(Forbidden):
        games.submit(
            game_id, tokens[0], packed(tpb.ClockExpired(seat=0, version=version)), "x", None
        )
    assert games.version(game_id) == version


async def test_list_legal_actions_offers_resign_to_the_awaited_seat(served: Served) -> None:
    client: Client = served.client
    game_id = await client.create_game("smoke-and-mirrors", seat_count=3)
    seats = [await client.join(game_id, f"P{i}") for i in range(3)]
    await client.start(game_id, seats[0].token)
    offered = [await client.legal_actions(game_id, s.token, with_resign=True) for s in seats]
    waited = [i for i, actions in enumerate(offered) if actions]
    assert len(waited) == 1
    assert offered[waited[0]][-1] == tpb.Resign()
    plain = await client.legal_actions(game_id, seats[waited[0]].token)
    assert plain == offered[waited[0]][:-1]
    other = (waited[0] + 1) % 3
    await client.resign(game_id, seats[other].token)
    view = await client.view(game_id)
    assert list(view.table.resigned_seats) == [other]
    await client.remove_seat(game_id, waited[0], OPERATOR_TOKEN)
    view = await client.view(game_id)
    assert view.table.finished
    assert list(view.table.winners) == [3 - other - waited[0]]


class Now:
    def __init__(self) -> None:
        from datetime import UTC, datetime

        self.at = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> Any:
        return self.at

    def advance(self, seconds: float) -> None:
        from datetime import timedelta

        self.at += timedelta(seconds=seconds)


def test_a_seat_that_stops_calling_shows_as_absent(tmp_path: Path) -> None:
    now = Now()
    games = Games(
        GameLog(str(tmp_path / "presence.sqlite3")),
        operator_token=OPERATOR_TOKEN,
        clock=now,
        absent_after=60,
    )
    try:
        game_id, tokens = seated(games)
        assert list(games.view(game_id, None, None).table.absent_seats) == []
        now.advance(59)
        games.legal_actions(game_id, tokens[0])  # seat 0 calls
        now.advance(1)
        with games.presence.watching(game_id, 2):  # seat 2 watches
            assert list(games.view(game_id, None, None).table.absent_seats) == [1]
        now.advance(58)
        assert list(games.view(game_id, None, None).table.absent_seats) == [1]
        now.advance(1)  # 60 s since seat 0 called
        assert list(games.view(game_id, None, None).table.absent_seats) == [0, 1]
        now.advance(1)  # 60 s since seat 2 stopped watching
        assert list(games.view(game_id, None, None).table.absent_seats) == [0, 1, 2]
        games.remove_seat(game_id, OPERATOR_TOKEN, 1, "gone")
        assert list(games.view(game_id, None, None).table.absent_seats) == [0, 2]
        # A past version shows no presence: it is a fact of now, not of the game.
        assert list(games.view(game_id, None, 2).table.absent_seats) == []
    finally:
        games.close()
        games.log.close()


def test_a_game_every_human_left_is_ended_by_its_table_rules(tmp_path: Path) -> None:
    """Abandoned games (T-RESIGN by absence): once every human seat has made
    no call past the limit, those seats are removed with REASON_ABSENT; a
    game with a human still calling is left alone; the record audits."""
    from datetime import UTC, datetime, timedelta

    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    games = Games(
        GameLog(str(tmp_path / "abandoned.sqlite3")),
        operator_token=OPERATOR_TOKEN,
        clock=lambda: now[0],
        absent_after=60,
    )
    try:
        game_id, _ = seated(games)
        kept_id, kept = seated(games)
        now[0] += timedelta(seconds=30)
        assert games.end_abandoned(600) == []
        now[0] += timedelta(seconds=600)
        games.view(kept_id, kept[2], None)  # one human of this game still calls
        removed = games.end_abandoned(600)
        assert removed == [(game_id, 0), (game_id, 1)]  # the second removal ends it
        view = games.view(game_id, None, None)
        assert view.table.finished and list(view.table.resigned_seats) == [0, 1]
        assert not games.view(kept_id, None, None).table.finished
        reasons = [
            unpack(e.event).reason
            for e in games.audit_log(game_id, OPERATOR_TOKEN)
            if e.event.Is(tpb.SeatResigned.DESCRIPTOR)
        ]
        assert reasons == [tpb.SeatResigned.REASON_ABSENT] * 2
        report = audit_record(games.export_record(game_id, OPERATOR_TOKEN))
        assert report.ok, report.render()
    finally:
        games.close()
        games.log.close()


def test_abandon_after_leaves_to_t_absent_the_games_it_ends(tmp_path: Path) -> None:
    """One rule per game (docs/rules/table.md T-ABSENT, T-REMOVE): a game
    with T-ABSENT whose seats still playing are all absent is the table
    clock's to end (SeatsAbsent, audited), never also the sweep's; the sweep
    (``--abandon-after``) removes the humans of a game a present seat still
    plays (a server bot's), and of a game recorded without T-ABSENT."""
    from datetime import UTC, datetime, timedelta

    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    games = Games(
        GameLog(str(tmp_path / "one-rule.sqlite3")),
        operator_token=OPERATOR_TOKEN,
        clock=lambda: now[0],
        absent_after=60,
    )
    games.commands.end_when_absent_seconds = 600
    try:
        absent_id, _ = seated(games)  # nobody calls: T-ABSENT's
        played_id = games.create_game("smoke-and-mirrors", None, 3)
        host = games.join(played_id, None, "P0")[1]
        games.join(played_id, None, "P1")
        games.add_bot(played_id, host, "random", 2)
        games.start(played_id, host)
        now[0] += timedelta(seconds=600)
        games.presence.seen(played_id, 2)  # the server's bot plays on
        removed = games.end_abandoned(600)
        assert removed == [(played_id, 0), (played_id, 1)]
        assert games.clocks.fire_due() == 1  # the absent game, by the table's clock
        log = games.audit_log(absent_id, OPERATOR_TOKEN)
        assert unpack(log[-4].command.command) == tpb.SeatsAbsent(version=len(log) - 4)
        assert games.end_abandoned(600) == []
    finally:
        games.close()
        games.log.close()
