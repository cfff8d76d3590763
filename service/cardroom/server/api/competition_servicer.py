"""gRPC CompetitionService: leaderboards and players (docs/rules/table.md,
T-RATING), read from the ratings projection (``cardroom.server.games.ratings``).

Public facts of finished games only: a key, the name it signed in with, its
rated games' ranks and the ratings they give. Its calls share the
GameServicer's worker threads and its error mapping.
"""

from __future__ import annotations

import re
from typing import Any

from cardroom.domain import registry
from cardroom.domain.kernel import MalformedCommand, quote
from cardroom.domain.ratings import Rating
from cardroom.server.api.servicer import GameServicer, unary
from cardroom.server.games.ratings import Ratings
from cardroom.server.storage.ratings_recorders import RatedSeat, RatingRow
from cardroom.trust.players import PUBLIC_KEY_BYTES, player_id
from cardroom.v1 import competition_service_pb2 as cpb
from cardroom.v1 import competition_service_pb2_grpc as cpb_grpc

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
