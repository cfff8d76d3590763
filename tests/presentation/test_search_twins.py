"""The search bot cannot cheat: in twin games that differ only in cards a
seat has not seen (each game's twins, as the heuristic bots are tested),
the search from that seat's own fold makes the same move for the same
seed. The search reads nothing but the fold, which the seat's redacted
stream folds into; so the twins' differences never reach it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import Viewer
from cardroom.domain.presentation import strategy
from cardroom.domain.search.ismcts import Search, Settings, determinizer, strategy_policies
from cardroom.domain.smoke_and_mirrors import GAME as SM
from cardroom.smile_life.v1 import smile_life_pb2 as pb
from tests.silver_dagger.support import Table as SilverTable
from tests.silver_dagger.twins import dealt_twins
from tests.smile_life.twins import decide, play_random, twin_shuffles
from tests.smiles_and_daggers.twins import commitment_twins
from tests.smoke_and_mirrors.twins import Twins

pytestmark = pytest.mark.slow  # a search at every few steps of several twin games

# Enough to exercise sampling, the tree and rollouts; small enough to be quick.
SMALL = Settings(iterations=6, rollout_moves=12, tree_moves=6)


def search(kind: str) -> Search:
    game, det, bot = registry.game(kind), determinizer(kind), strategy(kind)
    assert det is not None and bot is not None
    return Search(game, det, SMALL, *strategy_policies(game, bot, det))


def same_move(kind: str, fold_a: Any, fold_b: Any, seat: int, seed: int) -> bool:
    """The search's move from each twin's fold, for one seed: alike."""
    game = registry.game(kind)
    if len(game.legal_actions(fold_a, seat)) < 2:
        return False
    seats = len(game.view(fold_a, Viewer.of_seat(seat)).seats)
    a = search(kind).choose(fold_a, seat, random.Random(seed), seats=seats)
    b = search(kind).choose(fold_b, seat, random.Random(seed), seats=seats)
    assert a.move == b.move
    assert a.iterations == b.iterations == SMALL.iterations
    return True


class SearchingTwins(Twins):
    """Smoke & Mirrors twins, asking the search at every few steps."""

    searched = 0

    def check_view(self) -> None:
        super().check_view()
        if self.me is not None and self.commands % 3 == 0:
            self.searched += same_move(SM.kind, self.fold_a, self.fold_b, self.me, self.commands)


@pytest.mark.parametrize("seed", range(3))
def test_smoke_and_mirrors_twins_get_the_same_search_move(seed: int) -> None:
    twins = SearchingTwins(3, Viewer.of_seat(seed % 3), seed)
    twins.run(max_commands=60)
    assert twins.searched > 0


@pytest.mark.parametrize("who", [0, 1])
def test_silver_dagger_twins_get_the_same_search_move(who: int) -> None:
    game, viewer, searched = registry.game("silver-dagger"), Viewer.of_seat(who), 0
    for seed in range(2):
        deals_a, deals_b, sent = dealt_twins(seed, 3, viewer, commands=40)
        a = SilverTable(3, deals=deals_a, check=False)
        b = SilverTable(3, deals=deals_b, check=False)
        a.deal_next()
        b.deal_next()
        for step, (seat, command) in enumerate(sent):
            a.send(seat, command)
            b.send(seat, command)
            if step % 4:
                continue
            fold_a = fold_b = game.initial_state(game.options_type(), 3)
            for e in a.log:
                fold_a = game.evolve(fold_a, e.redact(viewer))
            for e in b.log:
                fold_b = game.evolve(fold_b, e.redact(viewer))
            assert a.state != b.state  # the twins do differ
            searched += same_move("silver-dagger", fold_a, fold_b, who, step)
    assert searched > 0


def test_smile_life_twins_get_the_same_search_move() -> None:
    game, searched = registry.game("smile-life"), 0
    for seed in range(2):
        rng = random.Random(seed)
        options = pb.Options(draw_pile_size=rng.randint(10, 30), river_variant=seed % 2 == 1)
        played = play_random(seed, 3, options)
        viewer = Viewer.of_seat(seed % 3)
        for shuffle in twin_shuffles(played, viewer, rng):
            state_a = state_b = fold_a = fold_b = game.initial_state(played.options, 3)
            differed = False
            for index, (seat, command) in enumerate(played.steps):
                step_b = (None, shuffle) if index == 0 else (seat, command)
                events_a, events_b = decide(state_a, (seat, command)), decide(state_b, step_b)
                for e_a, e_b in zip(events_a, events_b, strict=True):
                    state_a, state_b = game.evolve(state_a, e_a), game.evolve(state_b, e_b)
                    fold_a = game.evolve(fold_a, e_a.redact(viewer))
                    fold_b = game.evolve(fold_b, e_b.redact(viewer))
                differed |= state_a != state_b
                if searched < 4 * (seed + 1) and viewer.seat is not None:
                    searched += same_move("smile-life", fold_a, fold_b, viewer.seat, index)
            assert differed
            break
    assert searched > 0


@pytest.mark.parametrize("who", [0, 1])
def test_smiles_and_daggers_twins_get_the_same_search_move(who: int) -> None:
    viewer, searched = Viewer.of_seat(who), 0
    for seed in range(3):
        for step in commitment_twins(4, viewer, seed, max_commands=150):
            table_a, table_b = step.a.folds[viewer], step.b.folds[viewer]
            assert step.a.full.game_state != step.b.full.game_state
            if tables.legal_actions(table_a, who):
                searched += same_move(
                    "smiles-and-daggers", table_a.game_state, table_b.game_state, who, seed
                )
    assert searched > 0
