"""Invitations (T-INVITE), server-side bots (AddBot) and the post-mortem,
through a real gRPC server: an invitation seats its holder once and shows
no other token; a wrong or used code is refused naming the rule; a bot the
server runs plays to the end after the client that added it has gone, and
again after a restart; a seat of a finished game sees every card."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from cardroom.client import Client, InvalidArgument, RuleBroken, Unauthenticated
from cardroom.domain.kernel import AUDITOR, Viewer
from cardroom.server.api.server import Settings, start
from cardroom.trust.audit import audit_record
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN, Served
from tests.service.helpers import bots_finish, start_unless_started

KIND = "smoke-and-mirrors"


async def test_an_invitation_seats_its_holder_once(served: Served) -> None:
    client = served.client
    game_id = await client.create_game(KIND, seat_count=3)
    host = await client.join(game_id, "Ada")
    invitation = await client.invite(game_id, host.token)
    assert invitation.seat == 1 and invitation.code.startswith("inv_")
    # The held seat is skipped by a plain join, and refused by name.
    with pytest.raises(RuleBroken, match="T-INVITE"):
        await client.join(game_id, "Gatecrasher", seat=1)
    other = await client.join(game_id, "Bo")
    assert other.seat == 2
    guest = await client.accept_invitation(game_id, invitation.code, "Cy")
    assert guest.seat == 1
    assert guest.token not in (host.token, other.token)
    view = await client.view(game_id, guest.token)
    assert view.response.viewer_kind == gpb.VIEWER_KIND_SEAT and view.response.seat == 1
    assert list(view.table.player_names) == ["Ada", "Cy", "Bo"]
    # Once only: the same code again is refused naming the rule.
    with pytest.raises(RuleBroken, match=r"T-INVITE.*used"):
        await client.accept_invitation(game_id, invitation.code, "Dee")
    # No token of another seat travels in what the guest can read.
    seen = []
    async for envelope in client.watch(game_id, guest.token):
        seen.append(envelope)
        if envelope.sequence >= view.version:
            break
    assert len(seen) == view.version
    assert _token_free(seen, [host.token, other.token])
    assert _token_free([view.response], [host.token, other.token])  # type: ignore[list-item]


async def test_a_wrong_code_is_refused_naming_the_rule(served: Served) -> None:
    client = served.client
    game_id = await client.create_game(KIND, seat_count=3)
    host = await client.join(game_id, "Ada")
    await client.invite(game_id, host.token)
    version = (await client.view(game_id, host.token)).version
    with pytest.raises(RuleBroken, match="T-INVITE: no invitation of this game has this code"):
        await client.accept_invitation(game_id, "inv_not-the-code", "Mallory")
    assert (await client.view(game_id, host.token)).version == version


async def test_only_a_seat_or_the_operator_invites_or_adds_a_bot(served: Served) -> None:
    client = served.client
    game_id = await client.create_game(KIND, seat_count=3)
    with pytest.raises(Unauthenticated):
        await client.invite(game_id, "")
    with pytest.raises(Unauthenticated):
        await client.invite(game_id, "seat_forged")
    with pytest.raises(Unauthenticated):
        await client.add_bot(game_id, "")
    invitation = await client.invite(game_id, OPERATOR_TOKEN, seat=2)
    assert invitation.seat == 2
    added = await client.add_bot(game_id, OPERATOR_TOKEN, "random")
    assert (added.seat, added.player_name) == (0, "random bot 1")


def _token_free(envelopes: list[epb.EventEnvelope], tokens: list[str]) -> bool:
    blob = b"".join(e.SerializeToString() for e in envelopes)
    return not any(t.encode() in blob for t in tokens)


async def _bots_done(server: Any, game_id: str, seats: set[int]) -> None:
    """The server's bots in these seats saw the end (each returns once its
    own feed has the game's last event, a moment after the view does)."""
    wanted = {(game_id, seat) for seat in seats}
    for _ in steps(600, "the server's bots to see the end"):
        if server.bots is not None and wanted <= server.bots.finished:
            return
        await asyncio.sleep(0.05)


async def test_server_bots_play_to_the_end_after_their_creator_leaves(served: Served) -> None:
    client = served.client
    game_id = await client.create_game(KIND, seat_count=3)
    host = await client.join(game_id, "Ada")
    first = await client.add_bot(game_id, host.token)
    second = await client.add_bot(game_id, host.token)
    assert (first.player_name, second.player_name) == ("heuristic bot 1", "heuristic bot 2")
    # The creator starts the game and leaves for good: its seat is played by
    # the game's default choice, the two bots play theirs on the server.
    await start_unless_started(client, game_id, host.token)
    await client.resign(game_id, host.token)
    view = await bots_finish(client, game_id, host.token)
    assert view.table.finished
    await _bots_done(served.server, game_id, {1, 2})
    record = await client.export_record(game_id, host.token)
    report = audit_record(record)
    assert report.ok, report.render()
    # The bots acted as their seats: every command of seats 1 and 2 is theirs.
    log = await client.audit(game_id, host.token)
    actors = {e.command.actor.seat for e in log if e.command.actor.kind == epb.Actor.KIND_SEAT}
    assert {1, 2} <= actors


async def test_a_bot_keeps_playing_across_a_restart(tmp_path: Path) -> None:
    database = str(tmp_path / "cardroom.sqlite3")
    settings = Settings(address="127.0.0.1:0", database=database, operator_token=OPERATOR_TOKEN)
    server = await start(settings)
    client = Client.connect(f"127.0.0.1:{server.port}")
    try:
        game_id = await client.create_game(KIND, seat_count=3)
        host = await client.join(game_id, "Ada")
        await client.add_bot(game_id, host.token)
        await client.add_bot(game_id, host.token, "random")
    finally:
        await client.close()
        await server.stop(grace=None)
    # The bots were never started (the game was not); after a restart the
    # server finds them in the events and plays them once the host starts.
    server = await start(settings)
    client = Client.connect(f"127.0.0.1:{server.port}")
    try:
        await start_unless_started(client, game_id, host.token)
        await client.resign(game_id, host.token)
        view = await bots_finish(client, game_id, host.token)
        assert view.table.finished
        await _bots_done(server, game_id, {1, 2})
    finally:
        await client.close()
        await server.stop(grace=None)


async def test_a_server_search_bot_plays_to_the_end(tmp_path: Path) -> None:
    """The lobby's strongest level: AddBot "search" seats a bot the server
    runs, thinking --bot-think-ms a move in a worker process."""
    settings = Settings(
        address="127.0.0.1:0",
        database=str(tmp_path / "cardroom.sqlite3"),
        operator_token=OPERATOR_TOKEN,
        bot_think_ms=20,
    )
    server = await start(settings)
    client = Client.connect(f"127.0.0.1:{server.port}")
    try:
        kinds = await client.game_kinds()
        assert {k.kind: list(k.bot_strategies) for k in kinds} == {
            k.kind: ["random", "heuristic", "search"] for k in kinds
        }
        game_id = await client.create_game(KIND, seat_count=3)
        host = await client.join(game_id, "Ada")
        searcher = await client.add_bot(game_id, host.token, "search")
        other = await client.add_bot(game_id, host.token, "heuristic")
        assert (searcher.player_name, other.player_name) == ("search bot 1", "heuristic bot 1")
        await start_unless_started(client, game_id, host.token)
        await client.resign(game_id, host.token)
        assert (await bots_finish(client, game_id, host.token)).table.finished
        await _bots_done(server, game_id, {searcher.seat, other.seat})
        log = await client.audit(game_id, host.token)
        actors = {e.command.actor.seat for e in log if e.command.actor.kind == epb.Actor.KIND_SEAT}
        assert searcher.seat in actors
    finally:
        await client.close()
        await server.stop(grace=None)


async def test_a_bad_bot_strategy_is_refused(served: Served) -> None:
    client = served.client
    game_id = await client.create_game(KIND, seat_count=3)
    host = await client.join(game_id, "Ada")
    with pytest.raises(
        InvalidArgument,
        match="unknown bot strategy 'clairvoyant'; strategies: random, heuristic, search",
    ):
        await client.add_bot(game_id, host.token, "clairvoyant")
    with pytest.raises(RuleBroken, match="T-INVITE: seat 0 is taken"):
        await client.invite(game_id, host.token, seat=0)


async def test_a_finished_games_seats_see_every_card(served: Served) -> None:
    client = served.client
    game_id = await client.create_game(KIND, seat_count=3)
    tokens = [(await client.join(game_id, f"P{i}")).token for i in range(3)]
    await client.start(game_id, tokens[0])
    before = await client.view(game_id, tokens[0])
    await client.resign(game_id, tokens[1])
    await client.resign(game_id, tokens[2])
    after = await client.view(game_id, tokens[0])
    assert after.table.finished
    assert after.response.viewer_kind == gpb.VIEWER_KIND_SEAT and after.response.seat == 0
    games = served.server.games
    loaded = games.load(game_id)
    full = games.reads.fold(loaded, AUDITOR, loaded.version)
    seat = games.reads.fold(loaded, Viewer.of_seat(0), loaded.version)
    from cardroom.domain import table as tables

    assert after.game == tables.view(full, AUDITOR)
    assert after.game != tables.view(seat, Viewer.of_seat(0))  # more than the seat's own
    assert before.game == tables.view(
        games.reads.fold(loaded, Viewer.of_seat(0), before.version), Viewer.of_seat(0)
    )
    # The replay of every step shows every card too; a spectator's does not.
    steps_seen = [step async for step in client.replay(game_id, tokens[0])]
    assert steps_seen[-1].view.game == after.game
    spectator = await client.view(game_id, None)
    assert spectator.game != after.game


async def test_the_game_list_names_the_seats_and_whom_it_awaits(served: Served) -> None:
    client = served.client
    game_id = await client.create_game(KIND, seat_count=3)
    host = await client.join(game_id, "Ada")
    await client.join(game_id, "Bo")
    await client.add_bot(game_id, host.token)
    await start_unless_started(client, game_id, host.token)
    # The list is a projection that follows the log (on PostgreSQL, from the
    # store's notifications): wait, bounded, until it has caught up.
    for _ in range(100):
        (summary,) = [g for g in await client.list_games() if g.game_id == game_id]
        if summary.player_names and summary.awaited_seats:
            break
        await asyncio.sleep(0.1)
    assert list(summary.player_names) == ["Ada", "Bo", "heuristic bot 1"]
    assert list(summary.bot_seats) == [2]
    # A running game always awaits someone (the humans here never move).
    assert summary.awaited_seats and summary.awaited_since.seconds > 0
    assert set(summary.awaited_seats) <= {0, 1, 2}


def test_the_invitation_rules_refuse_by_name() -> None:
    from cardroom.domain import registry
    from cardroom.domain import table as tables
    from cardroom.domain.kernel import GUEST, Actor, RuleViolation

    game = registry.game(KIND)
    created = tables.create(game, game.options_type(), 3, set_deal=False)
    assert isinstance(created.public, tpb.GameCreated)
    table = tables.initial(game, created.public)
    code = bytes(32)
    host = tables.decide(table, GUEST, tpb.TakeSeat(player_name="A", token_sha256=b"a" * 32))
    for e in host:
        table = tables.evolve(table, e)
    issued = tables.decide(table, Actor.of_seat(0), tpb.IssueInvitation(code_sha256=code))
    for e in issued:
        table = tables.evolve(table, e)
    assert table.held == {1}
    with pytest.raises(RuleViolation) as refused:
        tables.decide(
            table,
            GUEST,
            tpb.TakeSeat(player_name="B", token_sha256=b"b" * 32, invitation_sha256=b"x" * 32),
        )
    assert refused.value.rule == "T-INVITE"
    taken = tables.decide(
        table, GUEST, tpb.TakeSeat(player_name="B", token_sha256=b"b" * 32, invitation_sha256=code)
    )
    assert taken[0].public == tpb.SeatTaken(seat=1, player_name="B")
