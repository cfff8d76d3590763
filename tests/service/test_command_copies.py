"""What a command returns is what the log serves: a seat's SubmitCommand
answer holds, event for event and byte for byte, the copies that seat is
served of the same events afterwards (Games.submit builds them from the
batch it wrote, without reading the stored bytes back)."""

from __future__ import annotations

import random

from cardroom.domain.kernel import Viewer
from cardroom.domain.table import pack
from cardroom.server.games.application import Games
from cardroom.server.storage.log import GameLog
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN


def test_every_commands_answer_is_the_copies_its_seat_is_served_later(database: str) -> None:
    log = GameLog(database)
    try:
        games = Games(log, operator_token=OPERATOR_TOKEN)
        game_id = games.create_game("smoke-and-mirrors", None, 3)
        tokens = [games.join(game_id, None, f"P{i}")[1] for i in range(3)]
        games.start(game_id, tokens[0])
        rng = random.Random(7)
        answered = 0
        for number in steps(400, "the game"):
            movers = [
                (seat, token, actions)
                for seat, token in enumerate(tokens)
                if (actions := games.legal_actions(game_id, token)[1])
            ]
            if not movers or answered >= 120:
                break
            seat, token, actions = rng.choice(movers)
            before = games.version(game_id)
            version, events = games.submit(
                game_id, token, pack(rng.choice(actions)), f"c{number}", None
            )
            loaded = games.load(game_id)
            served = games.copies(loaded, Viewer.of_seat(seat), after=before, upto=version)
            assert [e.SerializeToString(deterministic=True) for e in events] == [
                e.SerializeToString(deterministic=True) for e in served
            ]
            assert all(e.event_hash for e in events)
            answered += 1
        assert answered >= 100  # a long stretch of play, its dealer's events included
    finally:
        log.close()
