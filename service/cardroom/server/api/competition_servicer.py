"""gRPC CompetitionService: leaderboards and players (docs/rules/table.md,
T-RATING), read from the ratings projection (``cardroom.server.games.ratings``).

Public facts of finished games only: a key, the name it signed in with, its
rated games' ranks and the ratings they give. Its calls share the
GameServicer's worker threads and its error mapping.
"""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import AsyncIterator
from typing import Any

import grpc

from cardroom.domain import registry
from cardroom.domain.kernel import MalformedCommand, quote
from cardroom.domain.ratings import Rating
from cardroom.server.api.servicer import GameServicer, bearer_token, unary
from cardroom.server.games.ratings import Ratings
from cardroom.server.games.tournaments import Tournaments, parse_tournament_id
from cardroom.server.storage.ratings_recorders import RatedSeat, RatingRow
from cardroom.trust.players import PUBLIC_KEY_BYTES, player_id
from cardroom.v1 import competition_service_pb2 as cpb
from cardroom.v1 import competition_service_pb2_grpc as cpb_grpc
from cardroom.v1 import tournament_pb2 as tnpb

# A watcher looks at the store this often for other servers' writes (this
# server's own wake it at once).
WATCH_POLL_SECONDS = 1.0

PLAYER_ID = re.compile(r"[0-9a-f]{32}")


def player_rating(key: bytes, kind: str, rating: Rating, name: str = "") -> cpb.PlayerRating:
    return cpb.PlayerRating(
        player_id=player_id(key),
        public_key=key,
        display_name=name,
        kind=kind,
        mu=rating.mu,
        sigma=rating.sigma,
        rating=rating.display,
        games=rating.games,
    )


def _of_row(row: RatingRow, name: str | None = None) -> cpb.PlayerRating:
    return player_rating(
        row.public_key, row.kind, row.rating, row.display_name if name is None else name
    )


def _rated_game(seat: RatedSeat, name: str) -> cpb.RatedGame:
    return cpb.RatedGame(
        game_id=seat.game_id,
        kind=seat.kind,
        seat=seat.seat,
        rank=seat.rank,
        rating_after=player_rating(seat.public_key, seat.kind, seat.rating, name),
    )


def checked_kind(kind: str) -> str:
    if not kind:
        raise MalformedCommand("kind is required (ListGameKinds names them)")
    try:
        registry.game(kind)
    except KeyError:
        raise MalformedCommand(f"unknown game kind {quote(kind)}") from None
    return kind


class CompetitionServicer(cpb_grpc.CompetitionServiceServicer):
    def __init__(self, calls: GameServicer) -> None:
        # The game service's worker threads, store health and error mapping.
        self.calls = calls
        self.ratings: Ratings = calls.games.ratings
        self.tournaments: Tournaments = calls.games.tournaments
        # Each watched tournament's waiting watchers, woken by its appends.
        self._watchers: dict[str, set[asyncio.Event]] = {}
        self._loop = asyncio.get_running_loop()
        self.tournaments.subscribe(self._appended)

    def _appended(self, tournament_id: str, version: int) -> None:
        """A tournament was written here (in a worker thread)."""
        self._loop.call_soon_threadsafe(self._wake, tournament_id)

    def _wake(self, tournament_id: str) -> None:
        for waiting in self._watchers.get(tournament_id, ()):
            waiting.set()

    async def abort_for(self, context: Any, error: BaseException) -> None:
        await self.calls.abort_for(context, error)

    @unary
    async def ListRatings(self, request: cpb.ListRatingsRequest, context: Any) -> Any:
        kind = checked_kind(request.kind)
        if request.public_keys:
            if request.page_token or request.page_size:
                raise MalformedCommand("public_keys comes in one response: no page_size or token")
            keys = [bytes(k) for k in request.public_keys]
            rows = await self.calls.in_thread(lambda: self.ratings.of_keys(kind, keys))
            return cpb.ListRatingsResponse(ratings=[_of_row(r) for r in rows])

        def board() -> cpb.ListRatingsResponse:
            rows, token = self.ratings.board(kind, request.page_size, request.page_token)
            first = self.ratings.offset_of(request.page_token) + 1
            return cpb.ListRatingsResponse(
                ratings=[_of_row(r) for r in rows], next_page_token=token, first_place=first
            )

        return await self.calls.in_thread(board)

    @unary
    async def GetPlayer(self, request: cpb.GetPlayerRequest, context: Any) -> Any:
        if bool(request.player_id) == bool(request.public_key):
            raise MalformedCommand("name the player by exactly one of player_id and public_key")
        if request.public_key and len(request.public_key) != PUBLIC_KEY_BYTES:
            raise MalformedCommand(f"public_key must be {PUBLIC_KEY_BYTES} bytes (raw Ed25519)")
        if request.player_id and not PLAYER_ID.fullmatch(request.player_id):
            raise MalformedCommand("player_id must be 32 lowercase hex digits")

        def player() -> cpb.GetPlayerResponse:
            key = bytes(request.public_key) or self.ratings.player_key(request.player_id)
            if key is None:  # no rated game yet: nothing to show
                self.ratings.check_page(request.page_size, request.page_token)
                return cpb.GetPlayerResponse(player_id=request.player_id)
            name, rows, history, token = self.ratings.player(
                key, request.page_size, request.page_token
            )
            return cpb.GetPlayerResponse(
                player_id=player_id(key),
                public_key=key,
                display_name=name,
                ratings=[_of_row(r, name) for r in rows],
                games=[_rated_game(s, name) for s in history],
                next_page_token=token,
            )

        return await self.calls.in_thread(player)

    # ---------------------------------------------------------- tournaments

    @unary
    async def CreateTournament(self, request: cpb.CreateTournamentRequest, context: Any) -> Any:
        checked_kind(request.kind)
        if request.bye_half_points > 2 * max(request.table_size - 1, 0):
            raise MalformedCommand("bye_half_points: at most a win's, 2 * (table_size - 1)")
        command = tnpb.CreateTournament(
            kind=request.kind,
            table_size=request.table_size,
            format=request.format,
            rounds=request.rounds,
            bye_half_points=request.bye_half_points,
            name=request.name,
        )
        if request.HasField("options"):
            command.options.CopyFrom(request.options)
        if request.HasField("table_options"):
            # Refused now, not when round 1's games are created (TN-CLOCK).
            self.tournaments.check_table_options(request.table_options)
            command.table_options.CopyFrom(request.table_options)
        limits = self.calls.limits
        why = (
            f"this client has created {limits.games_per_client_per_hour} games or tournaments "
            "in the last hour, the server's limit; try again later"
        )
        # A tournament counts as a game against the client's hourly allowance.
        with self.calls._charged(self.calls.creations, context, why):
            tournament_id, token = await self.calls.in_thread(
                lambda: self.tournaments.create(command)
            )
        return cpb.CreateTournamentResponse(tournament_id=tournament_id, organizer_token=token)

    @unary
    async def RegisterPlayer(self, request: cpb.RegisterPlayerRequest, context: Any) -> Any:
        tournament_id = parse_tournament_id(request.tournament_id)
        if not request.HasField("player"):
            raise MalformedCommand("player is required (a key, its signature, a display name)")
        count = await self.calls.in_thread(
            lambda: self.tournaments.register(tournament_id, request.player)
        )
        return cpb.RegisterPlayerResponse(players=count)

    @unary
    async def WithdrawPlayer(self, request: cpb.WithdrawPlayerRequest, context: Any) -> Any:
        tournament_id = parse_tournament_id(request.tournament_id)
        command = tnpb.WithdrawPlayer(public_key=request.public_key, signature=request.signature)
        token = None if request.signature else bearer_token(context)
        left = await self.calls.in_thread(
            lambda: self.tournaments.withdraw(tournament_id, command, token)
        )
        return cpb.WithdrawPlayerResponse(players_left=left)

    @unary
    async def StartTournament(self, request: cpb.StartTournamentRequest, context: Any) -> Any:
        tournament_id = parse_tournament_id(request.tournament_id)
        token = bearer_token(context)
        stream = await self.calls.in_thread(lambda: self.tournaments.start(tournament_id, token))
        view, _ = await self.calls.in_thread(lambda: self.tournaments.view(stream.tournament_id))
        return cpb.StartTournamentResponse(tournament=view)

    @unary
    async def GetTournament(self, request: cpb.GetTournamentRequest, context: Any) -> Any:
        tournament_id = parse_tournament_id(request.tournament_id)
        view, version = await self.calls.in_thread(lambda: self.tournaments.view(tournament_id))
        return cpb.GetTournamentResponse(tournament=view, version=version)

    @unary
    async def ExportTournament(self, request: cpb.ExportTournamentRequest, context: Any) -> Any:
        tournament_id = parse_tournament_id(request.tournament_id)
        record, game_ids = await self.calls.in_thread(
            lambda: self.tournaments.export(tournament_id)
        )
        return cpb.ExportTournamentResponse(record=record, game_ids=game_ids)

    async def WatchTournament(
        self, request: cpb.WatchTournamentRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[cpb.WatchTournamentResponse]:
        """The tournament's public events after the cursor, each with the
        tournament after it; then live ones; ends after TournamentFinished."""
        wake = asyncio.Event()
        tournament_id = ""
        try:
            tournament_id = parse_tournament_id(request.tournament_id)
            self._watchers.setdefault(tournament_id, set()).add(wake)
            sent = request.after
            while True:
                wake.clear()
                responses, finished = await self.calls.in_thread(
                    functools.partial(self._watch_chunk, tournament_id, sent)
                )
                for response in responses:
                    yield response
                    sent = response.sequence
                if finished and not responses:
                    return
                if not responses:
                    try:
                        async with asyncio.timeout(WATCH_POLL_SECONDS):
                            await wake.wait()
                    except TimeoutError:
                        pass
        except asyncio.CancelledError:
            raise
        except Exception as error:
            if isinstance(error, grpc.aio.AbortError):
                raise
            await self.abort_for(context, error)
        finally:
            waiting = self._watchers.get(tournament_id)
            if waiting is not None:
                waiting.discard(wake)
                if not waiting:
                    del self._watchers[tournament_id]

    def _watch_chunk(
        self, tournament_id: str, after: int
    ) -> tuple[list[cpb.WatchTournamentResponse], bool]:
        """The responses after ``after`` and whether the tournament is finished."""
        self.tournaments.follow_quietly()
        found, finished = self.tournaments.events_after(tournament_id, after)
        return [
            cpb.WatchTournamentResponse(sequence=sequence, event=event, tournament=view)
            for sequence, event, view in found
        ], finished
