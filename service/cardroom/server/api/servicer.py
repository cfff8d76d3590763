"""gRPC GameService: converts requests, calls the use cases, maps errors.

Every call into the (blocking) eventsourcing library runs in a worker thread
so the asyncio server keeps serving while one call waits on the database.
A call that finds the store unreachable or unreadable answers UNAVAILABLE and
turns health to NOT_SERVING until a probe reads the store again.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import grpc

from cardroom.domain.table import pack
from cardroom.server.api.health import StoreHealth
from cardroom.server.api.status import status_of
from cardroom.server.errors import FellBehind
from cardroom.server.games.application import Games, parse_game_id
from cardroom.server.games.kinds import game_kinds
from cardroom.server.games.narration import view_words
from cardroom.server.games.reads import copies, record_chunk_bytes, serve
from cardroom.server.games.records import RecordShelf, estimate_bytes
from cardroom.server.limits import (
    CreationLimiter,
    Limits,
    Slot,
    TooBusy,
    WatcherSlots,
    client_of,
)
from cardroom.server.live.feeds import Feeds, Made, Outgoing, Watch
from cardroom.server.live.publisher import Publisher
from cardroom.server.observability import Metrics
from cardroom.server.storage.cache import LoadedGame
from cardroom.server.storage.log import is_store_busy
from cardroom.trust.heads import HeadSigner
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import game_service_pb2_grpc as gpb_grpc
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import trust_pb2 as trpb

log = logging.getLogger(__name__)

R = TypeVar("R")
REPLAY_BATCH = 32  # views folded per worker-thread call while streaming a replay
BACKLOG_CHUNK = 32  # events copied per worker-thread call while a watcher catches up


def bearer_token(context: grpc.aio.ServicerContext) -> str | None:
    """The token from "authorization: Bearer <token>" metadata, if any."""
    for key, value in context.invocation_metadata() or ():
        if key == "authorization":
            text = value.decode() if isinstance(value, bytes) else value
            scheme, _, token = text.partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
    return None


def when_done(context: Any, release: Callable[[], None]) -> None:
    """``release()`` once the call is over, however it ends. A stream's
    ``finally`` is not enough: grpc.aio cancels a call whose peer went away,
    but a handler suspended at ``yield`` while its message waits for a
    window that never opens is never resumed (issue 34: a killed reader's
    record streams held their slots for good). ``release`` must be safe to
    call twice; a browser call (no ``add_done_callback``) ends through its
    ``finally``."""
    add = getattr(context, "add_done_callback", None)
    if add is not None:
        add(lambda _: release())


def unary(
    method: Callable[[Any, Any, grpc.aio.ServicerContext], Awaitable[R]],
) -> Callable[[Any, Any, grpc.aio.ServicerContext], Awaitable[R]]:
    @functools.wraps(method)
    async def wrapper(self: GameServicer, request: Any, context: grpc.aio.ServicerContext) -> R:
        try:
            return await method(self, request, context)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            if isinstance(error, grpc.aio.AbortError):
                raise
            await self.abort_for(context, error)
            raise AssertionError("abort returned") from error

    return wrapper


class GameServicer(gpb_grpc.GameServiceServicer):
    def __init__(
        self,
        games: Games,
        *,
        limits: Limits | None = None,
        metrics: Metrics | None = None,
        health: Any = None,
        signed_heads: bool = True,
    ) -> None:
        self.games = games
        self.limits = limits or Limits()
        # Every served event's head, signed (docs/trust.md, "Signed heads").
        self.heads = HeadSigner(games.signing_key) if signed_heads else None
        self.feeds = Feeds(self.limits.max_stream_backlog, self.heads, games.reads.narrations)
        # With a broker: each written event's copies, published for relays.
        self.publisher: Publisher | None = None
        self._loop = asyncio.get_running_loop()
        self._catching_up: set[str] = set()
        games.subscribe(self.written)
        self.metrics = metrics or Metrics()
        self.store_health = StoreHealth(games.log, health, self.metrics)
        self.creations = CreationLimiter(self.limits.games_per_client_per_hour)
        self.joins = CreationLimiter(self.limits.joins_per_client_per_hour)
        self.invitations = CreationLimiter(self.limits.invitations_per_client_per_hour)
        self.slots = WatcherSlots(
            self.limits.max_watchers,
            self.limits.watcher_reserve,
            self.limits.watchers_per_client,
            self.limits.watchers_per_seat,
            records_per_client=self.limits.records_per_client,
            records_per_game=self.limits.records_per_game,
        )
        # Finished games' records, built once and shared by their streams.
        self.records = RecordShelf(self.limits.record_memory_bytes, record_chunk_bytes())
        # The server's own bots (cardroom.server.table.bots); None: AddBot seats
        # them and nothing plays them (a server started without a runner).
        self.bots: Any = None
        # Our own worker threads: a call whose client went away keeps running
        # in its thread, and stopping must wait for it before closing the store.
        self.executor = ThreadPoolExecutor(thread_name_prefix="cardroom-call")
        # Streams catch up in threads of their own: a hundred streams reading
        # their backlog never queue ahead of a GetView or a command.
        self.catch_up_executor = ThreadPoolExecutor(2, thread_name_prefix="cardroom-catch-up")

    async def _run(self, fn: Callable[..., R], *args: Any) -> R:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, functools.partial(fn, *args))

    async def in_thread(self, fn: Callable[[], R]) -> R:
        """``fn()`` in one of the call threads (the store blocks)."""
        return await self._run(fn)

    async def drain(self) -> None:
        """Wait for every call still running in a worker thread (once the
        server has stopped taking calls); calls not started yet are dropped."""
        self.store_health.stop()
        for executor in (self.executor, self.catch_up_executor):
            shutdown = functools.partial(executor.shutdown, wait=True, cancel_futures=True)
            await asyncio.get_running_loop().run_in_executor(None, shutdown)

    async def abort_for(self, context: grpc.aio.ServicerContext, error: BaseException) -> None:
        mapped = status_of(error)
        if mapped is None:
            log.error("unexpected error", exc_info=error)
            await context.abort(grpc.StatusCode.INTERNAL, "internal error")
            return
        if mapped[0] == grpc.StatusCode.UNAVAILABLE and not is_store_busy(error):
            log.warning("the store failed: %s", error)
            self.store_health.failed()
        await context.abort(*mapped)

    # ------------------------------------------------------------ writes

    @unary
    async def CreateGame(self, request: gpb.CreateGameRequest, context: Any) -> Any:
        token = bearer_token(context)
        why = (
            f"this client has created {self.limits.games_per_client_per_hour} games in the "
            "last hour, the server's limit; try again later"
        )
        with self._charged(self.creations, context, why):
            game_id = await self._run(
                self.games.create_game,
                request.kind,
                request.options if request.HasField("options") else None,
                request.seat_count,
                list(request.set_deal),
                token,
                request.spectator_policy if request.HasField("spectator_policy") else None,
                request.log_policy if request.HasField("log_policy") else None,
                request.table_options if request.HasField("table_options") else None,
            )
        return gpb.CreateGameResponse(game_id=game_id)

    @unary
    async def JoinGame(self, request: gpb.JoinGameRequest, context: Any) -> Any:
        why = (
            f"this client has taken {self.limits.joins_per_client_per_hour} seats in the "
            "last hour, the server's limit; try again later"
        )
        with self._charged(self.joins, context, why):
            seat, token, version, drawn = await self._run(
                self.games.join_with_entropy,
                request.game_id,
                request.seat if request.HasField("seat") else None,
                request.player_name,
                request.entropy_commitment,
                request.player if request.HasField("player") else None,
            )
        return gpb.JoinGameResponse(
            seat=seat,
            seat_token=token,
            version=version,
            entropy_generated_by_server=bool(drawn),
            server_entropy=drawn,
        )

    @unary
    async def CreateInvitation(self, request: gpb.CreateInvitationRequest, context: Any) -> Any:
        why = (
            f"this client has issued {self.limits.invitations_per_client_per_hour} invitations "
            "in the last hour, the server's limit; try again later"
        )
        with self._charged(self.invitations, context, why):
            seat, code, version = await self._run(
                self.games.invite,
                request.game_id,
                bearer_token(context),
                request.seat if request.HasField("seat") else None,
            )
        return gpb.CreateInvitationResponse(seat=seat, code=code, version=version)

    @unary
    async def AcceptInvitation(self, request: gpb.AcceptInvitationRequest, context: Any) -> Any:
        # A seat taken is a seat taken: the same allowance as JoinGame (N7).
        why = (
            f"this client has taken {self.limits.joins_per_client_per_hour} seats in the "
            "last hour, the server's limit; try again later"
        )
        with self._charged(self.joins, context, why):
            seat, token, version, drawn = await self._run(
                self.games.accept_with_entropy,
                request.game_id,
                request.code,
                request.player_name,
                request.entropy_commitment,
                request.player if request.HasField("player") else None,
                request.seat if request.HasField("seat") else None,
            )
        return gpb.AcceptInvitationResponse(
            seat=seat,
            seat_token=token,
            version=version,
            entropy_generated_by_server=bool(drawn),
            server_entropy=drawn,
        )

    @unary
    async def AddBot(self, request: gpb.AddBotRequest, context: Any) -> Any:
        why = (  # a bot's seat is a seat taken: the caller's join allowance (N7)
            f"this client has taken {self.limits.joins_per_client_per_hour} seats in the "
            "last hour, the server's limit; try again later"
        )
        with self._charged(self.joins, context, why):
            seat, name, version = await self._run(
                self.games.add_bot,
                request.game_id,
                bearer_token(context),
                request.strategy,
                request.seat if request.HasField("seat") else None,
            )
        if self.bots is not None:  # its turns count against the client that added it
            self.bots.start(
                parse_game_id(request.game_id),
                seat,
                request.strategy or "heuristic",
                client_of(context.peer()),
            )
        return gpb.AddBotResponse(seat=seat, player_name=name, version=version)

    @unary
    async def StartGame(self, request: gpb.StartGameRequest, context: Any) -> Any:
        version = await self._run(self.games.start, request.game_id, bearer_token(context))
        return gpb.StartGameResponse(version=version)

    @unary
    async def SubmitCommand(self, request: gpb.SubmitCommandRequest, context: Any) -> Any:
        code = grpc.StatusCode.OK
        try:
            version, events = await self._run(
                self.games.submit,
                request.game_id,
                bearer_token(context),
                request.command,
                request.command_id,
                request.expected_version if request.HasField("expected_version") else None,
            )
        except Exception as error:
            mapped = status_of(error)
            code = mapped[0] if mapped else grpc.StatusCode.INTERNAL
            raise
        finally:
            kind = self.games.kind_of(request.game_id)
            self.metrics.commands.labels(kind, code.name).inc()
        return gpb.SubmitCommandResponse(
            version=version, events=events, signed_head=self._last_head(events)
        )

    # ------------------------------------------------------------- reads

    @unary
    async def ListLegalActions(self, request: gpb.ListLegalActionsRequest, context: Any) -> Any:
        version, actions = await self._run(
            self.games.legal_actions, request.game_id, bearer_token(context), request.min_version
        )
        if actions:  # a seat the game waits for may also leave it (T-RESIGN)
            actions = [*actions, tpb.Resign()]
        words = []
        if request.describe and actions:
            words = await self._run(
                self.games.action_words, request.game_id, bearer_token(context), version, actions
            )
        return gpb.ListLegalActionsResponse(
            version=version, actions=[pack(a) for a in actions], words=words
        )

    @unary
    async def GetView(self, request: gpb.GetViewRequest, context: Any) -> Any:
        return await self._run(self._view, request, bearer_token(context))

    def _view(self, request: gpb.GetViewRequest, token: str | None) -> gpb.GetViewResponse:
        """GetView, in words if asked, with the signed head of the version it shows."""
        response = self.games.view(
            request.game_id,
            token,
            request.version if request.HasField("version") else None,
            request.as_spectator,
            request.min_version,
        )
        if request.describe:
            response.words.CopyFrom(view_words(response))
        if self.heads is not None:
            shown = self.games.head_at(request.game_id, response.version)
            response.signed_head.CopyFrom(self.heads.of(shown))
        return response

    @unary
    async def GetAuditLog(self, request: gpb.GetAuditLogRequest, context: Any) -> Any:
        page: gpb.GetAuditLogResponse = await self._run(
            self.games.audit_log_page,
            request.game_id,
            bearer_token(context),
            request.page_size,
            request.page_token,
        )
        signed = self._last_head(page.events)
        if signed is not None:
            page.signed_head.CopyFrom(signed)
        return page

    def _last_head(self, events: Sequence[epb.EventEnvelope]) -> trpb.SignedHead | None:
        """The signed head covering a batch of served events (its last)."""
        return self.heads.last(events) if self.heads is not None else None

    @unary
    async def GetServerKey(self, request: gpb.GetServerKeyRequest, context: Any) -> Any:
        return self.games.server_key()

    @unary
    async def ExportGameRecord(self, request: gpb.ExportGameRecordRequest, context: Any) -> Any:
        return gpb.ExportGameRecordResponse(
            record=await self._run(self.games.export_record, request.game_id, bearer_token(context))
        )

    @unary
    async def ListGames(self, request: gpb.ListGamesRequest, context: Any) -> Any:
        return await self._run(self.games.list_games, request)

    @unary
    async def ListGameKinds(self, request: gpb.ListGameKindsRequest, context: Any) -> Any:
        return game_kinds()

    # ----------------------------------------------------------- streams

    @property
    def watchers(self) -> int:
        """Live streams open now."""
        return self.slots.open

    def _refuse_when_full(self, operator: bool = False) -> None:
        """Refuse at once, before any read, when no stream may open at all."""
        why = self.slots.full(operator)
        if why is not None:
            raise TooBusy(f"{why}; try again later")

    @contextlib.contextmanager
    def _charged(self, limiter: CreationLimiter, context: Any, why: str) -> Iterator[None]:
        """One of the calling client's allowance spent on the call (the
        operator has none to spend); a call refused for its input or by the
        rules gives it back. Not a cancellation: its work may still be done."""
        client = (
            None if self.games.is_operator(bearer_token(context)) else client_of(context.peer())
        )
        if client is not None and not limiter.take(client):
            raise TooBusy(why)
        try:
            yield
        except Exception:
            if client is not None:
                limiter.refund(client)
            raise

    async def _open_stream(
        self,
        context: grpc.aio.ServicerContext,
        game_id: str,
        token: str | None,
        as_spectator: bool,
        kind: str = "watch",
    ) -> tuple[LoadedGame, Any, Slot]:
        """The game, the caller's viewer and a stream slot (docs/trust.md
        §12: a seat watching its own game may use the reserve; every stream
        counts against its client's share; the operator's are apart)."""
        operator = self.games.is_operator(token)
        self._refuse_when_full(operator)
        loaded, viewer = await self._run(self.games.check_viewer, game_id, token, as_spectator)
        seat = viewer.seat if viewer.kind == "seat" else None
        slot = self._take_slot(context, loaded.game_id, seat, operator, kind)
        return loaded, viewer, slot

    def _take_slot(
        self, context: Any, game_id: str, seat: int | None, operator: bool, kind: str
    ) -> Slot:
        peer = context.peer()
        # The server's own bots call over its private Unix socket: they
        # count in the total, not as one client sharing one share.
        client = None if peer.startswith("unix:") else client_of(peer)
        try:
            slot = self.slots.take(client, game_id, seat, operator, kind)
        except TooBusy as error:
            raise TooBusy(f"{error}; try again later") from None
        self.metrics.live_watchers.inc()
        when_done(context, lambda: self._close_stream(slot))
        return slot

    def _close_stream(self, slot: Slot | None) -> None:
        if slot is not None and not slot.released:
            slot.release()
            self.metrics.live_watchers.dec()

    async def ReplayViews(
        self, request: gpb.ReplayViewsRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[gpb.ReplayViewsResponse]:
        """The caller's views step by step, each sent as soon as it is
        folded: a stalled reader holds up the fold, not memory."""
        slot: Slot | None = None
        try:
            _, _, slot = await self._open_stream(
                context, request.game_id, bearer_token(context), request.as_spectator, "replay"
            )
            steps: Iterator[gpb.ReplayViewsResponse] = await self._run(
                self.games.replay_views,
                request.game_id,
                bearer_token(context),
                request.from_version,
                request.as_spectator,
                request.narrate,
            )
            while True:
                batch = await self._run(lambda: self._signed_steps(steps))
                for step in batch:
                    yield step
                if len(batch) < REPLAY_BATCH:
                    return
        except asyncio.CancelledError:
            raise
        except Exception as error:
            await self.abort_for(context, error)
        finally:
            self._close_stream(slot)

    def _signed_steps(
        self, steps: Iterator[gpb.ReplayViewsResponse]
    ) -> list[gpb.ReplayViewsResponse]:
        """The next steps of a replay, each with its event's signed head."""
        batch = list(itertools.islice(steps, REPLAY_BATCH))
        if self.heads is not None:
            for step in batch:
                step.signed_head.CopyFrom(self.heads.of(step.event))
        return batch

    async def StreamGameRecord(
        self, request: gpb.StreamGameRecordRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[gpb.StreamGameRecordResponse]:
        """The signed record in chunks (docs/trust.md, "Streamed records"):
        built and signed once in a worker thread and shared by every stream
        of the game's record (cardroom.server.games.records), then sent a
        chunk at a time, so a game of any length is exported. Counted as a
        stream while open; its memory counted in the records' budget."""
        token = bearer_token(context)
        slot: Slot | None = None
        lease = None
        try:
            operator = self.games.is_operator(token)
            self._refuse_when_full(operator)
            # The same rule as GetAuditLog's (T-LOG), whatever the token.
            game_id, seat, key, estimate = await self._run(
                self._record_reader, request.game_id, token
            )
            slot = self._take_slot(context, game_id, seat, operator, "record")
            lease = await self.records.lease(
                key, estimate, lambda: self._run(self.games.record_bytes, game_id, token)
            )
            when_done(context, lease.release)
            size = record_chunk_bytes()
            total = len(lease.data)
            for offset in range(0, total, size):
                # Read from the lease each time: once the call is over its
                # data is let go, even while this frame is never resumed.
                yield gpb.StreamGameRecordResponse(
                    chunk=lease.data[offset : offset + size], total_bytes=total
                )
        except asyncio.CancelledError:
            raise
        except Exception as error:
            if isinstance(error, grpc.aio.AbortError):
                raise
            await self.abort_for(context, error)
        finally:
            if lease is not None:
                lease.release()
            self._close_stream(slot)

    def _record_reader(self, game_id: str, token: str | None) -> tuple[str, int | None, Any, int]:
        """In a worker thread: the game, the caller's seat in it, what its
        record depends on and about how large it is."""
        loaded, seat = self.games.record_reader(game_id, token)
        key = self.games.reads.record_key(loaded)
        return loaded.game_id, seat, key, estimate_bytes(loaded.stored)

    async def WatchEvents(
        self, request: gpb.WatchEventsRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[gpb.WatchEventsResponse | Outgoing]:
        """The caller's redacted events after the cursor, then live ones
        (cardroom.server.live.feeds: shared, already serialized); ends once the game is
        finished and everything has been sent, or with ABORTED if the reader
        falls too far behind."""
        token = bearer_token(context)
        watch: Watch | None = None
        slot: Slot | None = None
        present = contextlib.ExitStack()  # the seat counts as present meanwhile
        sent = request.after_sequence
        try:
            loaded, viewer, slot = await self._open_stream(
                context, request.game_id, token, request.as_spectator
            )
            present.enter_context(self.games.presence.watching(loaded.game_id, viewer.seat))
            watch = self.feeds.subscribe(loaded, viewer, request.after_sequence, request.narrate)
            while True:  # catch up, a few events at a time, read in a worker thread
                chunk = await asyncio.get_running_loop().run_in_executor(
                    self.catch_up_executor, self._backlog, watch
                )
                if not chunk:
                    break
                for response in chunk:
                    yield response
                    sent = watch.cursor = response.event.sequence
            self.feeds.go_live(watch)
            while True:
                while watch.queue:
                    outgoing = watch.queue.popleft()
                    yield outgoing
                    sent = outgoing.response.event.sequence
                if watch.fell_behind:
                    raise FellBehind(
                        f"this stream fell {self.limits.max_stream_backlog} events behind its "
                        f"game; resume with after_sequence={sent}"
                    )
                if watch.finished:
                    return
                watch.ready.clear()
                await watch.ready.wait()
        except asyncio.CancelledError:
            raise
        except Exception as error:
            if isinstance(error, grpc.aio.AbortError):
                raise
            await self.abort_for(context, error)
        finally:
            present.close()
            if watch is not None:
                self.feeds.unsubscribe(watch)
            self._close_stream(slot)

    def _backlog(self, watch: Watch) -> list[gpb.WatchEventsResponse]:
        """The next events a watcher catches up on, with their signed heads
        (signed here, in the worker thread)."""
        viewer, end = watch.now()
        events = copies(watch.loaded, viewer, watch.cursor, min(end, watch.cursor + BACKLOG_CHUNK))
        heads = self.heads
        told = self.feeds.narrations
        return [
            gpb.WatchEventsResponse(
                event=e,
                signed_head=heads.of(e) if heads else None,
                narration=told.lines(watch.loaded, int(e.sequence) - 1, viewer, serve, e)
                if watch.narrate
                else (),
            )
            for e in events
        ]

    # ------------------------------------------------------- other servers

    def announced(self, game_id: str, version: int) -> None:
        """Another process wrote (the store's subscription, in its thread):
        a watched game is read once and fanned out; others catch up when
        next read."""
        bots = self.bots
        if bots is not None and bots.watches(game_id):  # its bots look again
            self._loop.call_soon_threadsafe(bots.nudge, game_id)
        loaded = self.games.announce(game_id, version)
        # Every write is heard here, this process's own too: only a watched
        # game has anything to do on the loop (``_announced`` catches up and
        # publishes for watchers alone); an unwatched one catches up when
        # next read (its announced version is kept above), and a watcher
        # subscribing later reads the game caught up to it.
        if loaded is not None and self.feeds.watched(game_id):
            self._loop.call_soon_threadsafe(self._announced, game_id, loaded, version)

    def _announced(self, game_id: str, loaded: LoadedGame, version: int) -> None:
        if version > loaded.version:
            self._catch_up(game_id, loaded)
        elif self.feeds.behind(game_id, version):
            # Another read (a view, a clock's reload) caught the cache up
            # before this announcement came: its watchers still need it.
            self.feeds.publish(game_id, loaded)

    def _catch_up(self, game_id: str, loaded: LoadedGame) -> None:
        if not self.feeds.watched(game_id) or game_id in self._catching_up:
            return
        self._catching_up.add(game_id)

        async def catch_up() -> None:
            try:
                await self._run(self.games.cache.catch_up, loaded)
                self.feeds.publish(game_id, loaded)
            except Exception:
                log.warning("catching up game %s failed", game_id, exc_info=True)
            finally:
                self._catching_up.discard(game_id)
                if loaded.announced > loaded.version:  # more came meanwhile
                    self._catch_up(game_id, loaded)

        self._loop.create_task(catch_up())

    def written(self, loaded: LoadedGame, first: int) -> None:
        """This process wrote (in a worker thread): fan the events out, and
        publish them for the relays. With no broker, no watcher of the game
        and no bot of ours waiting on it, there is nobody to tell: the write
        does not wake the event loop for nothing (a hop costs the loop a
        turn). Nothing is missed by skipping it: a watcher is subscribed
        before it catches up and feeds itself up to the game's version when
        it goes live, and a bot registers its nudge before it looks, both on
        the loop, while the events are absorbed before this check."""
        bots = self.bots
        if (
            self.publisher is None
            and not self.feeds.watched(loaded.game_id)
            and not (bots is not None and bots.watches(loaded.game_id))
        ):
            return
        self._loop.call_soon_threadsafe(self._fan_out, loaded, first)

    def _fan_out(self, loaded: LoadedGame, first: int) -> None:
        if self.bots is not None:
            self.bots.nudge(loaded.game_id)
        made: Made = {}  # each copy made once for the watchers and the broker
        self.feeds.publish(loaded.game_id, loaded, made)
        if self.publisher is not None:
            self.publisher.written(loaded, first, made)
