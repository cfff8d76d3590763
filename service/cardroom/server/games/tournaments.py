"""Tournaments the server runs (docs/rules/tournaments.md, "How the server
runs one").

A tournament is an event stream in the same store as the games: its id is
a UUID like a game's, each stored event a sealed, hash-chained
``EventEnvelope`` made exactly as ``cardroom.trust.tournament_record``
makes them (so ``ExportTournament`` is the record ``cardroom audit
tournament`` reads), decided by the pure decider
(``cardroom.domain.tournament``). Nothing else is kept: the state is folded
from the events, the seed is the auditors-only secret of RegistrationClosed
(TN-SEED: never served before TournamentFinished reveals it), and the
organizer's token and the codes holding each game's seats are derived from
the server's key.

Each round's games are created here, under ids derived from the
tournament, round and table (so servers sharing a store create the same
ones), every seat held by an invitation whose code only the server knows;
:meth:`Tournaments.reserved` tells the games facade which key may take
which seat, and the facade seats a player only with that key's signature
over the seat (T-PLAYER). When a round's games have all finished
(followed like the ratings follow them: the log's GameFinished
notifications), the results are recorded from the games' own events and
the next round is paired, or the tournament finished.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from google.protobuf import any_pb2
from google.protobuf.message import DecodeError, Message

from cardroom.domain import table as tables
from cardroom.domain.kernel import OPERATOR, Event, MalformedCommand, RuleViolation
from cardroom.domain.tournament import Tournament, decide, evolve
from cardroom.domain.tournament import view as tournament_view
from cardroom.domain.tournament.rules import draw_round
from cardroom.server.errors import GameNotFound, PermissionDenied, Unauthenticated
from cardroom.server.games.commands import Commands
from cardroom.server.games.identity import Identity, parse_game_id, token_hash
from cardroom.server.storage.background import Follower
from cardroom.server.storage.cache import GameCache
from cardroom.server.storage.log import GameLog, VersionConflict
from cardroom.trust import chance
from cardroom.trust import tournament_record as records
from cardroom.trust.envelopes import unpack
from cardroom.trust.players import PUBLIC_KEY_BYTES
from cardroom.trust.tournament_audit import game_ranks
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import tournament_pb2 as tnpb
from cardroom.v1 import trust_pb2 as trpb

log = logging.getLogger(__name__)

FINISHED = tpb.GameFinished.DESCRIPTOR.full_name
# The tournament events the server's indexes follow.
PAIRED = tnpb.RoundPaired.DESCRIPTOR.full_name
CLOSED = tnpb.RegistrationClosed.DESCRIPTOR.full_name
DONE = tnpb.TournamentFinished.DESCRIPTOR.full_name
CREATED = tnpb.TournamentCreated.DESCRIPTOR.full_name
BATCH = 500
FOLLOW_INTERVAL = 1.0
ATTEMPTS = 4
ADVANCE_STEPS = 4
# The namespace of tournament tables' game ids (table_game_id): never changed,
# so that servers of any version sharing a store derive the same ids.
TABLE_GAMES = uuid.UUID("0f8c6a53-5d0e-4c61-9a1b-7e2f3d4c5b6a")
# A seat hold's command id, then the seat: the same on every server.
HOLD_COMMAND_ID = "tournament-seat-hold:"


@dataclass
class Stream:
    """One tournament as stored: its events' exact bytes and their fold."""

    tournament_id: str
    stored: list[bytes] = field(default_factory=list)
    state: Tournament = field(default_factory=Tournament)
    seed: bytes = b""

    @property
    def version(self) -> int:
        return len(self.stored)

    def absorb(self, raw: bytes) -> None:
        envelope = epb.EventEnvelope.FromString(raw)
        e = Event(unpack(envelope.event))
        if isinstance(e.public, tnpb.RegistrationClosed):
            self.seed = seed_of(envelope)
        self.state = evolve(self.state, e)
        self.stored.append(raw)


def seed_of(envelope: epb.EventEnvelope) -> bytes:
    for secret in envelope.secrets:
        found = trpb.ChanceSeed()
        if secret.HasField("value") and secret.value.Unpack(found):
            return found.seed
    return b""


@dataclass(frozen=True)
class Reservation:
    """A tournament game's seats: the key each seat is reserved for."""

    tournament_id: str
    keys: tuple[bytes, ...]


class Tournaments:
    def __init__(
        self,
        store: GameLog,
        cache: GameCache,
        commands: Commands,
        identity: Identity,
        *,
        secret: bytes,
        signing_key: Callable[[], Ed25519PrivateKey],
        clock: Callable[[], datetime],
        new_seed: Callable[[], bytes],
        created: Callable[[], None] = lambda: None,
    ) -> None:
        self._store = store
        self._cache = cache
        self._commands = commands
        self._identity = identity
        self._secret = secret
        self._signing_key = signing_key
        self._clock = clock
        self._new_seed = new_seed
        self._created = created  # a game was created (the game list looks again)
        self._first_follow = True
        self._streams: dict[str, Stream] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._locks_lock = threading.Lock()
        # game id -> its seats' keys, from the RoundPaired events in the log.
        self._reserved: dict[str, Reservation] = {}
        self._open: set[str] = set()  # tournaments closed for entries, not finished
        self._indexed = 0  # the last notification the index read
        self._index_lock = threading.Lock()
        self._followed = 0  # the last GameFinished notification followed
        self._following = threading.Lock()
        self._listeners: list[Callable[[str, int], None]] = []
        self._follower = Follower(
            "tournaments", self.catch_up, FOLLOW_INTERVAL / 10, level=logging.WARNING
        )

    def check_table_options(self, options: tpb.TableOptions) -> None:
        """Refuse (MalformedCommand) table options this server would refuse
        for the tournament's games, as CreateGame does (TN-CLOCK)."""
        commands = self._commands
        tables.checked_table_options(
            options,
            max_events=commands.max_game_events,
            resign_after_timeouts=commands.resign_after_timeouts,
            end_when_absent_seconds=commands.end_when_absent_seconds,
        )

    # ---------------------------------------------------------- credentials

    def organizer_token(self, tournament_id: str) -> str:
        mac = hmac.new(self._secret, f"tournament-organizer:{tournament_id}".encode(), "sha256")
        return "org_" + mac.hexdigest()

    def seat_code(self, game_id: str, seat: int) -> str:
        """The invitation code holding a tournament game's seat: the
        server's alone, derived again after a restart."""
        mac = hmac.new(self._secret, f"tournament-seat:{game_id}:{seat}".encode(), "sha256")
        return "inv_tn_" + mac.hexdigest()

    # ------------------------------------------------------------- storage

    def _lock(self, tournament_id: str) -> threading.Lock:
        with self._locks_lock:
            return self._locks.setdefault(tournament_id, threading.Lock())

    def _load(self, tournament_id: str) -> Stream:
        """The tournament caught up with the store (call under its lock)."""
        stream = self._streams.get(tournament_id)
        if stream is None:
            stream = Stream(tournament_id)
        fresh = self._store.read_raw(tournament_id, after=stream.version)
        if not stream.stored and not fresh:
            raise GameNotFound(f"no tournament {tournament_id}")
        if not stream.stored:
            first = epb.EventEnvelope.FromString(fresh[0])
            if not first.event.TypeName() == CREATED:
                raise GameNotFound(f"no tournament {tournament_id} (it is a game)")
        for raw in fresh:
            stream.absorb(raw)
        self._streams[tournament_id] = stream
        return stream

    def load(self, tournament_id: str) -> Stream:
        tournament_id = parse_tournament_id(tournament_id)
        with self._lock(tournament_id):
            return self._load(tournament_id)

    def _execute(
        self,
        tournament_id: str,
        command: Message,
        *,
        seed: bytes = b"",
        stream: Stream,
        attempts: int = ATTEMPTS,
    ) -> Stream:
        """Decide ``command`` on the tournament, append its events as the
        record keeps them; nothing is written when the rules refuse it.
        ``seed``: kept as RegistrationClosed's auditors-only secret. When
        another server wrote first, the command is decided again on the
        state read again, ``attempts`` times in all (then VersionConflict)."""
        for attempt in range(attempts):
            events = decide(stream.state, command)
            if seed:
                events = [
                    Event(e.public, (chance.seed_secret(seed),))
                    if isinstance(e.public, tnpb.RegistrationClosed)
                    else e
                    for e in events
                ]
            stored = list(stream.stored)
            records.append_batch(stored, tournament_id, command, events, recorded_at=self._clock())
            fresh = stored[stream.version :]
            envelopes = [epb.EventEnvelope.FromString(raw) for raw in fresh]
            try:
                self._store.append(envelopes, fresh)
            except VersionConflict:
                if attempt == attempts - 1:
                    raise
                stream = self._load(tournament_id)  # another server wrote first
                continue
            for raw, envelope in zip(fresh, envelopes, strict=True):
                stream.absorb(raw)
                self._index(envelope)
            for listener in self._listeners:
                listener(tournament_id, stream.version)
            return stream
        raise AssertionError("unreachable")

    def subscribe(self, listener: Callable[[str, int], None]) -> None:
        """``listener(tournament_id, version)`` after each append here (in
        the writing thread: it must not block)."""
        self._listeners.append(listener)

    # ------------------------------------------------------------ commands

    def create(self, request: tnpb.CreateTournament) -> tuple[str, str]:
        """A new tournament: its id and its organizer's token."""
        tournament_id = str(uuid.uuid4())
        command = tnpb.CreateTournament()
        command.CopyFrom(request)
        command.tournament_id = tournament_id
        with self._lock(tournament_id):
            self._execute(tournament_id, command, stream=Stream(tournament_id))
        return tournament_id, self.organizer_token(tournament_id)

    def register(self, tournament_id: str, player: tpb.PlayerProof) -> int:
        tournament_id = parse_tournament_id(tournament_id)
        if len(player.public_key) != PUBLIC_KEY_BYTES:
            raise MalformedCommand("player.public_key must be 32 bytes (raw Ed25519)")
        if not records.entry_signed(tnpb.PlayerRegistered(player=player), tournament_id):
            raise MalformedCommand(
                "player.signature is not the key's over 'cardroom.v1.tournament-entry' || 0x00 "
                "|| tournament_id (TN-REGISTER)"
            )
        with self._lock(tournament_id):
            stream = self._load(tournament_id)
            stream = self._execute(tournament_id, tnpb.RegisterPlayer(player=player), stream=stream)
            return len(stream.state.entrants)

    def _check_organizer(self, tournament_id: str, token: str | None, act: str) -> None:
        """The token is the tournament's organizer's or the operator's."""
        if not token:
            raise Unauthenticated(f"{act} needs the tournament's organizer token")
        allowed = hmac.compare_digest(token, self.organizer_token(tournament_id))
        if not allowed and not self._identity.is_operator(token):
            raise PermissionDenied("this token does not organize this tournament")

    def withdraw(self, tournament_id: str, command: tnpb.WithdrawPlayer, token: str | None) -> int:
        """The player leaves (TN-LEAVE), by their signature or, without one,
        by the organizer's token; the players still in. Their seat in a
        running game of the round is removed (T-REMOVE) so the game goes on
        without them and the round is not held up."""
        tournament_id = parse_tournament_id(tournament_id)
        if len(command.public_key) != PUBLIC_KEY_BYTES:
            raise MalformedCommand("public_key must be 32 bytes (raw Ed25519)")
        if command.signature:
            if not records.withdrawal_signed(command, tournament_id):
                raise MalformedCommand(
                    "signature is not the key's over 'cardroom.v1.tournament-withdrawal' || 0x00 "
                    "|| tournament_id (TN-LEAVE)"
                )
        else:
            self._check_organizer(
                tournament_id, token, "withdrawing a player without their signature"
            )
        with self._lock(tournament_id):
            stream = self._load(tournament_id)
            stream = self._execute(tournament_id, command, stream=stream)
            left = len(stream.state.active)
            held = self._seats_in_play(stream.state, command.public_key)
        for game_id, seat in held:
            self._leave_game(game_id, seat)
        return left

    @staticmethod
    def _seats_in_play(state: Tournament, key: bytes) -> list[tuple[str, int]]:
        """The player's seats at the current round's tables without a result."""
        current = state.current
        if current is None or current.completed:
            return []
        return [
            (table.game_id, table.seats.index(key))
            for table in current.tables
            if key in table.seats and table.number not in current.results and table.game_id
        ]

    def has_withdrawn(self, tournament_id: str, key: bytes) -> bool:
        return key in self.load(tournament_id).state.withdrawn

    def leave_withdrawn(self, game_id: str) -> None:
        """A tournament's game has just started: remove the seats of its
        players who withdrew while it waited for its other seats (TN-LEAVE),
        as a withdrawal removes them from a running game."""
        reservation = self.reserved(game_id)
        if reservation is None:
            return
        withdrawn = self.load(reservation.tournament_id).state.withdrawn
        for seat, key in enumerate(reservation.keys):
            if key in withdrawn:
                self._leave_game(game_id, seat)

    def _leave_game(self, game_id: str, seat: int) -> None:
        """Remove a withdrawn player's seat from a running game, as the
        operator (T-REMOVE). A game that has not started, has ended, or that
        the seat has left already is left to the table's rules; so is one
        the store would not take the removal for (the withdrawal stands)."""
        try:
            self._commands.execute(game_id, OPERATOR, tpb.RemoveSeat(seat=seat), "", None)
        except RuleViolation as refused:
            log.info("withdrawn seat %s of game %s stays: %s", seat, game_id, refused)
        except Exception:
            log.warning("withdrawn seat %s of game %s not removed", seat, game_id, exc_info=True)

    def start(self, tournament_id: str, token: str | None) -> Stream:
        """Close registration with a fresh committed seed, then pair round 1
        and create its games (TN-SEED, TN-DRAW)."""
        tournament_id = parse_tournament_id(tournament_id)
        self._check_organizer(tournament_id, token, "starting a tournament")
        with self._lock(tournament_id):
            stream = self._load(tournament_id)
            seed = self._new_seed()
            commitment = hashlib.sha256(seed).digest()
            stream = self._execute(
                tournament_id,
                tnpb.CloseRegistration(seed_commitment=commitment),
                seed=seed,
                stream=stream,
            )
            return self._advance(stream)

    # ------------------------------------------------------------- rounds

    def _advance(self, stream: Stream) -> Stream:
        """Record every finished game of the round, then pair the next round
        or finish, as far as the games allow (under the tournament's lock).
        Another server (PostgreSQL) may take a step first: the rules then
        refuse ours on the state read again (or, for a pairing, the append
        conflicts), and the loop goes on from the state read again."""
        for _ in range(ADVANCE_STEPS):
            try:
                return self._advance_once(stream)
            except (RuleViolation, VersionConflict):
                stream = self._load(stream.tournament_id)
        return stream

    def _advance_once(self, stream: Stream) -> Stream:
        while True:
            state = stream.state
            if state.finished or state.registration_open or not state.seed_commitment:
                return stream
            current = state.current
            if current is not None and not current.completed:
                before = stream.version
                for table in current.tables:
                    if table.number in current.results:
                        continue
                    ranks = self._ranks(table.game_id)
                    if ranks is not None:
                        command = tnpb.RecordGame(
                            round=current.number,
                            table=table.number,
                            game_id=table.game_id,
                            ranks=ranks,
                        )
                        stream = self._execute(stream.tournament_id, command, stream=stream)
                now = stream.state.current
                if stream.version == before or now is None or not now.completed:
                    return stream
                continue
            more = len(state.rounds) < state.planned_rounds
            if more and len(state.playing) >= state.table_size:
                stream = self._pair(stream)
            else:
                finish = tnpb.FinishTournament(seed=stream.seed)
                stream = self._execute(stream.tournament_id, finish, stream=stream)

    def _ranks(self, game_id: str) -> list[int] | None:
        """A finished game's ranks from its own events (as the audit
        derives them), or None while it runs."""
        loaded = self._cache.load(game_id)
        if not loaded.table.finished:
            loaded = self._cache.load(game_id, fresh=True)
            if not loaded.table.finished:
                return None
        try:
            envelopes = [epb.EventEnvelope.FromString(raw) for raw in list(loaded.stored)]
        except DecodeError:
            log.warning("game %s cannot be read; its result is not recorded", game_id)
            return None
        return game_ranks(envelopes)

    def _pair(self, stream: Stream) -> Stream:
        """Create the next round's games, hold their seats, then record the
        pairing. Each table's game id is derived (:func:`table_game_id`)
        and each hold repeats as a no-op, so servers pairing the same round
        at once create and hold the same games, and the one whose RoundPaired
        loses leaves nothing behind. The pairing is appended once, on the
        state it was drawn from: after a conflict ``_advance`` reads the
        state again and draws again (another server paired it, or a player
        withdrew in between)."""
        state = stream.state
        assert state.created is not None
        number = len(state.rounds) + 1
        drawn, _ = draw_round(state, stream.seed)
        options = state.created.options if state.created.HasField("options") else None
        created = state.created
        clock = created.table_options if created.HasField("table_options") else None
        game_ids = []
        for table, seats in enumerate(drawn.tables, 1):
            game_id = self._commands.create_game(
                state.created.kind,
                options,
                len(seats),
                spectator_policy=tpb.SpectatorPolicy(kind=tpb.SpectatorPolicy.KIND_PUBLIC),
                # Anyone may export a finished game: the tournament's audit needs them all.
                log_policy=tpb.LogPolicy(kind=tpb.LogPolicy.KIND_PUBLIC_AFTER_END),
                table_options=clock,  # TN-CLOCK
                game_id=table_game_id(stream.tournament_id, number, table),
            )
            for seat in range(len(seats)):
                self._hold(game_id, seat)
            game_ids.append(game_id)
            self._created()
        command = tnpb.PairRound(round=number, seed=stream.seed, game_ids=game_ids)
        return self._execute(stream.tournament_id, command, stream=stream, attempts=1)

    def _hold(self, game_id: str, seat: int) -> None:
        """Hold a tournament game's seat with the invitation only the
        server's key derives. Its command id makes a repeat (another server
        held it first, with the same key and so the same code) answer with
        the first hold instead of issuing another."""
        hold = tpb.IssueInvitation(seat=seat, code_sha256=token_hash(self.seat_code(game_id, seat)))
        self._commands.execute(game_id, OPERATOR, hold, f"{HOLD_COMMAND_ID}{seat}", None)

    # --------------------------------------------------------------- reads

    def view(self, tournament_id: str) -> tuple[tnpb.TournamentView, int]:
        self.follow_quietly()
        stream = self.load(tournament_id)
        return tournament_view(stream.state), stream.version

    def events_after(
        self, tournament_id: str, after: int
    ) -> tuple[list[tuple[int, any_pb2.Any, tnpb.TournamentView]], bool]:
        """Each public event after ``after`` with the tournament's view
        after it, and whether the tournament is finished."""
        tournament_id = parse_tournament_id(tournament_id)
        with self._lock(tournament_id):
            stored = list(self._load(tournament_id).stored)
        state = Tournament()
        out = []
        for sequence, raw in enumerate(stored, 1):
            public = epb.EventEnvelope.FromString(raw).event
            state = evolve(state, Event(unpack(public)))
            if sequence > after:
                out.append((sequence, public, tournament_view(state)))
        return out, state.finished

    def export(self, tournament_id: str) -> tuple[tnpb.TournamentRecord, list[str]]:
        stream = self.load(tournament_id)
        if not stream.state.finished:
            raise RuleViolation(
                "TN-SEED", "a tournament is exported once finished: until then its seed is secret"
            )
        record = records.export_record(stream.stored, self._signing_key())
        game_ids = [t.game_id for r in stream.state.rounds for t in r.tables]
        return record, game_ids

    # --------------------------------------------------------- reservations

    def _index(self, envelope: epb.EventEnvelope) -> None:
        paired = tnpb.RoundPaired()
        if envelope.event.Unpack(paired):
            for table in paired.tables:
                self._reserved[table.game_id] = Reservation(envelope.game_id, tuple(table.seats))
            self._open.add(envelope.game_id)
        elif envelope.event.TypeName() == CLOSED:
            self._open.add(envelope.game_id)
        elif envelope.event.TypeName() == DONE:
            self._open.discard(envelope.game_id)

    def _catch_up_index(self) -> None:
        with self._index_lock:
            while True:
                found = self._store.recorder.select_notifications(
                    start=self._indexed,
                    limit=BATCH,
                    topics=(PAIRED, CLOSED, DONE),
                    inclusive_of_start=False,
                )
                for notification in found:
                    self._index(epb.EventEnvelope.FromString(bytes(notification.state)))
                if found:
                    self._indexed = found[-1].id
                if len(found) < BATCH:
                    return

    def reserved(self, game_id: str) -> Reservation | None:
        """The keys a tournament game's seats are reserved for, or None when
        the game is no tournament's."""
        found = self._reserved.get(game_id)
        if found is None:
            self._catch_up_index()
            found = self._reserved.get(game_id)
        return found

    # ----------------------------------------------------------- following

    def nudge(self) -> None:
        """A game finished: follow, soon, in the background."""
        self._follower.nudge()

    def stop(self) -> None:
        self._follower.stop()

    def follow_quietly(self) -> None:
        """Catch up before a read; a failure is the follower's to report
        (the read answers from the store as it is)."""
        try:
            self.catch_up()
        except Exception:
            log.warning("following the tournaments' games failed", exc_info=True)

    def catch_up(self) -> None:
        """Read the games finished since the last call; advance the
        tournaments they belong to (all open ones, the first time)."""
        with self._following:
            self._catch_up_index()
            due: set[str] = set(self._open) if self._first_follow else set()
            self._first_follow = False
            head = self._store.recorder.max_notification_id() or 0
            while self._followed < head:
                found = self._store.recorder.select_notifications(
                    start=self._followed,
                    stop=head,
                    limit=BATCH,
                    topics=(FINISHED,),
                    inclusive_of_start=False,
                )
                for notification in found:
                    reservation = self._reserved.get(str(notification.originator_id))
                    if reservation is not None:
                        due.add(reservation.tournament_id)
                self._followed = found[-1].id if len(found) == BATCH else head
            for tournament_id in sorted(due):
                with self._lock(tournament_id):
                    self._advance(self._load(tournament_id))


def table_game_id(tournament_id: str, round_number: int, table: int) -> str:
    """The id of the game a tournament's table plays in a round: a UUID
    (version 5) of what every server reading the tournament agrees on, so
    that two servers pairing the same round create the same game, not two
    (docs/rules/tournaments.md, "How the server runs one"). CreateGame
    mints version 4 ids, so no request can take one first."""
    return str(uuid.uuid5(TABLE_GAMES, f"{tournament_id}/{round_number}/{table}"))


def parse_tournament_id(tournament_id: str) -> str:
    if not tournament_id:
        raise MalformedCommand("tournament_id is required")
    try:
        return parse_game_id(tournament_id)
    except MalformedCommand:
        raise MalformedCommand("tournament_id is not a UUID") from None
