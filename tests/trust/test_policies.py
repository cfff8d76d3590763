"""Spectator policies, chosen at creation and recorded in GameCreated:
public (the default), delayed by N events, omniscient after the end; and no
ghosting: a seat of a game cannot open the spectators' view of it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

import pytest

from cardroom.client import (
    Client,
    InvalidArgument,
    PermissionDenied,
    RuleBroken,
    Unauthenticated,
    View,
)
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN, Served
from tests.trust.live import NAMES, SM, Game, new_game, play_out, step

Policy = tpb.SpectatorPolicy
PUBLIC = Policy(kind=Policy.KIND_PUBLIC)
OMNISCIENT = Policy(kind=Policy.KIND_OMNISCIENT_AFTER_END)
T = TypeVar("T")


def delayed(n: int) -> tpb.SpectatorPolicy:
    return Policy(kind=Policy.KIND_DELAYED, delay_events=n)


async def take(stream: AsyncIterator[T], n: int) -> list[T]:
    got: list[T] = []
    if n <= 0:
        return got
    async for item in stream:
        got.append(item)
        if len(got) == n:
            break
    return got


async def replayed(client: Client, game_id: str, token: str | None = None) -> list[View]:
    return [s.view async for s in client.replay(game_id, token)]


async def eventually(condition: Callable[[], bool], what: str) -> None:
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


async def refused(call: Callable[[], Awaitable[object]], error: type[Exception]) -> None:
    with pytest.raises(error):
        await call()


# ----------------------------------------------------------------- creation


@pytest.mark.parametrize(
    ("asked", "recorded"),
    [
        (None, PUBLIC),
        (Policy(), PUBLIC),
        (PUBLIC, PUBLIC),
        (delayed(3), delayed(3)),
        (OMNISCIENT, OMNISCIENT),
    ],
    ids=["unset", "unspecified", "public", "delayed", "omniscient"],
)
async def test_the_policy_is_recorded_in_the_first_event(
    served: Served, asked: tpb.SpectatorPolicy | None, recorded: tpb.SpectatorPolicy
) -> None:
    game_id = await served.client.create_game(SM, seat_count=2, spectator_policy=asked)
    [first] = (await served.client.audit(game_id, OPERATOR_TOKEN))[:1]
    created = tpb.GameCreated()
    assert first.event.Unpack(created)
    assert created.spectator_policy == recorded


@pytest.mark.parametrize(
    "policy",
    [
        delayed(0),
        Policy(kind=Policy.KIND_PUBLIC, delay_events=2),
        Policy(kind=Policy.KIND_UNSPECIFIED, delay_events=2),
        Policy(kind=Policy.KIND_OMNISCIENT_AFTER_END, delay_events=1),
        Policy(kind=99),  # type: ignore[arg-type]
    ],
    ids=["delayed-0", "public-with-delay", "unspecified-with-delay", "omniscient-with-delay", "99"],
)
async def test_an_invalid_policy_is_an_invalid_argument_and_writes_nothing(
    served: Served, policy: tpb.SpectatorPolicy
) -> None:
    with pytest.raises(InvalidArgument, match=r"spectator policy|delay_events"):
        await served.client.create_game(SM, seat_count=2, spectator_policy=policy)
    assert await served.client.list_games() == []


# ------------------------------------------------------------------ delayed


@pytest.mark.parametrize("delay", [1, 4])
async def test_the_delayed_policy_never_shows_an_event_early(served: Served, delay: int) -> None:
    """After every command: a spectator's view, its replay and the operator's
    spectator view stop exactly ``delay`` events behind, a view past that is
    refused, and two live feeds (one from the start, one resuming with a
    cursor ahead of the horizon) have received nothing newer. Each event a
    feed receives is stamped with the epoch it arrived in; during epoch e the
    game is at most at version bound[e], so each must be <= bound[e] - delay.
    Once the game is over, everything is visible."""
    c = served.client
    game_id = await c.create_game(SM, seat_count=2, spectator_policy=delayed(delay))
    tokens = [(await c.join(game_id, NAMES[i])).token for i in range(2)]
    bounds = [len(await c.audit(game_id, OPERATOR_TOKEN))]  # bounds[epoch]
    received: dict[str, list[tuple[int, int]]] = {"from start": [], "ahead": []}

    async def feed(name: str, after: int) -> None:
        async for envelope in c.watch(game_id, after_sequence=after):
            received[name].append((envelope.sequence, len(bounds) - 1))

    watchers = [
        asyncio.create_task(feed("from start", 0)),
        asyncio.create_task(feed("ahead", bounds[0] + delay)),
    ]
    finished = False

    async def act(command: Callable[[], Awaitable[int]]) -> None:
        nonlocal finished
        bounds.append(bounds[-1])  # a new epoch: a write may happen now
        bounds[-1] = await command()
        finished = (await c.view(game_id, tokens[0])).table.finished
        if not finished:
            await check(bounds[-1])

    async def check(version: int) -> None:
        horizon = version - delay
        assert (await c.view(game_id, tokens[0])).version == version  # seats are live
        if horizon < 1:
            await refused(lambda: c.view(game_id), RuleBroken)
            await refused(lambda: c.view(game_id, OPERATOR_TOKEN, as_spectator=True), RuleBroken)
        else:
            view = await c.view(game_id)
            assert view.version == horizon
            assert view.response.viewer_kind == gpb.VIEWER_KIND_SPECTATOR
            as_operator = await c.view(game_id, OPERATOR_TOKEN, as_spectator=True)
            assert as_operator.response == view.response
            assert (await c.view(game_id, version=horizon)).response == view.response
        for early in range(max(1, horizon + 1), version + 1):
            with pytest.raises(RuleBroken, match="T-SPECTATORS"):
                await c.view(game_id, version=early)
        assert [v.version for v in await replayed(c, game_id)] == list(range(1, horizon + 1))
        await eventually(lambda: len(received["from start"]) >= horizon, "the live feed")
        assert max((s for s, _ in received["from start"]), default=0) == max(horizon, 0)

    await check(bounds[0])
    await act(lambda: c.start(game_id, tokens[0]))
    rng = random.Random(delay)
    game = Game(game_id, tokens)

    async def one_step() -> int:
        assert await step(c, game, rng)
        return len(await c.audit(game_id, OPERATOR_TOKEN))

    for _ in steps(5000, "the game"):
        if finished:
            break
        await act(one_step)

    await asyncio.wait_for(asyncio.gather(*watchers), timeout=30)  # the feeds end by themselves
    final = bounds[-1]
    last_epoch = len(bounds) - 1
    for name, got in received.items():
        for sequence, epoch in got:
            if epoch < last_epoch:  # before the game was over
                assert sequence <= bounds[epoch] - delay, (name, sequence, epoch)
    assert [s for s, _ in received["from start"]] == list(range(1, final + 1))
    ahead = bounds[0] + delay
    assert [s for s, _ in received["ahead"]] == list(range(ahead + 1, final + 1))
    # Over: everything is visible to spectators.
    assert (await c.view(game_id)).version == final
    assert len(await replayed(c, game_id)) == final
    assert (await c.view(game_id, version=final)).response == (await c.view(game_id)).response


# --------------------------------------------------------------- omniscient


def values_shown(copies: list[epb.EventEnvelope]) -> bool:
    return any(s.HasField("value") or s.salt for e in copies for s in e.secrets) or any(
        e.command.HasField("command") for e in copies
    )


async def test_omniscient_spectators_see_public_parts_while_running_and_everything_after(
    served: Served,
) -> None:
    c = served.client
    game = await new_game(c, policy=OMNISCIENT)
    live: list[epb.EventEnvelope] = []

    async def feed() -> None:
        async for envelope in c.watch(game.game_id):
            live.append(envelope)

    watcher = asyncio.create_task(feed())
    versions: list[int] = []

    async def while_running() -> None:
        view = await c.view(game.game_id)
        if view.table.finished:
            return
        versions.append(view.version)
        assert view.response.viewer_kind == gpb.VIEWER_KIND_SPECTATOR
        assert all(not seat.hand for seat in view.game.seats)  # type: ignore[attr-defined]
        copies = await take(c.watch(game.game_id), view.version)
        assert len(copies) == view.version and not values_shown(copies)
        steps = [s async for s in c.replay(game.game_id)]
        assert not values_shown([s.event for s in steps])

    await play_out(c, game, random.Random(2), after_each=while_running)
    await asyncio.wait_for(watcher, timeout=30)

    full = await c.audit(game.game_id, OPERATOR_TOKEN)
    # The live feed got every event while it ran redacted; only what was
    # served after the end (the finishing batch) came whole.
    running = [e for e in live if e.sequence <= versions[-1]]
    assert len(running) == versions[-1] and not values_shown(running)
    assert live[versions[-1] :] == full[versions[-1] :]
    # Over: a spectator gets exactly what an auditor gets.
    assert await take(c.watch(game.game_id), len(full)) == full
    spectator = await c.view(game.game_id)
    assert spectator.response.viewer_kind == gpb.VIEWER_KIND_AUDITOR
    assert spectator.response == (await c.view(game.game_id, OPERATOR_TOKEN)).response
    steps = [s async for s in c.replay(game.game_id)]
    assert [s.event for s in steps] == full
    assert [s.view.response for s in steps] == [
        s.view.response async for s in c.replay(game.game_id, OPERATOR_TOKEN)
    ]


async def test_public_spectators_never_see_hidden_parts_even_after_the_end(served: Served) -> None:
    c = served.client
    game = await new_game(c)  # public by default
    await play_out(c, game, random.Random(4))
    copies = [e async for e in c.watch(game.game_id)]
    full = await c.audit(game.game_id, game.tokens[0])
    assert len(copies) == len(full) and not values_shown(copies)
    view = await c.view(game.game_id)
    assert view.response.viewer_kind == gpb.VIEWER_KIND_SPECTATOR


# ------------------------------------------------------------- no ghosting


@pytest.mark.parametrize(
    "policy", [PUBLIC, delayed(3), OMNISCIENT], ids=["public", "delayed", "omniscient"]
)
async def test_no_ghosting_and_the_operator_sees_exactly_what_spectators_see(
    served: Served, policy: tpb.SpectatorPolicy
) -> None:
    c = served.client
    game = await new_game(c, policy=policy)
    rng = random.Random(1)
    for _ in range(6):
        await step(c, game, rng)

    async def check() -> None:
        for token in game.tokens:
            with pytest.raises(PermissionDenied, match="no ghosting"):
                await c.view(game.game_id, token, as_spectator=True)
            with pytest.raises(PermissionDenied, match="no ghosting"):
                await c.view(game.game_id, token, version=3, as_spectator=True)
            with pytest.raises(PermissionDenied, match="no ghosting"):
                await take(c.watch(game.game_id, token, as_spectator=True), 1)
            with pytest.raises(PermissionDenied, match="no ghosting"):
                await take(c.replay(game.game_id, token, as_spectator=True), 1)
            assert (await c.view(game.game_id, token)).response.viewer_kind == gpb.VIEWER_KIND_SEAT
        await refused(
            lambda: c.view(game.game_id, "no-such-token", as_spectator=True), Unauthenticated
        )

        spectator = await c.view(game.game_id)
        for credential in (None, OPERATOR_TOKEN):  # as_spectator without a seat: the same
            twin = await c.view(game.game_id, credential, as_spectator=True)
            assert twin.response == spectator.response
        n = spectator.version
        assert await take(
            c.watch(game.game_id, OPERATOR_TOKEN, as_spectator=True), n
        ) == await take(c.watch(game.game_id), n)
        assert [
            s.view.response async for s in c.replay(game.game_id, OPERATOR_TOKEN, as_spectator=True)
        ] == [s.view.response async for s in c.replay(game.game_id)]
        # Without as_spectator the operator is an auditor.
        operator = await c.view(game.game_id, OPERATOR_TOKEN)
        assert operator.response.viewer_kind == gpb.VIEWER_KIND_AUDITOR

    await check()
    await play_out(c, game, rng)
    await check()
