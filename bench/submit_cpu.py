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

import random
import time
import uuid

from google.protobuf import any_pb2

from bench.bots import KIND, LONG, SEATS
from bench.load import Link
from cardroom.domain.table import pack
from cardroom.server.games.application import Games
from cardroom.server.storage.log import GameLog, is_postgres_url
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm

WARM_UP = 20


def _play(games: Games, game_id: str, tokens: list[str], rng: random.Random) -> float:
    """One random legal command, as the bench's bots choose it; its CPU seconds."""
    for token in tokens:
        actions = games.legal_actions(game_id, token)[1]
        if actions:
            command: any_pb2.Any = pack(rng.choice(actions))
            began = time.process_time()
            games.submit(game_id, token, command, uuid.uuid4().hex, None)
            return time.process_time() - began
    raise RuntimeError(f"game {game_id}: no seat can act")


async def cpu_job(link: Link, database: str, commands: int) -> float:
    """This process's CPU seconds per ``Games.submit`` (after a warm-up)."""
    log = GameLog(database)
    try:
        postgres = is_postgres_url(database)
        if not postgres:
            log.hold_exclusively()  # as `cardroom serve` holds a SQLite file
        games = Games(log, refresh="notified" if postgres else "sole_writer")
        game_id = games.create_game(KIND, pack(sm.Options(rounds_to_win=LONG)), SEATS)
        tokens = [games.join(game_id, None, f"bot{seat}")[1] for seat in range(SEATS)]
        games.start(game_id, tokens[0])
        rng = random.Random(1)
        for _ in range(WARM_UP):
            _play(games, game_id, tokens, rng)
        spent = sum(_play(games, game_id, tokens, rng) for _ in range(commands))
        games.close()
        return spent / commands
    finally:
        log.close()
