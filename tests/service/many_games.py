"""Many games written straight into a store, without a server or the rules:
their table events (created, seats taken, started, finished) with filler
events between, and what the game list must say of each; and the game
list's table dropped behind the server's back. For the game list's tests and
its benchmark (``python -m bench.game_list``)."""

from __future__ import annotations

import random
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from eventsourcing.persistence import StoredEvent

from cardroom.domain.table import pack
from cardroom.server.storage.game_list_recorders import PROJECTION
from cardroom.server.storage.log import GameLog, RecordedEnvelope
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb

KINDS = ("smoke-and-mirrors", "smiles-and-daggers")


@dataclass(frozen=True)
class PlannedGame:
    game_id: str
    kind: str
    seat_count: int
    delay: int  # 0: spectators see it live
    seats: int  # seats taken
    started: bool
    moves: int  # filler events after the start
    finished: bool

    def events(self) -> list[epb.EventEnvelope]:
        policy = tpb.SpectatorPolicy(kind=tpb.SpectatorPolicy.KIND_PUBLIC)
        if self.delay:
            policy = tpb.SpectatorPolicy(
                kind=tpb.SpectatorPolicy.KIND_DELAYED, delay_events=self.delay
            )
        created = tpb.GameCreated(
            kind=self.kind,
            seat_count=self.seat_count,
            options=pack(sm.Options()),
            spectator_policy=policy,
        )
        events = [
            created,
            *(tpb.SeatTaken(seat=s, player_name=f"P{s}") for s in range(self.seats)),
        ]
        if self.started:
            events.append(tpb.GameStarted())
            events += [sm.ActPerformed(seat=m % self.seat_count) for m in range(self.moves)]
        if self.finished:
            events.append(tpb.GameFinished(winners=[0]))
        return [
            epb.EventEnvelope(game_id=self.game_id, sequence=n, event=pack(e))
            for n, e in enumerate(events, start=1)
        ]

    def summary(self) -> gpb.GameSummary:
        """What spectators may see now: all of it, or for a delayed game not
        over yet, the events up to ``delay`` before the last."""
        version = len(self.events())
        visible = version if self.finished or not self.delay else max(0, version - self.delay)
        seat_versions = range(2, 2 + self.seats)
        return gpb.GameSummary(
            game_id=self.game_id,
            kind=self.kind,
            seat_count=self.seat_count,
            seats_taken=sum(v <= visible for v in seat_versions),
            started=self.started and 2 + self.seats <= visible,
            finished=self.finished,
            version=visible,
        )


def plan(
    rng: random.Random,
    count: int,
    *,
    delayed: float = 0.1,
    running: float = 0.2,
    finished: float = 0.5,
    max_moves: int = 5,
) -> list[PlannedGame]:
    """``count`` games, oldest first; the rest of them (after running and
    finished) are open, some with every seat taken."""
    games = []
    for _ in range(count):
        seat_count = rng.randint(2, 5)
        roll = rng.random()
        started = roll < running + finished
        games.append(
            PlannedGame(
                game_id=str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                kind=rng.choice(KINDS),
                seat_count=seat_count,
                delay=rng.randint(1, 6) if rng.random() < delayed else 0,
                seats=seat_count if started else rng.randint(0, seat_count),
                started=started,
                moves=rng.randint(0, max_moves) if started else 0,
                finished=roll < finished,
            )
        )
    return games


def write(log: GameLog, games: list[PlannedGame], *, chunk: int = 500) -> None:
    """Store the games' events, a chunk of games per transaction: first
    every game's creation, in order, then the rest of their events."""
    for start in range(0, len(games), chunk):
        envelopes = [g.events() for g in games[start : start + chunk]]
        ordered = [e[0] for e in envelopes] + [x for e in envelopes for x in e[1:]]
        log.recorder.insert_events([stored(log, e, e.SerializeToString()) for e in ordered])


def stored(log: GameLog, envelope: epb.EventEnvelope, payload: bytes) -> StoredEvent:
    """The row the store keeps for an envelope, with ``payload`` as its state."""
    return log.mapper.to_stored_event(
        RecordedEnvelope(
            originator_id=uuid.UUID(envelope.game_id),
            originator_version=envelope.sequence,
            topic=envelope.event.TypeName(),
            payload=payload,
        )
    )


@contextmanager
def game_list_sql(database: str) -> Iterator[tuple[Any, str, str]]:
    """A connection to the database, with the game table's and the tracking
    table's names as cardroom names them there."""
    if database.startswith("postgresql://"):
        url, _, query = database.partition("?schema=")
        with psycopg.connect(url, autocommit=True) as pg:
            yield pg, f'"{query}".cardroom_game_list', f'"{query}".cardroom_tracking'
    else:
        with sqlite3.connect(database) as lite:
            yield lite, "game_list", "tracking"


def drop(database: str, what: str) -> None:
    """As an operator would, behind the server's back."""
    with game_list_sql(database) as (db, games, tracking):
        if what in ("the table", "the table and its tracking row"):
            db.execute(f"DROP TABLE {games}")
        if what in ("the tracking row", "the table and its tracking row"):
            db.execute(f"DELETE FROM {tracking} WHERE application_name = '{PROJECTION}'")
