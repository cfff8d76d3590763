"""One voice for every frontend: the words the server sends with each event
(``WatchEventsRequest.narrate``, what the web table and the TypeScript
client show) are the sentences the terminal prints (``Client.story``, as
``cardroom watch --plain`` prints them), for every viewer and every event of
a whole game; the server's labels and warnings for legal actions are the
terminal's menu; each game's guide is served as the terminal's help has it."""

from __future__ import annotations

import random

from google.protobuf.message import Message

from cardroom.client import Client
from cardroom.client.feed import choices, event_of, scene
from cardroom.client.messages import View
from cardroom.domain import presentation
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from tests.conftest import Served

NAMES = ("Ada", "Bo", "Cy")


def auth(token: str | None) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),) if token else ()


async def served_words(client: Client, game_id: str, token: str | None) -> list[list[str]]:
    """Each event's words as the server sends them to this viewer."""
    call = client.stub.WatchEvents(
        gpb.WatchEventsRequest(game_id=game_id, narrate=True), metadata=auth(token)
    )
    return [list(response.narration) async for response in call]


async def terminal_words(client: Client, game_id: str, token: str | None) -> list[list[str]]:
    """Each event's words as the terminal tells them (``Client.story``)."""
    return [list(told.lines) async for told in client.story(game_id, token)]


async def public_events(client: Client, game_id: str, token: str, upto: int) -> list[Message]:
    """The public events of the seat's feed up to ``upto``, oldest first."""
    seen = []
    async for envelope in client.watch(game_id, token):
        seen.append(event_of(envelope).public)
        if envelope.sequence >= upto:
            break
    return seen


def cautions(view: View, actions: list[Message], seen: list[Message]) -> list[str]:
    """The terminal's warning for each action (clients/cardroom/tui/play.py)."""
    guide = presentation.guide(view.table.kind)
    assert guide is not None
    seat = view.response.seat
    names = tuple(view.table.player_names)
    return [
        "" if isinstance(a, tpb.Resign) else guide.caution(a, view.game, names, seat, seen)
        for a in actions
    ]


async def test_the_server_and_the_terminal_tell_every_event_alike_to_every_viewer(
    server: Served,
) -> None:
    client = server.client
    game_id = await client.create_game("smoke-and-mirrors", seat_count=3)
    tokens = [(await client.join(game_id, name)).token for name in NAMES]
    await client.start(game_id, tokens[0])
    rng = random.Random(5)
    menus_checked = 0
    while not (await client.view(game_id)).table.finished:
        for token in tokens:
            response = await client.stub.ListLegalActions(
                gpb.ListLegalActionsRequest(game_id=game_id, describe=True), metadata=auth(token)
            )
            if not response.actions:
                continue
            view = await client.view(game_id, token)
            actions = await client.legal_actions(game_id, token, with_resign=True)
            assert [w.label for w in response.words] == choices(view, actions)
            seen = await public_events(client, game_id, token, view.version)
            assert [w.warning for w in response.words] == cautions(view, actions, seen)
            described = await client.stub.GetView(
                gpb.GetViewRequest(game_id=game_id, describe=True), metadata=auth(token)
            )
            assert described.words.status == scene(view, view.response.seat).status
            menus_checked += 1
            game_actions = actions[:-1]  # never the Resign
            await client.act(game_id, token, rng.choice(game_actions))
            break
    assert menus_checked > 3

    for token in [*tokens, None]:
        served = await served_words(client, game_id, token)
        told = await terminal_words(client, game_id, token)
        assert served == told
        assert len(served) == (await client.view(game_id, token)).version
    said = "\n".join(line for lines in served for line in lines)
    assert "A game of Smoke & Mirrors for 3 players is set up." in said
    assert "Game over" in said


async def test_each_guide_is_served_as_the_terminal_has_it(server: Served) -> None:
    kinds = await server.client.stub.ListGameKinds(gpb.ListGameKindsRequest())
    for kind in kinds.kinds:
        guide = presentation.guide(kind.kind)
        assert guide is not None, kind.kind
        assert kind.guide.goal == guide.goal
        assert list(kind.guide.rules) == list(guide.rules)
        assert [(s.symbol, s.meaning) for s in kind.guide.symbols] == list(guide.symbols)
    # A seat's request without describe pays for no words.
    game_id = await server.client.create_game("smoke-and-mirrors", seat_count=2)
    token = (await server.client.join(game_id, "Ada")).token
    await server.client.join(game_id, "Bo")
    await server.client.start(game_id, token)
    plain = await server.client.stub.ListLegalActions(
        gpb.ListLegalActionsRequest(game_id=game_id), metadata=auth(token)
    )
    assert not plain.words
