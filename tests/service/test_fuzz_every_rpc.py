"""Every RPC, driven with arbitrary request fields (garbage bytes; wrong,
unknown, slash-less and missing type URLs; huge and empty strings; any
version numbers; good, foreign and forged credentials) against a real server
process: the status is always one the API documents (never UNKNOWN or
INTERNAL), and a refused call changes nothing (the game's version and the
store's row count)."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import any_pb2
from google.protobuf.message import Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as sd
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.v1 import competition_service_pb2 as cpb
from cardroom.v1 import competition_service_pb2_grpc as cpb_grpc
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import game_service_pb2_grpc as gpb_grpc
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import tournament_pb2 as tnpb
from tests.conftest import OPERATOR_TOKEN
from tests.service.helpers import server_process

DOCUMENTED = {
    grpc.StatusCode.OK,
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.UNAUTHENTICATED,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.ABORTED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
}
STREAM_READS = 3  # a stream is read this far, then cancelled by the client
# A live stream with nothing to send yet simply waits: after this long the
# client stops waiting (DEADLINE_EXCEEDED, which says nothing about the server).
STREAM_WAIT = 0.3


@dataclass
class Target:
    """A server process, a running game on it and that game's credentials."""

    stub: gpb_grpc.GameServiceStub
    competition: cpb_grpc.CompetitionServiceStub
    database: Path
    game_id: str
    tokens: list[str]
    # A tournament still taking entries (CompetitionService's tournament RPCs).
    tournament_id: str = ""

    def rows(self) -> int:
        with sqlite3.connect(self.database) as db:
            return int(db.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0])

    def version(self) -> int:
        return int(self.stub.GetView(gpb.GetViewRequest(game_id=self.game_id)).version)


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    database = tmp_path_factory.mktemp("fuzz") / "cardroom.sqlite3"
    args = ("--operator-token", OPERATOR_TOKEN, "--games-per-client-per-hour", "0")
    with server_process(str(database), *args) as address, grpc.insecure_channel(address) as ch:
        stub = gpb_grpc.GameServiceStub(ch)
        game_id = stub.CreateGame(gpb.CreateGameRequest(kind="smoke-and-mirrors", seat_count=2))
        tokens = [
            stub.JoinGame(gpb.JoinGameRequest(game_id=game_id.game_id, player_name=n)).seat_token
            for n in ("Ada", "Bo")
        ]
        stub.StartGame(
            gpb.StartGameRequest(game_id=game_id.game_id),
            metadata=(("authorization", f"Bearer {tokens[0]}"),),
        )
        competition = cpb_grpc.CompetitionServiceStub(ch)
        tournament = competition.CreateTournament(
            cpb.CreateTournamentRequest(
                kind="smoke-and-mirrors",
                table_size=3,
                rounds=1,
                format=tnpb.TournamentFormat.KIND_SWISS,
            )
        )
        yield Target(stub, competition, database, game_id.game_id, tokens, tournament.tournament_id)


# ------------------------------------------------------------- strategies

KNOWN_TYPES: list[type[Message]] = [
    sm.PerformAct,
    sm.Challenge,
    sm.DealRound,
    sm.Options,
    sd.ChallengeOpponent,
    sd.Options,
    sd.ChooseStartSeat,
    tpb.TakeSeat,
    tpb.Resign,
    tpb.RemoveSeat,
    tpb.ClockExpired,
    tpb.StartGame,
]


def texts() -> st.SearchStrategy[str]:
    return st.one_of(
        st.text(max_size=40),
        st.sampled_from(["", " ", "smoke-and-mirrors", "smiles-and-daggers", "\x00", "é" * 3]),
        st.integers(1_000, 20_000).map(lambda n: "x" * n),
    )


def type_urls() -> st.SearchStrategy[str]:
    names = [t.DESCRIPTOR.full_name for t in KNOWN_TYPES]
    return st.one_of(
        st.sampled_from(names).map(lambda n: f"type.googleapis.com/{n}"),
        st.sampled_from(names),  # no slash
        st.sampled_from(names).map(lambda n: f"elsewhere.example/{n}"),
        st.just("type.googleapis.com/no.such.Message"),
        st.just(""),
        st.just("/"),
        texts(),
    )


def anys() -> st.SearchStrategy[any_pb2.Any]:
    valid = st.sampled_from(
        [
            sm.PerformAct(cards=[sm.Card(pile=sm.PILE_STARS, value=1)]),
            sm.Challenge(),
            sd.ChallengeOpponent(target=1),
            sm.Options(rounds_to_win=2),
            tpb.Resign(),
            tpb.RemoveSeat(seat=1),
            tpb.ClockExpired(seat=0, version=3),
        ]
    ).map(lambda m: m.SerializeToString())
    return st.builds(
        any_pb2.Any,
        type_url=type_urls(),
        value=st.one_of(valid, st.binary(max_size=64), valid.map(lambda b: b + b"\xba\x3e\x01z")),
    )


def versions() -> st.SearchStrategy[int]:
    return st.one_of(st.integers(0, 40), st.just(2**64 - 1), st.integers(0, 2**64 - 1))


def credentials(target: Target) -> st.SearchStrategy[str | None]:
    """Tokens a client can send: metadata values are printable ASCII (a
    client refuses anything else before it reaches a server)."""
    printable = st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E))
    return st.one_of(
        st.none(),
        st.sampled_from([*target.tokens, OPERATOR_TOKEN, "forged", "Bearer"]),
        printable.filter(bool),
        st.integers(1_000, 6_000).map(lambda n: "t" * n),
    )


def game_ids(target: Target) -> st.SearchStrategy[str]:
    return st.one_of(
        st.just(target.game_id),
        st.just(str(uuid.UUID(int=0))),
        st.uuids().map(str),
        texts(),
    )


def proofs() -> st.SearchStrategy[tpb.PlayerProof]:
    """Player proofs: garbage, and well-formed keys and signatures that sign nothing."""
    return st.builds(
        tpb.PlayerProof,
        public_key=st.one_of(st.binary(max_size=40), st.binary(min_size=32, max_size=32)),
        signature=st.one_of(st.binary(max_size=70), st.binary(min_size=64, max_size=64)),
        display_name=texts(),
    )


def requests(target: Target) -> dict[str, st.SearchStrategy[Message]]:
    g = game_ids(target)
    t = st.one_of(st.just(target.tournament_id), game_ids(target))
    return {
        "CreateTournament": st.builds(
            cpb.CreateTournamentRequest,
            kind=texts(),
            table_size=st.integers(0, 2**32 - 1),
            format=st.integers(0, 4),
            rounds=st.integers(0, 2**32 - 1),
            options=anys(),
            bye_half_points=st.integers(0, 2**32 - 1),
            name=texts(),
        ),
        "RegisterPlayer": st.builds(cpb.RegisterPlayerRequest, tournament_id=t, player=proofs()),
        "WithdrawPlayer": st.builds(
            cpb.WithdrawPlayerRequest,
            tournament_id=t,
            public_key=st.one_of(st.binary(max_size=40), st.binary(min_size=32, max_size=32)),
            signature=st.one_of(st.binary(max_size=70), st.binary(min_size=64, max_size=64)),
        ),
        "StartTournament": st.builds(cpb.StartTournamentRequest, tournament_id=t),
        "GetTournament": st.builds(cpb.GetTournamentRequest, tournament_id=t),
        "WatchTournament": st.builds(
            cpb.WatchTournamentRequest, tournament_id=t, after=st.integers(0, 2**32 - 1)
        ),
        "ExportTournament": st.builds(cpb.ExportTournamentRequest, tournament_id=t),
        "CreateGame": st.builds(
            gpb.CreateGameRequest,
            kind=texts(),
            options=anys(),
            seat_count=st.integers(0, 2**32 - 1),
            set_deal=st.lists(anys(), max_size=3),
            spectator_policy=st.builds(
                tpb.SpectatorPolicy,
                kind=st.integers(0, 5),
                delay_events=st.integers(0, 2**32 - 1),
            ),
            log_policy=st.builds(tpb.LogPolicy, kind=st.integers(0, 4)),
            table_options=st.builds(
                tpb.TableOptions, seconds_per_decision=st.integers(0, 2**32 - 1)
            ),
        ),
        "JoinGame": st.builds(
            gpb.JoinGameRequest,
            game_id=g,
            seat=st.integers(0, 2**32 - 1),
            player_name=texts(),
            player=proofs(),
        ),
        "StartGame": st.builds(gpb.StartGameRequest, game_id=g),
        "SubmitCommand": st.builds(
            gpb.SubmitCommandRequest,
            game_id=g,
            command=anys(),
            command_id=texts(),
            expected_version=versions(),
        ),
        "ListLegalActions": st.builds(
            gpb.ListLegalActionsRequest, game_id=g, min_version=versions()
        ),
        "GetView": st.builds(
            gpb.GetViewRequest,
            game_id=g,
            version=versions(),
            as_spectator=st.booleans(),
            min_version=versions(),
        ),
        "GetAuditLog": st.builds(
            gpb.GetAuditLogRequest,
            game_id=g,
            page_size=st.integers(0, 2**32 - 1),
            page_token=texts(),
        ),
        "ListGames": st.builds(
            gpb.ListGamesRequest,
            page_size=st.integers(0, 2**32 - 1),
            page_token=texts(),
            kind=texts(),
            status=st.integers(0, 6),
            open_seats_only=st.booleans(),
        ),
        "ListGameKinds": st.just(gpb.ListGameKindsRequest()),
        "GetServerKey": st.just(gpb.GetServerKeyRequest()),
        "ExportGameRecord": st.builds(gpb.ExportGameRecordRequest, game_id=g),
        "StreamGameRecord": st.builds(gpb.StreamGameRecordRequest, game_id=g),
        "WatchEvents": st.builds(
            gpb.WatchEventsRequest,
            game_id=g,
            after_sequence=versions(),
            as_spectator=st.booleans(),
        ),
        "ReplayViews": st.builds(
            gpb.ReplayViewsRequest,
            game_id=g,
            from_version=versions(),
            as_spectator=st.booleans(),
        ),
        "CreateInvitation": st.builds(
            gpb.CreateInvitationRequest, game_id=g, seat=st.integers(0, 2**32 - 1)
        ),
        "AcceptInvitation": st.builds(
            gpb.AcceptInvitationRequest,
            game_id=g,
            code=texts(),
            player_name=texts(),
            player=proofs(),
            seat=st.integers(0, 2**32 - 1),
        ),
        "AddBot": st.builds(
            gpb.AddBotRequest, game_id=g, strategy=texts(), seat=st.integers(0, 2**32 - 1)
        ),
        "ListRatings": st.builds(
            cpb.ListRatingsRequest,
            kind=texts(),
            page_size=st.integers(0, 2**32 - 1),
            page_token=texts(),
        ),
        "GetPlayer": st.builds(
            cpb.GetPlayerRequest,
            player_id=st.one_of(texts(), st.binary(min_size=16, max_size=16).map(bytes.hex)),
            public_key=st.one_of(st.binary(max_size=40), st.binary(min_size=32, max_size=32)),
            page_size=st.integers(0, 2**32 - 1),
            page_token=texts(),
        ),
    }


COMPETITION = sorted(cpb.DESCRIPTOR.services_by_name["CompetitionService"].methods_by_name)
METHODS = sorted(gpb.DESCRIPTOR.services_by_name["GameService"].methods_by_name) + COMPETITION


def call(target: Target, method: str, request: Message, token: str | None) -> grpc.StatusCode:
    metadata = (("authorization", f"Bearer {token}"),) if token is not None else ()
    stub = target.competition if method in COMPETITION else target.stub
    fn: Callable[..., Any] = getattr(stub, method)
    streaming = method in ("WatchEvents", "ReplayViews", "StreamGameRecord", "WatchTournament")
    try:
        result = fn(request, metadata=metadata, timeout=STREAM_WAIT if streaming else 30)
        if streaming:
            for count, _ in enumerate(result, start=1):
                if count >= STREAM_READS:
                    result.cancel()
                    break
        return grpc.StatusCode.OK
    except grpc.RpcError as error:
        code = error.code()
        if streaming and code in (grpc.StatusCode.CANCELLED, grpc.StatusCode.DEADLINE_EXCEEDED):
            return grpc.StatusCode.OK  # we stopped reading: the stream had served fine
        return code


def test_every_rpc_of_the_service_is_fuzzed() -> None:
    assert set(METHODS) == {
        "CreateGame", "JoinGame", "StartGame", "SubmitCommand", "ListLegalActions", "GetView",
        "WatchEvents", "GetAuditLog", "ListGames", "ReplayViews", "GetServerKey",
        "ExportGameRecord", "ListGameKinds", "StreamGameRecord",
        "CreateInvitation", "AcceptInvitation", "AddBot", "ListRatings", "GetPlayer",
        "CreateTournament", "RegisterPlayer", "WithdrawPlayer", "StartTournament", "GetTournament",
        "WatchTournament", "ExportTournament",
    }  # fmt: skip


@pytest.mark.parametrize("method", METHODS)
def test_arbitrary_requests_get_a_documented_status_and_a_refusal_changes_nothing(
    target: Target, method: str
) -> None:
    strategy = requests(target)[method]

    @settings(
        max_examples=60,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(request=strategy, token=credentials(target))
    def check(request: Message, token: str | None) -> None:
        rows, version = target.rows(), target.version()
        code = call(target, method, request, token)
        assert code in DOCUMENTED, f"{method} answered {code.name}"
        if code != grpc.StatusCode.OK:
            assert (target.rows(), target.version()) == (rows, version)

    check()
