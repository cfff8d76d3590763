"""Thousands of complete random games: every game ends, every card is in
exactly one place after every event, each player's score is the smiles of
the cards in front of them, and ``legal_actions`` agrees with ``decide``."""

from __future__ import annotations

from collections import Counter

import pytest

from cardroom.domain.kernel import AUDITOR
from cardroom.domain.smile_life import GAME
from cardroom.domain.smile_life.cards import DECK_COUNTS, card
from cardroom.smile_life.v1 import smile_life_pb2 as pb

from .play import RandomGame, check_cards, places
from .support import key, outcome
from .universe import universe

GAMES = 2000


def smiles_in_view(life: pb.Life) -> int:
    """A seat's score read off the auditor's View, card by card (SL-01)."""
    cards = [s.card for s in life.studies] + [s.card for s in life.salaries]
    cards += [
        life.job,
        life.marriage,
        life.adultery,
        "excellence_prize" if life.prize_active else "",
    ]
    for group in (
        life.flirts,
        life.adultery_flirts,
        life.kept_flirts,
        life.children,
        life.pets,
        life.trips,
        life.houses,
        life.distinctions,
        life.specials,
        life.maluses,
    ):
        cards.extend(group)
    total = sum(card(c).smiles for c in cards if c)
    doubled = {"special_rainbow", "special_shooting_star"} <= set(life.specials)
    return total + (card("pet_unicorn").smiles if doubled and "pet_unicorn" in life.pets else 0)


def test_thousands_of_random_games_end_with_every_card_accounted_for() -> None:
    seat_counts: Counter[int] = Counter()
    for seed in range(GAMES):
        game = RandomGame(seed, full=seed % 100 == 0, folds=seed % 10 == 0)
        if seed % 5 == 0:
            game.table.on_event.append(check_cards)
        game.play()
        state = game.table.state
        [ended] = game.table.events_of(pb.GameEnded)
        smiles = [life.smiles() for life in state.lives]
        assert list(ended.smiles) == smiles
        assert dict(places(state)) == DECK_COUNTS
        if seed % 10 == 0:
            view = game.table.view(AUDITOR)
            assert (
                [smiles_in_view(s.life) for s in view.seats]
                == smiles
                == [s.smiles for s in view.seats]
            )
        assert list(ended.winners) == [s for s, n in enumerate(smiles) if n == max(smiles)]
        assert GAME.winners(state) == tuple(ended.winners)
        assert not state.pile
        seat_counts[state.seat_count] += 1
    assert set(seat_counts) == {2, 3, 4, 5}


@pytest.mark.parametrize("seed", range(16))
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
