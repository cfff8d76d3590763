"""Smiles & Daggers through the gRPC API, as real clients play it: the
rulebook's gameplay example (E1) and end-game ties (E2), checked after every
stage from every seat's and a spectator's own view; the reveal opens both
commitments for everyone."""

from __future__ import annotations

import pytest

from cardroom.client import Client, RuleBroken
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb
from cardroom.trust.commitments import check_secret_opening
from cardroom.v1 import envelope_pb2 as epb
from tests.conftest import OPERATOR_TOKEN, Served
from tests.smiles_and_daggers.scenarios import E1, E2, Expect, Scenario


async def setup(client: Client, scenario: Scenario) -> tuple[str, list[str]]:
    game_id = await client.create_game(
        scenario.kind,
        seat_count=scenario.seat_count,
        options=scenario.options,
        set_deal=list(scenario.chance),
        operator_token=OPERATOR_TOKEN,
    )
    seats = [await client.join(game_id, name, seat) for seat, name in enumerate(scenario.players)]
    await client.start(game_id, seats[0].token)
    return game_id, [s.token for s in seats]


async def check(client: Client, game_id: str, tokens: list[str], expect: Expect) -> None:
    for token in [None, *tokens]:
        view = await client.view(game_id, token)
        game = view.game
        assert isinstance(game, pb.View)
        assert tuple(s.coins for s in game.seats) == expect.coins
        assert tuple(s.hand_count for s in game.seats) == expect.hand_counts
        out = tuple(tuple(sorted([*s.eliminated, *s.lost])) for s in game.seats)
        assert out == expect.out_of_game
        over = game.phase == pb.PHASE_OVER
        assert (None if over else game.current_seat) == expect.current_seat
        assert tuple(view.table.winners) == (expect.winners or ())
        assert view.table.finished == (expect.winners is not None)
        for seat_view in game.seats:  # a hand is its own seat's business, every seat's at the end
            mine = token is not None and tokens[seat_view.seat] == token
            assert seat_view.hand_visible == (mine or (over and token is not None))


@pytest.mark.parametrize("scenario", [E1, E2], ids=lambda s: s.name)
async def test_the_rulebook_examples_play_through_the_api(
    served: Served, scenario: Scenario
) -> None:
    c = served.client
    game_id, tokens = await setup(c, scenario)
    for stage in scenario.stages:
        for seat, command in stage.steps:
            await c.act(game_id, tokens[seat], command)
        await check(c, game_id, tokens, stage.expect)


async def test_e1_luigis_lady_and_andreas_knight_are_opened_to_everyone(served: Served) -> None:
    c = served.client
    game_id, tokens = await setup(c, E1)
    for stage in E1.stages:
        for seat, command in stage.steps:
            await c.act(game_id, tokens[seat], command)
    version = (await c.view(game_id)).version
    stream: list[epb.EventEnvelope] = []
    async for envelope in c.watch(game_id, tokens[4]):  # Gabriele, a bystander
        stream.append(envelope)
        if len(stream) == version:
            break
    [revealed] = [e for e in stream if e.event.Is(pb.CardsRevealed.DESCRIPTOR)]
    opened = []
    for opening in revealed.openings:
        assert check_secret_opening(opening, stream) is None
        card = pb.CommittedCard()
        opening.value.Unpack(card)
        opened.append((card.seat, card.rank, card.orientation))
    assert sorted(opened) == [
        (0, pb.RANK_LADY, pb.ORIENTATION_SMILE),
        (2, pb.RANK_KNIGHT, pb.ORIENTATION_DAGGER),
    ]
    # Before the reveal, Gabriele saw only that each challenger committed.
    committed = [e for e in stream if e.event.Is(pb.CardCommitted.DESCRIPTOR)]
    assert len(committed) == 2
    assert all(not s.HasField("value") for e in committed for s in e.secrets)


async def test_a_commitment_out_of_turn_is_refused_and_writes_nothing(served: Served) -> None:
    c = served.client
    game_id, tokens = await setup(c, E1)
    families = E1.stages[0]
    for seat, command in families.steps:
        await c.act(game_id, tokens[seat], command)
    before = (await c.view(game_id)).version
    with pytest.raises(RuleBroken):
        await c.act(
            game_id,
            tokens[1],
            pb.CommitCard(rank=pb.RANK_LORD, orientation=pb.ORIENTATION_SMILE),
        )
    assert (await c.view(game_id)).version == before
