"""A game played through the trust harness the way the service plays it,
for seats that leave (T-RESIGN) or let their turn clock run out (T-CLOCK):
each seat chooses from its own redacted fold, a timed-out seat's clock fires
only once its deadline has passed by the recording times, and every chance
outcome (the dealer's picks of default choices included) comes from the
committed seed, so ``cardroom audit`` can re-check the whole game."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Sequence
from datetime import timedelta

from google.protobuf.message import Message

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import CLOCK, SPECTATOR, Actor, Viewer
from cardroom.trust import commitments
from cardroom.trust.audit import Report, audit_events
from cardroom.trust.envelopes import actor_of, to_event, unpack
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from tests.trust.harness import TrustedGame

SECONDS = 30  # the turn clock of every game here


class LeavingGame:
    def __init__(
        self,
        kind: str,
        seats: int,
        *,
        seed: int = 0,
        options: Message | None = None,
        set_deal: Sequence[Message] = (),
    ) -> None:
        """A started game with a turn clock; ``seed`` fixes the committed
        chance seed and the game id, so the dealer draws the same."""
        digest = hashlib.sha256(f"{kind}/{seats}/{seed}".encode()).digest()
        self.trusted = TrustedGame(
            registry.game(kind), seed=digest, game_id=str(uuid.UUID(bytes=digest[:16]))
        )
        clock = tpb.TableOptions(seconds_per_decision=SECONDS)
        self.trusted.create(seats, options, set_deal, table_options=clock)
        self.trusted.seat_everyone()
        self.seats = seats
        self.viewers = [*(Viewer.of_seat(s) for s in range(seats)), SPECTATOR]
        self.folds = {v: self.trusted.fold_for(v) for v in self.viewers}
        self.seen = len(self.trusted.envelopes)
        self.commands = 0
        self.checked_defaults = 0

    @property
    def table(self) -> tables.Table:
        assert self.trusted.table is not None
        return self.trusted.table

    # ------------------------------------------------------------ moves

    def _execute(self, actor: Actor, command: Message) -> None:
        self.trusted.execute(actor, command, f"c{self.commands}")
        self.commands += 1
        for viewer in self.viewers:
            for envelope in self.trusted.envelopes[self.seen :]:
                mine = commitments.redact(envelope, viewer)
                self.folds[viewer] = tables.evolve(
                    self.folds[viewer], to_event(commitments.strip_digests(mine))
                )
        self.seen = len(self.trusted.envelopes)

    def act(self, seat: int, command: Message) -> None:
        self._execute(Actor.of_seat(seat), command)

    def leave(self, seat: int) -> None:
        self._execute(Actor.of_seat(seat), tpb.Resign())

    def time_out(self, seat: int) -> None:
        """The seat's deadline passes and the table's clock fires for it;
        its default choice is first checked to be the one its own fold
        gives (so it shows nothing)."""
        self.check_default(seat)
        self.trusted.now += timedelta(seconds=SECONDS)
        self._execute(CLOCK, tpb.ClockExpired(seat=seat, version=self.table.version))

    def check_default(self, seat: int) -> None:
        mine = self.folds[Viewer.of_seat(seat)]
        assert tables.default_action(mine, seat) == tables.default_action(self.table, seat)
        self.checked_defaults += 1

    # ---------------------------------------------------------- reading

    def legal(self, seat: int) -> list[Message]:
        return tables.legal_actions(self.folds[Viewer.of_seat(seat)], seat)

    def awaited(self) -> list[int]:
        return tables.awaited(self.table)

    def spectator_view(self) -> Message:
        return tables.view(self.folds[SPECTATOR], SPECTATOR)

    def public_events(self) -> list[Message]:
        return [unpack(e.event) for e in self.trusted.envelopes]

    def dealer_outcomes(self) -> list[Message]:
        return [
            unpack(e.command.command)
            for e in self.trusted.envelopes
            if e.HasField("command") and actor_of(e.command).kind == "dealer"
        ]

    def envelopes(self) -> list[epb.EventEnvelope]:
        return list(self.trusted.envelopes)

    def audit(self) -> Report:
        return audit_events(self.trusted.stored)
