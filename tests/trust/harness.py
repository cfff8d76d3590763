"""A miniature of the service with the trust layer wired in, the way
docs/trust.md tells ``cardroom.server.games.application`` to do it: seal every envelope,
commit the seed at creation, draw every chance outcome with
``chance_outcome``, open revealed secrets, chain each batch, export a signed
record. The trust tests play games through it."""

from __future__ import annotations

import hashlib
import random
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from google.protobuf import any_pb2
from google.protobuf.message import Message

from cardroom.domain import table as tables
from cardroom.domain.kernel import DEALER, GUEST, OPERATOR, Actor, Event, Game, Secret, Viewer
from cardroom.trust import chain, chance, commitments, drbg, record
from cardroom.trust.envelopes import command_record, to_envelope, to_event
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import trust_pb2 as trpb
from tests.bounded import steps

Reveals = Callable[[Sequence[epb.EventEnvelope], Message], list[tuple[int, int]]]
CLOCK = datetime(2025, 1, 1, tzinfo=UTC)


def no_reveals(history: Sequence[epb.EventEnvelope], public: Message) -> list[tuple[int, int]]:
    return []


@dataclass
class TrustedGame:
    """One game's stream as the integrated service would store it."""

    game: Game[Any]
    reveals: Reveals = no_reveals
    game_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    seed: bytes = field(default_factory=drbg.new_seed)
    envelopes: list[epb.EventEnvelope] = field(default_factory=list)
    stored: list[bytes] = field(default_factory=list)
    table: tables.Table | None = None
    # The recording time of the next batch (a turn clock's test moves it).
    now: datetime = CLOCK
    # Dealer outcomes in the stream, and how many of them are dealer's picks.
    dealt: int = 0
    picks: int = 0

    # ----------------------------------------------------------- writing

    def create(
        self,
        seat_count: int,
        options: Message | None = None,
        set_deal: Sequence[Message] = (),
        table_options: tpb.TableOptions | None = None,
    ) -> None:
        options = options if options is not None else self.game.options_type()
        created = tables.create(self.game, options, seat_count, set_deal=bool(set_deal))
        if table_options is not None:
            assert isinstance(created.public, tpb.GameCreated)
            created.public.table_options.CopyFrom(table_options)
        hidden: list[Secret] = []
        if set_deal:
            packed = []
            for outcome in set_deal:
                a = any_pb2.Any()
                a.Pack(outcome)
                packed.append(a)
            hidden.append(Secret(frozenset(), tpb.SetDeal(outcomes=packed)))
        hidden.append(chance.seed_secret(self.seed))
        envelope = to_envelope(self.game_id, 1, self.now, Event(created.public, tuple(hidden)))
        commitments.seal_envelope(envelope)
        self._append([envelope])
        assert isinstance(created.public, tpb.GameCreated)
        self.table = tables.initial(self.game, created.public)

    def execute(self, actor: Actor, command: Message, command_id: str = "") -> None:
        """What Games._decide does, plus the trust steps."""
        assert self.table is not None
        table = self.table
        batch: list[epb.EventEnvelope] = []
        created = self.envelopes[0]
        script = chance.set_deal_of(created)

        def record_batch(batch_actor: Actor, batch_command: Message, batch_id: str) -> None:
            nonlocal table
            events = tables.decide(table, batch_actor, batch_command)
            record_pb = command_record(batch_actor, batch_command, batch_id)
            for i, e in enumerate(events):
                sequence = len(self.envelopes) + len(batch) + 1
                envelope = to_envelope(
                    self.game_id, sequence, self.now, e, record_pb if i == 0 else None
                )
                commitments.seal_envelope(envelope)
                history = [*self.envelopes, *batch]
                for seq, index in self.reveals(history, e.public):
                    envelope.openings.append(commitments.open_secret(history[seq - 1], index))
                if isinstance(e.public, tpb.GameStarted):  # T-ENTROPY, as the service does
                    for seq, index in server_entropy_secrets(history, table.entropy_by_server):
                        envelope.openings.append(commitments.open_secret(history[seq - 1], index))
                batch.append(envelope)
                table = tables.evolve(table, e)

        record_batch(actor, command, command_id)
        dealer = [
            e.command
            for e in batch
            if e.HasField("command") and e.command.actor.kind == epb.Actor.KIND_DEALER
        ]
        # The dealer's outcomes so far (counted as batches are appended: a
        # long game's stream is not searched at every command).
        dealt = self.dealt + len(dealer)
        picks = self.picks + sum(map(chance.is_pick, dealer))
        for _ in steps(100, "the dealer"):
            if tables.chance_needed(table) is None:
                break
            outcome = chance.chance_outcome(
                table, dealt, seed=self.seed, game_id=self.game_id, set_deal=script, picks=picks
            )
            record_batch(DEALER, outcome, "")
            dealt += 1
            picks += isinstance(outcome, tpb.DealerPick)
        self._append(batch)
        self.table = table

    def _append(self, batch: list[epb.EventEnvelope]) -> None:
        head = chain.chain_head(self.stored)
        self.stored.extend(chain.link(batch, head))
        self.envelopes.extend(batch)
        for e in batch:
            if e.HasField("command") and e.command.actor.kind == epb.Actor.KIND_DEALER:
                self.dealt += 1
                self.picks += chance.is_pick(e.command)

    def seat_everyone(self) -> None:
        assert self.table is not None
        for seat in range(self.table.seat_count):
            token = hashlib.sha256(f"{self.game_id}/{seat}".encode()).digest()
            self.execute(GUEST, tpb.TakeSeat(seat=seat, player_name=f"P{seat}", token_sha256=token))
        self.execute(OPERATOR, tpb.StartGame())

    def seat_with_entropy(
        self, entropies: Sequence[bytes | None], *, reveal: Sequence[int] | None = None
    ) -> None:
        """Seat everyone, each committing to its own entropy (bytes) or
        letting the server draw it (None), start, then reveal the seats'
        own entropies (those in ``reveal``, all by default; T-ENTROPY)."""
        for seat, entropy in enumerate(entropies):
            token = hashlib.sha256(f"{self.game_id}/{seat}".encode()).digest()
            command = tpb.TakeSeat(seat=seat, player_name=f"P{seat}", token_sha256=token)
            if entropy is None:
                command.server_entropy = hashlib.sha256(f"{self.game_id}#{seat}".encode()).digest()
            else:
                command.entropy_commitment = tables.entropy_commitment(entropy)
            self.execute(GUEST, command)
        self.execute(OPERATOR, tpb.StartGame())
        for seat, entropy in enumerate(entropies):
            if entropy is not None and (reveal is None or seat in reveal):
                self.execute(Actor.of_seat(seat), tpb.RevealEntropy(entropy=entropy), f"e{seat}")

    # ----------------------------------------------------------- reading

    def copy_for(self, viewer: Viewer) -> list[epb.EventEnvelope]:
        """What the viewer is served: its redacted copies, with event_hash."""
        return [
            chain.served(commitments.redact(e, viewer), raw)
            for e, raw in zip(self.envelopes, self.stored, strict=True)
        ]

    def fold_for(self, viewer: Viewer) -> tables.Table:
        stream = [to_event(commitments.strip_digests(e)) for e in self.copy_for(viewer)]
        return tables.replay(self.game, stream)

    def play_out(self, rng: random.Random, limit: int = 5000) -> None:
        """Random legal play, each seat choosing from its own fold of its
        own redacted copy (kept up to date incrementally)."""
        assert self.table is not None
        seats = range(self.table.seat_count)
        folds = [self.fold_for(Viewer.of_seat(seat)) for seat in seats]
        seen = len(self.envelopes)
        for _ in range(limit):
            assert self.table is not None
            if self.table.finished:
                return
            for seat in seats:
                actions = tables.legal_actions(folds[seat], seat)
                if actions:
                    self.execute(Actor.of_seat(seat), rng.choice(actions), f"c{len(self.stored)}")
                    break
            else:
                raise AssertionError("nobody can act and the game is not over")
            for seat in seats:
                for envelope in self.envelopes[seen:]:
                    mine = commitments.redact(envelope, Viewer.of_seat(seat))
                    folds[seat] = tables.evolve(
                        folds[seat], to_event(commitments.strip_digests(mine))
                    )
            seen = len(self.envelopes)
        raise AssertionError("the game did not finish")

    def export(self, key: Ed25519PrivateKey) -> trpb.GameRecord:
        return record.export_record(self.stored, key, exported_at=CLOCK)


def server_entropy_secrets(
    history: Sequence[epb.EventEnvelope], seats: frozenset[int]
) -> list[tuple[int, int]]:
    """(sequence, index) of the SeatEntropy secret of each seat in ``seats``."""
    found = []
    for envelope in history:
        for index, secret in enumerate(envelope.secrets):
            if secret.HasField("value") and commitments.holds(secret.value, tpb.SeatEntropy):
                value = tpb.SeatEntropy()
                secret.value.Unpack(value)
                if value.seat in seats:
                    found.append((envelope.sequence, index))
    return found


def played_game(
    game: Game[Any],
    *,
    seats: int = 2,
    reveals: Reveals = no_reveals,
    set_deal: Sequence[Message] = (),
    options: Message | None = None,
    choices: int = 7,
) -> TrustedGame:
    trusted = TrustedGame(game, reveals)
    trusted.create(seats, options, set_deal)
    trusted.seat_everyone()
    trusted.play_out(random.Random(choices))
    return trusted
