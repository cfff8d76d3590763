"""Live feeds resume from a cursor without gaps or repeats; replay is exact."""

from __future__ import annotations

import asyncio

from cardroom.client import Client
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.v1 import envelope_pb2 as epb
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN, Served
from tests.service.helpers import deal, seated_game, skull, star, swirl

HANDS = [
    [star(1), swirl(2), skull(5)],
    [star(1), swirl(1), skull(5)],
    [star(0), swirl(3), skull(0)],
]


async def collect(
    client: Client, game_id: str, after: int, count: int, token: str | None = None
) -> list[epb.EventEnvelope]:
    got: list[epb.EventEnvelope] = []
    async for envelope in client.watch(game_id, token, after):
        got.append(envelope)
        if len(got) == count:
            break
    return got


async def test_a_watcher_that_reconnects_with_its_cursor_misses_nothing(served: Served) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    c, g = served.client, table.game_id
    first = await collect(c, g, 0, 3)
    await c.act(g, table.token(0), sm.PerformAct(cards=[star(1)]))
    await c.act(g, table.token(1), sm.PerformAct(cards=[swirl(1)]))
    total = await c.view(g)
    rest = await collect(c, g, first[-1].sequence, total.version - 3)
    sequences = [e.sequence for e in first + rest]
    assert sequences == list(range(1, total.version + 1))


async def test_live_events_reach_a_waiting_watcher(served: Served) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    c, g = served.client, table.game_id
    version = (await c.view(g)).version
    watcher = asyncio.create_task(collect(c, g, version, 1))
    await asyncio.sleep(0)  # let the watcher subscribe; correctness does not depend on it
    await c.act(g, table.token(0), sm.PerformAct(cards=[star(1)]))
    [live] = await asyncio.wait_for(watcher, timeout=10)
    assert live.sequence == version + 1
    assert live.event.Is(sm.ActPerformed.DESCRIPTOR)


async def test_a_spectators_feed_hides_the_cards_a_seat_sees(served: Served) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    c, g = served.client, table.game_id
    await c.act(g, table.token(0), sm.PerformAct(cards=[star(1)]))
    version = (await c.view(g)).version
    spectator = await collect(c, g, 0, version)
    seat0 = await collect(c, g, 0, version, table.token(0))
    full = await c.audit(g, OPERATOR_TOKEN)
    assert [e.event for e in spectator] == [e.event for e in full]
    hidden = {s.value.type_url for e in full for s in e.secrets}
    assert not any(s.HasField("value") for e in spectator for s in e.secrets)
    assert not any(e.command.HasField("command") for e in spectator)
    seen_by_seat0 = {s.value.type_url for e in seat0 for s in e.secrets if s.HasField("value")}
    assert seen_by_seat0 < hidden  # its hand and act, not the set-aside cards
    own_hands = [
        sm.HandDealt.FromString(s.value.value)
        for e in seat0
        for s in e.secrets
        if s.value.Is(sm.HandDealt.DESCRIPTOR)
    ]
    assert [h.seat for h in own_hands] == [0]


async def test_replay_at_any_version_matches_the_view_at_that_time(served: Served) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    c, g = served.client, table.game_id
    seen = {}
    for seat, command in [
        (0, sm.PerformAct(cards=[star(1)])),
        (1, sm.PerformAct(cards=[swirl(1)])),
        (2, sm.Challenge()),
    ]:
        await c.act(g, table.token(seat), command)
        for viewer in (None, table.token(0), table.token(2)):
            now = await c.view(g, viewer)
            seen[(now.version, viewer)] = now.response
    for (version, viewer), response in seen.items():
        replayed = await c.view(g, viewer, version=version)
        assert replayed.response == response


async def test_a_finished_game_can_be_replayed_step_by_step(served: Served) -> None:
    table = await seated_game(served.client, players=2)
    c, g = served.client, table.game_id
    tokens = [table.token(0), table.token(1)]
    import random

    rng = random.Random(7)
    for _ in steps(5000, "the game"):
        if (await c.view(g)).table.finished:
            break
        for token in tokens:
            actions = await c.legal_actions(g, token)
            if actions:
                await c.act(g, token, rng.choice(actions))
    final = await c.view(g, tokens[1])
    replayed = await c.view(g, tokens[1], version=final.version)
    assert replayed.response == final.response
    log = await c.audit(g, tokens[0])  # open to its seats once finished
    assert len(log) == final.version
