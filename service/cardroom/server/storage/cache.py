"""Games in memory: loading a game from the store (from its newest checkpoint
plus the events after it), keeping it current, and forgetting the least
recently used ones.

A :class:`LoadedGame` is a cache of one game's stream: the exact stored bytes
of its events, the table folded by the rules for an auditor, and indexes
kept as events are absorbed (command ids, dealer outcomes, sealed secrets by
type), so a command never scans the game's history. Everything here can be
rebuilt from the events; nothing is state of its own.

A game loaded from its table's checkpoint reads only its first event and
the events from the checkpoint on: the bytes in between are read when first
needed (``cardroom.server.storage.stored_events``) and the indexes built at its first
command (``cardroom.server.storage.indexes``), so the first view of a game after a
restart costs the same however long the game is. A checkpoint is used only
while the event it folded last is still the one stored there (its hash).

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
from datetime import UTC, datetime

from google.protobuf import timestamp_pb2
from google.protobuf.message import DecodeError

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import Event, Viewer
from cardroom.server.errors import CorruptGame, GameNotFound
from cardroom.server.storage.checkpoints import Checkpoints, viewer_key
from cardroom.server.storage.indexes import Deferred, Indexes
from cardroom.server.storage.log import GameLog, bounded, is_store_failure
from cardroom.server.storage.stored_events import StoredEvents
from cardroom.trust import chain, chance
from cardroom.trust.envelopes import to_event
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import tournament_pb2 as tnpb

log = logging.getLogger(__name__)

TOURNAMENT_CREATED = tnpb.TournamentCreated.DESCRIPTOR.full_name
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
class LoadedGame:
    """One game's stream and its auditor's fold, as of ``version``."""

    game_id: str
    created: tpb.GameCreated
    # The auditor's fold and the version it is at, set together (after the
    # stored bytes it folds are in ``stored``).
    head: tuple[int, tables.Table]
    stored: StoredEvents = field(default_factory=StoredEvents)
    # The command indexes (cardroom.server.storage.indexes): built, or still the
    # checkpoint's JSON until a command needs them. Used under ``lock``.
    _indexes: Indexes | Deferred = field(default_factory=Indexes)
    lock: threading.Lock = field(default_factory=threading.Lock)
    # Each viewer's latest fold of its own copies: (version, table).
    folds: dict[Viewer, tuple[int, tables.Table]] = field(default_factory=dict)
    # The newest version another process announced (PostgreSQL).
    announced: int = 0
    evicted: bool = False
    _chance: tuple[bytes, tpb.SetDeal | None] | None = None
    # The latest absorbed event's index and recording time (seconds, nanos):
    # every write arms the game's clocks from it, without parsing it again.
    latest_recorded: tuple[int, int, int] | None = None

    @property
    def version(self) -> int:
        return len(self.stored)

    @property
    def indexes(self) -> Indexes:
        """The command indexes, built now if they were still deferred (from
        the events instead, if the checkpoint's copy is not this code's)."""
        current = self._indexes
        if isinstance(current, Deferred):
            try:
                current = current.build()
            except (TypeError, ValueError):
                log.warning("game %s: rebuilding its command indexes from its events", self.game_id)
                current = Indexes()
                for index in range(self.version):
                    current.absorb(index, self.envelope(index))
            self._indexes = current
        return current

    def index(self, index: int, envelope: epb.EventEnvelope) -> None:
        """Absorb one more event into the indexes (deferred or built)."""
        self._indexes.absorb(index, envelope)

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

    def recorded_at(self, index: int) -> datetime:
        """When the event at ``index`` was recorded (UTC)."""
        latest = self.latest_recorded
        if latest is not None and latest[0] == index:
            stamp = timestamp_pb2.Timestamp(seconds=latest[1], nanos=latest[2])
        else:
            stamp = self.envelope(index).recorded_at
        return stamp.ToDatetime(tzinfo=UTC)

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
        envelope = epb.EventEnvelope.FromString(raw)
        tournament = envelope.event.TypeName() == TOURNAMENT_CREATED
        created = None if tournament else to_event(envelope).public
    if tournament:
        # A tournament's stream shares the store (games/tournaments.py): no game.
        raise GameNotFound(f"no game {game_id} (it is a tournament)")
    with unfoldable(game_id, 1, "GameCreated"):
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


def _same_event(
    decided: Sequence[tuple[Event, tables.Table]], position: int, event: Event
) -> tables.Table | None:
    """The table the batch's ``position``-th decided event led to, if that
    event is ``event`` (``by_seat`` included: equality leaves it out)."""
    if position >= len(decided):
        return None
    made, table = decided[position]
    if made.by_seat != event.by_seat or made != event:
        return None
    return table


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
        """The game from the store: from its table's newest checkpoint when
        there is one that belongs to the stored events (reading only the
        first event and the events from the checkpoint on; the rest are read
        if ever needed, cardroom.server.storage.stored_events), else folded from the
        first event."""
        loaded = self._from_checkpoint(game_id)
        if loaded is None:
            rows = self._read(game_id)
            if not rows:
                raise GameNotFound(f"no game {game_id}")
            loaded = _first(game_id, rows[0])
            loaded.stored.append(rows[0])
            loaded.index(0, loaded.envelope(0))
            loaded.head = (1, loaded.table)
            self.absorb(loaded, rows[1:])
        with self._lock:
            current = self._games.setdefault(game_id, loaded)
            self._games.move_to_end(game_id)
            self._evict()
        return current

    def _from_checkpoint(self, game_id: str) -> LoadedGame | None:
        """The game from its table's newest checkpoint, or None (no game, no
        usable checkpoint, or one the stored events do not match)."""
        checkpoint = self.checkpoints.latest(game_id, TABLE_KEY)
        if checkpoint is None:
            return None
        version, value = checkpoint
        if version < 2:
            return None
        try:
            table, indexes_json, anchor = value
            indexes = Deferred(indexes_json)
        except (TypeError, ValueError):
            return None  # not this code's checkpoint: fold from the first event
        if not isinstance(table, tables.Table) or not isinstance(anchor, bytes):
            return None
        # Event 1 and the events from ``version`` on, in one query.
        found = self.store.read_first_and_after(game_id, version - 1)
        first, rows = found[:1], found[1:]
        if not first or not rows or chain.event_hash(rows[0]) != anchor:
            if first:
                log.warning(
                    "game %s: the checkpoint at %d does not match the stored events; "
                    "folding from the first event",
                    game_id,
                    version,
                )
            return None
        _envelope_at(game_id, version - 1, rows[0])
        loaded = _first(game_id, first[0])
        loaded.stored = StoredEvents(
            [first[0], *rows[:1]],
            gap=range(1, version - 1),
            read_gap=lambda start, stop: self._read_between(game_id, start, stop),
        )
        loaded.head, loaded._indexes = (version, table), indexes
        self.absorb(loaded, rows[1:])
        return loaded

    def _read_between(self, game_id: str, start: int, stop: int) -> list[bytes]:
        """The stored events at indexes [start, stop), each checked to be the
        envelope in its place (as absorbing checks the others)."""
        rows = self._read(game_id, after=start, upto=stop)
        for offset, raw in enumerate(rows):
            _envelope_at(game_id, start + offset, raw)
        if len(rows) != stop - start:
            raise CorruptGame(
                f"game {game_id}: stored events {start + len(rows) + 1}..{stop} are missing; "
                "`cardroom audit` tells more"
            )
        return rows

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

    def _read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[bytes]:
        try:
            return self.store.read_raw(game_id, after=after, upto=upto)
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

    def absorb(
        self,
        loaded: LoadedGame,
        rows: Sequence[bytes],
        after: int | None = None,
        decided: Sequence[tuple[Event, tables.Table]] = (),
    ) -> None:
        """Fold stored events into the game. Readers do not take the lock:
        the stored bytes go in before the table that folds them, so a read
        never reaches an event without its bytes, nor sees the game finished
        before its last event is there to serve. ``after``: the version the
        rows follow (rows already absorbed are skipped). ``decided``: this
        process's own batch, each event as the command decided it on this
        game's table with the table it led to: where the stored event reads
        back as that same event (``by_seat`` too), its table is taken
        instead of folding it again (the rules are pure, so folding gives
        the same table); from the first that differs (a disclosure the batch
        attached), every event is folded."""
        if after is not None and after < loaded.version:
            rows = rows[loaded.version - after :]
            decided = ()
        for position, raw in enumerate(rows):
            index = loaded.version
            envelope = _envelope_at(loaded.game_id, index, raw)
            kind = envelope.event.type_url.rpartition("/")[2] or "?"
            with unfoldable(loaded.game_id, envelope.sequence, kind):
                event = to_event(envelope)
                same = _same_event(decided, position, event)
                if same is not None:
                    table = same
                else:
                    decided = ()
                    table = tables.evolve(loaded.table, event)
                loaded.index(index, envelope)
            finishes = table.finished and not loaded.table.finished
            recorded = envelope.recorded_at
            loaded.latest_recorded = (index, recorded.seconds, recorded.nanos)
            loaded.stored.append(raw)
            loaded.head = (loaded.version, table)
            if self.checkpoints.due(loaded.version, finishes):
                # Anchored to the stored event it folds last: a checkpoint is
                # used only while that event is still the one stored there.
                anchor = chain.event_hash(raw)
                value = (table, loaded.indexes.to_json(), anchor)
                self.checkpoints.save_later(loaded.game_id, TABLE_KEY, loaded.version, value)
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
                before, table = table, tables.evolve(table, event)
            if self.checkpoints.due(sequence, table.finished and not before.finished):
                self.checkpoints.save_later(loaded.game_id, key, sequence, table)
        with loaded.lock:
            if viewer not in loaded.folds or loaded.folds[viewer][0] <= upto:
                loaded.folds[viewer] = (upto, table)
        return table

    def games(self) -> list[LoadedGame]:
        with self._lock:
            return list(self._games.values())
