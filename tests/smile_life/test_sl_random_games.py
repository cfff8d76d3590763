"""Thousands of complete random games: every game ends, every card is in
exactly one place after every event, each player's score is the smiles of
the cards in front of them, and ``legal_actions`` agrees with ``decide``."""

from __future__ import annotations

from collections import Counter

import pytest

from cardroom.smile_life.v1 import smile_life_pb2 as pb
from domain.smile_life import GAME

from .play import RandomGame, check_cards
from .support import key, outcome
from .universe import universe

GAMES = 2000


def test_thousands_of_random_games_end_with_every_card_accounted_for() -> None:
    seat_counts: Counter[int] = Counter()
    for seed in range(GAMES):
        game = RandomGame(seed, full=seed % 50 == 0, folds=seed % 10 == 0)
        if seed % 5 == 0:
            game.table.on_event.append(check_cards)
        game.play()
        state = game.table.state
        [ended] = game.table.events_of(pb.GameEnded)
        smiles = [life.smiles() for life in state.lives]
        assert list(ended.smiles) == smiles
        assert list(ended.winners) == [s for s, n in enumerate(smiles) if n == max(smiles)]
        assert GAME.winners(state) == tuple(ended.winners)
        assert not state.pile
        seat_counts[state.seat_count] += 1
    assert set(seat_counts) == {2, 3, 4, 5}


@pytest.mark.parametrize("seed", range(24))
def test_legal_actions_are_exactly_the_commands_decide_accepts(seed: int) -> None:
    opts = pb.Options(draw_pile_size=12 + 2 * seed, river_variant=seed % 4 == 1)
    game = RandomGame(50_000 + seed, seat_count=2 + seed % 4, opts=opts)

    def agree(game: RandomGame) -> None:
        table = game.table
        for seat in range(table.seat_count):
            legal = table.legal(seat)
            assert len({key(a) for a in legal}) == len(legal)
            full = GAME.legal_actions(table.state, seat)
            assert list(map(key, full)) == list(map(key, legal))
            if not legal and seed % 2:
                continue  # half the games ask only the seat that may act
            accepted = [
                c for c in universe(table.state, seat) if outcome(table.state, seat, c)[0] == "ok"
            ]
            assert sorted(set(map(key, legal))) == sorted(set(map(key, accepted)))

    agree(game)
    game.play(agree)
