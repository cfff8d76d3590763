"""Signed tournament records for tests: bot games played with the domain
rules through the trust harness (tests/trust/harness.py), a tournament
recorded around them as the service records one, and forgeries made the way
a dishonest server would (events changed, the chain relinked, re-signed)."""

from __future__ import annotations

import hashlib
import random
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from google.protobuf.message import Message

from cardroom.domain import registry
from cardroom.domain.kernel import GUEST, OPERATOR
from cardroom.domain.tournament import Tournament, decide, evolve
from cardroom.domain.tournament.rules import draw_round
from cardroom.trust import chain, signing
from cardroom.trust import tournament_record as records
from cardroom.trust.tournament_audit import game_ranks, seat_claim, seat_proofs
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import tournament_pb2 as tnpb
from cardroom.v1 import trust_pb2 as trpb
from tests.trust.harness import TrustedGame

CLOCK = datetime(2025, 1, 1, tzinfo=UTC)
SERVER_KEY = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"server").digest())
SEED = hashlib.sha256(b"tournament seed").digest()
TOURNAMENT_ID = "t-0001"

# (round, table, ranks from the game) -> the ranks the tournament records.
Ranks = Callable[[int, int, list[int]], list[int]]


def player_key(i: int) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(f"player {i}".encode()).digest())


def game_id(round_number: int, table: int) -> str:
    digest = hashlib.sha256(f"{TOURNAMENT_ID} {round_number} {table}".encode()).digest()
    return str(uuid.UUID(bytes=digest[:16]))


@dataclass
class Played:
    """A finished tournament: its events' stored bytes and its games."""

    stored: list[bytes] = field(default_factory=list)
    games: dict[str, trpb.GameRecord] = field(default_factory=dict)
    state: Tournament = field(default_factory=Tournament)

    def do(self, command: Message) -> None:
        events = decide(self.state, command)
        for e in events:
            self.state = evolve(self.state, e)
        records.append_batch(self.stored, TOURNAMENT_ID, command, events, recorded_at=CLOCK)

    def record(self, key: Ed25519PrivateKey = SERVER_KEY) -> tnpb.TournamentRecord:
        return records.export_record(self.stored, key, exported_at=CLOCK)

    def envelopes(self) -> list[epb.EventEnvelope]:
        return [epb.EventEnvelope.FromString(raw) for raw in self.stored]


def play_game(
    kind: str,
    gid: str,
    seats: int,
    choices: int,
    key: Ed25519PrivateKey = SERVER_KEY,
    players: Sequence[Ed25519PrivateKey] = (),
) -> tuple[trpb.GameRecord, list[int]]:
    """A bot game (random legal moves), its signed record and its ranks;
    each seat signed by its player's key where this build's seats carry
    player proofs (SeatTaken.player)."""
    seed = hashlib.sha256(gid.encode()).digest()
    trusted = TrustedGame(registry.game(kind), game_id=gid, seed=seed)
    trusted.create(seats)
    for seat in range(seats):
        token = hashlib.sha256(f"{gid}/{seat}".encode()).digest()
        command = tpb.TakeSeat(seat=seat, player_name=f"P{seat}", token_sha256=token)
        if players and seat_proofs():
            proof: Any = getattr(command, "player")  # noqa: B009 (a field of newer builds)
            proof.public_key = signing.public_key_bytes(players[seat])
            proof.signature = players[seat].sign(seat_claim(gid, seat, b""))
            proof.display_name = f"P{seat}"
        trusted.execute(GUEST, command)
    trusted.execute(OPERATOR, tpb.StartGame())
    trusted.play_out(random.Random(choices))
    ranks = game_ranks(trusted.envelopes)
    assert ranks is not None
    return trusted.export(key), ranks


def played_tournament(
    *,
    kind: str = "smiles-and-daggers",
    players: int = 6,
    table_size: int = 3,
    rounds: int = 2,
    ranks: Ranks = lambda r, t, given: given,
) -> Played:
    played = Played()
    played.do(
        tnpb.CreateTournament(
            tournament_id=TOURNAMENT_ID,
            kind=kind,
            table_size=table_size,
            format=tnpb.TournamentFormat.KIND_SWISS,
            rounds=rounds,
        )
    )
    keys = {signing.public_key_bytes(player_key(i)): player_key(i) for i in range(players)}
    for i in range(players):
        played.do(records.sign_entry(player_key(i), TOURNAMENT_ID, f"player {i}"))
    played.do(tnpb.CloseRegistration(seed_commitment=hashlib.sha256(SEED).digest()))
    for number in range(1, rounds + 1):
        count = len(draw_round(played.state, SEED)[0].tables)
        ids = [game_id(number, t) for t in range(1, count + 1)]
        played.do(tnpb.PairRound(round=number, seed=SEED, game_ids=ids))
        for table in played.state.rounds[-1].tables:
            seated = [keys[k] for k in table.seats]
            record, found = play_game(
                kind, table.game_id, table_size, number * 100 + table.number, players=seated
            )
            played.games[table.game_id] = record
            played.do(
                tnpb.RecordGame(
                    round=number,
                    table=table.number,
                    game_id=table.game_id,
                    ranks=ranks(number, table.number, found),
                )
            )
    played.do(tnpb.FinishTournament(seed=SEED))
    return played


def forged(
    envelopes: Sequence[epb.EventEnvelope], key: Ed25519PrivateKey = SERVER_KEY
) -> tnpb.TournamentRecord:
    """A record of these (altered) events, renumbered, relinked and signed:
    what a server that lies with its own key can produce."""
    copies = []
    for sequence, envelope in enumerate(envelopes, 1):
        copy = epb.EventEnvelope()
        copy.CopyFrom(envelope)
        copy.sequence = sequence
        copies.append(copy)
    stored = chain.link(copies, chain.ZERO_HASH)
    # build and sign: a forger may sign an unfinished tournament's events too
    return records.sign(records.build_record(stored, key, exported_at=CLOCK), key)


def events_of(envelopes: Sequence[epb.EventEnvelope], kind: type[Message]) -> list[int]:
    """Positions of the envelopes whose event is a ``kind``."""
    return [i for i, e in enumerate(envelopes) if e.event.Is(kind.DESCRIPTOR)]
