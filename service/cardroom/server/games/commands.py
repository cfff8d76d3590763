"""Writing: create, join, start and submit. Each command is decided by the
pure rules on the cached game, completed with what only the service knows
(time, identity, chance outcomes), sealed, hash-chained and appended in one
batch (docs/trust.md). Nothing here walks a game's history: the command-id
index, the dealer's count and the secrets by type are kept by the cache."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from google.protobuf import any_pb2
from google.protobuf.message import Message

from cardroom.client.bots import BOT_KINDS, bot_kinds_for
from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import (
    DEALER,
    GUEST,
    OPERATOR,
    Actor,
    Event,
    Forbidden,
    Game,
    MalformedCommand,
    Reveal,
    RuleViolation,
    Secret,
    quote,
)
from cardroom.domain.table import pack
from cardroom.server.errors import ExpectedVersionMismatch, PermissionDenied, Unauthenticated
from cardroom.server.games.identity import Identity, token_hash
from cardroom.server.storage.cache import GameCache, LoadedGame
from cardroom.server.storage.log import GameLog, VersionConflict
from cardroom.server.table.deadlines import check_absent_time, check_deadline
from cardroom.trust import chain, chance, commitments, players
from cardroom.trust.envelopes import command_record, to_envelope, to_event, unpack
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb

# A command refused on a cache that may be behind is decided again on the
# store's current state before the refusal is final.
REFUSALS = (RuleViolation, MalformedCommand, Forbidden, ExpectedVersionMismatch)
MAX_COMMAND_ID = 128
MAX_NAME = 64
Policy = tpb.SpectatorPolicy
LogPolicy = tpb.LogPolicy
Batch = list[tuple[epb.EventEnvelope, bytes]]


class GameIdTaken(Exception):
    """A fixed game id (create_game) names a stored game that is another
    table's: never expected, as only the server fixes ids."""


class Commands:
    def __init__(
        self,
        store: GameLog,
        cache: GameCache,
        identity: Identity,
        *,
        clock: Callable[[], datetime],
        new_seed: Callable[[], bytes],
        written: Callable[[LoadedGame, int], None] = lambda loaded, first: None,
        bot_key: bytes = b"",
    ) -> None:
        self.store = store
        # Derives the token of each seat a server-side bot plays (AddBot), so
        # the server can pick its bots up again from the events alone.
        self.bot_key = bot_key or secrets.token_bytes(32)
        self.cache = cache
        self.identity = identity
        self.clock = clock
        self.new_seed = new_seed
        # Told after each batch is stored and absorbed, with the index of its
        # first event (the live feeds, the publisher).
        self.written = written
        # The server's table limits, recorded in each new game's TableOptions
        # where the request leaves them 0 (T-LENGTH, T-TIMEOUTS); 0: none.
        self.max_game_events = 0
        self.resign_after_timeouts = 0
        self.end_when_absent_seconds = 0

    # ------------------------------------------------------------ create

    def create_game(
        self,
        kind: str,
        options: any_pb2.Any | None,
        seat_count: int,
        set_deal: Sequence[any_pb2.Any] = (),
        token: str | None = None,
        spectator_policy: tpb.SpectatorPolicy | None = None,
        log_policy: tpb.LogPolicy | None = None,
        table_options: tpb.TableOptions | None = None,
        *,
        game_id: str | None = None,
    ) -> str:
        """A new game's id. ``game_id``: a fixed id instead of a fresh
        uuid4, for the server's own games only (a tournament's tables: no
        request names one). A game already stored under it that is the same
        table (:func:`same_table`) counts as created: another server sharing
        the store created it first."""
        try:
            game = registry.game(kind)
        except KeyError as error:
            raise MalformedCommand(str(error.args[0])) from None
        if set_deal and not self.identity.is_operator(token):
            raise PermissionDenied("only the operator may create a game from a set deal")
        policy = checked_policy(spectator_policy)
        full_log = checked_log_policy(log_policy)
        options_message = tables.options_for_seats(game, options, seat_count)
        created = tables.create(game, options_message, seat_count, set_deal=bool(set_deal))
        assert isinstance(created.public, tpb.GameCreated)
        created.public.spectator_policy.CopyFrom(policy)
        created.public.log_policy.CopyFrom(full_log)
        created.public.table_options.CopyFrom(
            tables.checked_table_options(
                table_options,
                max_events=self.max_game_events,
                resign_after_timeouts=self.resign_after_timeouts,
                end_when_absent_seconds=self.end_when_absent_seconds,
            )
        )
        outcomes = checked_set_deal(game, created.public, set_deal)
        hidden: list[Secret] = []
        if set_deal:
            hidden.append(Secret(frozenset(), tpb.SetDeal(outcomes=[pack(o) for o in outcomes])))
        # The seed of every chance outcome: committed now, opened at the end.
        hidden.append(chance.seed_secret(self.new_seed()))
        fixed = game_id is not None
        game_id = game_id or str(uuid.uuid4())
        envelope = to_envelope(game_id, 1, self.clock(), Event(created.public, tuple(hidden)))
        commitments.seal_envelope(envelope)
        try:
            self.store.append([envelope], chain.link([envelope], chain.ZERO_HASH))
        except VersionConflict:
            if not fixed:
                raise
            # The stream has its first event already: whose game is it?
            first = epb.EventEnvelope.FromString(self.store.read_raw(game_id, upto=1)[0])
            problem = same_table(first, created.public, table_options)
            if problem:
                raise GameIdTaken(
                    f"game {game_id} exists and is not the one asked for: {problem}"
                ) from None
        return game_id

    # ------------------------------------------------------ join, start

    def join(self, game_id: str, seat: int | None, player_name: str) -> tuple[int, str, int]:
        taken, token, version, _ = self.join_with_entropy(game_id, seat, player_name)
        return taken, token, version

    def join_with_entropy(
        self,
        game_id: str,
        seat: int | None,
        player_name: str,
        entropy_commitment: bytes = b"",
        player: tpb.PlayerProof | None = None,
    ) -> tuple[int, str, int, bytes]:
        """Take a seat committing to the client's entropy, or to entropy the
        server draws for it (T-ENTROPY): the seat, its token, the version
        after and the server's entropy (b"" when the client committed)."""
        if len(player_name) > MAX_NAME:
            raise MalformedCommand(f"player_name is longer than {MAX_NAME} characters")
        # Prefixed: says what it is, and never starts with "-" (a command-line flag).
        token = "seat_" + secrets.token_urlsafe(32)
        command = tpb.TakeSeat(player_name=player_name, token_sha256=token_hash(token))
        with_player(command, game_id, seat, entropy_commitment, player)
        drawn = with_entropy(command, entropy_commitment)
        if seat is not None:
            command.seat = seat
        _, version, batch = self.execute(game_id, GUEST, command, "", None)
        taken = to_event(batch[0][0]).public
        assert isinstance(taken, tpb.SeatTaken)
        return taken.seat, token, version, drawn

    # -------------------------------------------------- invitations, bots

    def invite(self, game_id: str, token: str | None, seat: int | None) -> tuple[int, str, int]:
        """Hold a free seat for an invitation (T-INVITE): the seat, the code
        (kept nowhere: the event holds its hash) and the version after."""
        actor = self._member(game_id, token, "inviting")
        code = "inv_" + secrets.token_urlsafe(12)
        command = tpb.IssueInvitation(code_sha256=token_hash(code))
        if seat is not None:
            command.seat = seat
        _, version, batch = self.execute(game_id, actor, command, "", None)
        issued = to_event(batch[0][0]).public
        assert isinstance(issued, tpb.InvitationIssued)
        return issued.seat, code, version

    def accept(self, game_id: str, code: str, player_name: str) -> tuple[int, str, int]:
        taken, token, version, _ = self.accept_with_entropy(game_id, code, player_name)
        return taken, token, version

    def accept_with_entropy(
        self,
        game_id: str,
        code: str,
        player_name: str,
        entropy_commitment: bytes = b"",
        player: tpb.PlayerProof | None = None,
        seat: int | None = None,
    ) -> tuple[int, str, int, bytes]:
        """Take the seat an invitation holds, once: the seat, its new token,
        the version after and the server's entropy for it (as join)."""
        if not code or len(code) > MAX_COMMAND_ID:
            raise MalformedCommand(f"code must be 1 to {MAX_COMMAND_ID} characters")
        if len(player_name) > MAX_NAME:
            raise MalformedCommand(f"player_name is longer than {MAX_NAME} characters")
        token = "seat_" + secrets.token_urlsafe(32)
        command = tpb.TakeSeat(
            player_name=player_name,
            token_sha256=token_hash(token),
            invitation_sha256=token_hash(code),
        )
        with_player(command, game_id, seat, entropy_commitment, player)
        drawn = with_entropy(command, entropy_commitment)
        if seat is not None:
            command.seat = seat
        _, version, batch = self.execute(game_id, GUEST, command, "", None)
        taken = to_event(batch[0][0]).public
        assert isinstance(taken, tpb.SeatTaken)
        return taken.seat, token, version, drawn

    def bot_token(self, game_id: str, seat: int) -> str:
        """The seat token of the server's bot in ``seat``: derived from the
        server's key, so only the server knows it, after a restart too."""
        mac = hmac.new(self.bot_key, f"{game_id}:{seat}".encode(), hashlib.sha256)
        return "seat_bot_" + mac.hexdigest()

    def add_bot(
        self, game_id: str, token: str | None, strategy: str, seat: int | None
    ) -> tuple[int, str, int]:
        """Seat a server-side bot: its seat, name and the version after."""
        self._member(game_id, token, "adding a bot")
        strategy = strategy or "heuristic"
        loaded = self.cache.load(game_id)
        table = loaded.table
        check_bot_strategy(table.kind, strategy)
        if seat is None:
            free = [
                s
                for s, name in enumerate(table.player_names)
                if name is None and s not in table.held
            ]
            if table.started:
                raise RuleViolation("T-JOIN", "the game has already started")
            if not free and table.held:
                raise RuleViolation("T-INVITE", "every free seat is held for an invitation")
            if not free:
                raise RuleViolation("T-JOIN", "every seat is taken")
            seat = free[0]
        names = {n for n in table.player_names if n}
        count = sum(table.bot_strategy(s) == strategy for s in range(table.seat_count)) + 1
        while f"{strategy} bot {count}" in names:
            count += 1
        name = f"{strategy} bot {count}"
        command = tpb.TakeSeat(
            seat=seat,
            player_name=name,
            token_sha256=token_hash(self.bot_token(game_id, seat)),
            bot_strategy=strategy,
            # Each bot level is one rated player, signed with its own key.
            player=players.sign_seat(
                players.bot_player_key(self.bot_key, strategy),
                game_id,
                seat,
                b"",
                f"{strategy} bot",
            ),
        )
        with_entropy(command, b"")  # the server's bot: the server's entropy
        _, version, _ = self.execute(game_id, GUEST, command, "", None)
        return seat, name, version

    def _member(self, game_id: str, token: str | None, what: str) -> Actor:
        """The caller as a seat of this game or the operator."""
        if not token:
            raise Unauthenticated(f"{what} needs a seat token of this game or the operator token")
        caller = self.identity.caller(self.cache.load(game_id), token)
        assert caller.actor is not None
        return caller.actor

    def start(self, game_id: str, token: str | None) -> int:
        if not token:
            raise Unauthenticated("starting a game needs a seat token or the operator token")
        caller = self.identity.caller(self.cache.load(game_id), token)
        assert caller.actor is not None
        _, version, _ = self.execute(game_id, caller.actor, tpb.StartGame(), "", None)
        return version

    # ------------------------------------------------------------ submit

    def submit(
        self,
        game_id: str,
        token: str | None,
        command: any_pb2.Any,
        command_id: str,
        expected_version: int | None,
    ) -> tuple[LoadedGame, Actor, int, Batch]:
        """The command played as the token's seat: the game, the seat, the
        version after and the batch (the first one, for a repeated id)."""
        if not command_id or len(command_id) > MAX_COMMAND_ID:
            raise MalformedCommand(f"command_id must be 1 to {MAX_COMMAND_ID} characters")
        if not command.type_url:
            raise MalformedCommand("command is required")
        loaded = self.cache.load(game_id)
        message = unpack(command, "command")
        if isinstance(message, tpb.RemoveSeat):
            # The operator's table command (T-REMOVE), with the operator token.
            if not self.identity.is_operator(token):
                raise PermissionDenied("only the operator may remove a seat")
            actor = OPERATOR
        else:
            caller = self.identity.seat_caller(loaded, token)
            assert caller.actor is not None
            actor = caller.actor
        if isinstance(message, (tpb.TakeSeat, tpb.StartGame)):
            raise MalformedCommand("use JoinGame and StartGame for table commands")
        if isinstance(message, tpb.IssueInvitation):
            raise MalformedCommand("use CreateInvitation to invite")
        if isinstance(message, tpb.ClockExpired):
            raise Forbidden("only the table's clock may send ClockExpired")
        loaded, version, batch = self.execute(
            game_id, actor, message, command_id, expected_version, loaded
        )
        return loaded, actor, version, batch

    def execute(
        self,
        game_id: str,
        actor: Actor,
        command: Message,
        command_id: str,
        expected_version: int | None,
        loaded: LoadedGame | None = None,
        attempts: int = 3,
    ) -> tuple[LoadedGame, int, Batch]:
        """Decide, add chance outcomes, seal, chain, append. Returns the
        version after and the batch written (or, for a repeated command id,
        the batch first written). Decided on the cached game: if another
        writer got there first, the append conflicts and the next attempt
        decides again on the store's current state."""
        fresh = False
        for attempt in range(attempts + 1):
            if loaded is None or fresh or loaded.evicted:
                loaded = self.cache.load(game_id, fresh=fresh)
            with loaded.lock:
                if loaded.evicted:  # a newer copy is the cache's now
                    continue
                try:
                    if command_id:
                        previous = self._previous_outcome(loaded, actor, command, command_id)
                        if previous is not None:
                            return loaded, *previous
                    if expected_version is not None and expected_version != loaded.version:
                        raise ExpectedVersionMismatch(
                            f"the game is at version {loaded.version}, not {expected_version}"
                        )
                    envelopes, decided = self.decide(loaded, actor, command, command_id)
                except REFUSALS:
                    if fresh or not self.cache.may_be_behind():
                        raise
                    # Another server may have moved the game on: refuse only
                    # what the store's current state refuses.
                    fresh = True
                    continue
                stored = chain.link(envelopes, chain.chain_head(loaded.stored))
                try:
                    self.store.append(envelopes, stored)
                except VersionConflict:
                    if expected_version is not None or attempt >= attempts - 1:
                        raise
                    fresh = True
                    continue
                first = loaded.version
                self.cache.absorb(loaded, stored, decided=decided)
                # Read under the lock: once it is released, a catch-up may
                # absorb another server's next write, which is not ours to
                # acknowledge (one write in 547 did, with two servers).
                version = loaded.version
            self.written(loaded, first)
            return loaded, version, list(zip(envelopes, stored, strict=True))
        raise VersionConflict(f"game {game_id} kept changing under the command")

    def decide(
        self, loaded: LoadedGame, actor: Actor, command: Message, command_id: str
    ) -> tuple[list[epb.EventEnvelope], list[tuple[Event, tables.Table]]]:
        """The batch's envelopes, and each event as decided with the table
        it leads to (GameCache.absorb folds with these where they are the
        stored events' own)."""
        now = self.clock()
        table = loaded.table
        envelopes: list[epb.EventEnvelope] = []
        decided: list[tuple[Event, tables.Table]] = []
        if isinstance(command, tpb.ClockExpired):
            check_deadline(loaded, command, now)
        if isinstance(command, (tpb.SeatsAbsent, tpb.NeverStarted)):
            check_absent_time(loaded, command, now)

        def record_batch(batch_actor: Actor, batch_command: Message, batch_id: str) -> None:
            nonlocal table
            steps = tables.decide_steps(table, batch_actor, batch_command)
            record_pb = command_record(batch_actor, batch_command, batch_id)
            for i, (e, after) in enumerate(steps):
                sequence = loaded.version + len(envelopes) + 1
                envelope = to_envelope(
                    loaded.game_id, sequence, now, e, record_pb if i == 0 else None
                )
                commitments.seal_envelope(envelope)
                self._attach_reveals(table, loaded, envelopes, e, envelope)
                if isinstance(e.public, tpb.GameStarted):
                    self._open_server_entropy(table, loaded, envelopes, envelope)
                envelopes.append(envelope)
                table = after
                decided.append((e, table))

        record_batch(actor, command, command_id)
        seed, script = loaded.chance()
        dealt, picks = loaded.indexes.dealt, loaded.indexes.picks
        while tables.chance_needed(table) is not None:
            outcome = chance.chance_outcome(
                table, dealt, seed=seed, game_id=loaded.game_id, set_deal=script, picks=picks
            )
            record_batch(DEALER, outcome, "")
            dealt += 1
            picks += isinstance(outcome, tpb.DealerPick)
        return envelopes, decided

    @staticmethod
    def _attach_reveals(
        table: tables.Table,
        loaded: LoadedGame,
        pending: Sequence[epb.EventEnvelope],
        e: Event,
        envelope: epb.EventEnvelope,
    ) -> None:
        """Open the earlier secrets this event shows (see kernel.Reveal)."""
        for reveal in table.game.reveals(e):
            found = latest_secret(loaded, pending, reveal)
            if found is None:
                continue
            earlier, index = found
            if reveal.audience is None:
                envelope.openings.append(commitments.open_secret(earlier, index))
            else:
                envelope.secrets.append(commitments.disclose(earlier, index, reveal.audience))

    @staticmethod
    def _open_server_entropy(
        table: tables.Table,
        loaded: LoadedGame,
        pending: Sequence[epb.EventEnvelope],
        envelope: epb.EventEnvelope,
    ) -> None:
        """T-ENTROPY: GameStarted opens, to everyone, the entropy the server
        drew for each seat whose client committed to none."""
        for seat in sorted(table.entropy_by_server):
            reveal = Reveal(tpb.SeatEntropy, lambda value, s=seat: value.seat == s)  # type: ignore[misc]
            found = latest_secret(loaded, pending, reveal)
            if found is None:  # pragma: no cover - the fold holds it
                raise RuntimeError(f"seat {seat}'s entropy secret is missing")
            envelope.openings.append(commitments.open_secret(*found))

    @staticmethod
    def _previous_outcome(
        loaded: LoadedGame, actor: Actor, command: Message, command_id: str
    ) -> tuple[int, Batch] | None:
        """A command id seen before from this actor: the batch of that
        command and the version right after it (from the index)."""
        span = loaded.indexes.commands.get((actor, command_id))
        if span is None:
            return None
        first = loaded.envelope(span.start)
        if unpack(first.command.command) != command:
            raise MalformedCommand(
                f"command_id {quote(command_id)} was already used for a different command"
            )
        end = span.end if span.end is not None else loaded.version
        return end, [(loaded.envelope(i), loaded.stored[i]) for i in range(span.start, end)]


def latest_secret(
    loaded: LoadedGame, pending: Sequence[epb.EventEnvelope], reveal: Reveal
) -> tuple[epb.EventEnvelope, int] | None:
    """The latest sealed secret of the reveal's type that it matches: in the
    batch being decided, then in the game (by the index of secrets by type)."""
    name = reveal.kind.DESCRIPTOR.full_name
    for envelope in reversed(pending):
        for index in reversed(range(len(envelope.secrets))):
            secret = envelope.secrets[index]
            if (
                secret.HasField("value")
                and commitments.holds(secret.value, reveal.kind)
                and reveal.match(unpack(secret.value))
            ):
                return envelope, index
    for event_index, position in reversed(loaded.indexes.secrets.get(name, [])):
        envelope = loaded.envelope(event_index)
        if reveal.match(unpack(envelope.secrets[position].value)):
            return envelope, position
    return None


def with_entropy(command: tpb.TakeSeat, entropy_commitment: bytes) -> bytes:
    """Fill in the seat's entropy commitment (T-ENTROPY): the client's, or,
    when it sent none, 32 bytes the server draws, returned."""
    if entropy_commitment:
        if len(entropy_commitment) != tables.ENTROPY_BYTES:
            raise MalformedCommand("entropy_commitment must be 32 bytes (SHA-256)")
        command.entropy_commitment = entropy_commitment
        return b""
    command.server_entropy = secrets.token_bytes(tables.ENTROPY_BYTES)
    return command.server_entropy


def with_player(
    command: tpb.TakeSeat,
    game_id: str,
    seat: int | None,
    entropy_commitment: bytes,
    player: tpb.PlayerProof | None,
) -> None:
    """Attach a player's proof once its signature checks (docs/trust.md,
    "Players"): it must name the seat it signs for."""
    if player is None:
        return
    if seat is None:
        raise MalformedCommand("a player proof needs the seat it signs for: set seat")
    problem = players.proof_problem(player, game_id, seat, entropy_commitment)
    if problem is not None:
        raise MalformedCommand(problem)
    command.player.CopyFrom(player)


def check_bot_strategy(kind: str, strategy: str) -> None:
    """A bot the server can seat in this game kind (``bot_kinds_for``)."""
    offered = bot_kinds_for(kind)
    if strategy not in BOT_KINDS:
        raise MalformedCommand(
            f"unknown bot strategy {quote(strategy)}; strategies: {', '.join(offered)}"
        )
    if strategy not in offered:
        raise MalformedCommand(f"{kind} has no {strategy} bot; strategies: {', '.join(offered)}")


def same_table(
    first: epb.EventEnvelope, asked: tpb.GameCreated, table_options: tpb.TableOptions | None
) -> str:
    """Why the stored game whose first envelope is ``first`` is not the
    game ``asked`` describes (empty when it is): its kind, options, seat
    count and policies, and each table option the request set (a field it
    left 0 is each server's own limit to fill, as the tournament audit
    allows, TN-CLOCK)."""
    found = tpb.GameCreated()
    if not first.event.Unpack(found):
        return f"its first event is a {first.event.TypeName()}"
    for name in ("kind", "seat_count", "options", "spectator_policy", "log_policy"):
        if getattr(found, name) != getattr(asked, name):
            return f"its {name} differs"
    for option, value in (table_options or tpb.TableOptions()).ListFields():
        if getattr(found.table_options, option.name) != value:
            return f"its table option {option.name} differs"
    return ""


def checked_policy(policy: tpb.SpectatorPolicy | None) -> tpb.SpectatorPolicy:
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


def checked_set_deal(
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


def checked_log_policy(policy: tpb.LogPolicy | None) -> tpb.LogPolicy:
    if policy is None or policy.kind == LogPolicy.KIND_UNSPECIFIED:
        return tpb.LogPolicy(kind=LogPolicy.KIND_PLAYERS)
    if policy.kind not in LogPolicy.Kind.values():
        raise MalformedCommand(f"log_policy: unknown kind {policy.kind}")
    return tpb.LogPolicy(kind=policy.kind)
