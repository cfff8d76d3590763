"""The command path without gRPC: CPU per ``Games.submit`` in a process of
its own, on a fresh store of the backend, beside the raw save.

``bench cpu`` reads the served ``SubmitCommand`` against a health ``Check``
plus one raw eventsourcing save. This figure splits it: what the rules,
the seals, the chain, the append and the cache cost (the same bots' play,
called directly, ``ListLegalActions`` outside the windows), so the rest of
the served figure is the transport and its threads. Every thread of the
process counts (the checkpoint and warming threads too), as on the server.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from google.protobuf import any_pb2

from bench.bots import KIND, LONG, SEATS
from bench.load import Link
from cardroom.domain.table import pack
from cardroom.server.games.application import Games
from cardroom.server.storage.log import GameLog, is_postgres_url
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm

WARM_UP = 20


def next_command(
    games: Games, game_id: str, tokens: list[str], rng: random.Random
) -> tuple[str, any_pb2.Any]:
    """The seat that may act and one random legal command of its, as the
    bench's bots choose them (the ``ListLegalActions`` part, not measured)."""
    for token in tokens:
        actions = games.legal_actions(game_id, token)[1]
        if actions:
            return token, pack(rng.choice(actions))
    raise RuntimeError(f"game {game_id}: no seat can act")


def submit(games: Games, game_id: str, token: str, command: any_pb2.Any) -> None:
    """The measured part: one command through ``Games.submit``."""
    games.submit(game_id, token, command, uuid.uuid4().hex, None)


@contextmanager
def started_game(database: str) -> Iterator[tuple[Games, str, list[str]]]:
    """The bench's 3-seat Smoke & Mirrors game on a fresh store, started,
    as ``cardroom serve`` would hold it; its ``Games`` and seat tokens."""
    log = GameLog(database)
    try:
        postgres = is_postgres_url(database)
        if not postgres:
            log.hold_exclusively()  # as `cardroom serve` holds a SQLite file
        games = Games(log, refresh="notified" if postgres else "sole_writer")
        game_id = games.create_game(KIND, pack(sm.Options(rounds_to_win=LONG)), SEATS)
        tokens = [games.join(game_id, None, f"bot{seat}")[1] for seat in range(SEATS)]
        games.start(game_id, tokens[0])
        try:
            yield games, game_id, tokens
        finally:
            games.close()
    finally:
        log.close()


def _play(
    games: Games, game_id: str, tokens: list[str], rng: random.Random, pause: float = 0.0
) -> float:
    """One random legal command after ``pause`` seconds idle; its CPU seconds."""
    if pause:
        time.sleep(pause)
    token, command = next_command(games, game_id, tokens, rng)
    began = time.process_time()
    submit(games, game_id, token, command)
    return time.process_time() - began


async def cpu_job(link: Link | None, database: str, commands: int, pause_us: int = 0) -> float:
    """This process's CPU seconds per ``Games.submit`` (after a warm-up),
    each command ``pause_us`` µs after the last."""
    with started_game(database) as (games, game_id, tokens):
        rng = random.Random(1)
        for _ in range(WARM_UP):
            _play(games, game_id, tokens, rng)
        pause = pause_us / 1e6
        spent = sum(_play(games, game_id, tokens, rng, pause) for _ in range(commands))
    return spent / commands


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=800)
    parser.add_argument("--pause-ms", type=float, default=0.0, help="idle before each command")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = str(Path(folder) / "cardroom.sqlite3")
        seconds = asyncio.run(cpu_job(None, database, args.commands, int(args.pause_ms * 1000)))
    print(f"{seconds * 1e6:.0f} µs of CPU per Games.submit, {args.pause_ms:g} ms pauses")


if __name__ == "__main__":
    main()
