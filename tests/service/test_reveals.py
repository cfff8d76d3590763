"""A challenge shows the challenged act to the challenger, with the opening
that proves those are the cards committed when the act was made."""

from __future__ import annotations

from cardroom.client import Client
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.trust.commitments import check_secret_opening
from cardroom.v1 import envelope_pb2 as epb
from tests.conftest import Served
from tests.service.helpers import deal, seated_game, skull, star, swirl

HANDS = [
    [star(1), swirl(2), skull(5)],
    [star(1), swirl(1), skull(5)],
    [star(0), swirl(3), skull(0)],
]


async def stream(client: Client, game_id: str, token: str | None) -> list[epb.EventEnvelope]:
    version = (await client.view(game_id)).version
    got = []
    async for envelope in client.watch(game_id, token):
        got.append(envelope)
        if len(got) == version:
            return got
    return got


def openings(envelope: epb.EventEnvelope) -> list[epb.SecretOpening]:
    return [
        epb.SecretOpening.FromString(s.value.value)
        for s in envelope.secrets
        if s.value.Is(epb.SecretOpening.DESCRIPTOR)
    ]


async def test_the_challenger_can_check_the_revealed_act_against_its_commitment(
    served: Served,
) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    c, g = served.client, table.game_id
    await c.act(g, table.token(0), sm.PerformAct(cards=[star(1)]))
    await c.act(g, table.token(1), sm.PerformAct(cards=[swirl(1)]))  # claims 2: a bluff
    await c.act(g, table.token(2), sm.Challenge())

    challenger = await stream(c, g, table.token(2))
    [challenged] = [e for e in challenger if e.event.Is(sm.ActChallenged.DESCRIPTOR)]
    [opening] = openings(challenged)
    assert check_secret_opening(opening, challenger) is None
    cards = sm.ActCards()
    opening.value.Unpack(cards)
    assert (cards.seat, list(cards.cards)) == (1, [swirl(1)])

    # A forged opening does not match what everyone saw when the act was made.
    forged = epb.SecretOpening()
    forged.CopyFrom(opening)
    forged.value.Pack(sm.ActCards(seat=1, cards=[swirl(2)]))
    assert check_secret_opening(forged, challenger) is not None

    spectator = await stream(c, g, None)
    [seen] = [e for e in spectator if e.event.Is(sm.ActChallenged.DESCRIPTOR)]
    assert not openings(seen) and not any(s.HasField("value") for s in seen.secrets)
