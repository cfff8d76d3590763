"""Smile Life through the gRPC API, as real clients play it: the rulebook's
testable statements (DECISIONS 3.4) and the rulings' examples, from set
deals, on SQLite and PostgreSQL, checked after every stage from every
seat's and a spectator's own view; refused commands write nothing."""

from __future__ import annotations

import pytest

from cardroom.client import Client, RuleBroken
from cardroom.smile_life.v1 import smile_life_pb2 as pb
from cardroom.trust.commitments import check_secret_opening
from cardroom.v1 import envelope_pb2 as epb
from tests.conftest import Served
from tests.service.test_smiles_and_daggers_api import setup
from tests.smile_life.play import cards_in_view
from tests.smile_life.scenarios import ALL, CASINO, LUCK, Scenario


async def play(client: Client, scenario: Scenario) -> tuple[str, list[str]]:
    game_id, tokens = await setup(client, scenario)
    for stage in scenario.stages:
        for seat, command in stage.steps:
            await client.act(game_id, tokens[seat], command)
        for seat, command, rule in stage.refused:
            before = (await client.view(game_id)).version
            with pytest.raises(RuleBroken, match=f"rule {rule}:"):
                await client.act(game_id, tokens[seat], command)
            assert (await client.view(game_id)).version == before
        for token in [None, *tokens]:
            whole = await client.view(game_id, token)
            view = whole.game
            assert isinstance(view, pb.View)
            for check in stage.checks:
                check(view)
            # A hand is its own seat's business, and every seat's once the
            # game is over (the post-mortem); never a spectator's.
            over = whole.table.finished and token is not None
            for seat_view in view.seats:
                shown = over or (token is not None and tokens[seat_view.seat] == token)
                assert seat_view.hand_visible == shown
                assert len(seat_view.hand) == (seat_view.hand_count if shown else 0)
    return game_id, tokens


@pytest.mark.parametrize("scenario", ALL, ids=lambda s: s.name)
async def test_the_scenario_plays_through_the_api(served: Served, scenario: Scenario) -> None:
    await play(served.client, scenario)


async def stream_of(client: Client, game_id: str, token: str | None) -> list[epb.EventEnvelope]:
    version = (await client.view(game_id)).version
    stream: list[epb.EventEnvelope] = []
    async for envelope in client.watch(game_id, token):
        stream.append(envelope)
        if len(stream) == version:
            break
    return stream


async def test_lucks_cards_are_opened_to_everyone_when_they_are_chosen(served: Served) -> None:
    c = served.client
    game_id, _ = await play(c, LUCK)
    stream = await stream_of(c, game_id, None)  # a spectator
    [drawn] = [e for e in stream if e.event.Is(pb.LuckCardsDrawn.DESCRIPTOR)]
    assert not any(s.HasField("value") for s in drawn.secrets)
    [chosen] = [e for e in stream if e.event.Is(pb.LuckCardChosen.DESCRIPTOR)]
    [opening] = chosen.openings
    assert check_secret_opening(opening, stream) is None
    shown = pb.LuckCards()
    opening.value.Unpack(shown)
    assert (shown.seat, list(shown.cards)) == (0, ["pet_unicorn", "flirt_bar", "study_single"])


async def test_the_casinos_bets_are_opened_to_everyone_when_they_are_settled(
    served: Served,
) -> None:
    c = served.client
    game_id, tokens = await play(c, CASINO)
    stream = await stream_of(c, game_id, tokens[2])  # P2: a bettor in the second settling only
    settled = [e for e in stream if e.event.Is(pb.CasinoResolved.DESCRIPTOR)]
    assert len(settled) == 2
    opened = []
    for envelope in settled:
        for opening in envelope.openings:
            assert check_secret_opening(opening, stream) is None
            bet = pb.CasinoBet()
            opening.value.Unpack(bet)
            opened.append((bet.seat, bet.card))
    assert opened == [(0, "salary_2"), (1, "salary_2"), (2, "salary_1"), (0, "salary_3")]
    # Before it was settled, a bet was hidden from everyone but its bettor.
    placed = [e for e in stream if e.event.Is(pb.CasinoBetPlaced.DESCRIPTOR)]
    hidden = [e for e in placed if not any(s.HasField("value") for s in e.secrets)]
    assert len(placed) == 5 and len(hidden) == 4  # P2 saw only its own bet
    [returned] = [e for e in stream if e.event.Is(pb.CasinoBetReturned.DESCRIPTOR)]
    [opening] = returned.openings
    assert check_secret_opening(opening, stream) is None


async def test_every_version_of_every_view_accounts_for_all_200_cards(served: Served) -> None:
    """GetView at each version and ReplayViews, from every seat and a
    spectator: the casino's second bet, placed and settled in one batch, is
    in the view at the version between."""
    c = served.client
    game_id, tokens = await play(c, CASINO)
    final = await c.view(game_id)
    latest, finished = final.version, final.table.finished
    second_bets = 0
    for token in [None, *tokens]:
        steps = [step async for step in c.replay(game_id, token)]
        at_versions = [
            (await c.view(game_id, token, version)).game for version in range(1, latest + 1)
        ]
        for view in [step.view.game for step in steps] + at_versions:
            assert isinstance(view, pb.View)
            dealt = view.phase != pb.PHASE_SETUP
            assert cards_in_view(view) == (200 if dealt else 0)
            second_bets += view.casino.has_second_bet
            mine = [s for s, t in enumerate(tokens) if t == token]
            if view.casino.has_second_bet:
                shown = bool(view.casino.second_bet_card)
                # A finished game's seats see every card at every version
                # (the post-mortem); otherwise only the bettor sees its bet.
                assert shown == ((finished and bool(mine)) or mine == [view.casino.second_bettor])
    assert second_bets == 2 * 2 * 4  # two settlings, each at one version, in both reads, 4 viewers
