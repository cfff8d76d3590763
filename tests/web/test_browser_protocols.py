"""Browsers reach the same GameService over Connect and gRPC-Web: the same
answers, the same error statuses, the same redacted bytes as gRPC."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import grpc
import pytest
from connectrpc.errors import ConnectError
from connectrpc.protocol import ProtocolType

from cardroom.client import Client, pack
from cardroom.client.bots.runner import play_bots
from cardroom.client.sessions import BotSeat
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1.game_service_connect import GameServiceClient
from tests.conftest import OPERATOR_TOKEN
from tests.service.helpers import SM, deal, seated_game, star
from tests.web.support import WebServed, frames, post

BROWSER_PROTOCOLS = [ProtocolType.CONNECT, ProtocolType.GRPC_WEB]
WATCH = "/cardroom.v1.GameService/WatchEvents"
# Stream bodies as each protocol frames them: (content type, end-of-stream flag).
FRAMING = {
    "connect": ("application/connect+proto", 0x02),
    "grpc-web": ("application/grpc-web+proto", 0x80),
}


def web_client(served: WebServed, protocol: ProtocolType) -> GameServiceClient:
    return GameServiceClient(served.web_url, protocol=protocol)


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


async def finished_game(client: Client, seed: int = 3) -> tuple[str, list[str]]:
    table = await seated_game(client, players=3)
    tokens = [seat.token for seat in table.seats]
    bots = [BotSeat(seat.seat, seat.token, "random") for seat in table.seats]
    await play_bots(client, table.game_id, SM, bots, seed=seed)
    return table.game_id, tokens


async def grpc_stream_bytes(
    address: str, request: gpb.WatchEventsRequest, token: str | None
) -> list[bytes]:
    """The serialized WatchEventsResponse messages exactly as gRPC delivers them."""
    async with grpc.aio.insecure_channel(address) as channel:
        call = channel.unary_stream(
            WATCH, request_serializer=gpb.WatchEventsRequest.SerializeToString
        )(request, metadata=tuple(bearer(token).items()) if token else ())
        return [bytes(message) async for message in call]


async def browser_stream_bytes(
    served: WebServed, framing: str, request: gpb.WatchEventsRequest, token: str | None
) -> list[bytes]:
    """The same stream over a browser protocol, read off the HTTP body."""
    content_type, end_flag = FRAMING[framing]
    body = (
        b"\x00" + len(request.SerializeToString()).to_bytes(4, "big") + request.SerializeToString()
    )
    headers = {"content-type": content_type, **(bearer(token) if token else {})}
    status, _, answer = await post(served.web_url + WATCH, body, headers)
    assert status == 200
    messages = frames(answer)
    assert messages[-1][0] == end_flag  # the end of the stream: a status, not a message
    assert all(flags == 0 for flags, _ in messages[:-1])
    return [payload for _, payload in messages[:-1]]


@pytest.mark.parametrize("framing", sorted(FRAMING))
async def test_a_browser_spectator_receives_exactly_the_bytes_a_grpc_spectator_receives(
    web_served: WebServed, framing: str
) -> None:
    game_id, _ = await finished_game(web_served.client)
    request = gpb.WatchEventsRequest(game_id=game_id)
    over_grpc = await grpc_stream_bytes(web_served.address, request, None)
    over_browser = await browser_stream_bytes(web_served, framing, request, None)
    assert len(over_grpc) > 10
    assert over_browser == over_grpc


@pytest.mark.parametrize("framing", sorted(FRAMING))
async def test_a_seat_token_in_the_authorization_header_gets_that_seats_feed(
    web_served: WebServed, framing: str
) -> None:
    game_id, tokens = await finished_game(web_served.client)
    request = gpb.WatchEventsRequest(game_id=game_id)
    seat = await browser_stream_bytes(web_served, framing, request, tokens[1])
    spectator = await browser_stream_bytes(web_served, framing, request, None)
    assert seat == await grpc_stream_bytes(web_served.address, request, tokens[1])
    assert seat != spectator  # the seat sees its own hidden cards


@pytest.mark.parametrize("protocol", BROWSER_PROTOCOLS)
async def test_unary_calls_and_streams_answer_as_over_grpc(
    web_served: WebServed, protocol: ProtocolType
) -> None:
    web = web_client(web_served, protocol)
    kinds = await web.list_game_kinds(gpb.ListGameKindsRequest())
    assert {k.kind for k in kinds.kinds} >= {SM, "smiles-and-daggers"}
    game_id = (await web.create_game(gpb.CreateGameRequest(kind=SM, seat_count=3))).game_id
    tokens = [
        (await web.join_game(gpb.JoinGameRequest(game_id=game_id, player_name=name))).seat_token
        for name in ("Ada", "Bo", "Cy")
    ]
    await web.start_game(gpb.StartGameRequest(game_id=game_id), headers=bearer(tokens[0]))
    view = await web.get_view(gpb.GetViewRequest(game_id=game_id), headers=bearer(tokens[2]))
    assert view == (await web_served.client.view(game_id, tokens[2])).response
    replay = [
        step
        async for step in web.replay_views(
            gpb.ReplayViewsRequest(game_id=game_id), headers=bearer(tokens[2])
        )
    ]
    # GetView adds the signed head of the version it shows; a replay serves it beside each step.
    assert replay[-1].signed_head == view.signed_head
    view.ClearField("signed_head")
    assert replay[-1].view == view


async def test_connect_json_carries_any_fields_by_their_type_urls(web_served: WebServed) -> None:
    options = {
        "@type": "type.googleapis.com/cardroom.smoke_and_mirrors.v1.Options",
        "roundsToWin": 2,
    }
    create = {"kind": SM, "seatCount": 3, "options": options}
    status, _, body = await post(
        web_served.web_url + "/cardroom.v1.GameService/CreateGame",
        json.dumps(create).encode(),
        {"content-type": "application/json"},
    )
    assert status == 200
    game_id = json.loads(body)["gameId"]
    status, _, body = await post(
        web_served.web_url + "/cardroom.v1.GameService/GetView",
        json.dumps({"gameId": game_id}).encode(),
        {"content-type": "application/json"},
    )
    assert status == 200
    assert (
        json.loads(body)["game"]["@type"]
        == "type.googleapis.com/cardroom.smoke_and_mirrors.v1.View"
    )


async def test_connect_json_refuses_an_any_under_another_type_url_prefix(
    web_served: WebServed,
) -> None:
    """JSON names an Any's type by "@type": the same one prefix is accepted."""
    options = {
        "@type": "https://evil.example/cardroom.smoke_and_mirrors.v1.Options",
        "roundsToWin": 2,
    }
    create = {"kind": SM, "seatCount": 3, "options": options}
    status, _, body = await post(
        web_served.web_url + "/cardroom.v1.GameService/CreateGame",
        json.dumps(create).encode(),
        {"content-type": "application/json"},
    )
    error = json.loads(body)
    assert (status, error["code"]) == (400, "invalid_argument")
    assert error["message"].startswith("options must be cardroom.smoke_and_mirrors.v1.Options")
    assert "https://evil.example/" in error["message"]


async def grpc_error(call: object) -> tuple[str, str]:
    try:
        await call  # type: ignore[misc]
    except grpc.aio.AioRpcError as error:
        return str(error.code().name), str(error.details())
    raise AssertionError("the gRPC call succeeded")


async def browser_error(call: object) -> tuple[str, str]:
    try:
        if isinstance(call, AsyncIterator):
            async for _ in call:
                pass
        else:
            await call  # type: ignore[misc]
    except ConnectError as error:
        return error.code.name.replace("CANCELED", "CANCELLED"), error.message
    raise AssertionError("the browser call succeeded")


@pytest.mark.parametrize("protocol", BROWSER_PROTOCOLS)
async def test_every_error_status_and_message_is_the_one_grpc_gives(
    web_served: WebServed, protocol: ProtocolType
) -> None:
    table = await seated_game(web_served.client, set_deal=[deal(0)])
    stub, web = web_served.client.stub, web_client(web_served, protocol)
    out_of_turn = gpb.SubmitCommandRequest(
        game_id=table.game_id, command=pack(sm.PerformAct(cards=[star(1)])), command_id="x"
    )
    unknown_game = "00000000-0000-4000-8000-000000000000"
    cases = [
        ("create_game", "CreateGame", gpb.CreateGameRequest(kind="chess", seat_count=2), {}),
        ("get_view", "GetView", gpb.GetViewRequest(game_id=unknown_game), {}),
        ("submit_command", "SubmitCommand", out_of_turn, bearer(table.token(1))),
        ("start_game", "StartGame", gpb.StartGameRequest(game_id=table.game_id), {}),
        (
            "create_game",
            "CreateGame",
            gpb.CreateGameRequest(kind=SM, seat_count=3, set_deal=[pack(deal(0))]),
            {},
        ),
        ("watch_events", "WatchEvents", gpb.WatchEventsRequest(game_id=unknown_game), {}),
        (
            "replay_views",
            "ReplayViews",
            gpb.ReplayViewsRequest(game_id=table.game_id),
            bearer("not-a-token"),
        ),
    ]
    seen = set()
    for web_method, grpc_method, request, headers in cases:
        expected = await grpc_error(
            _grpc_call(getattr(stub, grpc_method), request, tuple(headers.items()))
        )
        got = await browser_error(getattr(web, web_method)(request, headers=headers))
        assert got == expected, grpc_method
        seen.add(expected[0])
    assert seen >= {
        "INVALID_ARGUMENT",
        "NOT_FOUND",
        "FAILED_PRECONDITION",
        "UNAUTHENTICATED",
        "PERMISSION_DENIED",
    }
    failed_precondition = await grpc_error(
        _grpc_call(stub.SubmitCommand, out_of_turn, tuple(bearer(table.token(1)).items()))
    )
    assert failed_precondition[1].startswith("rule T-TURN: ")


async def _grpc_call(
    method: object, request: object, metadata: tuple[tuple[str, str], ...]
) -> None:
    call = method(request, metadata=metadata)  # type: ignore[operator]
    if hasattr(call, "__aiter__"):
        async for _ in call:
            pass
    else:
        await call


async def test_the_operator_token_works_over_a_browser_protocol(web_served: WebServed) -> None:
    web = web_client(web_served, ProtocolType.CONNECT)
    request = gpb.CreateGameRequest(kind=SM, seat_count=3, set_deal=[pack(deal(0))])
    created = await web.create_game(request, headers=bearer(OPERATOR_TOKEN))
    assert (await web_served.client.view(created.game_id)).table.set_deal


async def test_grpc_web_json_streams_a_finished_game_as_grpc_does(web_served: WebServed) -> None:
    game_id, _ = await finished_game(web_served.client)
    request = json.dumps({"gameId": game_id}).encode()
    body = b"\x00" + len(request).to_bytes(4, "big") + request
    status, headers, answer = await post(
        web_served.web_url + WATCH, body, {"content-type": "application/grpc-web+json"}
    )
    assert status == 200
    assert headers["content-type"] == "application/grpc-web+json"
    *messages, (flags, trailers) = frames(answer)
    assert flags == 0x80 and b"grpc-status: 0" in trailers
    over_grpc = await grpc_stream_bytes(
        web_served.address, gpb.WatchEventsRequest(game_id=game_id), None
    )
    sequences = [int(json.loads(payload)["event"]["sequence"]) for _, payload in messages]
    assert sequences == [gpb.WatchEventsResponse.FromString(b).event.sequence for b in over_grpc]
