"""Commands through a real gRPC server: rules, errors, idempotency, concurrency.

Every refused command must leave the log exactly as it was.
"""

from __future__ import annotations

import asyncio

import pytest
from google.protobuf import any_pb2

from cardroom.client import (
    Conflict,
    InvalidArgument,
    PermissionDenied,
    RuleBroken,
    Unauthenticated,
)
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from tests.conftest import OPERATOR_TOKEN, Served
from tests.service.helpers import deal, seated_game, skull, star, swirl

HANDS = [
    [star(1), swirl(2), skull(5)],
    [star(1), swirl(1), skull(5)],
    [star(0), swirl(3), skull(0)],
]


async def log_length(served: Served, game_id: str) -> int:
    return len(await served.client.audit(game_id, OPERATOR_TOKEN))


async def test_seats_see_their_own_hand_and_only_counts_of_others(served: Served) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    view = await served.client.view(table.game_id, table.token(0))
    assert view.response.viewer_kind == gpb.VIEWER_KIND_SEAT
    seats = {s.seat: s for s in view.game.seats}
    assert list(seats[0].hand) == HANDS[0]
    assert seats[1].hand_count == 3 and not seats[1].hand
    assert seats[2].hand_count == 3 and not seats[2].hand
    spectator = await served.client.view(table.game_id)
    assert all(not s.hand for s in spectator.game.seats)


async def test_a_played_game_follows_the_rules(served: Served) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    c, g = served.client, table.game_id
    await c.act(g, table.token(0), sm.PerformAct(cards=[star(1)]))  # claims 1, true
    await c.act(g, table.token(1), sm.PerformAct(cards=[swirl(1)]))  # claims 2, false
    await c.act(g, table.token(2), sm.Challenge())  # seat 1 bluffed: seat 1 is out
    view = await c.view(g)
    assert [s.active for s in view.game.seats] == [True, False, True]
    assert view.game.turn_seat == 2
    assert view.game.phase == sm.PHASE_SWAP


async def test_out_of_turn_is_refused_naming_the_rule_and_writes_nothing(served: Served) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    before = await log_length(served, table.game_id)
    with pytest.raises(RuleBroken, match="turn"):
        await served.client.act(table.game_id, table.token(1), sm.PerformAct(cards=[star(1)]))
    assert await log_length(served, table.game_id) == before


async def test_a_rule_violation_names_the_ruling_and_writes_nothing(served: Served) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    before = await log_length(served, table.game_id)
    with pytest.raises(RuleBroken, match="SM-03"):  # the opening act is exactly one card
        await served.client.act(
            table.game_id, table.token(0), sm.PerformAct(cards=[star(1), swirl(2)])
        )
    with pytest.raises(RuleBroken, match="SM-0"):  # no break on the opening turn
        await served.client.act(table.game_id, table.token(0), sm.TakeBreak())
    assert await log_length(served, table.game_id) == before


async def test_credentials_are_checked(served: Served) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    c, g = served.client, table.game_id
    act = sm.PerformAct(cards=[star(1)])
    before = await log_length(served, g)
    with pytest.raises(Unauthenticated):
        await c._call(
            "SubmitCommand",
            gpb.SubmitCommandRequest(game_id=g, command=_pack(act), command_id="x"),
        )
    with pytest.raises(Unauthenticated):
        await c.act(g, "not-a-token", act)
    with pytest.raises(Unauthenticated):
        await c.view(g, "not-a-token")
    with pytest.raises(PermissionDenied):
        await c.act(g, OPERATOR_TOKEN, act)
    other = await seated_game(c, set_deal=[deal(0, first=HANDS)])
    with pytest.raises(Unauthenticated):  # a seat token of another game
        await c.act(g, other.token(0), act)
    assert await log_length(served, g) == before


async def test_a_seat_cannot_forge_the_dealers_outcomes(served: Served) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    before = await log_length(served, table.game_id)
    with pytest.raises(PermissionDenied, match="dealer"):
        await served.client.act(table.game_id, table.token(0), deal(0))
    with pytest.raises(InvalidArgument):
        await served.client.act(table.game_id, table.token(0), tpb.StartGame())
    assert await log_length(served, table.game_id) == before


async def test_malformed_commands_are_invalid_arguments(served: Served) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    c, g = served.client, table.game_id
    garbage = any_pb2.Any(type_url="type.googleapis.com/no.such.Message", value=b"\x01")
    bad_bytes = any_pb2.Any(
        type_url="type.googleapis.com/cardroom.smoke_and_mirrors.v1.GiveCard", value=b"\xff\xff\xff"
    )
    for command in (garbage, bad_bytes, any_pb2.Any()):
        with pytest.raises(InvalidArgument):
            await c._call(
                "SubmitCommand",
                gpb.SubmitCommandRequest(game_id=g, command=command, command_id="x"),
                table.token(0),
            )
    with pytest.raises(InvalidArgument, match="command_id"):
        await c._call(
            "SubmitCommand",
            gpb.SubmitCommandRequest(game_id=g, command=_pack(sm.Challenge())),
            table.token(0),
        )
    with pytest.raises(InvalidArgument):  # a card that does not exist
        await c.act(g, table.token(0), sm.PerformAct(cards=[sm.Card(pile=9, value=1)]))
    # The server keeps serving.
    await c.act(g, table.token(0), sm.PerformAct(cards=[star(1)]))


async def test_a_stale_expected_version_is_aborted_and_writes_nothing(served: Served) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    c, g = served.client, table.game_id
    version = await log_length(served, g)
    with pytest.raises(Conflict):
        await c.act(g, table.token(0), sm.PerformAct(cards=[star(1)]), expected_version=version - 1)
    assert await log_length(served, g) == version
    response = await c.act(
        g, table.token(0), sm.PerformAct(cards=[star(1)]), expected_version=version
    )
    assert response.version > version


async def test_a_retried_command_id_returns_the_first_outcome_and_writes_nothing(
    served: Served,
) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    c, g = served.client, table.game_id
    act = sm.PerformAct(cards=[star(1)])
    first = await c.act(g, table.token(0), act, command_id="act-1")
    after = await log_length(served, g)
    again = await c.act(g, table.token(0), act, command_id="act-1")
    assert again == first
    assert await log_length(served, g) == after
    with pytest.raises(InvalidArgument, match="different command"):
        await c.act(g, table.token(0), sm.TakeBreak(), command_id="act-1")


async def test_concurrent_commands_apply_once_each(served: Served) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    c, g = served.client, table.game_id
    act = sm.PerformAct(cards=[star(1)])
    outcomes = await asyncio.gather(
        *(c.act(g, table.token(0), act, command_id=f"race-{i}") for i in range(8)),
        return_exceptions=True,
    )
    accepted = [o for o in outcomes if isinstance(o, gpb.SubmitCommandResponse)]
    refused = [o for o in outcomes if isinstance(o, (RuleBroken, Conflict))]
    assert len(accepted) == 1 and len(refused) == 7
    log = await c.audit(g, OPERATOR_TOKEN)
    assert [e.sequence for e in log] == list(range(1, len(log) + 1))
    acts = [e for e in log if e.event.Is(sm.ActPerformed.DESCRIPTOR)]
    assert len(acts) == 1


async def test_set_deals_are_for_the_operator_and_announced_publicly(served: Served) -> None:
    c = served.client
    with pytest.raises(PermissionDenied):
        await c.create_game("smoke-and-mirrors", seat_count=3, set_deal=[deal(0)])
    with pytest.raises(InvalidArgument, match="set deal holds only"):
        await c.create_game(
            "smoke-and-mirrors",
            seat_count=3,
            set_deal=[sm.PerformAct()],
            operator_token=OPERATOR_TOKEN,
        )
    table = await seated_game(c, set_deal=[deal(0, first=HANDS)])
    view = await c.view(table.game_id)
    assert view.table.set_deal
    events = [e async for e in _take(c.watch(table.game_id), 1)]
    created = tpb.GameCreated()
    events[0].event.Unpack(created)
    assert created.set_deal
    # The script itself stays hidden until the end: only its digest shows.
    assert events[0].secrets and not any(s.HasField("value") for s in events[0].secrets)


async def test_the_audit_log_is_the_operators_until_the_game_is_over(
    served: Served,
) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    with pytest.raises(RuleBroken, match="T-LOG"):
        await served.client.audit(table.game_id)
    with pytest.raises(RuleBroken, match="T-LOG"):
        await served.client.audit(table.game_id, table.token(0))
    assert await served.client.audit(table.game_id, OPERATOR_TOKEN)


async def test_starting_needs_every_seat_and_a_credential(served: Served) -> None:
    c = served.client
    table = await seated_game(c, start=False)
    game_id = await c.create_game("smoke-and-mirrors", seat_count=3)
    seat = await c.join(game_id, "Ada")
    with pytest.raises(RuleBroken, match="free"):
        await c.start(game_id, seat.token)
    with pytest.raises(Unauthenticated):
        await c._call("StartGame", gpb.StartGameRequest(game_id=table.game_id))
    await c.start(table.game_id, table.token(2))
    with pytest.raises(RuleBroken, match="already started"):
        await c.join(table.game_id, "Late")


async def test_games_are_listed_with_public_facts(served: Served) -> None:
    table = await seated_game(served.client)
    [summary] = await served.client.list_games()
    assert summary.game_id == table.game_id
    assert summary.kind == "smoke-and-mirrors"
    assert (summary.seat_count, summary.seats_taken, summary.started) == (3, 3, True)


def _pack(message: object) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)  # type: ignore[arg-type]
    return packed


async def _take(stream, n: int):  # type: ignore[no-untyped-def]
    taken = 0
    async for item in stream:
        yield item
        taken += 1
        if taken == n:
            return
