"""Bad input is never applied and never reaches INTERNAL: every Any the
server accepts unpacks exactly, fields the schema does not know are never
stored, set deals never fall back to chance silently, and an error quotes
only a short prefix of what was sent. Every refusal leaves the store as it
was."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf import any_pb2
from google.protobuf.message import Message

from cardroom.client import InvalidArgument, RuleBroken, pack
from cardroom.domain.kernel import quote
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as sd
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from tests.conftest import OPERATOR_TOKEN, Served
from tests.service.helpers import SM, deal, seated_game, skull, star, swirl

HANDS = [
    [star(1), swirl(2), skull(5)],
    [star(1), swirl(1), skull(5)],
    [star(0), swirl(3), skull(0)],
]
# An unknown field (number 999, bytes) appended to a message's wire bytes.
PADDING = b"\xba\x3e\x04junk"


def rows(served: Served) -> int:
    """How many events the store holds, all games together."""
    return sum(1 for _ in served.server.games.log.notifications())


def without_slash(message: sm.PerformAct | sd.ChallengeOpponent | sd.Options) -> any_pb2.Any:
    return any_pb2.Any(type_url=message.DESCRIPTOR.full_name, value=message.SerializeToString())


async def raw(served: Served, method: str, request: object, token: str | None = None) -> object:
    metadata = (("authorization", f"Bearer {token}"),) if token else ()
    return await getattr(served.client.stub, method)(request, metadata=metadata)


async def refused(served: Served, method: str, request: object, token: str | None = None):
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await raw(served, method, request, token)
    return caught.value


# ------------------------------------------------------------------ Any


async def test_a_command_whose_type_url_has_no_slash_is_refused_not_applied_as_empty(
    served: Served,
) -> None:
    """The reported bug: ChallengeOpponent{target: 2} sent this way was
    recorded with empty bytes and challenged seat 0."""
    game_id = await served.client.create_game(
        "smiles-and-daggers", seat_count=3, set_deal=[sd.ChooseStartSeat(seat=0)],
        operator_token=OPERATOR_TOKEN,
    )  # fmt: skip
    seats = [await served.client.join(game_id, name) for name in ("Ada", "Bo", "Cy")]
    await served.client.start(game_id, seats[0].token)
    for seat, family in enumerate((sd.FAMILY_DRAGON, sd.FAMILY_KRAKEN, sd.FAMILY_HYDRA)):
        await served.client.act(game_id, seats[seat].token, sd.ChooseFamily(family=family))
    before = rows(served)
    request = gpb.SubmitCommandRequest(
        game_id=game_id, command=without_slash(sd.ChallengeOpponent(target=2)), command_id="c1"
    )
    error = await refused(served, "SubmitCommand", request, seats[0].token)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details().startswith("command: type_url must be")
    assert rows(served) == before


async def test_options_and_set_deals_with_no_slash_are_refused_naming_the_field(
    served: Served,
) -> None:
    options = gpb.CreateGameRequest(
        kind="smiles-and-daggers", seat_count=3, options=without_slash(sd.Options())
    )
    error = await refused(served, "CreateGame", options)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details().startswith("options must be cardroom.smiles_and_daggers.v1.Options")
    dealt = gpb.CreateGameRequest(
        kind="smiles-and-daggers",
        seat_count=3,
        set_deal=[without_slash(sd.ChooseStartSeat(seat=2))],  # type: ignore[arg-type]
    )
    error = await refused(served, "CreateGame", dealt, OPERATOR_TOKEN)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details().startswith("set_deal[0]: type_url must be")
    assert rows(served) == 0


OTHER_PREFIXES = ["example.com/", "https://evil.example/", "type.googleapis.com.evil/", "/"]


def prefixed(prefix: str, message: Message) -> any_pb2.Any:
    """``message`` packed under a type URL prefix other than protobuf's own."""
    return any_pb2.Any(
        type_url=prefix + message.DESCRIPTOR.full_name, value=message.SerializeToString()
    )


@pytest.mark.parametrize("prefix", OTHER_PREFIXES)
async def test_a_command_under_another_type_url_prefix_is_refused_naming_the_field(
    served: Served, prefix: str
) -> None:
    """docs/design.md: only type.googleapis.com/<full name>. protobuf's Unpack
    reads only the name after the last slash, so these were played."""
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    before = rows(served)
    act = prefixed(prefix, sm.PerformAct(cards=[star(1)]))
    request = gpb.SubmitCommandRequest(game_id=table.game_id, command=act, command_id="c1")
    error = await refused(served, "SubmitCommand", request, table.token(0))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    sent = prefix + "cardroom.smoke_and_mirrors.v1.PerformAct"
    assert error.details() == (
        f"command: type_url must be 'type.googleapis.com/<message name>', not {quote(sent)}"
    )
    assert rows(served) == before
    # The same act under protobuf's own prefix is played.
    request.command.CopyFrom(pack(sm.PerformAct(cards=[star(1)])))
    await raw(served, "SubmitCommand", request, table.token(0))
    assert rows(served) == before + 1


@pytest.mark.parametrize("prefix", OTHER_PREFIXES)
async def test_options_and_set_deals_under_another_prefix_are_refused_naming_the_field(
    served: Served, prefix: str
) -> None:
    options = gpb.CreateGameRequest(
        kind="smiles-and-daggers", seat_count=3, options=prefixed(prefix, sd.Options())
    )
    error = await refused(served, "CreateGame", options)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details().startswith("options must be cardroom.smiles_and_daggers.v1.Options")
    dealt = gpb.CreateGameRequest(
        kind="smiles-and-daggers",
        seat_count=3,
        set_deal=[prefixed(prefix, sd.ChooseStartSeat(seat=2))],
    )
    error = await refused(served, "CreateGame", dealt, OPERATOR_TOKEN)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details().startswith("set_deal[0]: type_url must be 'type.googleapis.com/")
    assert rows(served) == 0


async def test_a_later_set_deal_outcome_under_another_prefix_is_refused_at_creation(
    served: Served,
) -> None:
    """Every outcome is decoded when the game is created, not only the first."""
    dealt = gpb.CreateGameRequest(
        kind=SM,
        seat_count=3,
        set_deal=[pack(deal(0, first=HANDS)), prefixed("example.com/", deal(1))],
    )
    error = await refused(served, "CreateGame", dealt, OPERATOR_TOKEN)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details().startswith("set_deal[1]: type_url must be 'type.googleapis.com/")
    assert rows(served) == 0


async def test_options_that_do_not_decode_are_an_invalid_argument_not_internal(
    served: Served,
) -> None:
    packed = any_pb2.Any(
        type_url="type.googleapis.com/cardroom.smiles_and_daggers.v1.Options", value=b"\xff\xff"
    )
    request = gpb.CreateGameRequest(kind="smiles-and-daggers", seat_count=3, options=packed)
    error = await refused(served, "CreateGame", request)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "could not decode" in error.details()
    assert rows(served) == 0


# --------------------------------------------------------------- set deals


async def test_a_set_deal_outcome_that_cannot_fit_is_refused_at_creation(served: Served) -> None:
    c = served.client
    with pytest.raises(InvalidArgument, match=r"set_deal\[0\].*ChooseStartSeat"):
        await c.create_game(
            "smiles-and-daggers", seat_count=3, set_deal=[sd.ChooseStartSeat(seat=4)],
            operator_token=OPERATOR_TOKEN,
        )  # fmt: skip
    with pytest.raises(InvalidArgument, match=r"set_deal\[1\] is a cardroom.smiles_and_daggers"):
        await c.create_game(
            SM, seat_count=3, set_deal=[deal(0), sd.ChooseStartSeat(seat=0)],
            operator_token=OPERATOR_TOKEN,
        )  # fmt: skip
    assert rows(served) == 0


async def test_a_later_outcome_that_does_not_fit_fails_the_command_that_needs_it(
    served: Served,
) -> None:
    """Round 1 ends after one act (turn_cap), so round 2's deal, the set
    deal's outcome 1, is needed by seat 0's act: a start seat of 7 cannot be,
    so the act fails naming the outcome, and nothing is written; the game
    does not go on with a random deal instead."""
    table = await seated_game(
        served.client,
        set_deal=[deal(0, first=HANDS), deal(7)],
        options=sm.Options(turn_cap=1),
    )
    before = rows(served)
    version = (await served.client.view(table.game_id)).version
    with pytest.raises(RuleBroken) as caught:
        await served.client.act(table.game_id, table.token(0), sm.PerformAct(cards=[star(1)]))
    assert caught.value.details.startswith(
        "rule T-DEAL: set deal outcome 1 (cardroom.smoke_and_mirrors.v1.DealRound) does not fit:"
    )
    assert rows(served) == before
    assert (await served.client.view(table.game_id)).version == version


# ---------------------------------------------------------- unknown fields


async def test_unknown_fields_of_a_command_are_never_stored(served: Served) -> None:
    table = await seated_game(served.client, set_deal=[deal(0, first=HANDS)])
    act = sm.PerformAct(cards=[star(1)])
    padded = any_pb2.Any(
        type_url="type.googleapis.com/cardroom.smoke_and_mirrors.v1.PerformAct",
        value=act.SerializeToString() + PADDING,
    )
    request = gpb.SubmitCommandRequest(game_id=table.game_id, command=padded, command_id="p")
    await raw(served, "SubmitCommand", request, table.token(0))
    log = await served.client.audit(table.game_id, OPERATOR_TOKEN)
    recorded = log[-1 if log[-1].HasField("command") else -2].command
    assert [e for e in log if e.HasField("command")][-1].command.command.value == (
        act.SerializeToString()
    ), recorded
    assert all(PADDING not in e.SerializeToString() for e in log)


async def test_unknown_fields_of_options_and_policies_are_never_stored(served: Served) -> None:
    options = any_pb2.Any(
        type_url="type.googleapis.com/cardroom.smoke_and_mirrors.v1.Options",
        value=sm.Options(rounds_to_win=2).SerializeToString() + PADDING,
    )
    policy = tpb.SpectatorPolicy.FromString(
        tpb.SpectatorPolicy(kind=tpb.SpectatorPolicy.KIND_PUBLIC).SerializeToString() + PADDING
    )
    request = gpb.CreateGameRequest(kind=SM, seat_count=2, options=options, spectator_policy=policy)
    response = await raw(served, "CreateGame", request)
    [created] = [n.state for n in served.server.games.log.notifications()]
    assert PADDING not in created
    view = await served.client.view(response.game_id)  # type: ignore[attr-defined]
    assert view.table.kind == SM


async def test_a_request_larger_than_any_legal_call_is_refused_before_it_is_read(
    served: Served,
) -> None:
    huge = gpb.CreateGameRequest(kind=SM, seat_count=2)
    huge.options.type_url = "type.googleapis.com/cardroom.smoke_and_mirrors.v1.Options"
    huge.options.value = PADDING[:3] + b"\x80\x80\xf0\x01" + b"x" * (4 << 20)  # ~4 MB
    error = await refused(served, "CreateGame", huge)
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert rows(served) == 0


# --------------------------------------------------------------- messages


async def test_an_error_quotes_only_a_short_prefix_of_what_was_sent(served: Served) -> None:
    long_id = "x" * 50_000
    error = await refused(served, "GetView", gpb.GetViewRequest(game_id=long_id))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert len(error.details()) < 200 and "50000 chars" in error.details()
    error = await refused(served, "CreateGame", gpb.CreateGameRequest(kind="k" * 50_000))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert len(error.details()) < 300


async def test_a_seat_count_out_of_range_names_the_games_own_range(served: Served) -> None:
    with pytest.raises(RuleBroken, match=r"DECISIONS 1.1: .* 3 to 6 players, not 7"):
        await served.client.create_game("smiles-and-daggers", seat_count=7)
    with pytest.raises(RuleBroken, match=r"T-SEATS: .* not 4000000000"):
        await served.client.create_game("smiles-and-daggers", seat_count=4_000_000_000)
    assert rows(served) == 0
