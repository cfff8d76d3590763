"""Smoke & Mirrors rulings that change the API, played through gRPC on
SQLite and PostgreSQL: SM-10's swap (TakeBlind, then GiveCard), checked
from every seat's and a spectator's own view; refused commands write
nothing."""

from __future__ import annotations

import pytest

from cardroom.client import Client, InvalidArgument, RuleBroken
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from tests.conftest import Served
from tests.service.helpers import Table, deal, seated_game, skull, star, swirl

A, B, C = 0, 1, 2
HANDS = [
    [star(1), swirl(3), skull(0)],
    [star(0), swirl(2), skull(5)],
    [star(1), swirl(4), skull(5)],
]


async def b_has_caught_c(client: Client) -> Table:
    """C's false act is caught by B, who may swap; the dealer's blind pick
    (the set deal's second outcome) is the first card of C's hand, the 4~."""
    table = await seated_game(client, set_deal=[deal(A, first=HANDS), sm.BlindPick(index=0)])
    for seat, cards in ((A, [star(1)]), (B, [swirl(2)]), (C, [star(1)])):  # claims 1, 2, 3
        await client.act(table.game_id, table.token(seat), sm.PerformAct(cards=cards))
    await client.act(table.game_id, table.token(A), sm.TakeBreak())
    await client.act(table.game_id, table.token(B), sm.Challenge())
    return table


async def views(client: Client, table: Table) -> list[sm.View]:
    """Each seat's view, then a spectator's."""
    found = []
    for token in [*(table.token(s) for s in (A, B, C)), None]:
        view = (await client.view(table.game_id, token)).game
        assert isinstance(view, sm.View)
        found.append(view)
    return found


async def refused_with(client: Client, table: Table, seat: int, command: object, error: type):
    before = (await client.view(table.game_id)).version
    with pytest.raises(error) as caught:
        await client.act(table.game_id, table.token(seat), command)  # type: ignore[arg-type]
    assert (await client.view(table.game_id)).version == before
    return caught.value


async def test_sm10_b_takes_cs_four_blind_then_gives_the_skull_five(served: Served) -> None:
    c = served.client
    table = await b_has_caught_c(c)
    assert await c.legal_actions(table.game_id, table.token(B)) == [
        sm.TakeBlind(),
        sm.DeclineSwap(),
    ]
    # Giving before taking is refused, naming SM-10
    error = await refused_with(c, table, B, sm.GiveCard(card=skull(5)), RuleBroken)
    assert str(error.details).startswith("rule SM-10:")
    # B takes blind; the set deal's pick is C's 4~
    await c.act(table.game_id, table.token(B), sm.TakeBlind())
    seen = await views(c, table)
    assert all(v.phase == sm.PHASE_SWAP_GIVE and v.swapper == B for v in seen)
    assert [v.swap_taken if v.HasField("swap_taken") else None for v in seen] == [
        None,
        swirl(4),
        swirl(4),
        None,
    ]
    assert list(seen[B].seats[B].hand) == [star(0), swirl(4), skull(5)]
    assert [s.hand_count for s in seen[A].seats] == [2, 3, 1]
    # B may give only a card held before the take
    assert await c.legal_actions(table.game_id, table.token(B)) == [
        sm.GiveCard(card=star(0)),
        sm.GiveCard(card=skull(5)),
    ]
    for command in (sm.GiveCard(card=swirl(4)), sm.DeclineSwap()):
        error = await refused_with(c, table, B, command, RuleBroken)
        assert str(error.details).startswith("rule SM-10:")
    # B gives the 5☠: its hand becomes {M★, 4~}, and it acts on, claiming 4
    await c.act(table.game_id, table.token(B), sm.GiveCard(card=skull(5)))
    seen = await views(c, table)
    assert list(seen[B].seats[B].hand) == [star(0), swirl(4)]
    assert all(v.phase == sm.PHASE_TURN and v.turn_seat == B for v in seen)
    assert all(not v.seats[C].active and v.seats[C].hand_count == 0 for v in seen)
    assert all(not v.HasField("swap_taken") for v in seen)
    await c.act(table.game_id, table.token(B), sm.PerformAct(cards=[swirl(4)]))
    assert (await c.view(table.game_id)).game.next_claim == 5  # type: ignore[union-attr]


async def test_the_swap_of_rules_version_1_is_an_invalid_argument(served: Served) -> None:
    c = served.client
    table = await b_has_caught_c(c)
    error = await refused_with(c, table, B, sm.Swap(give=skull(5)), InvalidArgument)
    assert "Swap is no longer accepted" in str(error.details)
