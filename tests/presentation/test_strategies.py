"""The bots' judgement: every game's heuristic strategy picks legal moves,
ends its games, beats random play clearly, and decides from its own view
only (twin games it cannot tell apart get the same decisions)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import Viewer
from cardroom.domain.presentation import RANDOM, Strategy, strategy
from tests.presentation.local import LocalGame
from tests.smiles_and_daggers.twins import commitment_twins
from tests.smoke_and_mirrors.twins import Twins

KINDS = sorted(registry.games())
SM = registry.game("smoke-and-mirrors")


def heuristic(kind: str) -> Strategy:
    found = strategy(kind)
    assert found is not None, f"{kind} has no cardroom.domain.<game>.strategy"
    return found


def table_size(kind: str) -> int:
    game = registry.game(kind)
    return max(game.min_seats, min(game.max_seats, 3))


@pytest.mark.parametrize("kind", KINDS)
def test_a_heuristic_bot_wins_far_more_than_its_share_against_random_bots(kind: str) -> None:
    seats, games, wins = table_size(kind), 60, 0
    for seed in range(games):
        me = seed % seats  # every seat in turn
        lineup = [heuristic(kind) if s == me else RANDOM for s in range(seats)]
        wins += me in LocalGame(kind, seats, seed).play(lineup).winners
    assert wins / games > 2 / seats, f"{wins} wins in {games} games of {seats}"


@pytest.mark.parametrize("kind", KINDS)
def test_heuristic_bots_alone_at_a_table_always_finish_the_game(kind: str) -> None:
    game = registry.game(kind)
    for seats in range(game.min_seats, game.max_seats + 1):
        options = game.options_type()
        for flag in ("allow_two_players", "allow_six_players"):  # every seat count allowed
            if flag in options.DESCRIPTOR.fields_by_name:
                setattr(options, flag, True)
        for seed in range(4):
            played = LocalGame(kind, seats, seed, options=options).play([heuristic(kind)] * seats)
            assert played.over and played.winners is not None


class DecidingTwins(Twins):
    """The Smoke & Mirrors twins, asking the viewer's strategy what it
    would do in each: it cannot see the difference, so it must not act on it."""

    def check_view(self) -> None:
        super().check_view()
        if self.me is None:
            return
        legal_a = SM.legal_actions(self.fold_a, self.me)
        if not legal_a:
            return
        legal_b = SM.legal_actions(self.fold_b, self.me)
        view_a, view_b = SM.view(self.fold_a, self.viewer), SM.view(self.fold_b, self.viewer)
        seed = self.rng.random()
        pick_a = heuristic(SM.kind).choose(view_a, legal_a, self.me, random.Random(seed))
        pick_b = heuristic(SM.kind).choose(view_b, legal_b, self.me, random.Random(seed))
        assert pick_a == pick_b


@settings(max_examples=15, deadline=None)
@given(seats=st.integers(2, 5), seed=st.integers(0, 2**32 - 1), who=st.integers(0, 4))
def test_the_smoke_and_mirrors_bot_decides_alike_in_twins_it_cannot_tell_apart(
    seats: int, seed: int, who: int
) -> None:
    twins = DecidingTwins(seats, Viewer.of_seat(who % seats), seed)
    twins.run(max_commands=120)


@pytest.mark.parametrize("who", [0, 1, 2])
def test_the_smiles_and_daggers_bot_decides_alike_in_twins_it_cannot_tell_apart(who: int) -> None:
    viewer, decided = Viewer.of_seat(who), 0
    for seed in range(4):
        for step in commitment_twins(4, viewer, seed):
            table_a, table_b = step.a.folds[viewer], step.b.folds[viewer]
            legal_a = tables.legal_actions(table_a, who)
            if not legal_a:
                continue
            legal_b = tables.legal_actions(table_b, who)
            view_a, view_b = tables.view(table_a, viewer), tables.view(table_b, viewer)
            bot = heuristic("smiles-and-daggers")
            pick_a = bot.choose(view_a, legal_a, who, random.Random(seed))
            assert pick_a == bot.choose(view_b, legal_b, who, random.Random(seed))
            decided += 1
    assert decided > 0
