"""Tournaments for tests: players' keys, and a decider driven to any point."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from google.protobuf.message import Message

from cardroom.domain.kernel import Event
from cardroom.domain.tournament import Tournament, decide, evolve
from cardroom.v1 import tournament_pb2 as tnpb

SWISS = tnpb.TournamentFormat.KIND_SWISS
ROUND_ROBIN = tnpb.TournamentFormat.KIND_ROUND_ROBIN
SEED = bytes(range(32))
KIND = "smiles-and-daggers"  # 3 to 6 seats by default (2 only with allow_two_players)
PAIRS = "smoke-and-mirrors"  # 2 to 5 seats


def kind_for(table_size: int) -> str:
    """A game kind its default options play at this many seats."""
    return PAIRS if table_size == 2 else KIND


def key(i: int) -> bytes:
    """A stand-in public key (the domain checks only its length)."""
    return hashlib.sha256(f"player {i}".encode()).digest()


def register(public_key: bytes, display_name: str = "") -> tnpb.RegisterPlayer:
    """An unsigned registration (the domain leaves signatures to the service)."""
    command = tnpb.RegisterPlayer()
    command.player.public_key = public_key
    command.player.display_name = display_name
    return command


Ranker = Callable[[int, tnpb.TournamentTable], Sequence[int]]


def by_seat(round_number: int, table: tnpb.TournamentTable) -> list[int]:
    """Seat 0 wins, seat 1 second, ...: a fixed, stated result."""
    return list(range(1, len(table.seats) + 1))


@dataclass
class Driver:
    """A tournament and every event it recorded."""

    state: Tournament = field(default_factory=Tournament)
    events: list[Event] = field(default_factory=list)

    def do(self, command: Message) -> list[Event]:
        out = decide(self.state, command)
        for e in out:
            self.state = evolve(self.state, e)
        self.events.extend(out)
        return out

    def pair(self, number: int, seed: bytes = SEED, named: bool = True) -> tnpb.RoundPaired:
        from cardroom.domain.tournament.rules import draw_round

        count = len(draw_round(self.state, seed)[0].tables)
        ids = [f"r{number}t{t}" for t in range(1, count + 1)] if named else []
        [paired] = self.do(tnpb.PairRound(round=number, seed=seed, game_ids=ids))
        assert isinstance(paired.public, tnpb.RoundPaired)
        return paired.public

    def play_round(self, number: int, ranker: Ranker = by_seat) -> tnpb.RoundPaired:
        paired = self.pair(number)
        for table in paired.tables:
            self.do(
                tnpb.RecordGame(
                    round=number,
                    table=table.table,
                    game_id=table.game_id,
                    ranks=ranker(number, table),
                )
            )
        return paired


def opened(
    players: int,
    *,
    table_size: int = 3,
    rounds: int = 3,
    format: tnpb.TournamentFormat.Kind.ValueType = SWISS,
    kind: str = "",
) -> Driver:
    """A tournament with ``players`` registered and registration open."""
    driver = Driver()
    driver.do(
        tnpb.CreateTournament(
            tournament_id="t-1",
            kind=kind or kind_for(table_size),
            table_size=table_size,
            format=format,
            rounds=rounds,
        )
    )
    for i in range(players):
        driver.do(register(public_key=key(i), display_name=f"player {i}"))
    return driver


def closed(
    players: int,
    *,
    table_size: int = 3,
    rounds: int = 3,
    format: tnpb.TournamentFormat.Kind.ValueType = SWISS,
    kind: str = "",
) -> Driver:
    """The same with registration closed on SEED's commitment."""
    driver = opened(players, table_size=table_size, rounds=rounds, format=format, kind=kind)
    driver.do(tnpb.CloseRegistration(seed_commitment=hashlib.sha256(SEED).digest()))
    return driver


def shuffled_ranks(seed: int) -> Ranker:
    """Each table's ranks a shuffle of 1..N, fixed by ``seed``."""

    def ranker(number: int, table: tnpb.TournamentTable) -> list[int]:
        ranks = list(range(1, len(table.seats) + 1))
        random.Random(seed * 1000 + number * 100 + table.table).shuffle(ranks)
        return ranks

    return ranker


def played(
    players: int,
    size: int,
    rounds: int,
    results: int,
    fmt: tnpb.TournamentFormat.Kind.ValueType = SWISS,
) -> Driver:
    """A tournament played to its last round with shuffled results."""
    driver = closed(players, table_size=size, rounds=rounds, format=fmt)
    for number in range(1, driver.state.planned_rounds + 1):
        driver.play_round(number, shuffled_ranks(results))
    return driver
