"""Hundreds of complete random games end with every card in exactly one
place and every seat's fold knowing exactly the cards it has seen, truly;
``legal_actions`` agrees exactly with ``decide``."""

from __future__ import annotations

from collections import Counter

import pytest

from cardroom.domain.kernel import Viewer
from cardroom.domain.silver_dagger import GAME
from cardroom.domain.silver_dagger.state import Phase
from cardroom.domain.silver_dagger.view import awaiting
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

from .play import RandomGame, brisk, schemer, uniform
from .support import check_cards, check_known_cards, command_universe, key, outcome

GAMES = 500  # every seat count over a hundred times; more games only lengthen the suite
# Mostly the schemer, whose rounds end by calls: hundreds of games stay
# cheap. Uniform play (the service's bots) runs in the other tests here and
# in every game-generic test of the service.
POLICIES = [schemer] * 19 + [brisk]
SEAT_COUNTS = [2, 3, 2, 4, 2, 3]


def check_folds(game: RandomGame) -> None:
    """After every command: the 52 cards are each in one place, and every
    fold knows exactly what its viewer has seen, truly."""
    table = game.table
    check_cards(table.state)
    dealt = isinstance(table.log[-1].public, pb.RoundDealt) if table.log else False
    for viewer, fold in table.folds.items():
        check_known_cards(fold, table.state, viewer)
        if dealt:
            assert all(s.card is None for s in (*fold.deck, *fold.out)), viewer


@pytest.mark.slow
def test_hundreds_of_random_games_end_with_every_card_and_every_memory_true() -> None:
    seat_counts: Counter[int] = Counter()
    endings: Counter[int] = Counter()
    for seed in range(GAMES):
        policy = POLICIES[seed % len(POLICIES)]
        seats = SEAT_COUNTS[seed % len(SEAT_COUNTS)]
        game = RandomGame(seed, seats, policy, check=False, spectator=seed % 10 == 3)
        game.play(check_folds)
        state = game.table.state
        assert state.phase is Phase.OVER and state.round == 4
        assert state.winners is not None and len(state.winners) == 1
        assert min(state.totals) == state.totals[state.winners[0]]
        seat_counts[state.seat_count] += 1
        endings.update(e.reason for e in game.table.events_of(pb.RoundEnded))
    assert set(seat_counts) == {2, 3, 4}
    assert set(endings) == {pb.ROUND_END_REASON_CALL, pb.ROUND_END_REASON_DECK_DEPLETED}


@pytest.mark.parametrize("seed", range(12))
def test_legal_actions_are_exactly_the_commands_decide_accepts(seed: int) -> None:
    """At every other decision point: the awaited seat's legal actions are
    exactly the commands ``decide`` accepts, from its own fold as from the
    full state; another seat has none and every command is refused to it."""
    policy = uniform if seed % 2 else brisk
    game = RandomGame(10_000 + seed, 2 + seed % 3, policy, check=False, spectator=False)

    def agree(game: RandomGame) -> None:
        table = game.table
        if GAME.chance_needed(table.state) is not None or game.commands % 2:
            return
        universe = command_universe(table)
        waiting = awaiting(table.state)
        others = [s for s in range(table.seat_count) if s not in waiting]
        for seat in [*waiting, *others[:1]]:
            legal = table.legal(seat)
            accepted = [c for c in universe if outcome(table.state, seat, c)[0] == "ok"]
            assert sorted(map(key, legal)) == sorted(map(key, accepted))
            assert list(map(key, GAME.legal_actions(table.state, seat))) == list(map(key, legal))
            assert len(set(map(key, legal))) == len(legal) < 200
            assert bool(legal) == (seat in waiting)

    agree(game)
    game.play(agree)


def test_views_render_for_everyone_at_every_step_of_a_game() -> None:
    game = RandomGame(42, 4, uniform)

    def render(game: RandomGame) -> None:
        for viewer in game.table.folds:
            view = game.table.view(viewer)
            assert len(view.seats) == 4
            if isinstance(viewer, Viewer) and viewer.seat is None:
                assert all(
                    c.card == pb.CARD_UNSPECIFIED or c.public for s in view.seats for c in s.village
                )

    game.play(render)
