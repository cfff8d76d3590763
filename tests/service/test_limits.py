"""The server's limits hold: game creation per client, live streams in all,
and what operators see of it (metrics, one log line per call)."""

from __future__ import annotations

import json
import logging
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest

from cardroom.client import CardroomError, Client
from cardroom.server.api.server import RunningServer, Settings, start
from cardroom.server.limits import (
    CreationLimiter,
    Limits,
    TooBusy,
    WatcherSlots,
    client_of,
    peer_host,
)
from tests.conftest import OPERATOR_TOKEN
from tests.service.helpers import SM, seated_game


@pytest.fixture
async def limited(tmp_path: Path) -> AsyncIterator[tuple[RunningServer, Client]]:
    server = await start(
        Settings(
            address="127.0.0.1:0",
            database=str(tmp_path / "cardroom.sqlite3"),
            operator_token=OPERATOR_TOKEN,
            metrics_address="127.0.0.1:0",
            limits=Limits(games_per_client_per_hour=3, max_watchers=2, watcher_reserve=0),
        )
    )
    client = Client.connect(f"127.0.0.1:{server.port}")
    try:
        yield server, client
    finally:
        await client.close()
        await server.stop(grace=None)


def test_a_bucket_refills_evenly_over_the_hour() -> None:
    now = [0.0]
    limiter = CreationLimiter(per_hour=2, clock=lambda: now[0])
    assert limiter.take("a") and limiter.take("a") and not limiter.take("a")
    assert limiter.take("b")  # another client has its own bucket
    now[0] = 1800.0  # half an hour: one game's worth
    assert limiter.take("a") and not limiter.take("a")
    assert CreationLimiter(per_hour=0).take("a")  # 0: no limit


def test_the_client_is_its_host_not_its_port() -> None:
    assert peer_host("ipv4:10.1.2.3:5555") == "10.1.2.3"
    assert peer_host("ipv6:[::1]:5555") == "[::1]"


async def test_a_client_creating_too_many_games_is_refused_and_the_operator_is_not(
    limited: tuple[RunningServer, Client],
) -> None:
    _, client = limited
    for _ in range(3):
        await client.create_game(SM, seat_count=2)
    with pytest.raises(CardroomError) as caught:
        await client.create_game(SM, seat_count=2)
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "3 games" in caught.value.details
    assert await client.create_game(SM, seat_count=2, operator_token=OPERATOR_TOKEN)
    assert len(await client.list_games()) == 4


async def test_live_streams_past_the_cap_are_refused_until_one_closes(
    limited: tuple[RunningServer, Client],
) -> None:
    server, client = limited
    table = await seated_game(client, players=2)
    watchers = [client.watch(table.game_id) for _ in range(2)]
    for watcher in watchers:
        await anext(watcher)  # each stream is open and has sent the first event
    with pytest.raises(CardroomError) as caught:
        await anext(client.watch(table.game_id))
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    with pytest.raises(CardroomError):
        await anext(client.replay(table.game_id))
    await watchers[0].aclose()
    for _ in range(100):  # the server notices the cancellation
        if server.servicer is not None and server.servicer.watchers < 2:
            break
        await client.view(table.game_id)
    assert await anext(client.watch(table.game_id))


async def test_metrics_count_calls_commands_and_watchers(
    limited: tuple[RunningServer, Client], caplog: pytest.LogCaptureFixture
) -> None:
    server, client = limited
    assert server.metrics is not None and server.stop_metrics is not None
    caplog.set_level(logging.INFO, logger="cardroom.calls")
    table = await seated_game(client, players=2)
    view = await client.view(table.game_id)
    mover = table.token(view.game.turn_seat)  # the start seat is drawn at random
    actions = await client.legal_actions(table.game_id, mover)
    await client.act(table.game_id, mover, actions[0])
    text = scrape(server)
    assert 'cardroom_commands_total{code="OK",kind="smoke-and-mirrors"} 1.0' in text
    assert 'cardroom_rpc_seconds_count{code="OK",method="SubmitCommand"} 1.0' in text
    assert "cardroom_games_in_memory 1.0" in text
    assert "cardroom_store_append_seconds_count" in text
    assert "cardroom_live_watchers 0.0" in text
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "cardroom.calls"]
    submitted = [line for line in lines if line["method"] == "SubmitCommand"]
    assert submitted and submitted[0]["code"] == "OK"
    assert submitted[0]["game_id"] == table.game_id and submitted[0]["duration_ms"] >= 0
    # Tokens travel in metadata and are never logged.
    assert not any(t.token in r.getMessage() for t in table.seats for r in caplog.records)


def scrape(server: RunningServer) -> str:
    """The /metrics page of a server started with metrics_address port 0."""
    assert server.metrics is not None
    port = server.metrics.port
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as page:
        return str(page.read().decode())


# ------------------------------------------------------------ fair shares


def test_a_refund_gives_back_what_take_counted() -> None:
    limiter = CreationLimiter(per_hour=1, clock=lambda: 0.0)
    assert limiter.take("a")
    limiter.refund("a")  # the call was refused after all
    assert limiter.take("a") and not limiter.take("a")


def test_an_ipv6_client_is_its_64_network() -> None:
    assert client_of("ipv6:[2001:db8:1:2:aaaa::1]:5555") == client_of("ipv6:[2001:db8:1:2::9]:1")
    assert client_of("ipv6:[2001:db8:1:3::1]:5555") != client_of("ipv6:[2001:db8:1:2::1]:5555")
    assert client_of("ipv4:10.1.2.3:5555") == "10.1.2.3"


def test_an_ipv4_client_on_a_dual_stack_port_is_its_ipv4_address() -> None:
    """Issue 34: on a ``[::]`` port every IPv4 peer is ``::ffff:a.b.c.d``,
    one /64, so every IPv4 browser counted as one client."""
    assert client_of("ipv6:[::ffff:10.1.2.3]:5555") == "10.1.2.3"
    assert client_of("ipv6:[::ffff:10.1.2.3]:5555") != client_of("ipv6:[::ffff:10.9.9.9]:1")
    assert client_of("ipv6:[::ffff:10.1.2.3]:5555") == client_of("ipv4:10.1.2.3:7")


def test_slots_keep_the_reserve_for_seats_and_the_operator_its_own_share() -> None:
    slots = WatcherSlots(total=4, reserve=2, per_client=5, per_seat=1)
    held = [slots.take("a", "g", None, operator=False) for _ in range(2)]
    with pytest.raises(TooBusy, match="spectators"):
        slots.take("b", "g", None, operator=False)  # another client: the pool is full too
    seat = slots.take("a", "g", 0, operator=False)
    with pytest.raises(TooBusy, match="per seat"):
        slots.take("a", "g", 0, operator=False)
    other_seat = slots.take("c", "g", 1, operator=False)
    with pytest.raises(TooBusy, match="4 watchers"):
        slots.take("c", "h", 1, operator=False)  # the total holds for every client
    operator = slots.take("a", "g", None, operator=True)  # outside the total
    for slot in (*held, seat, other_seat, operator):
        slot.release()
        slot.release()  # twice is once
    assert slots.open == 0
    assert slots.take("b", "g", None, operator=False)


def test_a_client_s_seats_share_one_allowance_however_many_games_it_joins() -> None:
    """Issue 34 (N3): seat streams were counted per seat only, so one client
    with 42 joins held every slot of the server."""
    slots = WatcherSlots(total=100, reserve=10, per_client=6, per_seat=2)
    held = [slots.take("mallory", f"game {n}", 0, operator=False) for n in range(6)]
    with pytest.raises(TooBusy, match="this client's seats have 6 streams"):
        slots.take("mallory", "game 7", 0, operator=False)
    # Its spectating is counted apart, and other clients keep theirs.
    assert slots.take("mallory", "game 7", None, operator=False)
    assert slots.take("alice", "game 7", 1, operator=False)
    # The server's own callers (no client: its bots) count in the total only.
    bots = [slots.take(None, f"game {n}", 2, operator=False) for n in range(20)]
    assert slots.shared == 6 + 2 + 20
    for slot in (*held, *bots):
        slot.release()


def test_the_operator_streams_when_the_total_is_taken() -> None:
    slots = WatcherSlots(total=2, reserve=0, per_client=3, per_seat=8)
    taken = [slots.take(client, "g", None, operator=False) for client in ("a", "b")]
    assert slots.full() is not None and slots.full(operator=True) is None
    operator = [slots.take("x", "g", None, operator=True) for _ in range(3)]
    with pytest.raises(TooBusy, match="the operator has 3 streams"):
        slots.take("x", "g", None, operator=True)  # its own share is bounded too
    for slot in (*taken, *operator):
        slot.release()
    assert slots.open == slots.shared == slots.operator == 0


def test_record_streams_are_capped_per_client_and_per_game() -> None:
    slots = WatcherSlots(
        total=100, reserve=0, per_client=50, per_seat=8, records_per_client=2, records_per_game=3
    )
    mine = [slots.take("a", "g", None, operator=False, kind="record") for _ in range(2)]
    with pytest.raises(TooBusy, match="2 game records already, the limit per client"):
        slots.take("a", "h", None, operator=False, kind="record")
    assert slots.take("a", "g", None, operator=False)  # a watcher is no record
    theirs = slots.take("b", "g", None, operator=False, kind="record")
    with pytest.raises(TooBusy, match="3 times already, the limit per game"):
        slots.take("c", "g", None, operator=False, kind="record")
    assert slots.take("c", "h", None, operator=False, kind="record")
    mine[0].release()
    theirs.release()
    assert slots.take("c", "g", None, operator=False, kind="record")


@pytest.fixture
async def shared(tmp_path: Path) -> AsyncIterator[tuple[RunningServer, Client]]:
    server = await start(
        Settings(
            address="127.0.0.1:0",
            database=str(tmp_path / "cardroom.sqlite3"),
            operator_token=OPERATOR_TOKEN,
            limits=Limits(
                max_watchers=6,
                watcher_reserve=3,
                watchers_per_client=2,
                games_per_client_per_hour=2,
                joins_per_client_per_hour=3,
                invitations_per_client_per_hour=4,
            ),
        )
    )
    client = Client.connect(f"127.0.0.1:{server.port}")
    try:
        yield server, client
    finally:
        await client.close()
        await server.stop(grace=None)


async def test_a_client_filling_its_watcher_share_leaves_seats_and_operator_their_game(
    shared: tuple[RunningServer, Client],
) -> None:
    server, client = shared
    game_id = await client.create_game(SM, seat_count=2, operator_token=OPERATOR_TOKEN)
    seats = [await client.join(game_id, name) for name in ("Ada", "Babbage")]
    await client.start(game_id, seats[0].token)
    spectators = [client.watch(game_id) for _ in range(2)]
    for stream in spectators:
        await anext(stream)
    with pytest.raises(CardroomError) as caught:
        await anext(client.watch(game_id))  # the client's share is full
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "per client" in caught.value.details
    # The seats and the operator still watch their own game.
    own = [client.watch(game_id, seat.token) for seat in seats]
    own.append(client.watch(game_id, OPERATOR_TOKEN))
    for stream in own:
        assert (await anext(stream)).sequence == 1
    assert server.servicer is not None and server.servicer.watchers == 5
    for stream in (*spectators, *own):
        await stream.aclose()


async def test_joins_are_capped_per_client_and_refusals_spend_nothing(
    shared: tuple[RunningServer, Client],
) -> None:
    _, client = shared
    game_id = await client.create_game(SM, seat_count=2, operator_token=OPERATOR_TOKEN)
    await client.join(game_id, "Ada")
    await client.join(game_id, "Babbage")
    for _ in range(3):  # refused joins (every seat is taken) count nothing
        with pytest.raises(CardroomError) as refused:
            await client.join(game_id, "Curie")
        assert refused.value.code == grpc.StatusCode.FAILED_PRECONDITION
    other = await client.create_game(SM, seat_count=3, operator_token=OPERATOR_TOKEN)
    await client.join(other, "Curie")  # the third join of the hour
    with pytest.raises(CardroomError) as caught:
        await client.join(other, "Dirac")
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "3 seats" in caught.value.details


async def test_accepting_an_invitation_spends_the_join_allowance(
    shared: tuple[RunningServer, Client],
) -> None:
    """N7: six joins filled thirty seats of others' games through invitations."""
    _, client = shared
    game_id = await client.create_game(SM, seat_count=5, operator_token=OPERATOR_TOKEN)
    codes = [(await client.invite(game_id, OPERATOR_TOKEN)).code for _ in range(4)]
    await client.join(game_id, "Ada")
    await client.accept_invitation(game_id, codes[0], "Babbage")
    await client.accept_invitation(game_id, codes[1], "Curie")  # the third seat of the hour
    version = (await client.view(game_id)).version
    with pytest.raises(CardroomError) as caught:
        await client.accept_invitation(game_id, codes[2], "Dirac")
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "3 seats" in caught.value.details
    assert (await client.view(game_id)).version == version  # nothing written


async def test_invitations_are_capped_per_client_and_refusals_spend_nothing(
    shared: tuple[RunningServer, Client],
) -> None:
    _, client = shared
    game_id = await client.create_game(SM, seat_count=3, operator_token=OPERATOR_TOKEN)
    host = await client.join(game_id, "Ada")
    for _ in range(3):  # refused (no seat 7) counts nothing
        with pytest.raises(CardroomError) as refused:
            await client.invite(game_id, host.token, seat=7)
        assert refused.value.code == grpc.StatusCode.INVALID_ARGUMENT
    for _ in range(4):
        await client.invite(game_id, host.token, seat=1)
    version = (await client.view(game_id)).version
    with pytest.raises(CardroomError) as caught:
        await client.invite(game_id, host.token, seat=1)
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "4 invitations" in caught.value.details
    assert (await client.view(game_id)).version == version  # nothing written
    await client.invite(game_id, OPERATOR_TOKEN, seat=1)  # the operator has no limit


async def test_refused_creations_do_not_use_up_the_allowance(
    shared: tuple[RunningServer, Client],
) -> None:
    _, client = shared
    for _ in range(5):
        with pytest.raises(CardroomError) as refused:
            await client.create_game(SM, seat_count=9)  # T-SEATS
        assert refused.value.code == grpc.StatusCode.FAILED_PRECONDITION
    assert await client.create_game(SM, seat_count=2)
    assert await client.create_game(SM, seat_count=2)
    with pytest.raises(CardroomError) as caught:
        await client.create_game(SM, seat_count=2)
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
