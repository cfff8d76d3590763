"""The Python client's share of the deal (T-ENTROPY) through a real server:
it commits to its own entropy, reveals it when the game starts, and at the
end the opened seed and every reveal give the deal it saw; a client that
commits to none is told the server drew its entropy; a reveal that does not
match is refused naming the rule."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from cardroom.client import InvalidArgument, RuleBroken
from cardroom.client.bots.runner import play_bots, seat_bots
from cardroom.client.entropy import commitment, new_entropy, verdict, verify_deal
from cardroom.client.sessions import BotSeat
from cardroom.domain import table as tables
from cardroom.trust.entropy import entropy_commitment
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from tests.conftest import Served

KIND = "smoke-and-mirrors"


def test_the_client_commits_exactly_as_the_rules_check() -> None:
    entropy = new_entropy()
    assert len(entropy) == 32 and entropy != new_entropy()
    assert commitment(entropy) == entropy_commitment(entropy) == tables.entropy_commitment(entropy)


async def test_a_seat_that_commits_reveals_and_its_deal_is_verified(server: Served) -> None:
    client = server.client
    game_id = await client.create_game(KIND, seat_count=3)
    mine = await client.join(game_id, "Ada", entropy=new_entropy())
    assert mine.entropy and not mine.server_entropy
    bots = await seat_bots(client, game_id, 2, "random")
    await client.start(game_id, mine.token)
    # The table waits for Ada's entropy: nothing is dealt; her legal actions
    # are the reveal (its entropy hers to fill in) and Resign; the bots' none.
    view = await client.view(game_id, mine.token)
    assert await client.legal_actions(game_id, mine.token, with_resign=True) == [
        tpb.RevealEntropy(),
        tpb.Resign(),
    ]
    assert [await client.legal_actions(game_id, b.token, with_resign=True) for b in bots] == [
        [],
        [],
    ]
    with pytest.raises(RuleBroken, match="T-ENTROPY: the entropy does not match"):
        await client.reveal_entropy(game_id, mine.token, new_entropy())
    assert (await client.view(game_id, mine.token)).version == view.version  # wrote nothing
    with pytest.raises(InvalidArgument, match="entropy must be 32 bytes"):
        await client.reveal_entropy(game_id, mine.token, b"short")
    assert (await client.view(game_id, mine.token)).version == view.version  # wrote nothing
    await client.reveal_entropy(game_id, mine.token, mine.entropy)
    # Ada's copies, as served live while the game is played.
    watching = asyncio.create_task(collect(client.watch(game_id, mine.token)))
    await play_bots(client, game_id, KIND, (*bots, BotSeat(mine.seat, mine.token, "random")), 3)
    copies = await asyncio.wait_for(watching, 60)
    record = await client.export_record(game_id, mine.token)
    problems = verify_deal(record, mine.seat, mine.entropy, copies=copies)
    assert problems == []
    assert verdict(problems) == "Deal verified ✓"  # short: the details on request
    # Claiming other entropy than the seat committed to is caught.
    wrong = verify_deal(record, mine.seat, new_entropy(), copies=copies)
    assert any("commitment" in p for p in wrong)
    assert verdict(wrong).startswith("Deal NOT verified ✗")


async def test_a_seat_that_commits_to_nothing_is_told_the_server_drew_its_entropy(
    server: Served,
) -> None:
    client = server.client
    game_id = await client.create_game(KIND, seat_count=2)
    handle = await client.join(game_id, "Bo")
    assert len(handle.server_entropy) == 32 and not handle.entropy
    other = await client.join(game_id, "Cy")
    await client.start(game_id, handle.token)
    # Revealed by the server at the start: the deal is under way already.
    assert await client.legal_actions(game_id, handle.token) or await client.legal_actions(
        game_id, other.token
    )
    with pytest.raises(RuleBroken, match=r"T-ENTROPY: seat \d owes no entropy"):
        await client.reveal_entropy(game_id, handle.token, handle.server_entropy)
    async for envelope in client.watch(game_id, handle.token):
        if envelope.event.Is(tpb.GameStarted.DESCRIPTOR):
            assert len(envelope.openings) == 2  # both seats' entropy, opened
            break
    else:
        raise AssertionError("no GameStarted")


async def collect(stream: AsyncIterator[epb.EventEnvelope]) -> list[epb.EventEnvelope]:
    return [envelope async for envelope in stream]


async def test_a_commitment_that_is_not_32_bytes_is_refused_and_takes_no_seat(
    server: Served,
) -> None:
    client = server.client
    game_id = await client.create_game(KIND, seat_count=2)
    request = gpb.JoinGameRequest(game_id=game_id, player_name="Di", entropy_commitment=b"short")
    with pytest.raises(InvalidArgument, match="entropy_commitment must be 32 bytes"):
        await client._call("JoinGame", request)
    assert (await client.view(game_id)).table.player_names == ["", ""]
