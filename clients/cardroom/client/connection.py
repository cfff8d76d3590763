"""A small typed asyncio client for cardroom's GameService.

    async with Client.connect("127.0.0.1:50051") as client:
        game_id = await client.create_game("smoke-and-mirrors", seat_count=3)
        seat = await client.join(game_id, "Ada")
        await client.start(game_id, seat.token)
        for action in await client.legal_actions(game_id, seat.token):
            ...
        await client.act(game_id, seat.token, action)
        async for step in client.replay(game_id, seat.token):  # step through it
            ...
        async for event in client.story(game_id):  # a spectator's feed in words
            print(event)
        record = await client.export_record(game_id)  # once finished: signed

Errors come back as :class:`CardroomError` subclasses, one per status code
the server uses, so callers catch ``RuleBroken`` rather than inspect codes.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

import grpc
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from google.protobuf.message import Message

from cardroom.client.entropy import commitment
from cardroom.client.errors import (
    CardroomError,
    DataLoss,
    InvalidArgument,
    RuleBroken,
    error_from,
)
from cardroom.client.heads import HeadStore
from cardroom.client.messages import ReplayStep, View, pack, unpack, view_of
from cardroom.trust import players
from cardroom.trust.tournament_record import sign_entry, sign_withdrawal
from cardroom.v1 import competition_service_pb2 as cpb
from cardroom.v1 import competition_service_pb2_grpc as cpb_grpc
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import game_service_pb2_grpc as gpb_grpc
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import tournament_pb2 as tnpb
from cardroom.v1 import trust_pb2

if TYPE_CHECKING:
    from cardroom.client.feed import NarratedEvent

# The largest message a client accepts. The server sends none larger (its
# send limit is the same; docs/operations.md): a long game's log comes a page
# at a time and its record in chunks.
MAX_MESSAGE_BYTES = 16 * 1024 * 1024
# How a refused claim names the seat an invitation holds (T-INVITE).
HELD_SEAT = re.compile(r"this invitation holds seat (\d+), not")
# Events per GetAuditLog page (the server also bounds a page by its bytes).
AUDIT_PAGE_SIZE = 1000


@dataclass(frozen=True)
class SeatHandle:
    game_id: str
    seat: int
    token: str
    # T-ENTROPY: the seat's own entropy, committed to at the join (keep it
    # to reveal it when the game starts), or, when the client committed to
    # none, what the server drew for the seat (the server reveals it).
    entropy: bytes = b""
    server_entropy: bytes = b""


@dataclass(frozen=True)
class Invitation:
    """A seat held for an invited player; ``code`` takes it, once."""

    game_id: str
    seat: int
    code: str


def _channel(address: str, credentials: grpc.ChannelCredentials | None) -> grpc.aio.Channel:
    options = [("grpc.max_receive_message_length", MAX_MESSAGE_BYTES)]
    if credentials is None:
        return grpc.aio.insecure_channel(address, options=options)
    return grpc.aio.secure_channel(address, credentials, options=options)


def _auth(token: str | None) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),) if token else ()


class Client:
    def __init__(self, channel: grpc.aio.Channel, relays: Sequence[grpc.aio.Channel] = ()) -> None:
        self.channel = channel
        self.stub = gpb_grpc.GameServiceStub(channel)
        self.competition = cpb_grpc.CompetitionServiceStub(channel)
        # `cardroom relay` processes for watch(): each new stream goes to the
        # next, so a stream that ends with its relay resumes on another.
        self.relays = list(relays)
        self._relay_stubs = [gpb_grpc.GameServiceStub(c) for c in self.relays]
        self._next_relay = 0
        # The newest version of each game this client has written or read:
        # reads ask for at least that much, so a client whose calls reach
        # different servers (round-robin) always reads its own writes.
        self._seen: dict[str, int] = {}
        # Every signed head this client was served (export: heads.export).
        self.heads = HeadStore()

    def _saw(self, game_id: str, version: int) -> None:
        if version > self._seen.get(game_id, 0):
            self._seen[game_id] = version

    @classmethod
    def connect(
        cls,
        address: str,
        *,
        credentials: grpc.ChannelCredentials | None = None,
        relays: Sequence[str] = (),
    ) -> Client:
        """A client of the server at ``address`` ("host:port"), over TLS when
        ``credentials`` are given (``grpc.ssl_channel_credentials(...)``).
        With ``relays`` ("host:port" of ``cardroom relay`` processes),
        :meth:`watch` streams from them, every other call goes to the server."""
        return cls(
            _channel(address, credentials), [_channel(relay, credentials) for relay in relays]
        )

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        for channel in (self.channel, *self.relays):
            await channel.close(grace=None)

    def _watch_stub(self) -> gpb_grpc.GameServiceStub:
        """The server's stub, or the next relay's."""
        if not self._relay_stubs:
            return self.stub
        stub = self._relay_stubs[self._next_relay % len(self._relay_stubs)]
        self._next_relay += 1
        return stub

    def _kept(self, response: Any) -> None:
        """Keep the signed head a response carries, if any."""
        if response.HasField("signed_head"):
            self.heads.add(response.signed_head)

    async def _call(self, method: str, request: Message, token: str | None = None) -> Any:
        try:
            return await getattr(self.stub, method)(request, metadata=_auth(token))
        except grpc.aio.AioRpcError as error:
            raise error_from(error) from None

    async def create_game(
        self,
        kind: str,
        *,
        seat_count: int,
        options: Message | None = None,
        set_deal: Sequence[Message] = (),
        operator_token: str | None = None,
        spectator_policy: tpb.SpectatorPolicy | None = None,
        log_policy: tpb.LogPolicy | None = None,
        table_options: tpb.TableOptions | None = None,
    ) -> str:
        """Create a game; ``spectator_policy`` (public when None) is recorded
        in its first event and decides what callers without a seat see;
        ``log_policy`` (the seats and the operator when None) decides who may
        read the full log once the game is over; ``table_options`` sets a
        turn clock (T-CLOCK)."""
        request = gpb.CreateGameRequest(
            kind=kind, seat_count=seat_count, set_deal=[pack(m) for m in set_deal]
        )
        if options is not None:
            request.options.Pack(options)
        if spectator_policy is not None:
            request.spectator_policy.CopyFrom(spectator_policy)
        if log_policy is not None:
            request.log_policy.CopyFrom(log_policy)
        if table_options is not None:
            request.table_options.CopyFrom(table_options)
        response = await self._call("CreateGame", request, operator_token)
        return str(response.game_id)

    async def join(
        self,
        game_id: str,
        player_name: str,
        seat: int | None = None,
        *,
        entropy: bytes = b"",
        player: Ed25519PrivateKey | None = None,
    ) -> SeatHandle:
        """Take a seat. With ``entropy`` (``cardroom.client.entropy.new_entropy()``)
        the seat commits to it, and must reveal it once the game starts
        (:meth:`reveal_entropy`); without, the server draws the seat's
        entropy and reveals it itself (its word for this seat). With
        ``player`` (the player's key) the seat is signed for, so it counts
        for that key's rating; without ``seat`` the lowest free seat is
        signed for, and the next one tried if another player took it first."""
        if player is not None and seat is None:
            return await self._join_free_seat(game_id, player_name, entropy, player)
        request = gpb.JoinGameRequest(game_id=game_id, player_name=player_name)
        if seat is not None:
            request.seat = seat
        if entropy:
            request.entropy_commitment = commitment(entropy)
        if player is not None and seat is not None:
            request.player.CopyFrom(
                players.sign_seat(player, game_id, seat, request.entropy_commitment, player_name)
            )
        response = await self._call("JoinGame", request)
        self._saw(game_id, response.version)
        return SeatHandle(
            game_id, response.seat, response.seat_token, entropy, response.server_entropy
        )

    async def _join_free_seat(
        self, game_id: str, player_name: str, entropy: bytes, player: Ed25519PrivateKey
    ) -> SeatHandle:
        """A signed claim needs its seat: try the free seats the public view
        shows, lowest first (an invitation may hold one; another player may
        win a race for one)."""
        view = await self.view(game_id)
        free = [s for s, name in enumerate(view.table.player_names) if not name]
        refusal: CardroomError | None = None
        for seat in free:
            try:
                return await self.join(game_id, player_name, seat, entropy=entropy, player=player)
            except RuleBroken as error:
                if "T-JOIN" not in error.details and "T-INVITE" not in error.details:
                    raise
                refusal = error
        if refusal is not None:
            raise refusal
        return await self.join(game_id, player_name, 0, entropy=entropy, player=player)

    async def reveal_entropy(
        self, game_id: str, token: str, entropy: bytes
    ) -> gpb.SubmitCommandResponse:
        """Open the seat's committed entropy (T-ENTROPY): the table awaits it
        after the start, before the first card is dealt."""
        return await self.act(game_id, token, tpb.RevealEntropy(entropy=entropy))

    async def invite(self, game_id: str, token: str, seat: int | None = None) -> Invitation:
        """Hold a free seat for an invitation (``token``: a seat of the game,
        or the operator's); its code is shown only now (T-INVITE)."""
        request = gpb.CreateInvitationRequest(game_id=game_id)
        if seat is not None:
            request.seat = seat
        response = await self._call("CreateInvitation", request, token)
        self._saw(game_id, response.version)
        return Invitation(game_id, response.seat, response.code)

    async def accept_invitation(
        self,
        game_id: str,
        code: str,
        player_name: str,
        *,
        seat: int | None = None,
        player: Ed25519PrivateKey | None = None,
    ) -> SeatHandle:
        """Take the seat an invitation holds, once: its seat token. With
        ``player`` (the player's key) the seat is signed for, so it counts
        for that key's rating; without the invitation's ``seat``, the server's
        refusal of a claim to another seat (which writes nothing) names it."""
        if player is not None and seat is None:
            # Signed for seat 0 first; the refusal names the seat the
            # invitation holds (its holder may know it), signed for next.
            try:
                return await self.accept_invitation(
                    game_id, code, player_name, seat=0, player=player
                )
            except InvalidArgument as error:
                held = HELD_SEAT.search(error.details)
                if held is None:
                    raise
                seat = int(held.group(1))
        request = gpb.AcceptInvitationRequest(game_id=game_id, code=code, player_name=player_name)
        if seat is not None:
            request.seat = seat
            if player is not None:
                request.player.CopyFrom(players.sign_seat(player, game_id, seat, b"", player_name))
        response = await self._call("AcceptInvitation", request)
        self._saw(game_id, response.version)
        return SeatHandle(game_id, response.seat, response.seat_token)

    async def add_bot(
        self, game_id: str, token: str, strategy: str = "heuristic", seat: int | None = None
    ) -> gpb.AddBotResponse:
        """Seat a bot the server runs (it keeps playing when this client
        leaves); ``token``: a seat of the game, or the operator's;
        ``strategy``: one of the game's ``GameKind.bot_strategies``
        ("random", "heuristic", "search")."""
        request = gpb.AddBotRequest(game_id=game_id, strategy=strategy)
        if seat is not None:
            request.seat = seat
        response: gpb.AddBotResponse = await self._call("AddBot", request, token)
        self._saw(game_id, response.version)
        return response

    async def start(self, game_id: str, token: str) -> int:
        response = await self._call("StartGame", gpb.StartGameRequest(game_id=game_id), token)
        self._saw(game_id, response.version)
        return int(response.version)

    async def act(
        self,
        game_id: str,
        token: str,
        command: Message,
        *,
        command_id: str | None = None,
        expected_version: int | None = None,
    ) -> gpb.SubmitCommandResponse:
        request = gpb.SubmitCommandRequest(
            game_id=game_id, command=pack(command), command_id=command_id or uuid.uuid4().hex
        )
        if expected_version is not None:
            request.expected_version = expected_version
        response: gpb.SubmitCommandResponse = await self._call("SubmitCommand", request, token)
        self._saw(game_id, response.version)
        self._kept(response)
        return response

    async def legal_actions(
        self, game_id: str, token: str, *, with_resign: bool = False
    ) -> list[Message]:
        return (await self.legal_actions_at(game_id, token, with_resign=with_resign))[1]

    async def legal_actions_at(
        self, game_id: str, token: str, *, with_resign: bool = False
    ) -> tuple[int, list[Message]]:
        """The seat's legal actions and the game version they hold at: pass
        it as ``expected_version`` so a move is never made on a stale game.
        The server also lists the table's ``Resign`` when the game waits for
        the seat; it is left out unless ``with_resign`` (a bot choosing a
        move never resigns by chance)."""
        request = gpb.ListLegalActionsRequest(
            game_id=game_id, min_version=self._seen.get(game_id, 0)
        )
        response = await self._call("ListLegalActions", request, token)
        self._saw(game_id, response.version)
        actions = [unpack(a) for a in response.actions]
        if not with_resign:
            actions = [a for a in actions if not isinstance(a, tpb.Resign)]
        return int(response.version), actions

    async def resign(self, game_id: str, token: str) -> gpb.SubmitCommandResponse:
        """Leave the game for good (T-RESIGN): the game makes this seat's
        decisions by its default choice from now on."""
        return await self.act(game_id, token, tpb.Resign())

    async def remove_seat(
        self, game_id: str, seat: int, operator_token: str
    ) -> gpb.SubmitCommandResponse:
        """The operator resigns a seat on its behalf (T-REMOVE)."""
        return await self.act(game_id, operator_token, tpb.RemoveSeat(seat=seat))

    async def view(
        self,
        game_id: str,
        token: str | None = None,
        version: int | None = None,
        *,
        as_spectator: bool = False,
    ) -> View:
        """The caller's view, latest or after ``version`` events. With
        ``as_spectator`` the spectators' view (the operator may ask for it;
        a seat of this game is refused: no ghosting)."""
        request = gpb.GetViewRequest(
            game_id=game_id, as_spectator=as_spectator, min_version=self._seen.get(game_id, 0)
        )
        if version is not None:
            request.version = version
        response = await self._call("GetView", request, token)
        if version is None:
            self._saw(game_id, response.version)
        self._kept(response)
        return view_of(response)

    async def watch(
        self,
        game_id: str,
        token: str | None = None,
        after_sequence: int = 0,
        *,
        as_spectator: bool = False,
    ) -> AsyncIterator[epb.EventEnvelope]:
        """Redacted events after the cursor, then live; ends when the game
        ends. From the next relay, if the client has any."""
        call = self._watch_stub().WatchEvents(
            gpb.WatchEventsRequest(
                game_id=game_id, after_sequence=after_sequence, as_spectator=as_spectator
            ),
            metadata=_auth(token),
        )
        try:
            async for response in call:
                self._kept(response)
                yield response.event
        except grpc.aio.AioRpcError as error:
            raise error_from(error) from None
        finally:
            call.cancel()  # a reader that stops early ends the stream on the server too

    async def story(
        self,
        game_id: str,
        token: str | None = None,
        after_sequence: int = 0,
        *,
        as_spectator: bool = False,
    ) -> AsyncIterator[NarratedEvent]:
        """The caller's feed in words, live until the game ends: each event
        after ``after_sequence`` with what a person reads of it (``str()``
        of it), told by the game's narrator from only what this caller was
        sent. The feed is read from the first event (each is told with what
        the viewer knew just before it) and resumed after a dropped
        connection without a gap or a repeat."""
        # The narrators bring the rules of every game: loaded when first asked for.
        from cardroom.client.follow import Follower

        follower = Follower(self, game_id, token, as_spectator)
        try:
            while (told := await follower.next_told()) is not None:
                if told.sequence > after_sequence:
                    yield told
        finally:
            await follower.close()

    async def replay(
        self,
        game_id: str,
        token: str | None = None,
        from_version: int = 0,
        as_spectator: bool = False,
    ) -> AsyncIterator[ReplayStep]:
        """Step through a game: the caller's view after each event it may see
        (from ``from_version`` on, 0 meaning the first), with that event as
        served to the caller. The last step equals :meth:`view`."""
        call = self.stub.ReplayViews(
            gpb.ReplayViewsRequest(
                game_id=game_id, from_version=from_version, as_spectator=as_spectator
            ),
            metadata=_auth(token),
        )
        try:
            async for response in call:
                self._kept(response)
                yield ReplayStep(view_of(response.view), response.event)
        except grpc.aio.AioRpcError as error:
            raise error_from(error) from None
        finally:
            call.cancel()

    async def server_key(self) -> gpb.GetServerKeyResponse:
        """The server's raw Ed25519 public key (and its fingerprint), which
        signs exported game records."""
        response: gpb.GetServerKeyResponse = await self._call(
            "GetServerKey", gpb.GetServerKeyRequest()
        )
        return response

    async def export_record(self, game_id: str, token: str | None = None) -> trust_pb2.GameRecord:
        """A finished game as a signed record (write it with
        ``record.SerializeToString()``); a running game is RuleBroken. The
        ``token`` is a seat token of the game or the operator token, unless
        the game's log policy makes its log public. Streamed
        (StreamGameRecord), so a game of any length is exported; from a
        server without that RPC, the unary ExportGameRecord."""
        data = bytearray()
        try:
            async for chunk in self.record_chunks(game_id, token):
                data += chunk
        except CardroomError as error:
            if error.code != grpc.StatusCode.UNIMPLEMENTED:
                raise
            response = await self._call(
                "ExportGameRecord", gpb.ExportGameRecordRequest(game_id=game_id), token
            )
            record: trust_pb2.GameRecord = response.record
            return record
        return trust_pb2.GameRecord.FromString(bytes(data))

    async def record_chunks(self, game_id: str, token: str | None = None) -> AsyncIterator[bytes]:
        """A finished game's signed record as it is streamed
        (StreamGameRecord): chunks of the serialized ``GameRecord`` whose
        concatenation is the record file, so it can be written as it comes.
        Refusals as :meth:`export_record`; a stream that ends short of the
        size it announced is DataLoss."""
        call = self.stub.StreamGameRecord(
            gpb.StreamGameRecordRequest(game_id=game_id), metadata=_auth(token)
        )
        received = 0
        total = 0
        try:
            async for response in call:
                total = response.total_bytes
                received += len(response.chunk)
                yield response.chunk
        except grpc.aio.AioRpcError as error:
            raise error_from(error) from None
        finally:
            call.cancel()
        if received != total:
            raise DataLoss(f"the record stream ended after {received} of its {total} bytes")

    async def audit_pages(
        self, game_id: str, token: str | None = None, *, page_size: int = AUDIT_PAGE_SIZE
    ) -> AsyncIterator[epb.EventEnvelope]:
        """The full, unredacted log (GetAuditLog), event by event, fetched a
        page of ``page_size`` events at a time: a log of any length."""
        page_token = ""
        while True:
            request = gpb.GetAuditLogRequest(
                game_id=game_id, page_size=page_size, page_token=page_token
            )
            response = await self._call("GetAuditLog", request, token)
            self._kept(response)
            for envelope in response.events:
                yield envelope
            page_token = response.next_page_token
            if not page_token:
                return

    async def audit(self, game_id: str, token: str | None = None) -> list[epb.EventEnvelope]:
        """The whole full log (:meth:`audit_pages`, gathered)."""
        return [envelope async for envelope in self.audit_pages(game_id, token)]

    async def ratings(
        self,
        kind: str,
        *,
        page_size: int = 0,
        limit: int | None = None,
        public_keys: Sequence[bytes] = (),
    ) -> list[cpb.PlayerRating]:
        """A game kind's leaderboard, best first, fetched a page at a time (at
        most ``limit`` entries): OpenSkill ratings of signed players and the
        server's bots (docs/rules/table.md, T-RATING). With ``public_keys``:
        only those players' (keys without a rating in the kind left out)."""
        if public_keys:
            request = cpb.ListRatingsRequest(kind=kind, public_keys=public_keys)
            return list((await self._compete("ListRatings", request)).ratings)
        found: list[cpb.PlayerRating] = []
        token = ""
        while limit is None or len(found) < limit:
            request = cpb.ListRatingsRequest(kind=kind, page_size=page_size, page_token=token)
            response = await self._compete("ListRatings", request)
            found.extend(response.ratings)
            token = response.next_page_token
            if not token:
                break
        return found if limit is None else found[:limit]

    async def player(
        self,
        player_id: str = "",
        *,
        public_key: bytes = b"",
        page_size: int = 0,
        page_token: str = "",
    ) -> cpb.GetPlayerResponse:
        """A player's ratings per kind and one page of their rated games,
        newest first (by ``player_id`` or by ``public_key``)."""
        request = cpb.GetPlayerRequest(
            player_id=player_id, public_key=public_key, page_size=page_size, page_token=page_token
        )
        response: cpb.GetPlayerResponse = await self._compete("GetPlayer", request)
        return response

    async def rated_games(self, public_key: bytes) -> list[cpb.RatedGame]:
        """Every rated game of a player, newest first, fetched a page at a
        time (GetPlayer's largest page), with their rating after each."""
        found: list[cpb.RatedGame] = []
        token = ""
        while True:
            page = await self.player(public_key=public_key, page_size=1000, page_token=token)
            found.extend(page.games)
            token = page.next_page_token
            if not token:
                return found

    async def _compete(self, method: str, request: Message, token: str | None = None) -> Any:
        try:
            return await getattr(self.competition, method)(request, metadata=_auth(token))
        except grpc.aio.AioRpcError as error:
            raise error_from(error) from None

    # ---------------------------------------------------------- tournaments

    async def create_tournament(
        self,
        kind: str,
        *,
        table_size: int,
        rounds: int = 0,
        swiss: bool = True,
        name: str = "",
        options: Message | None = None,
        table_options: tpb.TableOptions | None = None,
    ) -> cpb.CreateTournamentResponse:
        """A tournament the server runs (docs/rules/tournaments.md): its id
        and the organizer token that starts it. ``table_options`` (a turn
        clock) are every game's (TN-CLOCK)."""
        request = cpb.CreateTournamentRequest(
            kind=kind,
            table_size=table_size,
            rounds=rounds,
            format=tnpb.TournamentFormat.KIND_SWISS
            if swiss
            else tnpb.TournamentFormat.KIND_ROUND_ROBIN,
            name=name,
        )
        if options is not None:
            request.options.Pack(options)
        if table_options is not None:
            request.table_options.CopyFrom(table_options)
        response: cpb.CreateTournamentResponse = await self._compete("CreateTournament", request)
        return response

    async def register_player(
        self, tournament_id: str, key: Ed25519PrivateKey, display_name: str
    ) -> int:
        """Enter the tournament with the player's key (its signature over the
        tournament's id); the number of players registered."""
        proof = sign_entry(key, tournament_id, display_name).player
        request = cpb.RegisterPlayerRequest(tournament_id=tournament_id, player=proof)
        return int((await self._compete("RegisterPlayer", request)).players)

    async def withdraw_player(
        self,
        tournament_id: str,
        key: Ed25519PrivateKey | None = None,
        *,
        public_key: bytes = b"",
        organizer_token: str | None = None,
    ) -> int:
        """Leave the tournament (TN-LEAVE): signed with the player's ``key``,
        or the organizer withdraws the player ``public_key`` with their
        token. The number of players still in."""
        if key is not None:
            signed = sign_withdrawal(key, tournament_id)
            request = cpb.WithdrawPlayerRequest(
                tournament_id=tournament_id,
                public_key=signed.public_key,
                signature=signed.signature,
            )
        else:
            request = cpb.WithdrawPlayerRequest(tournament_id=tournament_id, public_key=public_key)
        response = await self._compete("WithdrawPlayer", request, organizer_token)
        return int(response.players_left)

    async def start_tournament(self, tournament_id: str, token: str) -> tnpb.TournamentView:
        """Close registration and pair round 1 (the organizer token)."""
        request = cpb.StartTournamentRequest(tournament_id=tournament_id)
        response = await self._compete("StartTournament", request, token)
        return response.tournament  # type: ignore[no-any-return]

    async def tournament(self, tournament_id: str) -> tnpb.TournamentView:
        """Standings, rounds, tables (game ids), results."""
        request = cpb.GetTournamentRequest(tournament_id=tournament_id)
        return (await self._compete("GetTournament", request)).tournament  # type: ignore[no-any-return]

    async def watch_tournament(
        self, tournament_id: str, after: int = 0
    ) -> AsyncIterator[cpb.WatchTournamentResponse]:
        """The tournament's events after the cursor, each with the tournament
        after it; ends after TournamentFinished."""
        call = self.competition.WatchTournament(
            cpb.WatchTournamentRequest(tournament_id=tournament_id, after=after)
        )
        try:
            async for response in call:
                yield response
        except grpc.aio.AioRpcError as error:
            raise error_from(error) from None
        finally:
            call.cancel()

    async def export_tournament(self, tournament_id: str) -> cpb.ExportTournamentResponse:
        """A finished tournament's signed record and its games' ids."""
        request = cpb.ExportTournamentRequest(tournament_id=tournament_id)
        response: cpb.ExportTournamentResponse = await self._compete("ExportTournament", request)
        return response

    async def join_tournament_game(
        self,
        tournament_id: str,
        game_id: str,
        key: Ed25519PrivateKey,
        player_name: str,
        *,
        entropy: bytes = b"",
    ) -> SeatHandle:
        """Take the seat of a tournament's game that is reserved for this
        key (TN-SEAT), signed with it; the server starts the game once every
        seat is taken."""
        public = players.signing.public_key_bytes(key)
        for paired in (await self.tournament(tournament_id)).rounds:
            for table in paired.tables:
                if table.game_id == game_id and public in table.seats:
                    seat = list(table.seats).index(public)
                    return await self.join(game_id, player_name, seat, entropy=entropy, player=key)
        raise ValueError(f"no seat of game {game_id} is reserved for this key")

    async def list_games(
        self,
        *,
        kind: str = "",
        status: gpb.GameStatus = gpb.GAME_STATUS_UNSPECIFIED,
        open_seats_only: bool = False,
        page_size: int = 0,
        limit: int | None = None,
    ) -> list[gpb.GameSummary]:
        """Games matching the filters, newest first, fetched a page at a time
        (at most ``limit`` of them)."""
        games: list[gpb.GameSummary] = []
        token = ""
        while True:
            request = gpb.ListGamesRequest(
                kind=kind,
                status=status,
                open_seats_only=open_seats_only,
                page_size=page_size,
                page_token=token,
            )
            response = await self._call("ListGames", request)
            games.extend(response.games)
            token = response.next_page_token
            if not token or (limit is not None and len(games) >= limit):
                return games if limit is None else games[:limit]

    async def game_kinds(self) -> list[gpb.GameKind]:
        """The game kinds the server plays, with their message types."""
        response = await self._call("ListGameKinds", gpb.ListGameKindsRequest())
        return list(response.kinds)
