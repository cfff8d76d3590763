"""What every viewer sees once the game is over, and between turns: no
challenge lingers on the table, nobody is awaited, the turn's recovery flag is
reset, and the winners are shown only at the end."""

from __future__ import annotations

import pytest

from cardroom.domain.kernel import AUDITOR, SPECTATOR, Viewer
from cardroom.domain.smiles_and_daggers import GAME
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb

from .play import RandomGame


def views(game: RandomGame) -> list[pb.View]:
    table = game.table
    seats = [GAME.view(table.fold(s), Viewer.of_seat(s)) for s in range(table.seat_count)]
    return [*seats, GAME.view(table.state, SPECTATOR), GAME.view(table.state, AUDITOR)]


@pytest.mark.parametrize("seed", range(16))
def test_after_the_end_no_challenge_or_turn_state_lingers(seed: int) -> None:
    game = RandomGame(seed).play()
    for view in views(game):
        assert view.phase == pb.PHASE_OVER
        assert not view.HasField("challenge")
        assert list(view.awaiting) == []
        assert list(view.winners) == list(GAME.winners(game.table.state) or ())
        assert view.winners
        assert sum(s.hand_count for s in view.seats) == sum(
            GAME.view(game.table.state, AUDITOR).seats[s].hand_count
            for s in range(game.table.seat_count)
        )


@pytest.mark.parametrize("seed", range(8))
def test_at_every_turn_start_the_table_is_clear_and_nobody_has_won(seed: int) -> None:
    game = RandomGame(seed)
    for _ in range(5000):
        if game.over:
            break
        game.step()
        if game.table.state.phase.value != "turn" or game.table.state.challenge is not None:
            continue
        for view in views(game):
            assert not view.HasField("challenge")
            assert not view.winners
            assert list(view.awaiting) == [view.current_seat]
    assert game.over
