"""Smile Life twins (tests/smile_life/twins.py: game B is game A with one
card a viewer never sees swapped) told, drawn, labelled and decided by the
narrator and the heuristic bot: the viewer's words, scene, choices and the
bot's picks must be the same in both games."""

from __future__ import annotations

import random

import pytest

from cardroom.domain.kernel import SPECTATOR, Viewer
from cardroom.domain.presentation import narrator, strategy
from cardroom.domain.smile_life import GAME
from cardroom.smile_life.v1 import smile_life_pb2 as pb
from tests.presentation.local import NAMES
from tests.smile_life.twins import Played, decide, play_random, twin_shuffles

TOLD = narrator("smile-life")
BOT = strategy("smile-life")


def replay_told(a: Played, b_shuffle: pb.ShuffleDeck, viewer: Viewer, seed: int) -> bool:
    """Replay A's commands in A and in B; False when the twins never differed."""
    assert BOT is not None
    names = NAMES[: a.seat_count]
    state_a = state_b = fold_a = fold_b = GAME.initial_state(a.options, a.seat_count)
    differed = False
    for index, (seat, command) in enumerate(a.steps):
        step_b = (None, b_shuffle) if index == 0 else (seat, command)
        events_a, events_b = decide(state_a, (seat, command)), decide(state_b, step_b)
        differed |= [s.value for e in events_a for s in e.secrets] != [
            s.value for e in events_b for s in e.secrets
        ]
        for e_a, e_b in zip(events_a, events_b, strict=True):
            seen_a, seen_b = e_a.redact(viewer), e_b.redact(viewer)
            assert TOLD.event(fold_a, seen_a, names) == TOLD.event(fold_b, seen_b, names)
            state_a, state_b = GAME.evolve(state_a, e_a), GAME.evolve(state_b, e_b)
            fold_a, fold_b = GAME.evolve(fold_a, seen_a), GAME.evolve(fold_b, seen_b)
        view_a, view_b = GAME.view(fold_a, viewer), GAME.view(fold_b, viewer)
        assert TOLD.scene(view_a, names, viewer.seat) == TOLD.scene(view_b, names, viewer.seat)
        if viewer.seat is None:
            continue
        legal_a = GAME.legal_actions(fold_a, viewer.seat)
        legal_b = GAME.legal_actions(fold_b, viewer.seat)
        labels = [TOLD.action(c, view_a, names) for c in legal_a]
        assert labels == [TOLD.action(c, view_b, names) for c in legal_b]
        if legal_a:
            pick_a = BOT.choose(view_a, legal_a, viewer.seat, random.Random(seed + index))
            pick_b = BOT.choose(view_b, legal_b, viewer.seat, random.Random(seed + index))
            assert pick_a == pick_b
    return differed


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_smile_life_twins_are_told_drawn_and_decided_alike(seats: int) -> None:
    tried = 0
    for seed in range(4):
        rng = random.Random(seed)
        options = pb.Options(draw_pile_size=rng.randint(10, 30), river_variant=seed % 2 == 1)
        played = play_random(seed, seats, options)
        for who in [*range(seats), None]:
            viewer = SPECTATOR if who is None else Viewer.of_seat(who)
            for shuffle in twin_shuffles(played, viewer, rng):
                assert replay_told(played, shuffle, viewer, seed)
                tried += 1
                break
    assert tried >= 2 * seats, tried
