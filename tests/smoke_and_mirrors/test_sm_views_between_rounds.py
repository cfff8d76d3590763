"""What every viewer sees between rounds and once the game is over: no turn
state lingers (nobody has challenged this turn, nobody is swapping; the last
round's table stays on show until the next deal), and the winner is shown
only at the end. A mutant reading ``challenged_this_turn`` as true between
rounds survived every other test."""

from __future__ import annotations

import pytest

from cardroom.domain.kernel import AUDITOR, SPECTATOR, Event, Viewer
from cardroom.domain.smoke_and_mirrors import GAME
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as pb

from .play import RandomGame


def views(game: RandomGame) -> list[pb.View]:
    """Every seat's view of its own fold, and the spectator's and auditor's."""
    seats = [GAME.view(fold, Viewer.of_seat(s)) for s, fold in enumerate(game.folds)]
    return [*seats, GAME.view(game.state, SPECTATOR), GAME.view(game.state, AUDITOR)]


def check_no_turn_state(view: pb.View) -> None:
    assert not view.challenged_this_turn
    assert not view.HasField("swapper")
    assert sum(s.active for s in view.seats) <= 1  # the round is won (or capped)


@pytest.mark.parametrize("seed", range(12))
def test_between_rounds_and_after_the_end_no_turn_state_lingers(seed: int) -> None:
    game = RandomGame(2 + seed % 4, seed, pb.Options(rounds_to_win=2))
    rounds_over = 0

    def after_event(game: RandomGame, e: Event) -> None:
        nonlocal rounds_over
        if not isinstance(e.public, pb.RoundWon):
            return
        rounds_over += 1
        for view in views(game):
            check_no_turn_state(view)
            if game.over:
                assert view.phase == pb.PHASE_OVER and view.HasField("winner")
            else:
                assert view.phase == pb.PHASE_DEALING and not view.HasField("winner")

    game.play(after_event)
    assert game.over and rounds_over >= 2
    for view in views(game):
        check_no_turn_state(view)
        assert view.winner == GAME.winners(game.state)[0]  # type: ignore[index]
