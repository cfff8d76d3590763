"""One bot in one seat, playing until the game ends.

Everything it does goes through the API with its own seat token: it reads
its seat's feed (WatchEvents), its legal actions and its view, and submits
one of those actions, chosen by a strategy from that view alone (a search
bot: from its seat's fold of that same feed, in a worker process). So a bot
can no more see a hidden card than a person at the table can. It starts the
game once every seat is taken, and it rides out a server restart by
reconnecting with the same token.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass

from google.protobuf.message import Message

from cardroom.client import CardroomError, Client, Conflict, RuleBroken
from cardroom.client.bots import DEFAULT_THINK_MS, label, strategy_for
from cardroom.client.bots.search import SearchBot
from cardroom.client.feed import Feed
from cardroom.client.follow import Follower, Listener, backoff, transient
from cardroom.client.sessions import BotSeat
from cardroom.domain.presentation import Strategy
from cardroom.v1 import game_service_pb2 as gpb

MAX_COMMANDS = 10_000
# Calls in a row that may fail while the server is away.
RETRIES = 30


class NotASeat(ValueError):
    """The token is not a seat token of this game."""


@dataclass(frozen=True)
class Outcome:
    seat: int
    commands: int
    winners: tuple[int, ...]
    names: tuple[str, ...]
    events: int


class Bot:
    def __init__(
        self,
        client: Client,
        game_id: str,
        token: str,
        seat: int,
        strategy: Strategy | SearchBot,
        rng: random.Random,
        *,
        listener: Listener | None = None,
        max_commands: int = MAX_COMMANDS,
    ) -> None:
        self.client, self.game_id, self.token, self.seat = client, game_id, token, seat
        self.strategy, self.rng = strategy, rng
        self.max_commands = max_commands
        self.follower = Follower(client, game_id, token, listener=listener, reconnects=RETRIES)
        self.commands = 0

    @classmethod
    async def join(
        cls,
        client: Client,
        game_id: str,
        name: str,
        strategy: Strategy | SearchBot,
        rng: random.Random,
        *,
        seat: int | None = None,
        listener: Listener | None = None,
    ) -> Bot:
        """Take a seat (the lowest free one unless ``seat``) and play it."""
        handle = await client.join(game_id, name, seat)
        return cls(client, game_id, handle.token, handle.seat, strategy, rng, listener=listener)

    @classmethod
    async def with_token(
        cls,
        client: Client,
        game_id: str,
        token: str,
        strategy: Strategy | SearchBot,
        rng: random.Random,
        *,
        listener: Listener | None = None,
    ) -> Bot:
        """Play the seat this token holds (say, after a restart)."""
        view = await client.view(game_id, token)
        if view.response.viewer_kind != gpb.VIEWER_KIND_SEAT:
            raise NotASeat(f"the token is not a seat token of game {game_id}")
        return cls(client, game_id, token, view.response.seat, strategy, rng, listener=listener)

    @property
    def feed(self) -> Feed:
        return self.follower.feed

    async def play(self) -> Outcome:
        """Play until the game is over; the outcome as this seat saw it."""
        try:
            failures = 0
            for _ in range(self.max_commands * 4 + 1_000):
                try:
                    if not await self._step():
                        return self._outcome()
                    failures = 0
                except CardroomError as error:
                    if not transient(error) or failures >= RETRIES:
                        raise
                    await asyncio.sleep(backoff(failures))
                    failures += 1
            raise RuntimeError(f"bot in seat {self.seat} made no end of game {self.game_id}")
        finally:
            await self.follower.close()

    async def _step(self) -> bool:
        """One move, or one wait for the game to change; False once it is over."""
        version, actions = await self.client.legal_actions_at(self.game_id, self.token)
        if actions:
            if self.commands >= self.max_commands:
                raise RuntimeError(f"bot in seat {self.seat} reached {self.max_commands} commands")
            if isinstance(self.strategy, SearchBot):
                choice = await self._search(version, list(actions))
                if choice is None:
                    return True  # the game moved on meanwhile
            else:
                view = await self.client.view(self.game_id, self.token)
                if view.version != version:
                    return True  # the game moved on between the two calls
                choice = self.strategy.choose(view.game, actions, self.seat, self.rng)
            try:
                await self.client.act(self.game_id, self.token, choice, expected_version=version)
            except (Conflict, RuleBroken):
                return True  # another seat moved first: look again
            self.commands += 1
            return True
        follower = self.follower
        if not await follower.until(version) or follower.feed.finished:
            return False
        feed = follower.feed
        if not feed.started and feed.seats_free == 0:
            try:
                await self.client.start(self.game_id, self.token)
                return True
            except RuleBroken:
                pass  # another seat started it
        return await follower.next() is not None

    async def _search(self, version: int, actions: list[Message]) -> Message | None:
        """The search bot's move at ``version``, from its own feed's fold."""
        assert isinstance(self.strategy, SearchBot)
        follower = self.follower
        if not await follower.until(version) or follower.feed.cursor != version:
            return None
        story = follower.feed.story
        if story is None or story.table is None:
            return None
        table = story.table
        return await self.strategy.choose(
            table.game_state, self.seat, table.seat_count, actions, self.rng
        )

    def _outcome(self) -> Outcome:
        feed = self.follower.feed
        table = feed.story.table if feed.story is not None else None
        return Outcome(
            seat=self.seat,
            commands=self.commands,
            winners=tuple(table.winners) if table is not None else (),
            names=feed.names,
            events=feed.cursor,
        )


BOT_NAMES = ("Babbage", "Curie", "Dirac", "Euler", "Fermat", "Gauss", "Hopper", "Noether")


def bot_name(index: int, bot: str, think_ms: int = DEFAULT_THINK_MS) -> str:
    """A bot's name at the table, saying how it plays: "Babbage (heuristic
    bot)", "Curie (search bot, 500 ms)". No comma outside the brackets, so
    a list of players reads right ("Ada, Babbage (heuristic bot) and ...")."""
    how = f"search bot, {think_ms} ms" if bot == "search" else label(bot, think_ms=think_ms)
    return f"{BOT_NAMES[index % len(BOT_NAMES)]} ({how})"


async def seat_bots(client: Client, game_id: str, count: int, bot: str) -> tuple[BotSeat, ...]:
    """Seat ``count`` bots of one kind in the lowest free seats."""
    seated = []
    for i in range(count):
        handle = await client.join(game_id, bot_name(i, bot))
        seated.append(BotSeat(handle.seat, handle.token, bot))
    return tuple(seated)


async def play_bots(
    client: Client, game_id: str, kind: str, seats: Sequence[BotSeat], seed: int | None = None
) -> list[Outcome]:
    """Play these seats to the end of the game, each bot with its own token."""
    bots = [
        Bot(
            client,
            game_id,
            seat.token,
            seat.seat,
            strategy_for(kind, seat.bot),
            random.Random(None if seed is None else f"{seed}:{seat.seat}"),
        )
        for seat in seats
    ]
    return list(await asyncio.gather(*(bot.play() for bot in bots)))
