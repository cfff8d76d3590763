"""Ratings as a projection of the log (docs/rules/table.md, T-RATING).

Follows the log's GameFinished notifications in order, reads each finished
game's public events, and applies its result (``cardroom.domain.ratings``)
to the tables of ``cardroom.server.storage.ratings_recorders``, as the game
list follows the table events. The tables say up to which notification they
reflect the log; ``rebuild`` empties them and folds the whole log again,
which gives exactly the tables the live follower wrote (the order is the
notification order, and the rule is pure). ``cardroom audit ratings``
applies the same rule to signed records in the same order.
"""

from __future__ import annotations

import base64
import binascii
import logging
import threading
from collections.abc import Sequence

from eventsourcing.persistence import Notification
from google.protobuf.message import DecodeError

from cardroom.domain import ratings as rules
from cardroom.domain.kernel import MalformedCommand
from cardroom.server.storage.background import Follower
from cardroom.server.storage.log import GameLog
from cardroom.server.storage.ratings_recorders import (
    ProjectionMoved,
    RatedSeat,
    RatingRow,
    ratings_recorder,
)
from cardroom.trust.envelopes import unpack
from cardroom.trust.players import PUBLIC_KEY_BYTES, player_id
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb

log = logging.getLogger(__name__)

FINISHED = tpb.GameFinished.DESCRIPTOR.full_name
# The events a result is read from (cardroom.domain.ratings.result_of).
RESULT_EVENTS = tuple(
    m.DESCRIPTOR.full_name
    for m in (tpb.GameCreated, tpb.SeatTaken, tpb.SeatResigned, tpb.GameFinished)
)
BATCH = 500  # finished games per transaction while catching up
FOLLOW_INTERVAL = 1.0
DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 1000
TOKEN_PREFIX = "ratings-from:"
HISTORY_PREFIX = "history-before:"


def encode_token(prefix: str, position: int) -> str:
    return base64.urlsafe_b64encode(f"{prefix}{position}".encode()).decode()


def decode_token(prefix: str, token: str) -> int:
    """A position this server handed out in a page token; anything else is
    an invalid argument."""
    try:
        text = base64.urlsafe_b64decode(token.encode()).decode()
        if not text.startswith(prefix):
            raise ValueError
        position = int(text.removeprefix(prefix))
        if position < 0:
            raise ValueError
    except (ValueError, binascii.Error, UnicodeError):
        raise MalformedCommand("page_token is not one this server handed out") from None
    return position


def result_from_stored(game_id: str, stored: list[bytes]) -> rules.Result | None:
    """A finished game's result from its exact stored table events (public
    parts only: a secret is never even decoded)."""
    try:
        events = [unpack(epb.EventEnvelope.FromString(raw).event) for raw in stored]
    except (DecodeError, MalformedCommand):
        log.warning("game %s cannot be read; not rated", game_id)
        return None
    return rules.result_of(game_id, events)


class Ratings:
    def __init__(self, store: GameLog, *, batch: int = BATCH) -> None:
        self._store = store
        self._batch = batch
        self._tables = ratings_recorder(store.recorder, store.name.lower())
        self._tables.prepare()
        self._catching_up = threading.Lock()
        self._follower = Follower("ratings", self.catch_up, FOLLOW_INTERVAL)

    # ---------------------------------------------------------- following

    def nudge(self) -> None:
        """Games were written: catch up soon, in the background."""
        self._follower.nudge()

    def stop(self) -> None:
        self._follower.stop()

    def catch_up(self) -> int:
        """Bring the tables up to the end of the log as it is now; returns
        how many finished games were read."""
        read = 0
        with self._catching_up:
            head = self._store.recorder.max_notification_id() or 0
            position = self._tables.position()
            if position is None:
                self._tables.prepare()
                position = self._tables.position() or 0
            while position < head:
                found = self._store.recorder.select_notifications(
                    start=position,
                    stop=head,
                    limit=self._batch,
                    topics=(FINISHED,),
                    inclusive_of_start=False,
                )
                through = found[-1].id if len(found) == self._batch else head
                try:
                    self._apply(found, after=position, through=through)
                except ProjectionMoved:
                    position = self._tables.position() or 0
                    continue
                read += len(found)
                position = through
        return read

    def rebuild(self) -> int:
        """Forget the tables and fold the whole log again; returns the
        number of finished games read."""
        with self._catching_up:
            self._tables.reset()
        return self.catch_up()

    def _apply(self, finished: Sequence[Notification], *, after: int, through: int) -> None:
        # Read before the write transaction, so that it holds the store's
        # write lock (SQLite's) only for the ratings' own reads and writes.
        results = []
        for notification in finished:
            game_id = str(notification.originator_id)
            result = result_from_stored(game_id, self._tables.stored_of(game_id, RESULT_EVENTS))
            if result is not None and result.rated:
                results.append((notification, game_id, result))
        with self._tables.batch(after=after, through=through) as batch:
            for notification, game_id, result in results:
                keys = [p.public_key for p in result.placings]
                before = batch.ratings(result.kind, keys)
                after_game = rules.rate(before, result.placings)
                batch.record(
                    RatedSeat(
                        notification.id,
                        game_id,
                        result.kind,
                        p.public_key,
                        p.seat,
                        p.rank,
                        after_game[p.public_key],
                    )
                    for p in result.placings
                )
                for p in result.placings:
                    batch.name(
                        p.public_key, player_id(p.public_key), p.display_name, notification.id
                    )

    # ------------------------------------------------------------ reading

    def board(self, kind: str, page_size: int, page_token: str) -> tuple[list[RatingRow], str]:
        """One page of a kind's leaderboard, best first, and the next page's token."""
        size = _page_size(page_size)
        offset = decode_token(TOKEN_PREFIX, page_token) if page_token else 0
        self.catch_up()
        rows = self._tables.board(kind, offset=offset, limit=size + 1)
        more = len(rows) > size
        return rows[:size], encode_token(TOKEN_PREFIX, offset + size) if more else ""

    def of_keys(self, kind: str, keys: Sequence[bytes]) -> list[RatingRow]:
        """These keys' ratings in a kind, best first (unrated keys left out)."""
        if len(keys) > MAX_PAGE_SIZE:
            raise MalformedCommand(f"public_keys: at most {MAX_PAGE_SIZE}")
        if any(len(key) != PUBLIC_KEY_BYTES for key in keys):
            raise MalformedCommand(f"public_keys: each is {PUBLIC_KEY_BYTES} bytes (raw Ed25519)")
        self.catch_up()
        unique = sorted(set(keys))
        return self._tables.board(kind, offset=0, limit=len(unique), keys=unique)

    @staticmethod
    def offset_of(page_token: str) -> int:
        """How many places of the leaderboard come before this page."""
        return decode_token(TOKEN_PREFIX, page_token) if page_token else 0

    @staticmethod
    def check_page(page_size: int, page_token: str) -> None:
        """Refuse a page of rated games this server would not serve."""
        _page_size(page_size)
        if page_token:
            decode_token(HISTORY_PREFIX, page_token)

    def player_key(self, player_id: str) -> bytes | None:
        self.catch_up()
        return self._tables.player_key(player_id)

    def player(
        self, public_key: bytes, page_size: int, page_token: str
    ) -> tuple[str, list[RatingRow], list[RatedSeat], str]:
        """A key's display name, ratings per kind, one page of its rated
        games (newest first) and the next page's token."""
        size = _page_size(page_size)
        before = decode_token(HISTORY_PREFIX, page_token) if page_token else None
        self.catch_up()
        name, ratings = self._tables.player(public_key)
        history = self._tables.history_of(public_key, before=before, limit=size + 1)
        more = len(history) > size
        history = history[:size]
        token = encode_token(HISTORY_PREFIX, history[-1].position) if more else ""
        return name, ratings, history, token

    def everything(self) -> tuple[list[RatingRow], list[RatedSeat], list[tuple[bytes, str]]]:
        """Every row of the tables (the rebuild's check)."""
        self.catch_up()
        return self._tables.everything()


def _page_size(page_size: int) -> int:
    if page_size > MAX_PAGE_SIZE:
        raise MalformedCommand(f"page_size must be at most {MAX_PAGE_SIZE}")
    return page_size or DEFAULT_PAGE_SIZE
