"""Two writers on one database (two servers' worth of Games): a command
decided on a state another writer has just changed is never applied on top
of it. With expected_version it is ABORTED; without, it is decided afresh."""

from __future__ import annotations

from typing import Any

import pytest
from google.protobuf import any_pb2

from cardroom.domain.kernel import NotYourTurn
from cardroom.server.games.application import Games
from cardroom.server.storage.log import GameLog, VersionConflict
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from tests.conftest import OPERATOR_TOKEN
from tests.service.helpers import deal, skull, star, swirl

HANDS = [
    [star(1), swirl(2), skull(5)],
    [star(1), swirl(1), skull(5)],
    [star(0), swirl(3), skull(0)],
]


def packed(message: Any) -> any_pb2.Any:
    a = any_pb2.Any()
    a.Pack(message)
    return a


@pytest.fixture
def writers(database: str) -> Any:
    first = Games(GameLog(database), operator_token=OPERATOR_TOKEN)
    second = Games(GameLog(database), operator_token=OPERATOR_TOKEN)
    yield first, second
    first.log.close()
    second.log.close()


def game(first: Games, second: Games) -> tuple[str, list[str]]:
    game_id = first.create_game(
        "smoke-and-mirrors", None, 3, [packed(deal(0, first=HANDS))], OPERATOR_TOKEN
    )
    tokens = [first.join(game_id, None, f"P{i}")[1] for i in range(3)]
    first.start(game_id, tokens[0])
    second.view(game_id, None, None)  # the second writer has the game loaded too
    return game_id, tokens


def interleave(first: Games, second: Games, game_id: str, token: str) -> None:
    """Make the first writer append right after the second one decides."""
    deciding = second.commands.decide

    def decide_then_lose_the_race(*args: Any) -> Any:
        envelopes = deciding(*args)
        second.commands.decide = deciding  # type: ignore[method-assign]
        first.submit(game_id, token, packed(sm.PerformAct(cards=[star(1)])), "first", None)
        return envelopes

    second.commands.decide = decide_then_lose_the_race  # type: ignore[method-assign]


def acts(games: Games, game_id: str) -> int:
    log = games.audit_log(game_id, OPERATOR_TOKEN)
    return sum(e.event.Is(sm.ActPerformed.DESCRIPTOR) for e in log)


def test_a_racing_command_with_expected_version_is_aborted(writers: Any) -> None:
    first, second = writers
    game_id, tokens = game(first, second)
    version = second.version(game_id)
    interleave(first, second, game_id, tokens[0])
    with pytest.raises(VersionConflict):
        second.submit(game_id, tokens[0], packed(sm.PerformAct(cards=[star(1)])), "second", version)
    assert acts(first, game_id) == acts(second, game_id) == 1


def test_a_racing_command_without_expected_version_is_decided_again(writers: Any) -> None:
    first, second = writers
    game_id, tokens = game(first, second)
    interleave(first, second, game_id, tokens[0])
    with pytest.raises(NotYourTurn):  # re-decided on the new state: seat 0 already acted
        second.submit(game_id, tokens[0], packed(sm.PerformAct(cards=[star(1)])), "second", None)
    assert acts(first, game_id) == acts(second, game_id) == 1
    log = second.audit_log(game_id, OPERATOR_TOKEN)
    assert [e.sequence for e in log] == list(range(1, len(log) + 1))
