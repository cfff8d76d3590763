"""The game list: public facts of every game, a fold of the notification log.

It catches up from its cursor on every call, so games written by other
processes sharing the database appear too; nothing here is stored. Each
game is listed as its spectators may see it now: a game whose spectators
stay N events behind (the delayed policy) shows the seats taken, the start
and the version as of N events ago, until it is over.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import logging
import threading
from dataclasses import dataclass, field

from google.protobuf.message import DecodeError

from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from domain.kernel import MalformedCommand
from service.envelopes import to_event
from service.store import GameLog

log = logging.getLogger(__name__)

CREATED = tpb.GameCreated.DESCRIPTOR.full_name
SEAT_TAKEN = tpb.SeatTaken.DESCRIPTOR.full_name
STARTED = tpb.GameStarted.DESCRIPTOR.full_name
FINISHED = tpb.GameFinished.DESCRIPTOR.full_name

DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 1000
TOKEN_PREFIX = "games-before:"


@dataclass
class _Entry:
    """What the log says of one game: its table milestones by version."""

    position: int  # notification id of GameCreated: the listing order
    game_id: str
    kind: str
    seat_count: int
    delay: int  # events spectators stay behind; 0 for live policies
    version: int = 1
    seats_at: list[int] = field(default_factory=list)  # version of each SeatTaken
    started_at: int | None = None
    finished: bool = False

    def public(self) -> gpb.GameSummary:
        """The summary as spectators may see it now."""
        visible = self.version
        if self.delay and not self.finished:
            visible = max(0, self.version - self.delay)
        return gpb.GameSummary(
            game_id=self.game_id,
            kind=self.kind,
            seat_count=self.seat_count,
            seats_taken=sum(v <= visible for v in self.seats_at),
            started=self.started_at is not None and self.started_at <= visible,
            finished=self.finished,
            version=visible,
        )


def encode_page_token(position: int) -> str:
    return base64.urlsafe_b64encode(f"{TOKEN_PREFIX}{position}".encode()).decode()


def decode_page_token(token: str) -> int:
    """The listing position a page token continues from; a token this
    server did not hand out is an invalid argument."""
    try:
        text = base64.urlsafe_b64decode(token.encode()).decode()
        if not text.startswith(TOKEN_PREFIX):
            raise ValueError
        position = int(text.removeprefix(TOKEN_PREFIX))
        if position < 0:
            raise ValueError
    except (ValueError, binascii.Error, UnicodeError):
        raise MalformedCommand("page_token is not one this server handed out") from None
    return position


class Catalog:
    def __init__(self, store: GameLog) -> None:
        self._store = store
        self._lock = threading.Lock()
        self._cursor = 0
        self._games: dict[str, _Entry] = {}
        self._positions: list[int] = []  # GameCreated notification ids, ascending
        self._by_position: dict[int, _Entry] = {}

    def _catch_up(self) -> None:
        for n in self._store.notifications(after=self._cursor):
            self._cursor = n.id
            game_id = str(n.originator_id)
            if n.topic == CREATED:
                self._add(n.id, game_id, n.state)
            entry = self._games.get(game_id)
            if entry is None:
                continue
            entry.version = n.originator_version
            if n.topic == SEAT_TAKEN:
                entry.seats_at.append(n.originator_version)
            elif n.topic == STARTED:
                entry.started_at = n.originator_version
            elif n.topic == FINISHED:
                entry.finished = True

    def _add(self, position: int, game_id: str, stored: bytes) -> None:
        try:
            created = to_event(epb.EventEnvelope.FromString(stored)).public
        except (DecodeError, MalformedCommand):
            log.warning("game %s: GameCreated cannot be read; not listed", game_id)
            return
        if not isinstance(created, tpb.GameCreated):
            return
        policy = created.spectator_policy
        delay = policy.delay_events if policy.kind == tpb.SpectatorPolicy.KIND_DELAYED else 0
        entry = _Entry(position, game_id, created.kind, created.seat_count, delay)
        self._games[game_id] = entry
        self._positions.append(position)  # notification ids only grow
        self._by_position[position] = entry

    def page(self, request: gpb.ListGamesRequest) -> gpb.ListGamesResponse:
        """One page of games matching the request's filters, newest first."""
        size = request.page_size or DEFAULT_PAGE_SIZE
        if size > MAX_PAGE_SIZE:
            raise MalformedCommand(f"page_size must be at most {MAX_PAGE_SIZE}")
        if request.status not in gpb.GameStatus.values():
            raise MalformedCommand(f"status {request.status} is not a GameStatus")
        before = decode_page_token(request.page_token) if request.page_token else None
        with self._lock:
            self._catch_up()
            end = (
                len(self._positions)
                if before is None
                else bisect.bisect_left(self._positions, before)
            )
            found: list[gpb.GameSummary] = []
            index = end
            while index > 0 and len(found) < size:
                index -= 1
                summary = self._by_position[self._positions[index]].public()
                if _matches(summary, request):
                    found.append(summary)
            more = index > 0 and len(found) == size
            token = encode_page_token(self._positions[index]) if more else ""
        return gpb.ListGamesResponse(games=found, next_page_token=token)

    def summaries(self) -> list[gpb.GameSummary]:
        """Every game, oldest first (for tools and tests)."""
        with self._lock:
            self._catch_up()
            return [self._by_position[p].public() for p in self._positions]


def _matches(summary: gpb.GameSummary, request: gpb.ListGamesRequest) -> bool:
    if request.kind and summary.kind != request.kind:
        return False
    status = request.status
    if status == gpb.GAME_STATUS_OPEN and summary.started:
        return False
    if status == gpb.GAME_STATUS_RUNNING and (not summary.started or summary.finished):
        return False
    if status == gpb.GAME_STATUS_FINISHED and not summary.finished:
        return False
    return not (
        request.open_seats_only and (summary.started or summary.seats_taken >= summary.seat_count)
    )
