"""The game list a lobby reads: a stored projection of the log's table events.

The table (``cardroom.server.storage.game_list_recorders``) lives next to the events and
says up to which notification it reflects them. Each call catches it up
from there, reading only the four table events, so games written by other
processes sharing the database appear too, and a server keeps nothing per
game in memory. Dropping the table (or its tracking row) rebuilds it from
the events on the next call.

Each game is listed as its spectators may see it now: a game whose
spectators stay N events behind (the delayed policy) shows the seats taken,
the start and the version as of N events ago, until it is over.
"""

from __future__ import annotations

import base64
import binascii
import heapq
import logging
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from eventsourcing.persistence import (
    IntegrityError,
    InterfaceError,
    Notification,
    OperationalError,
    PersistenceError,
)
from eventsourcing.utils import retry
from google.protobuf.message import DecodeError

from cardroom.domain.kernel import MalformedCommand
from cardroom.server.storage.background import Follower
from cardroom.server.storage.game_list_recorders import (
    Changes,
    Filters,
    GameListRecorder,
    GameRow,
    Milestones,
    ProjectionMoved,
    game_list_recorder,
)
from cardroom.server.storage.log import GameLog
from cardroom.trust.envelopes import to_event
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb

log = logging.getLogger(__name__)
# The retry eventsourcing puts on its own PostgreSQL recorder methods.
on_a_live_connection = retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)

CREATED = tpb.GameCreated.DESCRIPTOR.full_name
SEAT_TAKEN = tpb.SeatTaken.DESCRIPTOR.full_name
STARTED = tpb.GameStarted.DESCRIPTOR.full_name
FINISHED = tpb.GameFinished.DESCRIPTOR.full_name
TABLE_EVENTS = (CREATED, SEAT_TAKEN, STARTED, FINISHED)

DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 1000
TOKEN_PREFIX = "games-before:"
FOLLOW_INTERVAL = 1.0  # seconds between background catch-ups
BATCH = 1000  # table events per transaction while catching up
# With no table event to write, the position is still moved past this many
# other events, so the next catch-up need not read them again.
SKIP_AHEAD = 1000
# After a catch-up that listed this many new games (a rebuild), the
# database's statistics of the table are refreshed.
ANALYZE_AFTER = 10_000


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


def fold(notifications: Sequence[Notification]) -> Changes:
    """A batch of table events as changes to the game table."""
    changes = Changes()
    for n in notifications:
        game_id = str(n.originator_id)
        if n.topic == CREATED:
            row = _created(n.id, game_id, n.state)
            if row is not None and game_id not in changes.created:
                changes.created[game_id] = row
            continue
        new = changes.created.get(game_id)
        milestones = new.milestones if new else changes.changed.setdefault(game_id, Milestones())
        if n.topic == SEAT_TAKEN:
            milestones.seats_at.append(n.originator_version)
        elif n.topic == STARTED:
            milestones.started_at = n.originator_version
        elif n.topic == FINISHED:
            milestones.finished_at = n.originator_version
    return changes


def _created(position: int, game_id: str, stored: bytes) -> GameRow | None:
    try:
        created = to_event(epb.EventEnvelope.FromString(stored)).public
    except (DecodeError, MalformedCommand):
        log.warning("game %s: GameCreated cannot be read; not listed", game_id)
        return None
    if not isinstance(created, tpb.GameCreated):
        return None
    policy = created.spectator_policy
    delay = policy.delay_events if policy.kind == tpb.SpectatorPolicy.KIND_DELAYED else 0
    return GameRow(position, game_id, created.kind, created.seat_count, delay)


def summary(row: GameRow, version: int) -> gpb.GameSummary:
    """The game as its spectators may see it, at its current version."""
    m = row.milestones
    finished = m.finished_at is not None
    visible = version
    if row.delay and not finished:
        visible = max(0, version - row.delay)
    return gpb.GameSummary(
        game_id=row.game_id,
        kind=row.kind,
        seat_count=row.seat_count,
        seats_taken=sum(v <= visible for v in m.seats_at),
        started=m.started_at is not None and m.started_at <= visible,
        finished=finished,
        version=visible,
    )


class GameList:
    def __init__(self, store: GameLog, *, batch: int = BATCH) -> None:
        self._store = store
        self._batch = batch
        self._tables: GameListRecorder = game_list_recorder(store.recorder, store.name.lower())
        self._tables.prepare()
        # A page on PostgreSQL is tried again on another pooled connection
        # when the one it got was closed by the database (a restart, an idle
        # timeout), as eventsourcing tries its own recorder methods: the
        # server pings no connection before using it (cardroom.server.storage.log).
        self._read_page = on_a_live_connection(self._page) if store.is_postgres else self._page
        self._catching_up = threading.Lock()
        # One catch-up a second at most, so that its batches stay large.
        self._follower = Follower("game-list", self.catch_up, FOLLOW_INTERVAL)

    def nudge(self) -> None:
        """Games were written: catch up soon, in the background, so that the
        next ListGames finds the table current instead of folding everything
        written since the last call in the request."""
        self._follower.nudge()

    def stop(self) -> None:
        self._follower.stop()

    def page(self, request: gpb.ListGamesRequest) -> gpb.ListGamesResponse:
        """One page of games matching the request's filters, newest first."""
        size = request.page_size or DEFAULT_PAGE_SIZE
        if size > MAX_PAGE_SIZE:
            raise MalformedCommand(f"page_size must be at most {MAX_PAGE_SIZE}")
        if request.status not in gpb.GameStatus.values():
            raise MalformedCommand(f"status {request.status} is not a GameStatus")
        before = decode_page_token(request.page_token) if request.page_token else None
        filters = Filters(request.kind, request.status, request.open_seats_only)
        try:
            return self._read_page(filters, before, size)
        except PersistenceError as error:
            if isinstance(error, IntegrityError):
                raise
            # Perhaps the table was dropped: create it (which fails too if
            # the store itself does) and try once more.
            self._tables.prepare()
            return self._read_page(filters, before, size)

    def summaries(self) -> list[gpb.GameSummary]:
        """Every game, oldest first (for tools and tests)."""
        games: list[gpb.GameSummary] = []
        token = ""
        while True:
            response = self.page(gpb.ListGamesRequest(page_size=MAX_PAGE_SIZE, page_token=token))
            games.extend(response.games)
            token = response.next_page_token
            if not token:
                return games[::-1]

    def catch_up(self) -> None:
        """Bring the table up to the end of the log as it is now."""
        with self._catching_up:
            head, position = self._tables.positions()
            if position is None:
                self._tables.prepare()
                position = self._tables.position() or 0
            listed = 0
            while position < head:
                batch = self._store.recorder.select_notifications(
                    start=position,
                    stop=head,
                    limit=self._batch,
                    topics=TABLE_EVENTS,
                    inclusive_of_start=False,
                )
                through = batch[-1].id if len(batch) == self._batch else head
                if not batch and through - position < SKIP_AHEAD:
                    break
                changes = fold(batch)
                try:
                    self._tables.apply(changes, after=position, through=through)
                except ProjectionMoved:
                    position = self._tables.position() or 0
                    continue
                position = through
                listed += len(changes.created)
            if listed >= ANALYZE_AFTER:
                self._tables.analyze()

    def _page(self, filters: Filters, before: int | None, size: int) -> gpb.ListGamesResponse:
        self.catch_up()
        # The page and one more, if as many match exactly; then only delayed
        # games newer than the last of them can still be among the page.
        with self._tables.reading() as cursor:
            exact = self._tables.rows(
                cursor, filters, before=before, after=None, delayed=False, limit=size + 1
            )
            floor = exact[-1][0].position if len(exact) > size else None
            candidates = heapq.merge(
                exact,
                self._delayed(cursor, filters, before, floor, size),
                key=lambda r: -r[0].position,
            )
            found: list[gpb.GameSummary] = []
            position = 0
            for row, version in candidates:
                game = summary(row, version)
                if not _matches(game, filters):
                    continue
                if len(found) == size:  # another one follows: say where to go on
                    return gpb.ListGamesResponse(
                        games=found, next_page_token=encode_page_token(position)
                    )
                found.append(game)
                position = row.position
        return gpb.ListGamesResponse(games=found)

    def _delayed(
        self, cursor: Any, filters: Filters, before: int | None, floor: int | None, size: int
    ) -> Iterator[tuple[GameRow, int]]:
        """Delayed games not over yet between ``floor`` and ``before``, newest
        first, read a page (and one more) at a time."""
        while True:
            rows = self._tables.rows(
                cursor, filters, before=before, after=floor, delayed=True, limit=size + 1
            )
            yield from rows
            if len(rows) <= size:
                return
            before = rows[-1][0].position


def _matches(summary: gpb.GameSummary, filters: Filters) -> bool:
    if filters.kind and summary.kind != filters.kind:
        return False
    status = filters.status
    if status == gpb.GAME_STATUS_OPEN and (summary.started or summary.finished):
        return False
    if status == gpb.GAME_STATUS_RUNNING and (not summary.started or summary.finished):
        return False
    if status == gpb.GAME_STATUS_FINISHED and not summary.finished:
        return False
    return not (
        filters.open_seats_only
        and (summary.started or summary.finished or summary.seats_taken >= summary.seat_count)
    )
