"""ReplayViews: any viewer steps through a game's views event by event,
redacted for that viewer; step k is GetView(version=k) and the last step is
the live view, mid-game and after the end."""

from __future__ import annotations

import random

import pytest

from cardroom.client import Client, ReplayStep
from cardroom.v1 import game_service_pb2 as gpb
from tests.conftest import OPERATOR_TOKEN, Served
from tests.trust.live import Game, new_game, play_out, step


def credential(game: Game, viewer: str) -> str | None:
    return {"seat 0": game.tokens[0], "seat 1": game.tokens[1], "spectator": None}.get(
        viewer, OPERATOR_TOKEN
    )


def without_head(response: gpb.GetViewResponse) -> gpb.GetViewResponse:
    copy = gpb.GetViewResponse()
    copy.CopyFrom(response)
    copy.ClearField("signed_head")
    return copy


async def check_replay(client: Client, game: Game, token: str | None) -> list[ReplayStep]:
    steps = [s async for s in client.replay(game.game_id, token)]
    latest = await client.view(game.game_id, token)
    assert [s.view.version for s in steps] == list(range(1, latest.version + 1))
    # The last step is the live view; GetView adds the signed head of the
    # version it shows, which a replay serves beside each step instead.
    assert steps[-1].view.response == without_head(latest.response)
    for s in steps:
        at = await client.view(game.game_id, token, version=s.view.version)
        assert s.view.response == without_head(at.response), f"step {s.view.version}"
        assert at.response.signed_head.sequence == s.view.version
    # Each step's event is the viewer's copy of that event, as its feed has it.
    feed = []
    async for envelope in client.watch(game.game_id, token):
        feed.append(envelope)
        if len(feed) == latest.version:
            break
    assert [s.event for s in steps] == feed
    return steps


@pytest.mark.parametrize("viewer", ["seat 0", "seat 1", "spectator", "operator"])
async def test_every_step_is_the_view_at_that_version_and_the_last_is_live(
    served: Served, viewer: str
) -> None:
    c = served.client
    game = await new_game(c)
    token = credential(game, viewer)
    rng = random.Random(12)
    for _ in range(15):
        await step(c, game, rng)
    await check_replay(c, game, token)  # mid-game
    await play_out(c, game, rng)
    steps = await check_replay(c, game, token)  # over
    assert steps[-1].view.table.finished


async def test_replays_differ_by_viewer_as_the_views_do(served: Served) -> None:
    c = served.client
    game = await new_game(c)
    await play_out(c, game, random.Random(13))
    replays = {
        viewer: [s async for s in c.replay(game.game_id, credential(game, viewer))]
        for viewer in ("seat 0", "seat 1", "spectator", "operator")
    }
    assert len({len(steps) for steps in replays.values()}) == 1  # every viewer sees every step
    dealt = next(i for i, s in enumerate(replays["operator"]) if len(s.event.secrets) > 1)
    hidden = {
        viewer: sum(1 for secret in steps[dealt].event.secrets if secret.HasField("value"))
        for viewer, steps in replays.items()
    }
    assert hidden["spectator"] == 0 < hidden["seat 0"] < hidden["operator"]
    assert replays["seat 0"][dealt].view.response != replays["seat 1"][dealt].view.response


async def test_replay_starts_where_asked(served: Served) -> None:
    c = served.client
    game = await new_game(c)
    await play_out(c, game, random.Random(14))
    token = game.tokens[1]
    everything = [s async for s in c.replay(game.game_id, token)]
    n = len(everything)
    for first in (0, 1, 10, n):
        tail = [s async for s in c.replay(game.game_id, token, from_version=first)]
        assert tail == everything[max(first, 1) - 1 :]
    assert [s async for s in c.replay(game.game_id, token, from_version=n + 1)] == []
