"""Row 2: does a command cost more late in a long game than early on?

Bots play one game (a large ``rounds_to_win``) up to about 1,000 events;
each SubmitCommand is timed by its position. The p50 of the last fifth of
the commands against the p50 of the first fifth: a server that does work
proportional to the game's length per command shows a ratio well above 1.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bench import load
from bench.bots import LONG, Table, play, seated_game
from bench.config import Run
from bench.report import Row, count, ms, p50, times
from bench.servers import Server


@dataclass(frozen=True)
class LongGame:
    """The long game, for the restart rows: its id, its seats' tokens, its length."""

    game_id: str
    tokens: list[str]
    events: int


def what(events: int) -> str:
    return f"command cost late vs early in one {count(events)}-event game"


async def build(address: str, events: int, seed: int) -> Table:
    async with load.client(address) as client:
        table = await seated_game(client, rounds_to_win=LONG)
        return await play(client, table, random.Random(seed), until_version=events)


async def measure(run: Run, server: Server) -> tuple[list[Row], LongGame]:
    table = await build(server.address, run.scale.long_game_events, seed=2)
    seconds = [c.seconds for c in table.commands]
    fifth = max(1, len(seconds) // 5)
    early, late = p50(seconds[:fifth]), p50(seconds[-fifth:])
    row = Row(
        f"{what(table.version)} (p50 of the first and last {fifth} commands)",
        f"late {ms(late)}",
        f"early {ms(early)}",
        times(late / early),
        "≤ 1.1x",
    )
    return [row], LongGame(table.game_id, table.tokens, table.version)
