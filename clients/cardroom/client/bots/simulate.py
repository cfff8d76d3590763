"""Many bot games played through a server: who wins, how long games last,
how many commands a second the server takes.

The line-up (one bot kind per seat) turns one seat further every game, so
every kind plays every seat equally often and the seat order cannot favour
one. Win rates carry a 95% Wilson interval; a shared win counts for every
winner.
"""

from __future__ import annotations

import asyncio
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from google.protobuf.message import Message

from cardroom.client import Client
from cardroom.client.bots import DEFAULT_THINK_MS, label, strategy_for
from cardroom.client.bots.runner import Bot
from cardroom.domain.presentation import seat_label

Z95 = 1.959964


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Rate:
    wins: int
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def __str__(self) -> str:
        low, high = self.interval
        return f"{self.games:6d} {self.wins:6d}  {self.rate:7.1%}  [{low:6.1%}, {high:6.1%}]"


@dataclass(frozen=True)
class Played:
    game_id: str
    lineup: tuple[str, ...]  # the bot kind in each seat
    winners: tuple[int, ...]
    commands: int
    events: int
    seconds: float


def lineup_of(bots: Sequence[str], index: int) -> tuple[str, ...]:
    """The line-up of game ``index``: ``bots`` turned ``index`` seats on."""
    shift = index % len(bots)
    return (*bots[len(bots) - shift :], *bots[: len(bots) - shift])


@dataclass
class Report:
    kind: str
    bots: tuple[str, ...]
    played: list[Played] = field(default_factory=list)
    seconds: float = 0.0
    parallel: int = 1

    def by_seat(self) -> list[Rate]:
        return [
            Rate(sum(seat in p.winners for p in self.played), len(self.played))
            for seat in range(len(self.bots))
        ]

    def by_bot(self) -> dict[str, Rate]:
        rates: dict[str, Rate] = {}
        for bot in dict.fromkeys(self.bots):
            wins = games = 0
            for p in self.played:
                for seat, kind in enumerate(p.lineup):
                    if kind == bot:
                        games += 1
                        wins += seat in p.winners
            rates[bot] = Rate(wins, games)
        return rates

    @property
    def commands(self) -> int:
        return sum(p.commands for p in self.played)

    @property
    def commands_per_second(self) -> float:
        return self.commands / self.seconds if self.seconds else 0.0

    def render(self) -> str:
        seats = len(self.bots)
        lines = [
            f"{self.kind}: {len(self.played)} games of {seats} seats; bots "
            f"{', '.join(self.bots)}, turned one seat on each game",
            "",
            f"{'by bot':<12} {'seats':>6} {'wins':>6}  {'win rate':>7}  95% interval"
            f"   (fair share {1 / seats:.1%})",
        ]
        lines += [f"{bot:<12} {rate}" for bot, rate in self.by_bot().items()]
        lines += ["", f"{'by seat':<12} {'games':>6} {'wins':>6}  {'win rate':>7}  95% interval"]
        lines += [f"{seat_label(seat):<12} {rate}" for seat, rate in enumerate(self.by_seat())]
        if self.played:
            commands = [p.commands for p in self.played]
            events = [p.events for p in self.played]
            lines += [
                "",
                f"game length: {statistics.mean(commands):.1f} bot commands on average "
                f"(median {statistics.median(commands):g}, {min(commands)} to {max(commands)}), "
                f"{statistics.mean(events):.1f} events",
            ]
        lines.append(
            f"throughput: {self.commands} bot commands in {self.seconds:.1f} s = "
            f"{self.commands_per_second:.1f} commands/s ({self.parallel} games at a time)"
        )
        lines.append("a shared win counts for every winner")
        return "\n".join(lines)


async def play_one(
    client: Client,
    kind: str,
    lineup: Sequence[str],
    seed: str,
    *,
    options: Message | None = None,
    operator_token: str | None = None,
    think_ms: int = DEFAULT_THINK_MS,
) -> Played:
    """One game with these bots in these seats, played to its end; a search
    bot thinks ``think_ms`` a move."""
    game_id = await client.create_game(
        kind, seat_count=len(lineup), options=options, operator_token=operator_token
    )
    bots = [
        await Bot.join(
            client,
            game_id,
            f"{label(bot, think_ms=think_ms)} {seat + 1}",
            strategy_for(kind, bot, think_ms=think_ms),
            random.Random(f"{seed}:{seat}"),
            seat=seat,
        )
        for seat, bot in enumerate(lineup)
    ]
    started = time.perf_counter()
    outcomes = await asyncio.gather(*(bot.play() for bot in bots))
    return Played(
        game_id=game_id,
        lineup=tuple(lineup),
        winners=outcomes[0].winners,
        commands=sum(o.commands for o in outcomes),
        events=outcomes[0].events,
        seconds=time.perf_counter() - started,
    )


async def simulate(
    client: Client,
    kind: str,
    bots: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    parallel: int = 4,
    options: Message | None = None,
    operator_token: str | None = None,
    on_game: Callable[[Played], None] | None = None,
    think_ms: int = DEFAULT_THINK_MS,
) -> Report:
    """Play ``games`` games, ``parallel`` at a time; ``on_game`` hears of each
    as it ends (a progress bar). A search bot thinks ``think_ms`` a move."""
    for bot in dict.fromkeys(bots):
        strategy_for(kind, bot, think_ms=think_ms)  # an unknown bot fails before any game
    report = Report(kind, tuple(bots), parallel=max(1, parallel))
    gate = asyncio.Semaphore(report.parallel)
    results: list[Played | None] = [None] * games

    async def one(index: int) -> None:
        async with gate:
            played = await play_one(
                client,
                kind,
                lineup_of(bots, index),
                f"{seed}:{index}",
                options=options,
                operator_token=operator_token,
                think_ms=think_ms,
            )
        results[index] = played
        if on_game is not None:
            on_game(played)

    started = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(games)))
    report.seconds = time.perf_counter() - started
    report.played = [p for p in results if p is not None]
    return report
