"""Games in memory: loading a game from the store (from its newest checkpoint
plus the events after it), keeping it current, and forgetting the least
recently used ones.

A :class:`LoadedGame` is a cache of one game's stream: the exact stored bytes
of every event, the table folded by the rules for an auditor, and indexes
kept as events are absorbed (command ids, dealer outcomes, sealed secrets by
type), so a command never scans the game's history. Everything here can be
rebuilt from the events; nothing is state of its own.

Keeping a cached game current:

* ``sole_writer`` (SQLite, served by one process: the server holds the
  file's lock, docs/operations.md): every write goes through this cache, so a
  cached game is never re-read.
* ``notified`` (PostgreSQL with the store's subscription): another process's
  write is announced by the subscription; a read re-reads the store only when
  an announced (or the caller's ``min_version``) version is ahead of the
  cache. A command is decided on the cache and appended with its version:
  if another process wrote first, the append fails and the command is
  decided again on the fresh state.
* ``always`` (several writers without a subscription, e.g. tests): every
  read asks the store for newer events.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import DecodeError

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import DEALER, Actor, Event, Viewer
from cardroom.server.checkpoints import Checkpoints, viewer_key
from cardroom.server.errors import CorruptGame, GameNotFound
from cardroom.server.store import GameLog, bounded, is_store_failure
from cardroom.trust import chance
from cardroom.trust.envelopes import actor_of, to_event
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb

log = logging.getLogger(__name__)

TABLE_KEY = "table"  # the checkpoint stream of the auditor's table and the indexes
Refresh = str  # "sole_writer" | "notified" | "always"


@contextmanager
def unfoldable(game_id: str, sequence: int, kind: str = "?") -> Iterator[None]:
    """Any failure to read or fold a stored event makes its game CorruptGame
    (DATA_LOSS), naming the game and the event; other games keep serving."""
    try:
        yield
    except CorruptGame:
        raise
    except Exception as error:
        if is_store_failure(error):
            raise
        detail = bounded(str(error) or type(error).__name__, 200)
        what = "read" if isinstance(error, DecodeError) else "folded"
        raise CorruptGame(
            f"game {game_id}: stored event {sequence} ({kind}) cannot be {what}: "
            f"{detail}; `cardroom audit` tells more"
        ) from None


@dataclass
class CommandSpan:
    """Where one command's batch lies in the stream: [start, end)."""

    start: int
    end: int | None = None  # None while it is the last command


@dataclass
class Indexes:
    """What commands need of the history, kept as events are absorbed."""

    commands: dict[tuple[Actor, str], CommandSpan] = field(default_factory=dict)
    last_command: tuple[Actor, str] | None = None
    dealt: int = 0  # the dealer's commands so far (the next chance index)
    picks: int = 0  # of which dealer's picks of default choices (T-PICK)
    # Sealed secrets holding a value, by type: (event index, secret index).
    secrets: dict[str, list[tuple[int, int]]] = field(default_factory=dict)

    def plain(self) -> tuple[Any, ...]:
        """A snapshot in plain values, for the table's checkpoint (fast to
        write and read; the spans go on changing after it is taken)."""
        commands = [
            (actor.kind, actor.seat, command_id, span.start, span.end)
            for (actor, command_id), span in self.commands.items()
        ]
        last = None
        if self.last_command is not None:
            actor, command_id = self.last_command
            last = (actor.kind, actor.seat, command_id)
        secrets = [(name, [list(at) for at in places]) for name, places in self.secrets.items()]
        return (commands, last, self.dealt, secrets, self.picks)

    @classmethod
    def from_plain(cls, plain: Any) -> Indexes:
        """The indexes :meth:`plain` wrote (ValueError or TypeError if not)."""
        commands, last, dealt, secrets, picks = plain
        indexes = cls(dealt=int(dealt), picks=int(picks))
        for kind, seat, command_id, start, end in commands:
            indexes.commands[(Actor(kind, seat), command_id)] = CommandSpan(start, end)
        if last is not None:
            kind, seat, command_id = last
            indexes.last_command = (Actor(kind, seat), command_id)
        indexes.secrets = {name: [(i, j) for i, j in places] for name, places in secrets}
        return indexes

    def absorb(self, index: int, envelope: epb.EventEnvelope) -> None:
        if envelope.HasField("command"):
            actor = actor_of(envelope.command)
            if actor == DEALER:
                self.dealt += 1
                self.picks += chance.is_pick(envelope.command)
            else:
                if self.last_command is not None:
                    span = self.commands.get(self.last_command)
                    if span is not None and span.end is None:
                        span.end = index
                self.last_command = None
                if envelope.command.command_id:
                    key = (actor, envelope.command.command_id)
                    self.commands.setdefault(key, CommandSpan(index))
                    self.last_command = key
        for position, secret in enumerate(envelope.secrets):
            if secret.HasField("value"):
                name = secret.value.type_url.rpartition("/")[2]
                self.secrets.setdefault(name, []).append((index, position))


@dataclass
class LoadedGame:
    """One game's stream and its auditor's fold, as of ``version``."""

    game_id: str
    created: tpb.GameCreated
    # The auditor's fold and the version it is at, set together (after the
    # stored bytes it folds are in ``stored``).
    head: tuple[int, tables.Table]
    stored: list[bytes] = field(default_factory=list)
    indexes: Indexes = field(default_factory=Indexes)
    lock: threading.Lock = field(default_factory=threading.Lock)
    # Each viewer's latest fold of its own copies: (version, table).
    folds: dict[Viewer, tuple[int, tables.Table]] = field(default_factory=dict)
    # The newest version another process announced (PostgreSQL).
    announced: int = 0
    evicted: bool = False
    _chance: tuple[bytes, tpb.SetDeal | None] | None = None

    @property
    def version(self) -> int:
        return len(self.stored)

    @property
    def table(self) -> tables.Table:
        return self.head[1]

    @property
    def finished(self) -> bool:
        return self.table.finished

    @property
    def policy(self) -> tpb.SpectatorPolicy:
        return self.created.spectator_policy

    @property
    def log_is_public(self) -> bool:
        """Whether anyone may read the full log once the game is over."""
        return self.created.log_policy.kind == tpb.LogPolicy.KIND_PUBLIC_AFTER_END

    def envelope(self, index: int) -> epb.EventEnvelope:
        """The event at ``index`` (0-based), parsed from its stored bytes."""
        return epb.EventEnvelope.FromString(self.stored[index])

    def chance(self) -> tuple[bytes, tpb.SetDeal | None]:
        """The committed chance seed and the set-deal script, if any."""
        if self._chance is None:
            created = self.envelope(0)
            seed = chance.seed_of(created)
            if seed is None:
                raise CorruptGame(f"game {self.game_id} commits to no chance seed")
            self._chance = (seed, chance.set_deal_of(created))
        return self._chance


def _first(game_id: str, raw: bytes) -> LoadedGame:
    """An empty LoadedGame for a stream whose first stored event is ``raw``."""
    with unfoldable(game_id, 1, "GameCreated"):
        created = to_event(epb.EventEnvelope.FromString(raw)).public
        if not isinstance(created, tpb.GameCreated):
            raise CorruptGame(f"game {game_id} does not start with GameCreated")
        if not 0 < created.seat_count <= tables.MAX_SEATS:
            raise ValueError(f"seat_count {created.seat_count} is out of range")
        table = tables.initial(registry.game(created.kind), created)
    return LoadedGame(game_id, created, (0, table))


def _envelope_at(game_id: str, index: int, raw: bytes) -> epb.EventEnvelope:
    """The stored row at ``index``, which must be an envelope in its place:
    a row moved or rewritten behind the server's back is never served."""
    with unfoldable(game_id, index + 1):
        envelope = epb.EventEnvelope.FromString(raw)
    if envelope.sequence != index + 1:
        raise CorruptGame(f"game {game_id}: event {envelope.sequence} where {index + 1} belongs")
    return envelope


def _check_sequence(game_id: str, rows: Sequence[bytes]) -> None:
    """The rows a checkpoint lets a load skip are checked as absorbing checks
    the others (about 1 ms per 1,000 rows)."""
    for index, raw in enumerate(rows):
        _envelope_at(game_id, index, raw)


class GameCache:
    def __init__(
        self,
        store: GameLog,
        checkpoints: Checkpoints,
        *,
        refresh: Refresh = "always",
        max_games: int = 2000,
    ) -> None:
        self.store = store
        self.checkpoints = checkpoints
        self.refresh = refresh
        self.max_games = max(1, max_games)
        self._games: OrderedDict[str, LoadedGame] = OrderedDict()
        self._lock = threading.Lock()
        # Told of each checkpoint of a game's table (to warm its viewers' folds).
        self.on_checkpoint: Callable[[LoadedGame, int], None] = lambda loaded, version: None

    def __len__(self) -> int:
        return len(self._games)

    def cached(self, game_id: str) -> LoadedGame | None:
        with self._lock:
            return self._games.get(game_id)

    def clear(self) -> None:
        """Forget every game (as after a restart)."""
        with self._lock:
            for loaded in self._games.values():
                loaded.evicted = True
            self._games.clear()

    # ------------------------------------------------------------ loading

    def load(self, game_id: str, *, min_version: int = 0, fresh: bool = False) -> LoadedGame:
        """The game, current enough for a read: see the module docstring.
        ``fresh`` re-reads the store whatever the mode (after a conflict)."""
        with self._lock:
            loaded = self._games.get(game_id)
            if loaded is not None:
                self._games.move_to_end(game_id)
        if loaded is None:
            return self._load_cold(game_id)
        if fresh or self._stale(loaded, min_version):
            self.catch_up(loaded)
        return loaded

    def may_be_behind(self) -> bool:
        """Whether another process may have written what this cache has not
        absorbed yet (PostgreSQL: its announcement may still be on the way)."""
        return self.refresh == "notified"

    def _stale(self, loaded: LoadedGame, min_version: int) -> bool:
        if min_version > loaded.version:
            return True
        if self.refresh == "sole_writer":
            return False
        if self.refresh == "notified":
            return loaded.announced > loaded.version
        return True

    def _load_cold(self, game_id: str) -> LoadedGame:
        rows = self._read(game_id)
        if not rows:
            raise GameNotFound(f"no game {game_id}")
        loaded = _first(game_id, rows[0])
        start = 1
        checkpoint = self.checkpoints.latest(game_id, TABLE_KEY, len(rows))
        if checkpoint is not None:
            version, (table, plain) = checkpoint
            try:
                indexes = Indexes.from_plain(plain)
            except (TypeError, ValueError):
                indexes = None  # not this code's indexes: fold from the first event
            if isinstance(table, tables.Table) and indexes is not None:
                _check_sequence(game_id, rows[:version])
                loaded.head, loaded.indexes = (version, table), indexes
                loaded.stored.extend(rows[:version])
                start = version
        if start == 1:
            loaded.stored.append(rows[0])
            loaded.indexes.absorb(0, loaded.envelope(0))
            loaded.head = (1, loaded.table)
        self.absorb(loaded, rows[start:])
        with self._lock:
            current = self._games.setdefault(game_id, loaded)
            self._games.move_to_end(game_id)
            self._evict()
        return current

    def _evict(self) -> None:
        """Forget the least recently used games beyond the limit; a game a
        command is writing (its lock held) stays."""
        excess = len(self._games) - self.max_games
        if excess <= 0:
            return
        for game_id in list(self._games)[: excess * 2]:
            if excess <= 0:
                break
            loaded = self._games[game_id]
            if loaded.lock.locked():
                continue
            loaded.evicted = True
            del self._games[game_id]
            excess -= 1

    def _read(self, game_id: str, after: int = 0) -> list[bytes]:
        try:
            return self.store.read_raw(game_id, after=after)
        except DecodeError as error:  # pragma: no cover - raw reads do not parse
            raise CorruptGame(f"game {game_id}: a stored event cannot be read: {error}") from None

    def catch_up(self, loaded: LoadedGame) -> int:
        """Absorb what the store holds beyond the cache; the new version."""
        base = loaded.version
        newer = self._read(loaded.game_id, after=base)
        if newer:
            with loaded.lock:
                self.absorb(loaded, newer, after=base)
        return loaded.version

    def absorb(self, loaded: LoadedGame, rows: Sequence[bytes], after: int | None = None) -> None:
        """Fold stored events into the game. Readers do not take the lock:
        the stored bytes go in before the table that folds them, so a read
        never reaches an event without its bytes, nor sees the game finished
        before its last event is there to serve. ``after``: the version the
        rows follow (rows already absorbed are skipped)."""
        if after is not None and after < loaded.version:
            rows = rows[loaded.version - after :]
        for raw in rows:
            index = loaded.version
            envelope = _envelope_at(loaded.game_id, index, raw)
            kind = envelope.event.type_url.rpartition("/")[2] or "?"
            with unfoldable(loaded.game_id, envelope.sequence, kind):
                table = tables.evolve(loaded.table, to_event(envelope))
                loaded.indexes.absorb(index, envelope)
            loaded.stored.append(raw)
            loaded.head = (loaded.version, table)
            if self.checkpoints.due(loaded.version):
                self.checkpoints.save_later(
                    loaded.game_id, TABLE_KEY, loaded.version, (table, loaded.indexes.plain())
                )
                self.on_checkpoint(loaded, loaded.version)

    def announce(self, game_id: str, version: int) -> LoadedGame | None:
        """Another process wrote up to ``version``: the next read catches up."""
        loaded = self.cached(game_id)
        if loaded is not None and version > loaded.announced:
            loaded.announced = version
        return loaded

    # -------------------------------------------------------------- folds

    def fold(
        self,
        loaded: LoadedGame,
        viewer: Viewer,
        upto: int,
        events: Callable[[LoadedGame, Viewer, int, int], Iterable[tuple[int, Event]]],
    ) -> tables.Table:
        """The viewer's state after ``upto`` events, folded from what it may
        see of them (``events(loaded, viewer, after, upto)``: sequence and
        event, reads.visible_events): from its cached fold, else its nearest
        checkpoint, else the first event."""
        if viewer.kind == "auditor":
            version, head = loaded.head
            if version == upto:
                return head
        with loaded.lock:
            cached = loaded.folds.get(viewer)
        start, table = 1, None
        if cached is not None and cached[0] <= upto:
            start, table = cached
        key = viewer_key(viewer)
        if start + self.checkpoints.every <= upto:
            found = self.checkpoints.latest(loaded.game_id, key, upto)
            if found is not None and found[0] > start and isinstance(found[1], tables.Table):
                start, table = found
        if table is None:
            table = tables.initial(loaded.table.game, loaded.created)
        for sequence, event in events(loaded, viewer, start, upto):
            kind = event.public.DESCRIPTOR.full_name
            with unfoldable(loaded.game_id, sequence, kind):
                table = tables.evolve(table, event)
            if self.checkpoints.due(sequence):
                self.checkpoints.save_later(loaded.game_id, key, sequence, table)
        with loaded.lock:
            if viewer not in loaded.folds or loaded.folds[viewer][0] <= upto:
                loaded.folds[viewer] = (upto, table)
        return table

    def games(self) -> list[LoadedGame]:
        with self._lock:
            return list(self._games.values())
