"""The use cases of cardroom: create, join, start, act, view, watch, audit.

A thin facade (like the eventsourcing examples' Application): it loads a
game's events, folds them through the pure table/game deciders, adds what
only the outside world knows (time, identity, chance outcomes) and appends
the resulting events, sealed and hash-chained (docs/trust.md). It holds no
state that the events cannot rebuild: the per-game cache is refreshed from
the store before every decision.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from google.protobuf import any_pb2
from google.protobuf.message import DecodeError, Message

from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import trust_pb2 as trpb
from domain import registry
from domain import table as tables
from domain.kernel import (
    AUDITOR,
    DEALER,
    GUEST,
    OPERATOR,
    SPECTATOR,
    Actor,
    Event,
    Game,
    MalformedCommand,
    Reveal,
    RuleViolation,
    Secret,
    Viewer,
    quote,
)
from domain.table import pack
from service.envelopes import actor_of, command_record, to_envelope, to_event, unpack
from service.game_list import GameList
from service.store import GameLog, VersionConflict, bounded, is_store_failure
from service.trust import chain, chance, commitments, drbg, record, signing

MAX_COMMAND_ID = 128
MAX_NAME = 64
Policy = tpb.SpectatorPolicy
LogPolicy = tpb.LogPolicy


class GameNotFound(LookupError):
    pass


class Unauthenticated(Exception):
    pass


class PermissionDenied(Exception):
    pass


class ExpectedVersionMismatch(Exception):
    pass


class CorruptGame(Exception):
    """The stored stream cannot be folded: it was changed outside the
    service (``cardroom audit`` says how)."""


@contextmanager
def unfoldable(game_id: str, envelope: epb.EventEnvelope) -> Iterator[None]:
    """Any failure to read or fold a stored event makes its game CorruptGame
    (DATA_LOSS), naming the game and the event; other games keep serving."""
    try:
        yield
    except CorruptGame:
        raise
    except Exception as error:
        if is_store_failure(error):
            raise
        kind = envelope.event.type_url.rpartition("/")[2] or "?"
        detail = bounded(str(error) or type(error).__name__, 200)
        raise CorruptGame(
            f"game {game_id}: stored event {envelope.sequence} ({kind}) cannot be folded: "
            f"{detail}; `cardroom audit` tells more"
        ) from None


def _first(game_id: str, created_envelope: epb.EventEnvelope) -> LoadedGame:
    """An empty LoadedGame for a stream starting with ``created_envelope``."""
    with unfoldable(game_id, created_envelope):
        created = to_event(created_envelope).public
        if not isinstance(created, tpb.GameCreated):
            raise CorruptGame(f"game {game_id} does not start with GameCreated")
        if not 0 < created.seat_count <= tables.MAX_SEATS:
            raise ValueError(f"seat_count {created.seat_count} is out of range")
        table = tables.initial(registry.game(created.kind), created)
    return LoadedGame([], [], table, created)


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def parse_game_id(game_id: str) -> str:
    try:
        return str(uuid.UUID(game_id))
    except ValueError:
        raise MalformedCommand(f"game_id {quote(game_id)} is not a UUID") from None


@dataclass
class LoadedGame:
    """A game's full stream (sealed envelopes and their exact stored bytes)
    and its folded table, as of ``version``."""

    envelopes: list[epb.EventEnvelope]
    stored: list[bytes]
    table: tables.Table
    created: tpb.GameCreated
    lock: threading.Lock = field(default_factory=threading.Lock)
    # Each viewer's latest fold of its own copies: (version, state). A cache,
    # rebuilt from the events whenever it is missing.
    folds: dict[Viewer, tuple[int, tables.Table]] = field(default_factory=dict)

    @property
    def version(self) -> int:
        return len(self.envelopes)

    @property
    def game_id(self) -> str:
        return self.envelopes[0].game_id if self.envelopes else ""

    @property
    def finished(self) -> bool:
        return self.table.finished

    @property
    def policy(self) -> tpb.SpectatorPolicy:
        return self.created.spectator_policy

    @property
    def log_is_public(self) -> bool:
        """Whether anyone may read the full log once the game is over."""
        return self.created.log_policy.kind == LogPolicy.KIND_PUBLIC_AFTER_END


@dataclass(frozen=True)
class Caller:
    """Who is calling, as far as one game is concerned."""

    actor: Actor | None  # None for a spectator
    viewer: Viewer


class Games:
    def __init__(
        self,
        log: GameLog,
        *,
        operator_token: str | None = None,
        signing_key: Ed25519PrivateKey | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        new_seed: Callable[[], bytes] = drbg.new_seed,
    ) -> None:
        self.log = log
        self.operator_token = operator_token or None
        self.signing_key = signing_key or Ed25519PrivateKey.generate()
        self.clock = clock
        self.new_seed = new_seed
        self._games: dict[str, LoadedGame] = {}
        self._games_lock = threading.Lock()
        self.game_list = GameList(log)

    # ------------------------------------------------------------ identity

    def is_operator(self, token: str | None) -> bool:
        return bool(
            token
            and self.operator_token
            and hmac.compare_digest(token.encode(), self.operator_token.encode())
        )

    def caller(self, game_id: str, token: str | None) -> Caller:
        """Resolve a bearer token against one game: its seat, the operator, or
        (no token) a spectator. A token that is neither is refused."""
        return self._caller(self._load(game_id), token)

    def _caller(self, loaded: LoadedGame, token: str | None) -> Caller:
        if not token:
            return Caller(None, SPECTATOR)
        if self.is_operator(token):
            return Caller(OPERATOR, AUDITOR)
        seat = loaded.table.seat_of_token_hash(token_hash(token))
        if seat is None:
            raise Unauthenticated("the token is not a seat token of this game")
        return Caller(Actor.of_seat(seat), Viewer.of_seat(seat))

    def _seat_caller(self, loaded: LoadedGame, token: str | None) -> Caller:
        if not token:
            raise Unauthenticated("this call needs a seat token")
        caller = self._caller(loaded, token)
        if caller.actor is None or caller.actor.kind != "seat":
            raise PermissionDenied("this call needs a seat token, not the operator token")
        return caller

    def viewer(self, loaded: LoadedGame, token: str | None, as_spectator: bool = False) -> Viewer:
        """The viewer a read is computed for, after the spectator policy.

        A seat asking for the spectators' view of its own game is refused (no
        ghosting); the operator asking for it gets exactly what spectators get.
        """
        caller = self._caller(loaded, token)
        if as_spectator:
            if caller.viewer.kind == "seat":
                raise PermissionDenied(
                    "no ghosting: a seated player cannot watch its own game as a spectator"
                )
            caller = Caller(None, SPECTATOR)
        if (
            caller.viewer.kind == "spectator"
            and loaded.finished
            and loaded.policy.kind == Policy.KIND_OMNISCIENT_AFTER_END
        ):
            return AUDITOR
        return caller.viewer

    @staticmethod
    def horizon(loaded: LoadedGame, viewer: Viewer) -> int:
        """How many events the viewer may see now (the spectator delay)."""
        if (
            viewer.kind == "spectator"
            and loaded.policy.kind == Policy.KIND_DELAYED
            and not loaded.finished
        ):
            return max(0, loaded.version - loaded.policy.delay_events)
        return loaded.version

    # ------------------------------------------------------------- loading

    def _load(self, game_id: str) -> LoadedGame:
        """The game brought up to date with the store (other processes may
        have written); raises GameNotFound, or CorruptGame for a stream
        changed outside the service."""
        return self._load_from_store(parse_game_id(game_id))

    def _load_from_store(self, game_id: str) -> LoadedGame:
        with self._games_lock:
            loaded = self._games.get(game_id)
        if loaded is None:
            rows = self._read(game_id)
            if not rows:
                raise GameNotFound(f"no game {game_id}")
            fresh = _first(game_id, rows[0][0])
            self._absorb(fresh, rows)
            with self._games_lock:
                loaded = self._games.setdefault(game_id, fresh)
            if loaded is fresh:
                return loaded
        newer = self._read(game_id, after=loaded.version)
        if newer:
            with loaded.lock:
                self._absorb(loaded, [(e, raw) for e, raw in newer if e.sequence > loaded.version])
        return loaded

    def _read(self, game_id: str, after: int = 0) -> list[tuple[epb.EventEnvelope, bytes]]:
        try:
            return self.log.read(game_id, after=after)
        except DecodeError as error:
            raise CorruptGame(f"game {game_id}: a stored event cannot be read: {error}") from None

    @staticmethod
    def _absorb(loaded: LoadedGame, rows: Sequence[tuple[epb.EventEnvelope, bytes]]) -> None:
        # Readers do not take the lock: the stored bytes go in before their
        # envelope, and the envelope before the table that folds it, so a
        # read never reaches an envelope without its bytes, nor sees the game
        # finished before its last event is there to serve.
        for envelope, raw in rows:
            if envelope.sequence != loaded.version + 1:
                raise CorruptGame(
                    f"game {loaded.game_id or '?'}: event "
                    f"{envelope.sequence} where {loaded.version + 1} belongs"
                )
            table = loaded.table
            if envelope.sequence > 1:
                with unfoldable(loaded.game_id, envelope):
                    table = tables.evolve(table, to_event(envelope))
            loaded.stored.append(raw)
            loaded.envelopes.append(envelope)
            loaded.table = table

    def games_in_memory(self) -> int:
        return len(self._games)

    def kind_of(self, game_id: str) -> str:
        """The kind of a game in memory (for metrics), without loading it."""
        with self._games_lock:
            loaded = self._games.get(game_id)
        return loaded.table.kind if loaded is not None else "unknown"

    # ------------------------------------------------------------- writing

    def create_game(
        self,
        kind: str,
        options: any_pb2.Any | None,
        seat_count: int,
        set_deal: Sequence[any_pb2.Any] = (),
        token: str | None = None,
        spectator_policy: tpb.SpectatorPolicy | None = None,
        log_policy: tpb.LogPolicy | None = None,
    ) -> str:
        try:
            game = registry.game(kind)
        except KeyError as error:
            raise MalformedCommand(str(error.args[0])) from None
        if set_deal and not self.is_operator(token):
            raise PermissionDenied("only the operator may create a game from a set deal")
        policy = _checked_policy(spectator_policy)
        full_log = _checked_log_policy(log_policy)
        options_message = tables.unpack_options(game, options)
        created = tables.create(game, options_message, seat_count, set_deal=bool(set_deal))
        assert isinstance(created.public, tpb.GameCreated)
        created.public.spectator_policy.CopyFrom(policy)
        created.public.log_policy.CopyFrom(full_log)
        outcomes = _checked_set_deal(game, created.public, set_deal)
        hidden: list[Secret] = []
        if set_deal:
            hidden.append(Secret(frozenset(), tpb.SetDeal(outcomes=[pack(o) for o in outcomes])))
        # The seed of every chance outcome: committed now, opened at the end.
        hidden.append(chance.seed_secret(self.new_seed()))
        game_id = str(uuid.uuid4())
        envelope = to_envelope(game_id, 1, self.clock(), Event(created.public, tuple(hidden)))
        commitments.seal_envelope(envelope)
        self.log.append([envelope], chain.link([envelope], chain.ZERO_HASH))
        return game_id

    def join(self, game_id: str, seat: int | None, player_name: str) -> tuple[int, str, int]:
        if len(player_name) > MAX_NAME:
            raise MalformedCommand(f"player_name is longer than {MAX_NAME} characters")
        # Prefixed: says what it is, and never starts with "-" (a command-line flag).
        token = "seat_" + secrets.token_urlsafe(32)
        command = tpb.TakeSeat(player_name=player_name, token_sha256=token_hash(token))
        if seat is not None:
            command.seat = seat
        version, batch = self._execute(game_id, GUEST, command, "", None)
        taken = to_event(batch[0][0]).public
        assert isinstance(taken, tpb.SeatTaken)
        return taken.seat, token, version

    def start(self, game_id: str, token: str | None) -> int:
        if not token:
            raise Unauthenticated("starting a game needs a seat token or the operator token")
        caller = self.caller(game_id, token)
        assert caller.actor is not None
        version, _ = self._execute(game_id, caller.actor, tpb.StartGame(), "", None)
        return version

    def submit(
        self,
        game_id: str,
        token: str | None,
        command: any_pb2.Any,
        command_id: str,
        expected_version: int | None,
    ) -> tuple[int, list[epb.EventEnvelope]]:
        if not command_id or len(command_id) > MAX_COMMAND_ID:
            raise MalformedCommand(f"command_id must be 1 to {MAX_COMMAND_ID} characters")
        if not command.type_url:
            raise MalformedCommand("command is required")
        loaded = self._load(game_id)
        caller = self._seat_caller(loaded, token)
        message = unpack(command, "command")
        if isinstance(message, (tpb.TakeSeat, tpb.StartGame)):
            raise MalformedCommand("use JoinGame and StartGame for table commands")
        assert caller.actor is not None
        version, batch = self._execute(
            game_id, caller.actor, message, command_id, expected_version, loaded
        )
        return version, [self._serve(e, raw, caller.viewer, loaded) for e, raw in batch]

    def _execute(
        self,
        game_id: str,
        actor: Actor,
        command: Message,
        command_id: str,
        expected_version: int | None,
        loaded: LoadedGame | None = None,
        attempts: int = 3,
    ) -> tuple[int, list[tuple[epb.EventEnvelope, bytes]]]:
        """Decide, add chance outcomes, seal, chain, append. Returns the
        version after and the batch written (or, for a repeated command id,
        the batch first written). A game just loaded by the caller is used
        as it is: if another process wrote since, the append conflicts and
        the next attempt reloads."""
        for attempt in range(attempts):
            if loaded is None or attempt > 0:
                loaded = self._load(game_id)
            with loaded.lock:
                if command_id:
                    previous = self._previous_outcome(loaded, actor, command, command_id)
                    if previous is not None:
                        return previous
                if expected_version is not None and expected_version != loaded.version:
                    raise ExpectedVersionMismatch(
                        f"the game is at version {loaded.version}, not {expected_version}"
                    )
                envelopes = self._decide(loaded, actor, command, command_id)
                stored = chain.link(envelopes, chain.chain_head(loaded.stored))
                try:
                    self.log.append(envelopes, stored)
                except VersionConflict:
                    if expected_version is not None or attempt == attempts - 1:
                        raise
                    continue
                batch = list(zip(envelopes, stored, strict=True))
                self._absorb(loaded, batch)
                return loaded.version, batch
        raise AssertionError("unreachable")

    def _decide(
        self, loaded: LoadedGame, actor: Actor, command: Message, command_id: str
    ) -> list[epb.EventEnvelope]:
        now = self.clock()
        table = loaded.table
        envelopes: list[epb.EventEnvelope] = []

        def record_batch(batch_actor: Actor, batch_command: Message, batch_id: str) -> None:
            nonlocal table
            events = tables.decide(table, batch_actor, batch_command)
            record_pb = command_record(batch_actor, batch_command, batch_id)
            for i, e in enumerate(events):
                sequence = loaded.version + len(envelopes) + 1
                envelope = to_envelope(
                    loaded.game_id, sequence, now, e, record_pb if i == 0 else None
                )
                commitments.seal_envelope(envelope)
                self._attach_reveals(table, [*loaded.envelopes, *envelopes], e, envelope)
                envelopes.append(envelope)
                table = tables.evolve(table, e)

        record_batch(actor, command, command_id)
        created = loaded.envelopes[0]
        seed = chance.seed_of(created)
        assert seed is not None, "every game commits to a chance seed at creation"
        script = chance.set_deal_of(created)
        dealt = sum(
            1
            for e in [*loaded.envelopes, *envelopes]
            if e.HasField("command") and actor_of(e.command) == DEALER
        )
        while tables.chance_needed(table) is not None:
            outcome = chance.chance_outcome(
                table, dealt, seed=seed, game_id=loaded.game_id, set_deal=script
            )
            record_batch(DEALER, outcome, "")
            dealt += 1
        return envelopes

    @staticmethod
    def _attach_reveals(
        table: tables.Table,
        history: Sequence[epb.EventEnvelope],
        e: Event,
        envelope: epb.EventEnvelope,
    ) -> None:
        """Open the earlier secrets this event shows (see kernel.Reveal)."""
        reveals: Callable[[Event], list[Reveal]] | None = getattr(table.game, "reveals", None)
        for reveal in reveals(e) if reveals else ():
            found = _latest_secret(history, reveal)
            if found is None:
                continue
            earlier, index = found
            if reveal.audience is None:
                envelope.openings.append(commitments.open_secret(earlier, index))
            else:
                envelope.secrets.append(commitments.disclose(earlier, index, reveal.audience))

    @staticmethod
    def _previous_outcome(
        loaded: LoadedGame, actor: Actor, command: Message, command_id: str
    ) -> tuple[int, list[tuple[epb.EventEnvelope, bytes]]] | None:
        """A command id seen before from this actor: the batch of that
        command and the version right after it."""
        for index, envelope in enumerate(loaded.envelopes):
            if not envelope.HasField("command") or envelope.command.command_id != command_id:
                continue
            if actor_of(envelope.command) != actor:
                continue
            if unpack(envelope.command.command) != command:
                raise MalformedCommand(
                    f"command_id {quote(command_id)} was already used for a different command"
                )
            end = index + 1
            while end < len(loaded.envelopes):
                following = loaded.envelopes[end]
                if following.HasField("command") and actor_of(following.command) != DEALER:
                    break
                end += 1
            return end, list(
                zip(loaded.envelopes[index:end], loaded.stored[index:end], strict=True)
            )
        return None

    # ------------------------------------------------------------- reading

    def _serve(
        self, envelope: epb.EventEnvelope, raw: bytes, viewer: Viewer, loaded: LoadedGame
    ) -> epb.EventEnvelope:
        """The viewer's copy of one stored event, with its event hash. While
        the game runs, even auditors get only the seed's digest: the seed
        would tell every future deal."""
        copy = commitments.redact(envelope, viewer)
        if viewer.kind == "auditor" and not loaded.finished and envelope.sequence == 1:
            copy = _withhold_seed(copy)
        return chain.served(copy, raw)

    def copies(
        self, loaded: LoadedGame, viewer: Viewer, after: int = 0, upto: int | None = None
    ) -> list[epb.EventEnvelope]:
        """The viewer's copies of events after..upto, within its horizon."""
        end = min(self.horizon(loaded, viewer), upto if upto is not None else loaded.version)
        return [
            self._serve(e, raw, viewer, loaded)
            for e, raw in zip(loaded.envelopes[after:end], loaded.stored[after:end], strict=True)
        ]

    def events_for(
        self, game_id: str, token: str | None, after: int, as_spectator: bool = False
    ) -> tuple[list[epb.EventEnvelope], bool]:
        """The caller's events after a cursor, and whether nothing more will come."""
        loaded = self._load(game_id)
        viewer = self.viewer(loaded, token, as_spectator)
        events = self.copies(loaded, viewer, after)
        done = loaded.finished and (events[-1].sequence if events else after) >= loaded.version
        return events, done

    def check_viewer(self, game_id: str, token: str | None, as_spectator: bool = False) -> None:
        """Raise now if the caller may not read this game at all."""
        self.viewer(self._load(game_id), token, as_spectator)

    def view(
        self, game_id: str, token: str | None, version: int | None, as_spectator: bool = False
    ) -> gpb.GetViewResponse:
        loaded = self._load(game_id)
        viewer = self.viewer(loaded, token, as_spectator)
        visible = self.horizon(loaded, viewer)
        if version is not None and not 1 <= version <= visible:
            if visible < loaded.version:
                raise RuleViolation(
                    "T-SPECTATORS",
                    f"spectators of this game stay {loaded.policy.delay_events} events behind",
                )
            raise MalformedCommand(f"version must be between 1 and {visible}")
        upto = version if version is not None else visible
        if upto < 1:
            raise RuleViolation(
                "T-SPECTATORS",
                f"spectators of this game stay {loaded.policy.delay_events} events behind",
            )
        return _view_response(self._fold(loaded, viewer, upto), viewer, upto)

    def replay_views(
        self, game_id: str, token: str | None, from_version: int, as_spectator: bool = False
    ) -> Iterator[gpb.ReplayViewsResponse]:
        """The caller's view after each event in turn, folded once and made
        step by step as the iterator is read (the caller is checked now)."""
        loaded = self._load(game_id)
        viewer = self.viewer(loaded, token, as_spectator)
        end = self.horizon(loaded, viewer)
        return self._replay(loaded, viewer, max(1, from_version), end)

    def _replay(
        self, loaded: LoadedGame, viewer: Viewer, first: int, end: int
    ) -> Iterator[gpb.ReplayViewsResponse]:
        table = tables.initial(loaded.table.game, loaded.created)
        for index in range(end):
            envelope = self._serve(loaded.envelopes[index], loaded.stored[index], viewer, loaded)
            if envelope.sequence > 1:
                with unfoldable(loaded.game_id, envelope):
                    table = tables.evolve(table, to_event(envelope))
            if envelope.sequence >= first:
                yield gpb.ReplayViewsResponse(
                    view=_view_response(table, viewer, envelope.sequence), event=envelope
                )

    def legal_actions(self, game_id: str, token: str | None) -> tuple[int, list[Message]]:
        loaded = self._load(game_id)
        caller = self._seat_caller(loaded, token)
        assert caller.viewer.seat is not None
        version = self.horizon(loaded, caller.viewer)
        table = self._fold(loaded, caller.viewer, version)
        return version, tables.legal_actions(table, caller.viewer.seat)

    def _fold(self, loaded: LoadedGame, viewer: Viewer, upto: int) -> tables.Table:
        """The viewer's state after ``upto`` events, folded from its own
        redacted copies; continues from the viewer's cached fold if it can."""
        with loaded.lock:
            cached = loaded.folds.get(viewer)
        if cached is not None and cached[0] <= upto:
            start, table = cached
        else:
            start, table = 1, tables.initial(loaded.table.game, loaded.created)
        for envelope in self.copies(loaded, viewer, start, upto):
            with unfoldable(loaded.game_id, envelope):
                table = tables.evolve(table, to_event(envelope))
        with loaded.lock:
            if viewer not in loaded.folds or loaded.folds[viewer][0] <= upto:
                loaded.folds[viewer] = (upto, table)
        return table

    def _check_full_log_reader(self, loaded: LoadedGame, token: str | None) -> None:
        """The full log is the operator's at any time; once the game is over
        it is also its seats' (or anyone's, under the public log policy)."""
        if self.is_operator(token):
            return
        if not loaded.finished:
            raise RuleViolation(
                "T-LOG", "the full log opens once the game is over (the operator may read it now)"
            )
        if loaded.log_is_public:
            return
        if not token:
            raise Unauthenticated(
                "this game's full log is for its seats and the operator: "
                "pass a seat token or the operator token"
            )
        self._seat_caller(loaded, token)

    def audit_log(self, game_id: str, token: str | None) -> list[epb.EventEnvelope]:
        loaded = self._load(game_id)
        self._check_full_log_reader(loaded, token)
        return self.copies(loaded, AUDITOR)

    def export_record(self, game_id: str, token: str | None) -> trpb.GameRecord:
        loaded = self._load(game_id)
        if not loaded.finished:
            raise RuleViolation("T-LOG", "only a finished game can be exported")
        self._check_full_log_reader(loaded, token)
        return record.export_record(loaded.stored, self.signing_key)

    def server_key(self) -> gpb.GetServerKeyResponse:
        public = signing.public_key_bytes(self.signing_key)
        return gpb.GetServerKeyResponse(public_key=public, fingerprint=signing.fingerprint(public))

    def version(self, game_id: str) -> int:
        return self._load(game_id).version

    def list_games(self, request: gpb.ListGamesRequest) -> gpb.ListGamesResponse:
        return self.game_list.page(request)


def _checked_policy(policy: tpb.SpectatorPolicy | None) -> tpb.SpectatorPolicy:
    checked = tpb.SpectatorPolicy(kind=Policy.KIND_PUBLIC)
    if policy is None or policy.kind == Policy.KIND_UNSPECIFIED:
        if policy is not None and policy.delay_events:
            raise MalformedCommand("delay_events needs the KIND_DELAYED spectator policy")
        return checked
    if policy.kind not in Policy.Kind.values():
        raise MalformedCommand(f"unknown spectator policy {policy.kind}")
    if policy.kind == Policy.KIND_DELAYED and policy.delay_events < 1:
        raise MalformedCommand("a delayed spectator policy needs delay_events >= 1")
    if policy.kind != Policy.KIND_DELAYED and policy.delay_events:
        raise MalformedCommand("delay_events needs the KIND_DELAYED spectator policy")
    checked.kind = policy.kind
    checked.delay_events = policy.delay_events
    return checked


def _checked_set_deal(
    game: Game[Any], created: tpb.GameCreated, set_deal: Sequence[any_pb2.Any]
) -> list[Message]:
    """Each outcome decoded exactly and of one of the game's chance types;
    the first also played against the game as it starts, since nothing can
    change what it meets there. Later outcomes are checked when needed."""
    outcomes: list[Message] = []
    for index, packed in enumerate(set_deal):
        outcome = unpack(packed, f"set_deal[{index}]")
        if not isinstance(outcome, game.chance_types):
            names = ", ".join(t.DESCRIPTOR.full_name for t in game.chance_types)
            raise MalformedCommand(
                f"set_deal[{index}] is a {outcome.DESCRIPTOR.full_name}; a {game.kind} set deal "
                f"holds only {names}"
            )
        outcomes.append(outcome)
    if outcomes:
        table = replace(tables.initial(game, created), started=True)
        needed = tables.chance_needed(table)
        if needed is not None:
            try:
                chance.set_deal_outcome(table, 0, pack(outcomes[0]), needed)
            except chance.SetDealMismatch as error:
                raise MalformedCommand(
                    f"set_deal[0] ({error.outcome}) does not fit the game as it starts: {error.why}"
                ) from None
    return outcomes


def _checked_log_policy(policy: tpb.LogPolicy | None) -> tpb.LogPolicy:
    if policy is None or policy.kind == LogPolicy.KIND_UNSPECIFIED:
        return tpb.LogPolicy(kind=LogPolicy.KIND_PLAYERS)
    if policy.kind not in LogPolicy.Kind.values():
        raise MalformedCommand(f"log_policy: unknown kind {policy.kind}")
    return tpb.LogPolicy(kind=policy.kind)


def _withhold_seed(envelope: epb.EventEnvelope) -> epb.EventEnvelope:
    index = chance.seed_index(envelope)
    if index is None:
        return envelope
    copy = epb.EventEnvelope()
    copy.CopyFrom(envelope)
    secret = copy.secrets[index]
    secret.ClearField("value")
    secret.ClearField("salt")
    return copy


def _latest_secret(
    history: Sequence[epb.EventEnvelope], reveal: Reveal
) -> tuple[epb.EventEnvelope, int] | None:
    for envelope in reversed(history):
        for index, secret in enumerate(envelope.secrets):
            if (
                secret.HasField("value")
                and commitments.holds(secret.value, reveal.kind)
                and reveal.match(unpack(secret.value))
            ):
                return envelope, index
    return None


def _view_response(table: tables.Table, viewer: Viewer, version: int) -> gpb.GetViewResponse:
    response = gpb.GetViewResponse(
        version=version,
        viewer_kind={
            "seat": gpb.VIEWER_KIND_SEAT,
            "spectator": gpb.VIEWER_KIND_SPECTATOR,
            "auditor": gpb.VIEWER_KIND_AUDITOR,
        }[viewer.kind],
        seat=viewer.seat or 0,
        table=gpb.TableView(
            kind=table.kind,
            seat_count=table.seat_count,
            player_names=[n or "" for n in table.player_names],
            started=table.started,
            finished=table.finished,
            winners=table.winners,
            set_deal=table.set_deal,
        ),
    )
    response.game.Pack(tables.view(table, viewer))
    return response
