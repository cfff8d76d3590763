"""The game list: public facts of every game, a fold of the notification log.

It catches up from its cursor on every call, so games written by other
processes sharing the database appear too; nothing here is stored.
"""

from __future__ import annotations

import logging
import threading

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


class Catalog:
    def __init__(self, store: GameLog) -> None:
        self._store = store
        self._lock = threading.Lock()
        self._cursor = 0
        self._games: dict[str, gpb.GameSummary] = {}
        self._delays: dict[str, int] = {}

    def summaries(self) -> list[gpb.GameSummary]:
        with self._lock:
            for n in self._store.notifications(after=self._cursor):
                self._cursor = n.id
                game_id = str(n.originator_id)
                if n.topic == CREATED:
                    self._add(game_id, n.state)
                summary = self._games.get(game_id)
                if summary is None:
                    continue
                summary.version = n.originator_version
                if n.topic == SEAT_TAKEN:
                    summary.seats_taken += 1
                elif n.topic == STARTED:
                    summary.started = True
                elif n.topic == FINISHED:
                    summary.finished = True
            return [self._public(s) for s in self._games.values()]

    def _add(self, game_id: str, stored: bytes) -> None:
        try:
            created = to_event(epb.EventEnvelope.FromString(stored)).public
        except (DecodeError, MalformedCommand):
            log.warning("game %s: GameCreated cannot be read; not listed", game_id)
            return
        assert isinstance(created, tpb.GameCreated)
        self._games[game_id] = gpb.GameSummary(
            game_id=game_id, kind=created.kind, seat_count=created.seat_count
        )
        if created.spectator_policy.kind == tpb.SpectatorPolicy.KIND_DELAYED:
            self._delays[game_id] = created.spectator_policy.delay_events

    def _public(self, summary: gpb.GameSummary) -> gpb.GameSummary:
        """A copy; a delayed game's version as its spectators see it."""
        copy = gpb.GameSummary()
        copy.CopyFrom(summary)
        delay = self._delays.get(summary.game_id)
        if delay and not summary.finished:
            copy.version = max(0, summary.version - delay)
        return copy
