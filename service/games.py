"""The use cases of cardroom: create, join, start, act, view, watch, audit.

A thin facade (like the eventsourcing examples' Application): it loads a
game's events, folds them through the pure table/game deciders, adds what
only the outside world knows (time, identity, chance outcomes) and appends
the resulting events. It holds no state that the events cannot rebuild: the
per-game cache is refreshed from the store before every decision.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from google.protobuf import any_pb2
from google.protobuf.message import Message

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
    MalformedCommand,
    Secret,
    Viewer,
)
from service.envelopes import (
    actor_of,
    command_record,
    redact,
    to_envelope,
    to_event,
    unpack,
)
from service.store import GameLog, VersionConflict

MAX_COMMAND_ID = 128
MAX_NAME = 64


class GameNotFound(LookupError):
    pass


class Unauthenticated(Exception):
    pass


class PermissionDenied(Exception):
    pass


class ExpectedVersionMismatch(Exception):
    pass


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def parse_game_id(game_id: str) -> str:
    try:
        return str(uuid.UUID(game_id))
    except ValueError:
        raise MalformedCommand(f"game_id {game_id!r} is not a UUID") from None


@dataclass
class LoadedGame:
    """A game's full stream and its folded table, as of ``version``."""

    envelopes: list[epb.EventEnvelope]
    table: tables.Table
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def version(self) -> int:
        return len(self.envelopes)


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
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        rng: random.Random | None = None,
    ) -> None:
        self.log = log
        self.operator_token = operator_token or None
        self.clock = clock
        self.rng = rng or secrets.SystemRandom()
        self._games: dict[str, LoadedGame] = {}
        self._games_lock = threading.Lock()
        self._catalog: dict[str, gpb.GameSummary] = {}
        self._catalog_cursor = 0

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
        if not token:
            return Caller(None, SPECTATOR)
        if self.is_operator(token):
            return Caller(OPERATOR, AUDITOR)
        seat = self._load(game_id).table.seat_of_token_hash(token_hash(token))
        if seat is None:
            raise Unauthenticated("the token is not a seat token of this game")
        return Caller(Actor.of_seat(seat), Viewer.of_seat(seat))

    def _seat_caller(self, game_id: str, token: str | None) -> Caller:
        if not token:
            raise Unauthenticated("this call needs a seat token")
        caller = self.caller(game_id, token)
        if caller.actor is None or caller.actor.kind != "seat":
            raise PermissionDenied("this call needs a seat token, not the operator token")
        return caller

    # ------------------------------------------------------------- loading

    def _load(self, game_id: str) -> LoadedGame:
        """The game brought up to date with the store (other processes may
        have written); raises GameNotFound."""
        game_id = parse_game_id(game_id)
        with self._games_lock:
            loaded = self._games.get(game_id)
        if loaded is None:
            envelopes = self.log.read(game_id)
            if not envelopes:
                raise GameNotFound(f"no game {game_id}")
            first = to_event(envelopes[0]).public
            assert isinstance(first, tpb.GameCreated)
            table = tables.initial(registry.game(first.kind), first)
            loaded = LoadedGame([], table)
            self._absorb(loaded, envelopes)
            with self._games_lock:
                loaded = self._games.setdefault(game_id, loaded)
        newer = self.log.read(game_id, after=loaded.version)
        if newer:
            with loaded.lock:
                self._absorb(loaded, [e for e in newer if e.sequence > loaded.version])
        return loaded

    @staticmethod
    def _absorb(loaded: LoadedGame, envelopes: Sequence[epb.EventEnvelope]) -> None:
        for envelope in envelopes:
            if envelope.sequence != loaded.version + 1:
                raise RuntimeError("event stream out of order")
            if envelope.sequence > 1:
                loaded.table = tables.evolve(loaded.table, to_event(envelope))
            loaded.envelopes.append(envelope)

    # ------------------------------------------------------------- writing

    def create_game(
        self,
        kind: str,
        options: any_pb2.Any | None,
        seat_count: int,
        set_deal: Sequence[any_pb2.Any] = (),
        token: str | None = None,
    ) -> str:
        try:
            game = registry.game(kind)
        except KeyError as error:
            raise MalformedCommand(str(error.args[0])) from None
        if set_deal and not self.is_operator(token):
            raise PermissionDenied("only the operator may create a game from a set deal")
        for outcome in set_deal:
            unpack(outcome)  # every outcome must at least decode
        created = tables.create(
            game, tables.unpack_options(game, options), seat_count, set_deal=bool(set_deal)
        )
        if set_deal:
            created = Event(
                created.public,
                (Secret(frozenset(), tpb.SetDeal(outcomes=list(set_deal))),),
            )
        game_id = str(uuid.uuid4())
        envelope = to_envelope(game_id, 1, self.clock(), created)
        self.log.append([envelope])
        return game_id

    def join(self, game_id: str, seat: int | None, player_name: str) -> tuple[int, str, int]:
        if len(player_name) > MAX_NAME:
            raise MalformedCommand(f"player_name is longer than {MAX_NAME} characters")
        token = secrets.token_urlsafe(32)
        command = tpb.TakeSeat(player_name=player_name, token_sha256=token_hash(token))
        if seat is not None:
            command.seat = seat
        version, events = self._execute(game_id, None, command, "", None)
        taken = to_event(events[0]).public
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
        caller = self._seat_caller(game_id, token)
        message = unpack(command)
        if isinstance(message, (tpb.TakeSeat, tpb.StartGame)):
            raise MalformedCommand("use JoinGame and StartGame for table commands")
        version, envelopes = self._execute(
            game_id, caller.actor, message, command_id, expected_version
        )
        return version, [redact(e, caller.viewer) for e in envelopes]

    def _execute(
        self,
        game_id: str,
        actor: Actor | None,
        command: Message,
        command_id: str,
        expected_version: int | None,
        attempts: int = 3,
    ) -> tuple[int, list[epb.EventEnvelope]]:
        """Decide, add chance outcomes, append. Returns the version after and
        the envelopes written (or, for a repeated command id, first written)."""
        for attempt in range(attempts):
            loaded = self._load(game_id)
            with loaded.lock:
                if command_id and actor is not None:
                    previous = self._previous_outcome(loaded, actor, command, command_id)
                    if previous is not None:
                        return previous
                if expected_version is not None and expected_version != loaded.version:
                    raise ExpectedVersionMismatch(
                        f"the game is at version {loaded.version}, not {expected_version}"
                    )
                envelopes = self._decide(loaded, actor, command, command_id)
                try:
                    self.log.append(envelopes)
                except VersionConflict:
                    if expected_version is not None or attempt == attempts - 1:
                        raise
                    continue
                self._absorb(loaded, envelopes)
                return loaded.version, envelopes
        raise AssertionError("unreachable")

    def _decide(
        self, loaded: LoadedGame, actor: Actor | None, command: Message, command_id: str
    ) -> list[epb.EventEnvelope]:
        game_id = loaded.envelopes[0].game_id
        now = self.clock()
        table = loaded.table
        envelopes: list[epb.EventEnvelope] = []

        def record(batch_actor: Actor, batch_command: Message, batch_id: str) -> None:
            nonlocal table
            events = tables.decide(table, batch_actor, batch_command)
            record_pb = command_record(batch_actor, batch_command, batch_id)
            for i, e in enumerate(events):
                sequence = loaded.version + len(envelopes) + 1
                envelopes.append(
                    to_envelope(game_id, sequence, now, e, record_pb if i == 0 else None)
                )
                table = tables.evolve(table, e)

        record(actor or GUEST, command, command_id)
        dealt = sum(
            1 for e in loaded.envelopes if e.HasField("command") and actor_of(e.command) == DEALER
        )
        while (needed := tables.chance_needed(table)) is not None:
            outcome = self._chance(loaded, table, needed, dealt)
            record(DEALER, outcome, "")
            dealt += 1
        return envelopes

    def _chance(
        self, loaded: LoadedGame, table: tables.Table, needed: type[Message], index: int
    ) -> Message:
        """The index-th chance outcome: from the set deal when it has one that
        fits and the rules accept, else a fresh secure random draw."""
        script = to_event(loaded.envelopes[0]).secret(tpb.SetDeal)
        if script is not None and index < len(script.outcomes):
            outcome = unpack(script.outcomes[index])
            if isinstance(outcome, needed):
                try:
                    tables.decide(table, DEALER, outcome)
                    return outcome
                except Exception:
                    pass
        return table.game.sample_chance(table.game_state, self.rng)

    @staticmethod
    def _previous_outcome(
        loaded: LoadedGame, actor: Actor, command: Message, command_id: str
    ) -> tuple[int, list[epb.EventEnvelope]] | None:
        """A command id seen before from this actor: the envelopes of that
        command's batch and the version right after it."""
        for index, envelope in enumerate(loaded.envelopes):
            if not envelope.HasField("command") or envelope.command.command_id != command_id:
                continue
            if actor_of(envelope.command) != actor:
                continue
            if unpack(envelope.command.command) != command:
                raise MalformedCommand(
                    f"command_id {command_id!r} was already used for a different command"
                )
            end = index + 1
            while end < len(loaded.envelopes):
                nxt = loaded.envelopes[end]
                if nxt.HasField("command") and actor_of(nxt.command) != DEALER:
                    break
                end += 1
            return end, loaded.envelopes[index:end]
        return None

    # ------------------------------------------------------------- reading

    def events_for(
        self, game_id: str, viewer: Viewer, after: int = 0, upto: int | None = None
    ) -> list[epb.EventEnvelope]:
        loaded = self._load(game_id)
        envelopes = loaded.envelopes[after : upto if upto is not None else None]
        return [redact(e, viewer) for e in envelopes]

    def fold_for(self, game_id: str, viewer: Viewer, upto: int | None = None) -> tables.Table:
        """The viewer's state, folded from the viewer's own redacted stream."""
        loaded = self._load(game_id)
        if upto is not None and not 1 <= upto <= loaded.version:
            raise MalformedCommand(f"version must be between 1 and {loaded.version}")
        stream = self.events_for(game_id, viewer, 0, upto)
        return tables.replay(loaded.table.game, [to_event(e) for e in stream])

    def view(self, game_id: str, token: str | None, version: int | None) -> gpb.GetViewResponse:
        caller = self.caller(game_id, token)
        table = self.fold_for(game_id, caller.viewer, version)
        upto = version if version is not None else self._load(game_id).version
        response = gpb.GetViewResponse(
            version=upto,
            viewer_kind={
                "seat": gpb.VIEWER_KIND_SEAT,
                "spectator": gpb.VIEWER_KIND_SPECTATOR,
                "auditor": gpb.VIEWER_KIND_AUDITOR,
            }[caller.viewer.kind],
            seat=caller.viewer.seat or 0,
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
        response.game.Pack(tables.view(table, caller.viewer))
        return response

    def legal_actions(self, game_id: str, token: str | None) -> tuple[int, list[Message]]:
        caller = self._seat_caller(game_id, token)
        assert caller.viewer.seat is not None
        version = self._load(game_id).version
        table = self.fold_for(game_id, caller.viewer, version)
        return version, tables.legal_actions(table, caller.viewer.seat)

    def audit_log(self, game_id: str, token: str | None) -> list[epb.EventEnvelope]:
        loaded = self._load(game_id)
        if not (loaded.table.finished or self.is_operator(token)):
            raise PermissionDenied(
                "the full log is open once the game is finished, or to the operator"
            )
        return list(loaded.envelopes)

    def is_finished(self, game_id: str) -> bool:
        return self._load(game_id).table.finished

    def version(self, game_id: str) -> int:
        return self._load(game_id).version

    def list_games(self) -> list[gpb.GameSummary]:
        """Public facts of every game, kept current from the notification log
        (so games written by other processes appear too)."""
        with self._games_lock:
            for n in self.log.notifications(after=self._catalog_cursor):
                self._catalog_cursor = n.id
                game_id = str(n.originator_id)
                if n.topic == tpb.GameCreated.DESCRIPTOR.full_name:
                    created = to_event(epb.EventEnvelope.FromString(n.state)).public
                    assert isinstance(created, tpb.GameCreated)
                    self._catalog[game_id] = gpb.GameSummary(
                        game_id=game_id, kind=created.kind, seat_count=created.seat_count
                    )
                summary = self._catalog.get(game_id)
                if summary is None:
                    continue
                summary.version = n.originator_version
                if n.topic == tpb.SeatTaken.DESCRIPTOR.full_name:
                    summary.seats_taken += 1
                elif n.topic == tpb.GameStarted.DESCRIPTOR.full_name:
                    summary.started = True
                elif n.topic == tpb.GameFinished.DESCRIPTOR.full_name:
                    summary.finished = True
            return [gpb.GameSummary(**_fields(s)) for s in self._catalog.values()]


def _fields(summary: gpb.GameSummary) -> dict[str, Any]:
    return {f.name: v for f, v in summary.ListFields()}
