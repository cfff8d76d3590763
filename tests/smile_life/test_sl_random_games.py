"""Thousands of complete random games: every game ends, every card is in
exactly one place after every event, each player's score is the smiles of
the cards in front of them, and ``legal_actions`` agrees with ``decide``."""

from __future__ import annotations

from collections import Counter

from cardroom.smile_life.v1 import smile_life_pb2 as pb
from domain.smile_life import GAME

from .play import RandomGame, check_cards

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
