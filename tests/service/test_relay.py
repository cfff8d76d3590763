"""Relays (`cardroom relay`): WatchEvents served from the broker's copies.

A relay's stream is byte for byte the game server's for every kind of
viewer and spectator policy, from any cursor; a watcher whose relay dies
resumes on another and misses nothing; a broker restart loses nothing;
and a seat's copies reach only that seat. Everything runs against a real
NATS server (the machine's at 127.0.0.1:4222, or a test's own)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import grpc
import h2.config
import h2.connection
import h2.errors
import h2.events
import pytest
from google.protobuf.descriptor_pool import DescriptorPool
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)

from cardroom.client import Client, PermissionDenied, Unauthenticated
from cardroom.client.bots.runner import BotSeat, play_bots
from cardroom.client.follow import Follower
from cardroom.server.relay.server import REFLECTED, RunningRelay
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from tests.conftest import OPERATOR_TOKEN
from tests.service.relays import (
    REFLECTION_INFO,
    Deployment,
    deploy,
    eventually,
    grpc_request_headers,
    nats_or_skip,
    own_nats,
    raw_feed,
    reflect_once,
    sequence,
    undeploy,
)

Policy = tpb.SpectatorPolicy
Status = health_pb2.HealthCheckResponse
KINDS = ["smoke-and-mirrors", "smiles-and-daggers", "silver-dagger", "smile-life"]


@pytest.fixture
def nats_url() -> str:
    return nats_or_skip()


@pytest.fixture(params=["grpc", "h2"])
async def deployed(
    database: str, nats_url: str, request: pytest.FixtureRequest
) -> AsyncIterator[Deployment]:
    """A server and two relays, on each relay transport (cardroom relay --transport)."""
    deployment = await deploy(database, nats_url, relays=2, transport=request.param)
    try:
        yield deployment
    finally:
        await undeploy(deployment)


async def seated(
    client: Client,
    kind: str = "smoke-and-mirrors",
    seats: int = 3,
    policy: tpb.SpectatorPolicy | None = None,
) -> tuple[str, list[BotSeat]]:
    game_id = await client.create_game(kind, seat_count=seats, spectator_policy=policy)
    bots = []
    for i in range(seats):
        handle = await client.join(game_id, f"P{i}")
        bots.append(BotSeat(handle.seat, handle.token, "random"))
    return game_id, bots


def viewers(bots: list[BotSeat]) -> dict[str, tuple[str | None, bool]]:
    """Every kind of viewer: name -> (token, as_spectator)."""
    kinds: dict[str, tuple[str | None, bool]] = {
        "spectator": (None, False),
        "operator": (OPERATOR_TOKEN, False),
        "operator as spectator": (OPERATOR_TOKEN, True),
    }
    for bot in bots:
        kinds[f"seat {bot.seat}"] = (bot.token, False)
    return kinds


async def both_feeds(
    deployed: Deployment, game_id: str, bots: list[BotSeat], kind: str, seed: int
) -> dict[str, tuple[list[bytes], list[bytes]]]:
    """Every viewer's whole stream from the server and from a relay, all
    opened before the game starts, so the relay forwards it live."""
    names = viewers(bots)
    streams = {
        (name, where): asyncio.create_task(raw_feed(address, game_id, token, as_spectator=spec))
        for name, (token, spec) in names.items()
        for where, address in (("server", deployed.address), ("relay", deployed.relay_address()))
    }
    relay = deployed.relays[0].servicer
    await eventually(lambda: relay.watchers == len(names), "every relay stream to open")
    await deployed.client.start(game_id, bots[0].token)
    await play_bots(deployed.client, game_id, kind, bots, seed=seed)
    got = {key: await task for key, task in streams.items()}
    return {name: (got[(name, "server")], got[(name, "relay")]) for name in names}


@pytest.mark.parametrize(
    "policy",
    [
        None,
        tpb.SpectatorPolicy(kind=Policy.KIND_DELAYED, delay_events=3),
        tpb.SpectatorPolicy(kind=Policy.KIND_OMNISCIENT_AFTER_END),
    ],
    ids=["public", "delayed", "omniscient-after-end"],
)
async def test_a_relay_sends_every_viewer_the_servers_bytes(
    deployed: Deployment, policy: tpb.SpectatorPolicy | None
) -> None:
    game_id, bots = await seated(deployed.client, policy=policy)
    feeds = await both_feeds(deployed, game_id, bots, "smoke-and-mirrors", seed=7)
    version = (await deployed.client.view(game_id, OPERATOR_TOKEN)).version
    for name, (server, relay) in feeds.items():
        assert relay == server, name
        assert [sequence(d) for d in relay] == list(range(1, version + 1)), name
    # The relay forwarded the broker's copies (it did not read them all from the store).
    assert deployed.relays[0].servicer.feeds.received >= version - 5
    seats = [feeds[f"seat {bot.seat}"][1] for bot in bots]
    assert len({tuple(s) for s in seats}) == len(seats)  # each seat its own copies


@pytest.mark.parametrize("kind", KINDS)
async def test_every_game_kind_reaches_its_viewers_through_a_relay_unchanged(
    deployed: Deployment, kind: str
) -> None:
    game_id, bots = await seated(deployed.client, kind, seats=3)
    feeds = await both_feeds(deployed, game_id, bots, kind, seed=11)
    for name, (server, relay) in feeds.items():
        assert relay == server, name
        assert relay, name


async def test_a_relay_resumes_from_a_cursor(deployed: Deployment) -> None:
    game_id, bots = await seated(deployed.client)
    await deployed.client.start(game_id, bots[0].token)
    mid = await play_some(deployed.client, game_id, bots, 6)
    for after in (0, 1, mid - 2):
        for token in (None, bots[1].token):
            head = await raw_feed(deployed.relay_address(), game_id, token, after=after, until=mid)
            assert head == await raw_feed(deployed.address, game_id, token, after=after, until=mid)
    # A cursor in the middle, then live to the end.
    rest = asyncio.create_task(raw_feed(deployed.relay_address(1), game_id, after=mid - 1))
    await play_bots(deployed.client, game_id, "smoke-and-mirrors", bots, seed=3)
    assert await rest == await raw_feed(deployed.address, game_id, after=mid - 1)


async def play_some(client: Client, game_id: str, bots: list[BotSeat], commands: int) -> int:
    """``commands`` random legal moves; the version after."""
    version = 0
    for _ in range(commands):
        for bot in bots:
            actions = await client.legal_actions(game_id, bot.token)
            if actions:
                version = (await client.act(game_id, bot.token, actions[0])).version
                break
    return version


async def test_a_watcher_whose_relay_dies_resumes_on_another_and_misses_nothing(
    deployed: Deployment,
) -> None:
    game_id, bots = await seated(deployed.client)
    await deployed.client.start(game_id, bots[0].token)
    watcher = Client.connect(deployed.address, relays=[deployed.relay_address(i) for i in (0, 1)])
    try:
        resumed: list[str] = []
        follower = Follower(
            watcher, game_id, bots[2].token, on_reconnect=lambda n, e: resumed.append(e.code.name)
        )
        first = deployed.relays[0].servicer
        version = await play_some(deployed.client, game_id, bots, 4)
        assert await follower.until(version)
        assert first.watchers == 1  # the first stream went to the first relay
        await deployed.relays[0].stop(grace=None)  # the relay dies mid-stream
        await play_bots(deployed.client, game_id, "smoke-and-mirrors", bots, seed=5)
        while await follower.next() is not None:
            pass
        feed = await raw_feed(deployed.address, game_id, bots[2].token)
        assert follower.feed.cursor == len(feed) == sequence(feed[-1])
        assert resumed == ["UNAVAILABLE"]  # once, on the second relay
    finally:
        await watcher.close()
        deployed.relays.pop(0)


async def test_a_seats_copies_reach_that_seat_only(deployed: Deployment) -> None:
    game_id, bots = await seated(deployed.client)
    other_id, other_bots = await seated(deployed.client)
    relay = deployed.relay_address()
    with pytest.raises(Unauthenticated):  # a seat token of another game
        await raw_feed_client(relay, game_id, other_bots[0].token)
    with pytest.raises(Unauthenticated):
        await raw_feed_client(relay, game_id, "seat_forged")
    with pytest.raises(PermissionDenied):  # no ghosting through a relay either
        await raw_feed_client(relay, game_id, bots[0].token, as_spectator=True)
    # A seat taken after the relay first read the game is recognised.
    late_id, late_bots = await seated(deployed.client, seats=4)
    await raw_feed(relay, late_id, until=1)
    handle = late_bots[3]
    mine = await raw_feed(relay, late_id, handle.token, until=4)
    assert mine == await raw_feed(deployed.address, late_id, handle.token, until=4)
    del other_id


async def raw_feed_client(
    address: str, game_id: str, token: str | None, *, as_spectator: bool = False
) -> None:
    async with Client.connect(address) as client:
        async for _ in client.watch(game_id, token, as_spectator=as_spectator):
            break


async def test_a_relay_tells_the_other_calls_to_go_to_a_server(deployed: Deployment) -> None:
    async with Client.connect(deployed.relay_address()) as client:
        with pytest.raises(Exception, match="relay") as refused:
            await client.create_game("smoke-and-mirrors", seat_count=3)
        assert refused.value.code.name == "UNIMPLEMENTED"  # type: ignore[attr-defined]


async def test_a_relay_refuses_to_narrate_and_sends_to_the_server(deployed: Deployment) -> None:
    """The words come from the server's fold of each viewer's feed
    (WatchEventsRequest.narrate); a relay forwards copies and says so."""
    game_id, _ = await seated(deployed.client)
    async with Client.connect(deployed.relay_address()) as client:
        call = client.stub.WatchEvents(gpb.WatchEventsRequest(game_id=game_id, narrate=True))
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            async for _ in call:
                pass
    assert refused.value.code() == grpc.StatusCode.UNIMPLEMENTED
    assert "ask the server" in (refused.value.details() or "")


async def test_a_seat_watching_through_a_relay_is_present_on_the_server(
    deployed: Deployment,
) -> None:
    game_id, bots = await seated(deployed.client)
    await deployed.client.start(game_id, bots[0].token)  # seat 0 calls the server
    presence = deployed.server.games.presence
    watching = asyncio.create_task(raw_feed(deployed.relay_address(), game_id, bots[1].token))
    try:
        await eventually(lambda: (game_id, 1) in presence._last, "the server to hear seat 1")
        presence.since -= timedelta(seconds=10_000)  # long after every seat's last call...
        table = deployed.server.games.load(game_id).table
        assert presence.absent(game_id, table) == [2]  # ...but seat 1 watches on the relay
    finally:
        watching.cancel()


async def test_a_broker_restart_loses_no_event(
    tmp_path: Path, database: str, nats_url: str
) -> None:
    del nats_url  # the machine's broker must not be restarted: this test has its own
    with own_nats(tmp_path / "nats") as nats:
        deployed = await deploy(database, nats.url)
        try:
            game_id, bots = await seated(deployed.client)
            await deployed.client.start(game_id, bots[0].token)
            relay = deployed.relay_address()
            spectator = asyncio.create_task(raw_feed(relay, game_id))
            seat = asyncio.create_task(raw_feed(relay, game_id, bots[1].token))
            await play_some(deployed.client, game_id, bots, 3)
            nats.stop()
            broker = deployed.server.broker
            assert broker is not None
            await eventually(lambda: not broker.up, "the server to notice the broker is gone")
            await play_some(deployed.client, game_id, bots, 3)  # writes go on
            assert broker.dropped > 0
            health = await health_of(deployed.address, "cardroom.broker")
            assert health == "NOT_SERVING"
            nats.start()
            await eventually(lambda: broker.up, "the server to reconnect")
            await play_bots(deployed.client, game_id, "smoke-and-mirrors", bots, seed=9)
            assert await spectator == await raw_feed(deployed.address, game_id)
            assert await seat == await raw_feed(deployed.address, game_id, bots[1].token)
        finally:
            await undeploy(deployed)


async def test_a_broker_outage_sends_relay_watchers_to_the_store_from_its_start(
    tmp_path: Path, database: str, nats_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: for ~7 s after the broker fell, relay watchers got nothing
    (each waited out its idle period, 10 s, before reading the store). The
    store is read every DOWN_SECONDS from the outage's start: here a game
    quiet for an hour would never be read, yet the watcher gets the events
    written during the outage."""
    del nats_url  # the machine's broker must not be stopped: this test has its own
    from cardroom.server.relay import server as relay

    monkeypatch.setattr(relay, "IDLE_SECONDS", 3600.0)
    with own_nats(tmp_path / "nats") as nats:
        deployed = await deploy(database, nats.url)
        try:
            game_id, bots = await seated(deployed.client)
            await deployed.client.start(game_id, bots[0].token)
            before = await play_some(deployed.client, game_id, bots, 2)
            relayed = deployed.relays[0]
            heard = asyncio.create_task(raw_feed(deployed.relay_address(), game_id, until=before))
            assert sequence((await heard)[-1]) == before  # live through the broker
            watching = asyncio.create_task(
                raw_feed(deployed.relay_address(), game_id, after=before, until=before + 1)
            )
            topics = relayed.servicer.feeds.topics
            live = lambda: any(w.live for t in topics.values() for w in t.watches)  # noqa: E731
            await eventually(live, "the stream to go live")
            nats.stop()
            await eventually(lambda: not relayed.broker.up, "the relay to notice")
            after = await play_some(deployed.client, game_id, bots, 1)  # not published
            got = await asyncio.wait_for(watching, 60)
            assert [sequence(data) for data in got] == [before + 1]
            assert after >= before + 1
            assert got == await raw_feed(deployed.address, game_id, after=before, until=before + 1)
        finally:
            await undeploy(deployed)


async def health_of(address: str, service: str) -> str:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    async with grpc.aio.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        response = await stub.Check(health_pb2.HealthCheckRequest(service=service))
        return str(health_pb2.HealthCheckResponse.ServingStatus.Name(response.status))


def test_relay_subjects_carry_one_viewer_kind_each() -> None:
    from cardroom.domain.kernel import AUDITOR, SPECTATOR, Viewer
    from cardroom.server.live.broker import subject

    game = "00000000-0000-0000-0000-000000000001"
    assert subject(game, SPECTATOR) == f"cardroom.events.{game}.spectator"
    assert subject(game, Viewer.of_seat(2)) == f"cardroom.events.{game}.seat2"
    with pytest.raises(ValueError):
        subject(game, AUDITOR)  # never published


__all__ = ["gpb"]


@pytest.mark.parametrize("who", [1, None], ids=["seat 1", "spectator"])
async def test_twins_look_alike_through_a_relay(deployed: Deployment, who: int | None) -> None:
    """Two games that differ only in what the viewer may not see (the pure
    twins of tests/smoke_and_mirrors/twins.py, replayed with their deals
    set) reach that viewer through a relay alike, but for what differs
    between any two games by design (ids, times, salts, digests)."""
    from cardroom.domain.kernel import SPECTATOR, Viewer
    from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
    from tests.service.test_non_interference import RecordingTwins, comparable

    viewer = Viewer.of_seat(who) if who is not None else SPECTATOR
    options = sm.Options(rounds_to_win=1)
    for seed in range(50):
        twins = RecordingTwins(3, viewer, seed, options)
        twins.run(max_commands=40)
        if any(x != y for _, x, y in twins.sent):
            break
    seen = []
    relay = deployed.relays[0].servicer
    for side in (1, 2):
        deals = [sent[side] for sent in twins.sent if sent[0] is None]
        game_id = await deployed.client.create_game(
            "smoke-and-mirrors",
            seat_count=3,
            options=options,
            set_deal=deals,
            operator_token=OPERATOR_TOKEN,
        )
        seats = [await deployed.client.join(game_id, f"P{i}") for i in range(3)]
        token = seats[who].token if who is not None else None
        stream = asyncio.create_task(raw_feed(deployed.relay_address(), game_id, token))
        await eventually(lambda: relay.watchers == 1, "the relay stream to open")
        await deployed.client.start(game_id, seats[0].token)
        for seat, *commands in twins.sent:
            if seat is not None:
                await deployed.client.act(game_id, seats[seat].token, commands[side - 1])
        version = (await deployed.client.view(game_id, OPERATOR_TOKEN)).version
        if not (await deployed.client.view(game_id, OPERATOR_TOKEN)).table.finished:
            stream.cancel()
            got = await raw_feed(deployed.relay_address(), game_id, token, until=version)
        else:
            got = await stream
        seen.append([comparable(gpb.WatchEventsResponse.FromString(d).event) for d in got])
        assert [sequence(d) for d in got] == list(range(1, version + 1))
    assert seen[0] == seen[1]


async def test_cardroom_watch_plays_a_feed_through_a_relay(deployed: Deployment) -> None:
    import sys

    game_id, bots = await seated(deployed.client)
    await deployed.client.start(game_id, bots[0].token)
    await play_bots(deployed.client, game_id, "smoke-and-mirrors", bots, seed=1)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "cardroom.cli",
        "watch",
        game_id,
        "--plain",
        "--address",
        deployed.address,
        "--relay",
        deployed.relay_address(),
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode == 0
    assert out.decode().count("\n") >= 10
    assert deployed.relays[0].servicer.opened == 1  # the feed came through the relay


async def test_events_never_published_still_reach_relay_watchers(
    deployed: Deployment, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer that dies between its append and its publish, or copies
    the broker lost: the relay reads a game that went silent from the store
    (here after a twentieth of a second instead of ten)."""
    from cardroom.server.relay import server as relay

    monkeypatch.setattr(relay, "IDLE_SECONDS", 0.05)
    game_id, bots = await seated(deployed.client)
    await deployed.client.start(game_id, bots[0].token)
    deployed.server.servicer.publisher = None  # type: ignore[union-attr]  # nothing is published
    seat = asyncio.create_task(raw_feed(deployed.relay_address(), game_id, bots[0].token))
    spectator = asyncio.create_task(raw_feed(deployed.relay_address(), game_id))
    await play_bots(deployed.client, game_id, "smoke-and-mirrors", bots, seed=13)
    assert await seat == await raw_feed(deployed.address, game_id, bots[0].token)
    assert await spectator == await raw_feed(deployed.address, game_id)
    assert deployed.relays[0].servicer.feeds.received == 0


# ------------------------------------------------- health and reflection


def watches_ended(relay: RunningRelay, code: str) -> float:
    """Health/Watch calls the relay saw end with ``code`` (its call metric)."""
    registry = relay.servicer.metrics.registry
    labels = {"method": "Watch", "code": code}
    return registry.get_sample_value("cardroom_rpc_seconds_count", labels) or 0.0


async def test_a_relay_streams_health_changes_to_health_watch(deployed: Deployment) -> None:
    """grpc.health.v1.Health/Watch from the relay's health servicer, on
    either transport: the status now, then each change, until the client
    cancels (and the relay ends the call)."""
    relay = deployed.relays[0]
    async with grpc.aio.insecure_channel(deployed.relay_address()) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        whole = stub.Watch(health_pb2.HealthCheckRequest(service=""))
        game = stub.Watch(health_pb2.HealthCheckRequest(service="cardroom.v1.GameService"))
        probe = stub.Watch(health_pb2.HealthCheckRequest(service="cardroom.test.Probe"))
        assert (await whole.read()).status == Status.SERVING
        assert (await game.read()).status == Status.SERVING
        assert (await probe.read()).status == Status.SERVICE_UNKNOWN
        await relay.health.set("cardroom.test.Probe", Status.SERVING)
        assert (await probe.read()).status == Status.SERVING
        await relay.health.set("cardroom.test.Probe", Status.NOT_SERVING)
        assert (await probe.read()).status == Status.NOT_SERVING
        for call in (whole, game, probe):
            call.cancel()
    await eventually(lambda: watches_ended(relay, "CANCELLED") == 3, "the relay to end the calls")


async def test_a_stopping_relay_ends_its_health_watchers(deployed: Deployment) -> None:
    relay = deployed.relays.pop()  # stopped here, not by undeploy
    async with grpc.aio.insecure_channel(f"127.0.0.1:{relay.port}") as channel:
        call = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest())
        assert (await call.read()).status == Status.SERVING
        await relay.stop(grace=None)
        statuses = []
        with pytest.raises(grpc.aio.AioRpcError) as ended:
            while (response := await call.read()) != grpc.aio.EOF:
                statuses.append(response.status)
    assert statuses in ([], [Status.NOT_SERVING])  # the last word may be cut off
    assert ended.value.code() != grpc.StatusCode.UNIMPLEMENTED


async def test_a_relay_lists_its_services_and_their_files_by_reflection(
    deployed: Deployment,
) -> None:
    """grpc_reflection's own client, over a channel to the relay."""

    def reflect(address: str) -> tuple[list[str], str, list[str]]:
        with grpc.insecure_channel(address) as channel:
            database = ProtoReflectionDescriptorDatabase(channel)
            services = sorted(database.get_services())
            file = database.FindFileContainingSymbol("cardroom.v1.GameService")
            pool = DescriptorPool(database)
            methods = [m.name for m in pool.FindServiceByName("cardroom.v1.GameService").methods]
            with pytest.raises(KeyError):
                database.FindFileContainingSymbol("cardroom.v1.NoSuchService")
            return services, file.name, methods

    services, name, methods = await asyncio.to_thread(reflect, deployed.relay_address())
    assert services == sorted(REFLECTED)
    assert name == gpb.DESCRIPTOR.name
    game_service = gpb.DESCRIPTOR.services_by_name["GameService"]
    assert methods == [m.name for m in game_service.methods]


async def test_a_relay_answers_each_reflection_request_as_it_comes(deployed: Deployment) -> None:
    """ServerReflectionInfo is a bidirectional stream: every request is
    answered before the next is sent, on one call, with grpc_reflection's
    own answers byte for byte, and the call ends OK when the client does."""
    Request = reflection_pb2.ServerReflectionRequest
    requests = [
        Request(list_services=""),
        Request(file_containing_symbol="cardroom.v1.GameService"),
        Request(file_by_filename="cardroom/v1/no_such.proto"),
        Request(file_containing_symbol="grpc.health.v1.Health"),
        Request(),  # names nothing: an error response, the stream goes on
        Request(list_services=""),
    ]
    local = reflection.ReflectionServicer(REFLECTED)
    expected = [r.SerializeToString() for r in local.ServerReflectionInfo(iter(requests), None)]
    assert len(expected) == len(requests)
    async with grpc.aio.insecure_channel(deployed.relay_address()) as channel:
        info = channel.stream_stream(REFLECTION_INFO, request_serializer=Request.SerializeToString)
        call = info()
        got = []
        for request in requests:
            await call.write(request)
            got.append(bytes(await call.read()))
        await call.done_writing()
        assert await call.read() == grpc.aio.EOF
        assert await call.code() == grpc.StatusCode.OK
    assert got == expected


async def test_a_relays_calls_are_timed_and_logged_alike(
    deployed: Deployment, caplog: pytest.LogCaptureFixture
) -> None:
    """The call metric and --access-log line of every unary and
    server-streaming call (Health's too), none for reflection's request
    stream or a method the port does not have: CallInterceptor's rule."""
    caplog.set_level(logging.INFO, logger="cardroom.calls")  # --access-log
    relay = deployed.relays[0]
    async with grpc.aio.insecure_channel(deployed.relay_address()) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        for service in ("", "cardroom.v1.GameService"):
            answer = await stub.Check(health_pb2.HealthCheckRequest(service=service))
            assert answer.status == Status.SERVING, service
        with pytest.raises(grpc.aio.AioRpcError) as unknown:
            await stub.Check(health_pb2.HealthCheckRequest(service="no.such.Service"))
        assert unknown.value.code() == grpc.StatusCode.NOT_FOUND
        watch = stub.Watch(health_pb2.HealthCheckRequest())
        assert (await watch.read()).status == Status.SERVING
        watch.cancel()
        listed, code = await reflect_once(
            channel, reflection_pb2.ServerReflectionRequest(list_services="")
        )
        assert listed != grpc.aio.EOF
        assert code == grpc.StatusCode.OK
        with pytest.raises(grpc.aio.AioRpcError) as missing:
            await channel.unary_unary("/no.such.Service/Method")(b"")
        assert missing.value.code() == grpc.StatusCode.UNIMPLEMENTED
    await eventually(lambda: watches_ended(relay, "CANCELLED") == 1, "the Watch call to end")
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "cardroom.calls"]
    assert [(line["method"], line["code"]) for line in lines] == [
        ("Check", "OK"),
        ("Check", "OK"),
        ("Check", "NOT_FOUND"),
        ("Watch", "CANCELLED"),
    ]
    assert all(line["peer"].startswith("ipv4:127.0.0.1:") for line in lines)


@pytest.mark.parametrize(
    "compression", [grpc.Compression.Gzip, grpc.Compression.Deflate], ids=["gzip", "deflate"]
)
async def test_a_relay_takes_compressed_requests(
    deployed: Deployment, compression: grpc.Compression
) -> None:
    """A client whose channel compresses its requests is served as one
    that does not: WatchEvents, Health and reflection."""
    game_id, bots = await seated(deployed.client)
    await deployed.client.start(game_id, bots[0].token)
    version = (await deployed.client.view(game_id)).version
    address = deployed.relay_address()
    plain = await raw_feed(address, game_id, until=version)
    assert await raw_feed(address, game_id, until=version, compression=compression) == plain
    async with grpc.aio.insecure_channel(address, compression=compression) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        answer = await stub.Check(health_pb2.HealthCheckRequest(service="cardroom.v1.GameService"))
        assert answer.status == Status.SERVING
        watch = stub.Watch(health_pb2.HealthCheckRequest())
        assert (await watch.read()).status == Status.SERVING
        watch.cancel()
        answer_bytes, code = await reflect_once(
            channel,
            reflection_pb2.ServerReflectionRequest(
                file_containing_symbol="cardroom.v1.GameService"
            ),
        )
        assert code == grpc.StatusCode.OK
    assert isinstance(answer_bytes, bytes)
    found = reflection_pb2.ServerReflectionResponse.FromString(answer_bytes)
    assert found.file_descriptor_response.file_descriptor_proto


@dataclass
class RawConnection:
    """An HTTP/2 connection of no gRPC library: it pings when told."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    h2: h2.connection.H2Connection

    @classmethod
    async def open(cls, address: str) -> RawConnection:
        host, port = address.rsplit(":", 1)
        reader, writer = await asyncio.open_connection(host, int(port))
        config = h2.config.H2Configuration(client_side=True, header_encoding="utf-8")
        connection = cls(reader, writer, h2.connection.H2Connection(config))
        connection.h2.initiate_connection()
        await connection.send()
        return connection

    async def send(self) -> None:
        self.writer.write(self.h2.data_to_send())
        await self.writer.drain()

    async def until(self, kind: type[h2.events.Event]) -> h2.events.Event:
        """Read until an event of ``kind`` (the connection must not close before)."""
        while True:
            chunk = await asyncio.wait_for(self.reader.read(65536), 30)  # bounds a hang
            assert chunk, f"the relay closed the connection before a {kind.__name__}"
            events = self.h2.receive_data(chunk)
            await self.send()
            found = [event for event in events if isinstance(event, kind)]
            if found:
                return found[0]

    async def ping(self) -> None:
        self.h2.ping(b"cardroom")
        await self.send()

    async def call(self, path: str, request: bytes, *headers: tuple[str, str]) -> dict[str, str]:
        """A call of one request message: its trailers, once it ends."""
        stream_id = self.h2.get_next_available_stream_id()
        self.h2.send_headers(stream_id, grpc_request_headers(path, *headers))
        framed = b"\x00" + len(request).to_bytes(4, "big") + request
        self.h2.send_data(stream_id, framed, end_stream=True)
        await self.send()
        trailers = await self.until(h2.events.TrailersReceived)
        return dict(trailers.headers or ())  # type: ignore[attr-defined]

    async def health_check(self) -> str:
        trailers = await self.call("/grpc.health.v1.Health/Check", b"")
        return trailers["grpc-status"]


async def test_a_relay_closes_a_connection_that_pings_too_often(deployed: Deployment) -> None:
    """grpc-core's ping abuse policy, on either transport: a client's PING
    sooner than 10 s after its last, with nothing sent to it between, is a
    strike, and the third strike closes the connection (GOAWAY
    ENHANCE_YOUR_CALM); a response clears the strikes. (The pings here go
    back to back: well within the 10 s.)"""
    connection = await RawConnection.open(deployed.relay_address())
    try:
        for _ in range(2):
            for _ in range(3):  # two strikes
                await connection.ping()
                await connection.until(h2.events.PingAckReceived)
            assert await connection.health_check() == "0"  # it lives; the strikes are cleared
        for _ in range(4):
            await connection.ping()  # the third strike: acknowledged, then GOAWAY
        closed = await connection.until(h2.events.ConnectionTerminated)
    finally:
        connection.writer.close()
    assert isinstance(closed, h2.events.ConnectionTerminated)
    assert closed.error_code == h2.errors.ErrorCodes.ENHANCE_YOUR_CALM
    assert closed.additional_data == b"too_many_pings"


async def test_a_relay_ends_a_call_at_its_deadline(deployed: Deployment) -> None:
    """The client's grpc-timeout is the server's too: a WatchEvents stream
    still open then (the game never ends here) is ended DEADLINE_EXCEEDED
    by the relay, even for a client that would keep it open past it."""
    game_id, _ = await seated(deployed.client)
    request = gpb.WatchEventsRequest(game_id=game_id).SerializeToString()
    connection = await RawConnection.open(deployed.relay_address())
    try:
        watch = "/cardroom.v1.GameService/WatchEvents"
        trailers = await connection.call(watch, request, ("grpc-timeout", "200m"))
    finally:
        connection.writer.close()
    assert trailers["grpc-status"] == str(grpc.StatusCode.DEADLINE_EXCEEDED.value[0])
    relay = deployed.relays[0].servicer
    await eventually(lambda: relay.watchers == 0, "the stream's slot to be let go")
    labels = {"method": "WatchEvents", "code": "CANCELLED"}  # as CallInterceptor counts it
    registry = relay.metrics.registry
    await eventually(
        lambda: registry.get_sample_value("cardroom_rpc_seconds_count", labels) == 1,
        "the call's metric",
    )
