"""The use cases of cardroom, one facade over the modules that do the work:
``identity`` (who is calling), ``cache`` (games in memory, checkpoints),
``commands`` (writing), ``reads`` (views, replays, logs) and ``game_list``
(the stored game list). Like the eventsourcing examples' Application, it holds no
state of its own that the events cannot rebuild."""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator, Sequence
from datetime import UTC, datetime, timedelta

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from google.protobuf import any_pb2
from google.protobuf.message import Message

from cardroom.domain import table as tables
from cardroom.domain.kernel import CLOCK, OPERATOR, MalformedCommand, RuleViolation, Viewer
from cardroom.domain.table import pack
from cardroom.server.games import reads
from cardroom.server.games.commands import Commands
from cardroom.server.games.game_list import GameList
from cardroom.server.games.identity import Caller, Identity, horizon, parse_game_id
from cardroom.server.games.ratings import Ratings
from cardroom.server.games.reads import Reads
from cardroom.server.games.tournaments import Tournaments
from cardroom.server.storage.cache import GameCache, LoadedGame, Refresh
from cardroom.server.storage.checkpoints import Checkpoints
from cardroom.server.storage.log import GameLog
from cardroom.server.table.clocks import Clocks
from cardroom.server.table.presence import Presence
from cardroom.trust import chain, drbg, keyring
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import trust_pb2 as trpb

__all__ = ["Games", "LoadedGame", "parse_game_id"]


def bot_key(signing_key: Ed25519PrivateKey) -> bytes:
    """The key the server's bots' seat tokens are derived from: the signing
    key's, through a one-way hash (a rotated ring keeps its first one)."""
    return keyring.bot_secret(signing_key)


# At most this many games not in memory are read from the store to describe
# one page of the game list (names, awaited seats); the others are listed
# without until they are read.
DESCRIBE_READS = 100


class Games:
    def __init__(
        self,
        log: GameLog,
        *,
        operator_token: str | None = None,
        signing_key: Ed25519PrivateKey | None = None,
        key_ring: keyring.KeyRing | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        new_seed: Callable[[], bytes] = drbg.new_seed,
        refresh: Refresh = "always",
        max_games: int = 2000,
        checkpoints: bool = True,
        absent_after: float | None = None,
    ) -> None:
        self.log = log
        if key_ring is None:
            key_ring = keyring.KeyRing.of(signing_key or Ed25519PrivateKey.generate())
        self.key_ring = key_ring
        self.signing_key = key_ring.current
        # Who called lately (absent seats in the view); None: nobody is absent.
        self.presence = Presence(clock, absent_after)
        self.identity = Identity(operator_token, self.presence.seen)
        self.checkpoints = Checkpoints(log.snapshot_recorder() if checkpoints else None)
        self.cache = GameCache(log, self.checkpoints, refresh=refresh, max_games=max_games)
        self.reads = Reads(self.cache, self.identity, key_ring)
        log.before_close(self.close)
        self.commands = Commands(
            log,
            self.cache,
            self.identity,
            clock=clock,
            new_seed=new_seed,
            written=self._written,
            bot_key=key_ring.bots,
        )
        self.game_list = GameList(log)
        # Every key's rating per kind, folded from finished games (T-RATING).
        self.ratings = Ratings(log)
        # Tournaments: streams of their own in the same store; their games'
        # seats are reserved for their players' keys (see join_with_entropy).
        self.tournaments = Tournaments(
            log,
            self.cache,
            self.commands,
            self.identity,
            secret=key_ring.bots,
            signing_key=lambda: self.key_ring.current,
            clock=clock,
            new_seed=new_seed,
            created=self.game_list.nudge,
        )
        # The turn clocks (T-CLOCK), on the clock that stamps the events.
        self.clocks = Clocks(
            expire=self._expire,
            reload=lambda game_id: self.cache.load(game_id, fresh=True),
            running=self._live_games,
            now=clock,
            leave=self._leave,
            all_absent=self._all_absent,
        )
        # Told after each batch this process writes (see subscribe).
        self._listeners: list[Callable[[LoadedGame, int], None]] = []

    def subscribe(self, listener: Callable[[LoadedGame, int], None]) -> None:
        """Call ``listener(loaded, first)`` after each batch this process
        writes (``first``: the index of its first event), in the writing
        thread (the live feeds subscribe; they must not block)."""
        self._listeners.append(listener)

    def _written(self, loaded: LoadedGame, first: int) -> None:
        self.game_list.nudge()
        if loaded.table.finished:
            self.ratings.nudge()
            self.tournaments.nudge()
        self.clocks.arm(loaded)
        for listener in self._listeners:
            listener(loaded, first)

    def _expire(self, game_id: str, command: tpb.ClockExpired) -> None:
        # No command id: the version makes a repeat stale, so a second
        # server's expiry is refused, not answered as a retry.
        self.commands.execute(game_id, CLOCK, command, "", None)

    def _leave(self, game_id: str, command: tpb.SeatsAbsent | tpb.NeverStarted) -> None:
        self.commands.execute(game_id, CLOCK, command, "", None)

    def _all_absent(self, loaded: LoadedGame) -> bool:
        """Every seat still playing is absent now (T-ABSENT)."""
        table = loaded.table
        playing = {s for s in range(table.seat_count) if s not in table.resigned}
        return bool(playing) and playing <= set(self.presence.absent(loaded.game_id, table))

    def _running_games(self) -> Iterator[LoadedGame]:
        return self._games_of(gpb.GAME_STATUS_RUNNING)

    def _live_games(self) -> Iterator[LoadedGame]:
        """The games not over, open and running: what the clocks re-arm
        after a restart (an open game ends by T-ABSENT too)."""
        yield from self._games_of(gpb.GAME_STATUS_OPEN)
        yield from self._running_games()

    def _games_of(self, status: gpb.GameStatus) -> Iterator[LoadedGame]:
        for summary in self._summaries_of(status):
            yield self.load(summary.game_id)

    def _summaries_of(self, status: gpb.GameStatus) -> Iterator[gpb.GameSummary]:
        token = ""
        while True:
            page = self.list_games(
                gpb.ListGamesRequest(status=status, page_size=1000, page_token=token)
            )
            yield from page.games
            token = page.next_page_token
            if not token:
                return

    def end_abandoned(self, after: float) -> list[tuple[str, int]]:
        """T-REMOVE by absence (``--abandon-after``): in each running game
        whose every human seat (not a server bot's, not resigned) has made
        no call for ``after`` seconds, remove those seats
        (``RemoveSeat{absent}``, as the operator would); the table's rules
        then end the game, or its bots play it out. A game T-ABSENT ends
        (recorded with its seconds, every seat still playing absent) is left
        to the table's clock, so one rule ends each game. The (game, seat)
        pairs removed."""
        removed: list[tuple[str, int]] = []
        limit = timedelta(seconds=after)
        for loaded in self._running_games():
            table = loaded.table
            if table.end_when_absent_seconds and self._all_absent(loaded):
                continue  # T-ABSENT's: SeatsAbsent once nothing is recorded for its seconds
            humans = [
                s
                for s in range(table.seat_count)
                if not table.bot_strategy(s) and s not in table.resigned
            ]
            gone = set(self.presence.gone(loaded.game_id, table, limit))
            if not humans or not gone.issuperset(humans):
                continue
            for seat in humans:
                try:
                    self.commands.execute(
                        loaded.game_id, OPERATOR, tpb.RemoveSeat(seat=seat, absent=True), "", None
                    )
                except RuleViolation:
                    break  # the game ended meanwhile
                removed.append((loaded.game_id, seat))
        return removed

    def bot_games(self, playing: Container[tuple[str, int]] = frozenset()) -> list[str]:
        """The open and running games with a server bot seat not in
        ``playing`` (to play after a start, or take over from a server
        gone), from the game list: no game is loaded."""
        found = []
        for status in (gpb.GAME_STATUS_OPEN, gpb.GAME_STATUS_RUNNING):
            for summary in self._summaries_of(status):
                if any((summary.game_id, s) not in playing for s in summary.bot_seats):
                    found.append(summary.game_id)
        return found

    def bot_seats(self, game_id: str) -> list[tuple[int, str]]:
        """(seat, strategy) of each server bot of a game not finished, from
        its events."""
        table = self.load(game_id).table
        if table.finished:
            return []
        seats = range(table.seat_count)
        return [(s, table.bot_strategy(s)) for s in seats if table.bot_strategy(s)]

    def close(self) -> None:
        """Stop the background work (before the store closes)."""
        self.game_list.stop()
        self.ratings.stop()
        self.tournaments.stop()
        self.reads.warmer.close()
        self.checkpoints.close()

    # ------------------------------------------------------------ identity

    def is_operator(self, token: str | None) -> bool:
        return self.identity.is_operator(token)

    def caller(self, game_id: str, token: str | None) -> Caller:
        return self.identity.caller(self.cache.load(game_id), token)

    def viewer(self, loaded: LoadedGame, token: str | None, as_spectator: bool = False) -> Viewer:
        return self.identity.viewer(loaded, token, as_spectator)

    @staticmethod
    def horizon(loaded: LoadedGame, viewer: Viewer) -> int:
        return horizon(loaded, viewer)

    # --------------------------------------------------------------- cache

    def load(self, game_id: str, min_version: int = 0) -> LoadedGame:
        return self.cache.load(parse_game_id(game_id), min_version=min_version)

    def announce(self, game_id: str, version: int) -> LoadedGame | None:
        """Another process wrote the game up to ``version`` (the store's
        subscription, which also tells of this process's own writes)."""
        self.game_list.nudge()
        loaded = self.cache.announce(game_id, version)
        # Its clock, if it has one, is this server's to fire too (T-CLOCK).
        # An absent alarm (T-ABSENT) needs arming once: when it is due, the
        # game is read afresh and re-armed if it moved, so other servers'
        # writes to it need not be read as they come.
        timed = loaded is not None and (
            loaded.table.seconds_per_decision
            or (
                loaded.table.end_when_absent_seconds
                and self.clocks.absent_alarm(loaded.game_id) is None
            )
        )
        if loaded is None or (version > loaded.version and timed):
            self.clocks.heard(game_id)
        return loaded

    def games_in_memory(self) -> int:
        return len(self.cache)

    def kind_of(self, game_id: str) -> str:
        """The kind of a game in memory (for metrics), without loading it."""
        loaded = self.cache.cached(game_id)
        return loaded.table.kind if loaded is not None else "unknown"

    def version(self, game_id: str) -> int:
        return self.load(game_id).version

    # -------------------------------------------------------------- writes

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
    ) -> str:
        game_id = self.commands.create_game(
            kind, options, seat_count, set_deal, token, spectator_policy, log_policy, table_options
        )
        self.game_list.nudge()
        return game_id

    def remove_seat(self, game_id: str, token: str | None, seat: int, command_id: str) -> int:
        """The operator resigns a seat on its behalf (T-REMOVE); the version
        after. The same as SubmitCommand with the operator token."""
        _, _, version, _ = self.commands.submit(
            parse_game_id(game_id), token, pack(tpb.RemoveSeat(seat=seat)), command_id, None
        )
        return version

    def join(self, game_id: str, seat: int | None, player_name: str) -> tuple[int, str, int]:
        return self.commands.join(parse_game_id(game_id), seat, player_name)

    def invite(self, game_id: str, token: str | None, seat: int | None) -> tuple[int, str, int]:
        game_id = parse_game_id(game_id)
        if self.tournaments.reserved(game_id) is not None:
            raise RuleViolation("TN-SEAT", "a tournament game's seats are its players' alone")
        return self.commands.invite(game_id, token, seat)

    def accept(self, game_id: str, code: str, player_name: str) -> tuple[int, str, int]:
        seat, token, version, _ = self.accept_with_entropy(game_id, code, player_name, b"")
        return seat, token, version

    def join_with_entropy(
        self,
        game_id: str,
        seat: int | None,
        player_name: str,
        entropy_commitment: bytes,
        player: tpb.PlayerProof | None = None,
    ) -> tuple[int, str, int, bytes]:
        """JoinGame with the seat's entropy commitment (T-ENTROPY) and, when
        the player proves who they are, their signed claim to the seat. A
        tournament's game seats only the key its seat is reserved for."""
        game_id = parse_game_id(game_id)
        if self.tournaments.reserved(game_id) is not None:
            return self._take_reserved(game_id, seat, player_name, entropy_commitment, player)
        return self.commands.join_with_entropy(
            game_id, seat, player_name, entropy_commitment, player
        )

    def _take_reserved(
        self,
        game_id: str,
        seat: int | None,
        player_name: str,
        entropy_commitment: bytes,
        player: tpb.PlayerProof | None,
    ) -> tuple[int, str, int, bytes]:
        """TN-SEAT: the seat reserved for the proof's key, taken with the
        invitation the server holds it with (its signature is checked as any
        player's, T-PLAYER); the game starts once every seat is taken. A
        player who withdrew takes no seat, and the seat of one who withdrew
        after taking it leaves at the start (TN-LEAVE)."""
        reservation = self.tournaments.reserved(game_id)
        assert reservation is not None
        if player is None or not player.public_key:
            raise RuleViolation(
                "TN-SEAT", "a tournament game seats its players: sign the seat with your key"
            )
        if seat is None:
            raise MalformedCommand("a player proof needs the seat it signs for: set seat")
        if seat >= len(reservation.keys):
            raise MalformedCommand(f"seat must be below {len(reservation.keys)}")
        if reservation.keys[seat] != player.public_key:
            raise RuleViolation("TN-SEAT", f"seat {seat} is reserved for another player")
        if self.tournaments.has_withdrawn(reservation.tournament_id, player.public_key):
            raise RuleViolation("TN-LEAVE", "this player has withdrawn from the tournament")
        taken = self.commands.accept_with_entropy(
            game_id,
            self.tournaments.seat_code(game_id, seat),
            player_name,
            entropy_commitment,
            player,
            seat,
        )
        table = self.cache.load(game_id).table
        if not table.started and all(name is not None for name in table.player_names):
            try:
                self.commands.execute(game_id, OPERATOR, tpb.StartGame(), "", None)
            except RuleViolation:
                pass  # started meanwhile
            else:
                self.tournaments.leave_withdrawn(game_id)
        return taken

    def accept_with_entropy(
        self,
        game_id: str,
        code: str,
        player_name: str,
        entropy_commitment: bytes,
        player: tpb.PlayerProof | None = None,
        seat: int | None = None,
    ) -> tuple[int, str, int, bytes]:
        """AcceptInvitation with the seat's entropy commitment (T-ENTROPY)
        and, optionally, the player's signed claim to the invited seat."""
        game_id = parse_game_id(game_id)
        if self.tournaments.reserved(game_id) is not None:
            raise RuleViolation("TN-SEAT", "a tournament game is joined with JoinGame and a key")
        return self.commands.accept_with_entropy(
            game_id, code, player_name, entropy_commitment, player, seat
        )

    def add_bot(
        self, game_id: str, token: str | None, strategy: str, seat: int | None
    ) -> tuple[int, str, int]:
        return self.commands.add_bot(parse_game_id(game_id), token, strategy, seat)

    def bot_token(self, game_id: str, seat: int) -> str:
        return self.commands.bot_token(game_id, seat)

    def start(self, game_id: str, token: str | None) -> int:
        return self.commands.start(parse_game_id(game_id), token)

    def submit(
        self,
        game_id: str,
        token: str | None,
        command: any_pb2.Any,
        command_id: str,
        expected_version: int | None,
    ) -> tuple[int, list[epb.EventEnvelope]]:
        """The command as the token's seat: the version after it and its
        events, each as that seat may see it."""
        loaded, actor, version, batch = self.commands.submit(
            parse_game_id(game_id), token, command, command_id, expected_version
        )
        viewer = Viewer.of_seat(actor.seat) if actor.seat is not None else Viewer("auditor")
        return version, [reads.serve(loaded, e.sequence - 1, viewer, e) for e, _ in batch]

    # --------------------------------------------------------------- reads

    def copies(
        self, loaded: LoadedGame, viewer: Viewer, after: int = 0, upto: int | None = None
    ) -> list[epb.EventEnvelope]:
        return reads.copies(loaded, viewer, after, upto)

    def events_for(
        self, game_id: str, token: str | None, after: int, as_spectator: bool = False
    ) -> tuple[list[epb.EventEnvelope], bool]:
        return self.reads.events_for(parse_game_id(game_id), token, after, as_spectator)

    def check_viewer(
        self, game_id: str, token: str | None, as_spectator: bool = False
    ) -> tuple[LoadedGame, Viewer]:
        """The game and the caller's viewer (before the end-of-game policy);
        raises now if the caller may not read this game at all."""
        loaded = self.load(game_id)
        caller = self.identity.caller(loaded, token)
        self.identity.viewer(loaded, token, as_spectator)  # refuses ghosting
        return loaded, (Viewer("spectator") if as_spectator else caller.viewer)

    def view(
        self,
        game_id: str,
        token: str | None,
        version: int | None,
        as_spectator: bool = False,
        min_version: int = 0,
    ) -> gpb.GetViewResponse:
        response = self.reads.view(
            parse_game_id(game_id), token, version, as_spectator, min_version
        )
        loaded = self.load(game_id)
        if response.version == loaded.version:
            response.table.absent_seats.extend(self.presence.absent(loaded.game_id, loaded.table))
        return response

    def head_at(self, game_id: str, version: int) -> epb.EventEnvelope:
        """What a served copy of the event at ``version`` says of the chain
        (game, sequence, event hash), the same for every viewer: for signing
        the head of a view."""
        loaded = self.load(game_id)
        return epb.EventEnvelope(
            game_id=loaded.game_id,
            sequence=version,
            event_hash=chain.event_hash(loaded.stored[version - 1]),
        )

    def replay_views(
        self,
        game_id: str,
        token: str | None,
        from_version: int,
        as_spectator: bool = False,
        narrate: bool = False,
    ) -> Iterator[gpb.ReplayViewsResponse]:
        return self.reads.replay_views(
            parse_game_id(game_id), token, from_version, as_spectator, narrate
        )

    def action_words(
        self, game_id: str, token: str | None, version: int, actions: list[Message]
    ) -> list[gpb.ActionWords]:
        return self.reads.action_words(parse_game_id(game_id), token, version, actions)

    def legal_actions(
        self, game_id: str, token: str | None, min_version: int = 0
    ) -> tuple[int, list[Message]]:
        return self.reads.legal_actions(parse_game_id(game_id), token, min_version)

    def audit_log(self, game_id: str, token: str | None) -> list[epb.EventEnvelope]:
        return self.reads.audit_log(parse_game_id(game_id), token)

    def audit_log_page(
        self, game_id: str, token: str | None, page_size: int = 0, page_token: str = ""
    ) -> gpb.GetAuditLogResponse:
        """GetAuditLog: a page of the full log (Reads.audit_log_page)."""
        return self.reads.audit_log_page(parse_game_id(game_id), token, page_size, page_token)

    def export_record(self, game_id: str, token: str | None) -> trpb.GameRecord:
        return self.reads.export_record(parse_game_id(game_id), token)

    def record_bytes(self, game_id: str, token: str | None) -> bytes:
        return self.reads.record_bytes(parse_game_id(game_id), token)

    def record_reader(self, game_id: str, token: str | None) -> tuple[LoadedGame, int | None]:
        return self.reads.record_reader(parse_game_id(game_id), token)

    def server_key(self) -> gpb.GetServerKeyResponse:
        return self.reads.server_key()

    def list_games(self, request: gpb.ListGamesRequest) -> gpb.ListGamesResponse:
        response = self.game_list.page(request)
        reads = DESCRIBE_READS  # games read from the store to describe them
        for summary in response.games:
            reads -= self._describe(summary, may_read=reads > 0)
        return response

    def _describe(self, summary: gpb.GameSummary, *, may_read: bool) -> int:
        """Add who sits where and whom the game awaits, since when, from the
        game's events (a game not over is read; a finished one only if it
        is in memory). Left out while spectators stay behind the game."""
        loaded = self.cache.cached(summary.game_id)
        read = 0
        if loaded is None and not summary.finished and may_read:
            read = 1
            try:
                loaded = self.load(summary.game_id)
            except Exception:  # listed but unreadable: the list still answers
                return read
        if loaded is None or summary.version != loaded.version:
            return read  # a delayed spectator policy: the list stays as far behind
        table = loaded.table
        summary.player_names.extend(n or "" for n in table.player_names)
        summary.player_keys.extend(table.player_keys or [b""] * table.seat_count)
        summary.bot_seats.extend(s for s in range(table.seat_count) if table.bot_strategy(s))
        waiting = tables.awaited(table)
        if waiting:
            summary.awaited_seats.extend(waiting)
            summary.awaited_since.CopyFrom(loaded.envelope(loaded.version - 1).recorded_at)
        return read
