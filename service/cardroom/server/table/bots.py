"""The server's own bots (AddBot): one asyncio task per bot seat, in the
server process, each playing through the public gRPC API with its own seat
token only, as ``cardroom bot`` does (``cardroom.client.bots``).

Design (docs/design.md, "Server-side bots"): the runner connects to the
server it runs in over a private Unix socket (a directory only this user may
enter), so its calls take the same path as any client's (the token check,
the redaction, the presence of its seat) whatever TLS the public port asks
for. A bot seat is marked in its event (``SeatTaken.bot_strategy``) and its
token is derived from the server's key (``Commands.bot_token``), so after a
restart the runner finds the unfinished games with bot seats and plays them
again: nothing about the bots is kept outside the events.

What keeps one client's bots from starving everyone else's (issue 34):

* **No stream while waiting.** A bot looks at its game with unary calls and
  then waits for a nudge: the server tells the runner "game X was written"
  (nothing more), and the bot looks again through the API. So a thousand
  bots waiting for games that never start hold no stream, and the one
  connection they share never runs out of them. A search bot reads its
  seat's feed (for its fold) in a short stream while it moves, and closes it.
* **Fair turns.** Every look or move takes a turn of :class:`FairShares`:
  a few at once, at most half of them one client's (the client that added
  the bot; after a restart, its game), served round-robin; a search takes a
  worker of the search pool the same way. And a bot moves at most once per
  ``move_seconds``, so fast bots cannot flood the event loop.
* **One runner per bot.** With several servers on one store a game's bots
  are played by the server holding its lease (cardroom.server.table.leases);
  every ``lease_seconds`` each server looks for bot games nobody plays (a
  server died) and takes them over.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import enum
import logging
import math
import os
import random
from collections.abc import Awaitable, Callable
from typing import Any

from google.protobuf.message import Message

from cardroom.client import CardroomError, Client, Conflict, RuleBroken
from cardroom.client.bots import DEFAULT_THINK_MS, strategy_for
from cardroom.client.bots.search import SearchBot, pool
from cardroom.client.follow import Follower, backoff, transient
from cardroom.domain.presentation import Strategy
from cardroom.server.table.leases import Leases, SoleLeases
from cardroom.server.table.shares import FairShares

log = logging.getLogger(__name__)

Key = tuple[str, int]

MAX_STEPS = 200_000  # looks and moves of one bot: a rules bug cannot loop it forever
RETRIES = 30  # calls in a row that may fail while the server is busy or away
# How long a bot waits for a nudge before looking again anyway, in a game
# not started yet (a thousand waiting bots make few calls).
OPEN_WAIT_SECONDS = 300.0


class Step(enum.Enum):
    MOVED = "moved"
    AGAIN = "again"  # the game moved on meanwhile: look again now
    WAIT = "wait"  # nothing to do until the game changes
    OVER = "over"


def half_share(capacity: int) -> FairShares:
    """``capacity`` turns, of which one client holds at most half."""
    return FairShares(capacity, reserve=capacity - max(1, capacity // 2))


class BotRunner:
    def __init__(
        self,
        client: Client,
        token_of: Callable[[str, int], str],
        think_ms: int = DEFAULT_THINK_MS,
        *,
        move_seconds: float = 0.1,
        wait_seconds: float = 30.0,
        turns: int = 4,
        leases: Leases | None = None,
        lease_seconds: float = 10.0,
        bot_games: Callable[[set[Key]], Awaitable[list[str]]] | None = None,
        bot_seats: Callable[[str], Awaitable[list[tuple[int, str]]]] | None = None,
    ) -> None:
        self.client = client
        self.token_of = token_of
        # A search bot's time a move; it thinks in a worker process
        # (cardroom.client.bots.search), never on this event loop.
        self.think_ms = think_ms
        self.move_seconds = move_seconds
        # A waiting bot looks again at least this often, nudged or not (a
        # nudge missed while the store's feed reconnects; its seat's presence).
        self.wait_seconds = wait_seconds
        self.turns = half_share(turns)
        self.search = half_share(os.cpu_count() or 1)
        self.leases: Leases = leases or SoleLeases()
        self.lease_seconds = lease_seconds
        # The unfinished games with a bot seat not played here (these keys
        # aside), from the game list; and a game's bot seats and strategies.
        self.bot_games = bot_games
        self.bot_seats = bot_seats
        self.tasks: dict[Key, asyncio.Task[None]] = {}
        self.finished: set[Key] = set()  # played to the end (tests read this)
        self.waiting: set[Key] = set()  # looked, and wait for a change (tests read this)
        self.leased: set[str] = set()
        self._lease_lock = asyncio.Lock()
        self._nudges: dict[str, asyncio.Event] = {}
        self.resuming: asyncio.Task[None] | None = None
        self.sweeping: asyncio.Task[None] | None = None  # abandoned games
        self.keeping: asyncio.Task[None] | None = None  # leases and takeovers

    # ------------------------------------------------------------ control

    def start(self, game_id: str, seat: int, strategy: str, client: str | None = None) -> None:
        """Play the bot in this seat until its game ends (once per seat), if
        this server holds (or wins) its game's lease. ``client``: who added
        it, whose share its turns count against (None: its game's own)."""
        key = (game_id, seat)
        if key in self.tasks and not self.tasks[key].done():
            return
        self.tasks[key] = asyncio.create_task(
            self._run(game_id, seat, strategy, client or f"game {game_id}"),
            name=f"bot {game_id} seat {seat}",
        )

    def nudge(self, game_id: str) -> None:
        """The game was written (here or, on PostgreSQL, by any server):
        its waiting bots look again. Carries nothing but the game's id."""
        event = self._nudges.pop(game_id, None)
        if event is not None:
            event.set()

    def watches(self, game_id: str) -> bool:
        """Whether a bot here waits on this game (read from other threads
        before they hop to the event loop with a nudge)."""
        return game_id in self._nudges

    @property
    def running(self) -> set[Key]:
        return {key for key, task in self.tasks.items() if not task.done()}

    async def keep(self) -> None:
        """Every ``lease_seconds``: drop every bot when the leases are lost,
        then take over the bot games no server plays. Runs until cancelled;
        at once when no other server can hold a lease (SQLite)."""
        while self.leases.shared:
            await asyncio.sleep(self.lease_seconds)
            try:
                await self.look_after_leases()
            except Exception:
                log.warning("looking after the bots' leases failed", exc_info=True)

    async def look_after_leases(self) -> None:
        """Drop every bot when the leases are lost; then play the bot seats
        of the games whose lease is (or becomes) this server's."""
        if not await self.leases.check():
            lost = self.leased
            log.warning("the bots' leases were lost; %d games' bots stop here", len(lost))
            self.leased = set()
            await self._cancel([t for (g, _), t in self.tasks.items() if g in lost])
        if self.bot_games is None or self.bot_seats is None:
            return
        for game_id in await self.bot_games(self.running):
            if not await self._lease(game_id):  # the lease first: a game is read only then
                continue
            seats = await self.bot_seats(game_id)
            for seat, strategy in seats:
                self.start(game_id, seat, strategy)
            if not seats:  # it ended meanwhile
                await self._give_back(game_id)

    async def stop(self) -> None:
        tasks = list(self.tasks.values())
        tasks.extend(t for t in (self.resuming, self.sweeping, self.keeping) if t is not None)
        await self._cancel(tasks)
        with contextlib.suppress(Exception):
            await self.leases.close()
        await self.client.close()

    @staticmethod
    async def _cancel(tasks: list[asyncio.Task[Any]]) -> None:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------ leases

    async def _lease(self, game_id: str) -> bool:
        async with self._lease_lock:
            if game_id in self.leased:
                return True
            if await self.leases.take(game_id):
                self.leased.add(game_id)
                return True
            return False

    async def _done_with(self, game_id: str, seat: int) -> None:
        """Give the game's lease back once none of its bots plays here."""
        others = [t for (g, s), t in self.tasks.items() if g == game_id and s != seat]
        if not any(not t.done() for t in others):
            await self._give_back(game_id)

    async def _give_back(self, game_id: str) -> None:
        async with self._lease_lock:
            if game_id in self.leased:
                self.leased.discard(game_id)
                await self.leases.give_back(game_id)

    # -------------------------------------------------------------- play

    async def _run(self, game_id: str, seat: int, strategy: str, client: str) -> None:
        key = (game_id, seat)
        try:
            if not await self._lease(game_id):
                return  # another server plays this game's bots
            await self._play(game_id, seat, strategy, client)
            self.finished.add(key)
            await self._done_with(game_id, seat)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("the bot in seat %d of game %s stopped", seat, game_id, exc_info=True)
        finally:
            self.waiting.discard(key)
            if self.tasks.get(key) is asyncio.current_task():
                del self.tasks[key]  # done: nothing to keep but ``finished``

    async def _play(self, game_id: str, seat: int, strategy: str, client: str) -> None:
        token = self.token_of(game_id, seat)
        async with self.turns.turn(client):
            kind = (await self._retrying(lambda: self.client.view(game_id, token))).table.kind
        chosen = strategy_for(kind, strategy, think_ms=self.think_ms)
        if isinstance(chosen, SearchBot):
            chosen = dataclasses.replace(chosen, run=self._searcher(client))
        bot = _Seat(self, game_id, seat, token, chosen, client)
        last_move = -math.inf
        loop = asyncio.get_running_loop()
        try:
            for _ in range(MAX_STEPS):
                nudged = self._nudges.setdefault(game_id, asyncio.Event())
                step = await self._retrying(bot.step)
                if step is Step.OVER:
                    return
                if step is Step.MOVED:
                    self.waiting.discard((game_id, seat))
                    wait = last_move + self.move_seconds - loop.time()
                    last_move = loop.time()
                    if wait > 0:
                        await asyncio.sleep(wait)  # pace: at most a move a move_seconds
                elif step is Step.WAIT:
                    self.waiting.add((game_id, seat))
                    # Before the start no seat is absent: a look now and then
                    # only covers a nudge lost.
                    wait = self.wait_seconds if bot.started else OPEN_WAIT_SECONDS
                    # asyncio.timeout, not wait_for: Python 3.11's wait_for
                    # swallows a cancellation that comes as the nudge does
                    # (gh-86296), and the stopped bot would wait on for good.
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(wait):
                            await nudged.wait()
            raise RuntimeError(f"the bot in seat {seat} of game {game_id} made no end of it")
        finally:
            await bot.follower.close()
            if not any(g == game_id and s != seat for g, s in self.running):
                self._nudges.pop(game_id, None)

    async def _retrying(self, call: Callable[[], Awaitable[Any]]) -> Any:
        for failures in range(RETRIES + 1):
            try:
                return await call()
            except CardroomError as error:
                if not transient(error) or failures == RETRIES:
                    raise
                await asyncio.sleep(backoff(failures))
        raise AssertionError("unreachable")  # pragma: no cover

    def _searcher(self, client: str) -> Callable[..., Awaitable[tuple[Message, int]]]:
        """Runs a search in the shared pool on one of ``client``'s workers."""

        async def run(fn: Callable[..., tuple[Message, int]], *args: Any) -> tuple[Message, int]:
            async with self.search.turn(client):
                return await asyncio.get_running_loop().run_in_executor(pool(), fn, *args)

        return run


@dataclasses.dataclass
class _Seat:
    """One bot's looks and moves, each a turn of its client's share."""

    runner: BotRunner
    game_id: str
    seat: int
    token: str
    strategy: Strategy | SearchBot
    owner: str
    started: bool = False  # the game had started when last looked at
    rng: random.Random = dataclasses.field(init=False)
    follower: Follower = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(f"{self.game_id}:{self.seat}")
        # A search bot's fold: its seat's own feed, read only while it moves.
        self.follower = Follower(self.runner.client, self.game_id, self.token, reconnects=RETRIES)

    async def step(self) -> Step:
        """One look at the game, and a move if it is this seat's."""
        client, game_id, token = self.runner.client, self.game_id, self.token
        async with self.runner.turns.turn(self.owner):
            version, actions = await client.legal_actions_at(game_id, token)
            if not actions:
                view = await client.view(game_id, token)
                table = view.table
                self.started = table.started
                if table.finished:
                    return Step.OVER
                if not table.started and all(table.player_names):
                    with contextlib.suppress(RuleBroken):  # another seat started it
                        await client.start(game_id, token)
                        return Step.AGAIN
                return Step.AGAIN if view.version > version else Step.WAIT
            search = self.strategy
            if not isinstance(search, SearchBot):
                view = await client.view(game_id, token)
                if view.version != version:
                    return Step.AGAIN
                choice = search.choose(view.game, actions, self.seat, self.rng)
                return await self._act(version, choice)
            story = await self._fold(version)
        if story is None:
            return Step.AGAIN
        # Thought out on a worker of the client's share, holding no turn here.
        table = story.table
        choice = await search.choose(
            table.game_state, self.seat, table.seat_count, list(actions), self.rng
        )
        async with self.runner.turns.turn(self.owner):
            return await self._act(version, choice)

    async def _act(self, version: int, choice: Message) -> Step:
        try:
            await self.runner.client.act(self.game_id, self.token, choice, expected_version=version)
        except (Conflict, RuleBroken):
            return Step.AGAIN  # another seat moved first: look again
        return Step.MOVED

    async def _fold(self, version: int) -> Any:
        """The seat's story told up to ``version`` (None if the game moved
        on), read in a stream that is closed again at once."""
        follower = self.follower
        try:
            if not await follower.until(version) or follower.feed.cursor != version:
                return None
        finally:
            await follower.close()
        story = follower.feed.story
        return story if story is not None and story.table is not None else None
