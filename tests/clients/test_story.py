"""``Client.story``: a viewer's feed as a person reads it, the actor and the
cards in words, from only what that viewer was sent."""

from __future__ import annotations

from collections.abc import AsyncIterator

from cardroom.client import Client
from cardroom.client.feed import NarratedEvent
from cardroom.domain.smoke_and_mirrors.narrate import draw, draw_all
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.v1 import table_pb2 as tpb
from tests.conftest import Served

NAMES = ("Ada", "Bo", "Cy")


async def take(story: AsyncIterator[NarratedEvent], until: int) -> list[NarratedEvent]:
    """The story's events up to sequence ``until``."""
    told = []
    async for event in story:
        told.append(event)
        if event.sequence >= until:
            break
    return told


async def started(client: Client) -> tuple[str, list[str]]:
    game_id = await client.create_game("smoke-and-mirrors", seat_count=3)
    tokens = [(await client.join(game_id, name)).token for name in NAMES]
    await client.start(game_id, tokens[0])
    return game_id, tokens


async def test_a_seat_reads_the_actor_and_its_own_cards_in_words(server: Served) -> None:
    client = server.client
    game_id, tokens = await started(client)
    legal = [await client.legal_actions(game_id, token) for token in tokens]
    actor, act = next(
        (seat, action)
        for seat, actions in enumerate(legal)
        for action in actions
        if isinstance(action, sm.PerformAct)
    )
    version = (await client.act(game_id, tokens[actor], act)).version
    hand = (await client.view(game_id, tokens[actor])).game.seats[actor].hand  # type: ignore[attr-defined]

    seat_story = await take(client.story(game_id, tokens[actor]), version)
    spectator_story = await take(client.story(game_id), version)

    said = "\n".join(map(str, seat_story))
    assert f"{NAMES[actor]} holds " in said
    assert all(draw(card) in said for card in [*hand, *act.cards])
    played = f"{NAMES[actor]} performs an act of 1 card, claiming 1. ({draw_all(act.cards)}: "
    assert played in said
    heard = "\n".join(map(str, spectator_story))
    assert f"{NAMES[actor]} performs an act of 1 card, claiming 1." in heard
    assert " holds " not in heard and "[" not in heard  # no card is shown to a spectator
    assert [e.sequence for e in seat_story] == list(range(1, version + 1))
    assert all(str(e) == "\n".join(e.lines) and e.lines for e in spectator_story)
    assert "type.googleapis.com" not in said + heard and "seat:" not in said + heard


async def test_a_story_after_a_cursor_still_knows_the_names_and_ends_with_the_game(
    server: Served,
) -> None:
    client = server.client
    game_id, tokens = await started(client)
    await client.resign(game_id, tokens[1])
    await client.resign(game_id, tokens[2])  # one seat left: the game is over

    told = [event async for event in client.story(game_id, after_sequence=5)]

    assert told[0].sequence == 6
    assert "Bo resigns: the game makes their choices from now on." in map(str, told)
    assert told[-1].envelope.event.Is(tpb.GameFinished.DESCRIPTOR)
    assert str(told[-1]) == "Game over: Ada wins."
