"""The server's own bots (AddBot): one asyncio task per bot seat, in the
server process, each playing through the public gRPC API with its own seat
token only, exactly as ``cardroom bot`` does (``cardroom.client.bots``).

Design (docs/design.md, "Server-side bots"): the runner connects to the
server it runs in over a private Unix socket (a directory only this user may
enter), so its calls take the same path as any client's (the token check,
the redaction, the presence of its seat) whatever TLS the public port asks
for. A bot seat is marked in its event (``SeatTaken.bot_strategy``) and its
token is derived from the server's key (``Commands.bot_token``), so after a
restart :meth:`BotRunner.resume` finds the unfinished games with bot seats
and plays them again: nothing about the bots is kept outside the events.
With several servers sharing a store each would play the same bots; its
moves are submitted with ``expected_version``, so the second server's move
at a version is refused (ABORTED) and it looks again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Iterable

from cardroom.client import Client
from cardroom.client.bots import DEFAULT_THINK_MS, strategy_for
from cardroom.client.bots.runner import Bot

log = logging.getLogger(__name__)

Key = tuple[str, int]


class BotRunner:
    def __init__(
        self,
        client: Client,
        token_of: Callable[[str, int], str],
        think_ms: int = DEFAULT_THINK_MS,
    ) -> None:
        self.client = client
        self.token_of = token_of
        # A search bot's time a move; it thinks in a worker process
        # (cardroom.client.bots.search), never on this event loop.
        self.think_ms = think_ms
        self.tasks: dict[Key, asyncio.Task[None]] = {}
        self.finished: set[Key] = set()  # played to the end (tests read this)
        self.resuming: asyncio.Task[None] | None = None
        self.sweeping: asyncio.Task[None] | None = None  # abandoned games

    def start(self, game_id: str, seat: int, strategy: str) -> None:
        """Play the bot in this seat until its game ends (once per seat)."""
        key = (game_id, seat)
        if key in self.tasks and not self.tasks[key].done():
            return
        self.tasks[key] = asyncio.create_task(
            self._play(game_id, seat, strategy), name=f"bot {game_id} seat {seat}"
        )

    async def _play(self, game_id: str, seat: int, strategy: str) -> None:
        token = self.token_of(game_id, seat)
        try:
            view = await self.client.view(game_id, token)
            bot = Bot(
                self.client,
                game_id,
                token,
                seat,
                strategy_for(view.table.kind, strategy, think_ms=self.think_ms),
                random.Random(f"{game_id}:{seat}"),
            )
            await bot.play()
            self.finished.add((game_id, seat))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("the bot in seat %d of game %s stopped", seat, game_id, exc_info=True)

    def resume(self, seats: Iterable[tuple[str, int, str]]) -> None:
        """Play these bot seats (game id, seat, strategy) again: after a
        start, every bot seat of the games not finished (``Games.bot_seats``)."""
        for game_id, seat, strategy in seats:
            self.start(game_id, seat, strategy)

    async def stop(self) -> None:
        tasks = list(self.tasks.values())
        for extra in (self.resuming, self.sweeping):
            if extra is not None:
                tasks.append(extra)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.client.close()
