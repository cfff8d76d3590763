"""Silver Dagger through the gRPC API, as real clients play it, on SQLite and
PostgreSQL: the rulebook's five scoring examples and every ruling's example
(tests/silver_dagger/scenarios.py) from set deals. After every stage each
seat's, a spectator's and the operator's view is checked against the
scenario and compared with the pure rules' view for that viewer; reveals
come with openings that match the digests every viewer kept."""

from __future__ import annotations

import pytest

from cardroom.client import Client, RuleBroken
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb
from cardroom.trust.commitments import check_secret_opening
from cardroom.v1 import envelope_pb2 as epb
from tests.conftest import OPERATOR_TOKEN, Served
from tests.service.test_reveals import stream
from tests.silver_dagger.scenarios import R3, SCENARIOS, SV06_MISMATCH, Scenario, Views
from tests.silver_dagger.support import Table, key, pure_views

KIND = "silver-dagger"
NAMES = ["Ada", "Bo", "Cy", "Di"]


async def setup(client: Client, scenario: Scenario) -> tuple[str, list[str]]:
    game_id = await client.create_game(
        KIND,
        seat_count=scenario.seat_count,
        options=scenario.options,
        set_deal=list(scenario.deals),
        operator_token=OPERATOR_TOKEN,
    )
    seats = [await client.join(game_id, NAMES[s], s) for s in range(scenario.seat_count)]
    await client.start(game_id, seats[0].token)
    return game_id, [s.token for s in seats]


async def api_views(
    client: Client, game_id: str, tokens: list[str], version: int, table: Table
) -> Views:
    """Every viewer's view at ``version``; legal actions are the latest, so
    they are the API's only while it is not ahead of the pure rules (a round's
    end deals the next round at random unless the set deal has it)."""

    async def at(token: str | None) -> pb.View:
        got = (await client.view(game_id, token, version)).game
        assert isinstance(got, pb.View)
        return got

    latest = (await client.view(game_id)).version
    if latest == version:
        legal = [await client.legal_actions(game_id, token) for token in tokens]
    else:
        legal = [table.legal(seat) for seat in range(len(tokens))]
    return Views(
        seats=[await at(token) for token in tokens],
        spectator=await at(None),
        auditor=await at(OPERATOR_TOKEN),
        legal=legal,
    )


def same(api: Views, pure: Views) -> None:
    for got, want in zip([*api.everyone, api.auditor], [*pure.everyone, pure.auditor], strict=True):
        assert got == want
    for got_actions, want_actions in zip(api.legal, pure.legal, strict=True):
        assert [key(a) for a in got_actions] == [key(a) for a in want_actions]


async def play(client: Client, scenario: Scenario) -> tuple[str, list[str], Table]:
    game_id, tokens = await setup(client, scenario)
    table = Table(scenario.seat_count, scenario.options, scenario.deals, check=False)
    table.deal_next()
    before_game = 2 + scenario.seat_count  # GameCreated, SeatTaken..., GameStarted
    for stage in scenario.stages:
        for seat, command in stage.steps:
            await client.act(game_id, tokens[seat], command)
            table.send(seat, command)
        views = await api_views(client, game_id, tokens, before_game + len(table.log), table)
        same(views, pure_views(table))
        if stage.check is not None:
            stage.check(views)
    return game_id, tokens, table


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
async def test_every_example_and_ruling_plays_through_the_api(
    served: Served, scenario: Scenario
) -> None:
    await play(served.client, scenario)


def openings(envelope: epb.EventEnvelope) -> list[epb.SecretOpening]:
    """The openings an envelope carries: for everyone, and to its viewer."""
    found = list(envelope.openings)
    found += [
        epb.SecretOpening.FromString(s.value.value)
        for s in envelope.secrets
        if s.value.Is(epb.SecretOpening.DESCRIPTOR)
    ]
    return found


async def test_shown_cards_open_the_digests_everyone_kept_when_they_were_dealt(
    served: Served,
) -> None:
    c = served.client
    game_id, _, _ = await play(c, SV06_MISMATCH)
    spectator = await stream(c, game_id, None)
    [shown] = [e for e in spectator if e.event.Is(pb.CardsShown.DESCRIPTOR)]
    public = pb.CardsShown()
    shown.event.Unpack(public)
    opened = {}
    for opening in shown.openings:
        assert check_secret_opening(opening, spectator) is None
        card = pb.SlotCard()
        opening.value.Unpack(card)
        opened[card.slot] = card.card
    # The two hidden cards (the first 6 was taken face up, so already public).
    assert opened == {slot: public.cards[i + 1] for i, slot in enumerate(public.revealed_slots)}
    forged = epb.SecretOpening()
    forged.CopyFrom(shown.openings[0])
    forged.value.Pack(pb.SlotCard(slot=public.revealed_slots[0], card=pb.CARD_FURRY))
    assert check_secret_opening(forged, spectator) is not None


async def test_a_look_discloses_the_dealt_cards_to_the_seat_alone(served: Served) -> None:
    c = served.client
    game_id, tokens, _ = await play(c, R3)
    mine = await stream(c, game_id, tokens[0])
    [looked] = [
        e
        for e in mine
        if e.event.Is(pb.CardsLooked.DESCRIPTOR)
        and pb.CardsLooked.FromString(e.event.value).seat == 0
    ]
    disclosed = openings(looked)
    assert len(disclosed) == 2
    for opening in disclosed:
        assert check_secret_opening(opening, mine) is None
        assert opening.sequence == 6  # RoundDealt, after GameCreated, 3 seats, GameStarted
    theirs = await stream(c, game_id, tokens[1])
    [same_event] = [e for e in theirs if e.sequence == looked.sequence]
    assert openings(same_event) == [] and not any(s.HasField("value") for s in same_event.secrets)


async def test_a_refused_command_writes_nothing_and_names_the_rule(served: Served) -> None:
    c = served.client
    game_id, tokens = await setup(c, SV06_MISMATCH)
    before = (await c.view(game_id)).version
    with pytest.raises(RuleBroken, match="SV-01"):
        await c.act(game_id, tokens[0], pb.DrawCard())
    assert (await c.view(game_id)).version == before
    assert {type(a) for a in await c.legal_actions(game_id, tokens[1])} == {pb.LookAtCards}
