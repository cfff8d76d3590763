"""A tournament's state, folded from its events (:mod:`.evolve`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from cardroom.domain.tournament.pairing import robin_rounds
from cardroom.v1 import tournament_pb2 as tnpb

SWISS = tnpb.TournamentFormat.KIND_SWISS
ROUND_ROBIN = tnpb.TournamentFormat.KIND_ROUND_ROBIN


@dataclass(frozen=True)
class Entrant:
    public_key: bytes
    display_name: str


@dataclass(frozen=True)
class Table:
    """One table of a round: its players' keys in game seat order."""

    number: int
    game_id: str
    seats: tuple[bytes, ...]


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    byes: tuple[bytes, ...]
    standings_digest: bytes
    # Each recorded table's ranks in seat order, by table number.
    results: dict[int, tuple[int, ...]] = field(default_factory=dict)
    completed: bool = False

    def table(self, number: int) -> Table | None:
        return next((t for t in self.tables if t.number == number), None)


@dataclass(frozen=True)
class Tournament:
    """Everything the rules need; ``created`` is None before TournamentCreated."""

    created: tnpb.TournamentCreated | None = None
    entrants: tuple[Entrant, ...] = ()
    withdrawn: frozenset[bytes] = frozenset()
    registration_open: bool = False
    seed_commitment: bytes = b""
    # The players when registration closed, in registration order: the
    # standings' rows (TN-FIELD).
    field: tuple[bytes, ...] = ()
    rounds: tuple[Round, ...] = ()
    finished: bool = False
    # Revealed by TournamentFinished; empty before.
    seed: bytes = b""
    final_standings: tuple[tnpb.Standing, ...] = ()

    @property
    def table_size(self) -> int:
        return self.created.table_size if self.created is not None else 0

    @property
    def bye_half_points(self) -> int:
        return self.created.bye_half_points if self.created is not None else 0

    @property
    def keys(self) -> tuple[bytes, ...]:
        """Every registered player's key, in registration order."""
        return tuple(e.public_key for e in self.entrants)

    @property
    def active(self) -> tuple[bytes, ...]:
        """Players still in the tournament, in registration order."""
        return tuple(k for k in self.keys if k not in self.withdrawn)

    @property
    def playing(self) -> tuple[bytes, ...]:
        """The field without the players who left (TN-LEAVE)."""
        return tuple(k for k in self.field if k not in self.withdrawn)

    @property
    def planned_rounds(self) -> int:
        """The rounds to play (TN-ROBIN: a round robin's 0 is its full
        schedule); 0 before registration closes."""
        if self.created is None or not self.field:
            return 0
        if self.created.rounds or self.created.format != ROUND_ROBIN:
            return self.created.rounds
        return robin_rounds(len(self.field), self.table_size)

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None
