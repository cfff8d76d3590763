"""The search bot (cardroom.domain.search): every game's determinizer gives
complete states that agree with the seat's own view, the search plays legal
moves from the seat's fold alone, and twins the seat cannot tell apart get
the same move for the same seed."""

from __future__ import annotations

import random
from collections import Counter
from functools import partial
from typing import Any

import pytest
from google.protobuf.message import Message

from cardroom.domain import registry
from cardroom.domain.kernel import Viewer
from cardroom.domain.presentation import strategy
from cardroom.domain.search.ismcts import Search, Settings, determinizer, strategy_policies
from tests.presentation.local import LocalGame

KINDS = sorted(registry.games())

# The view fields that show cards: where the seat's own view leaves one
# blank (a card it has not seen), the sample may show one; where it shows
# cards, the sample shows the same (and, for a list, maybe more).
HIDDEN = {
    "smoke-and-mirrors": {"hand", "act", "swap_taken"},
    "silver-dagger": set(),  # the view shows only what the seat knows: equal
    "smiles-and-daggers": {"hand", "hand_visible", "rank", "orientation"},
    "smile-life": {"known_cards", "known_pile"},
}


def agrees(mine: Message, sample: Message, hidden: set[str], where: str = "view") -> None:
    """``sample`` (the sample rendered for the seat) shows everything
    ``mine`` (the seat's view) does, and differs only where cards are hidden."""
    for fd in mine.DESCRIPTOR.fields:
        a, b = getattr(mine, fd.name), getattr(sample, fd.name)
        at = f"{where}.{fd.name}"
        if fd.name in hidden:
            if fd.is_repeated:
                key = (lambda m: m.SerializeToString()) if fd.message_type else (lambda v: v)
                assert not Counter(map(key, a)) - Counter(map(key, b)), f"{at}: {a} not in {b}"
            elif fd.message_type is not None:
                if mine.HasField(fd.name):
                    assert a == b, at
            else:
                assert a in (fd.default_value, b), f"{at}: {a} != {b}"
            continue
        if fd.is_repeated and fd.message_type is not None:
            assert len(a) == len(b), f"{at}: {len(a)} != {len(b)}"
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                agrees(x, y, hidden, f"{at}[{i}]")
        elif fd.message_type is not None and not fd.is_repeated:
            assert mine.HasField(fd.name) == sample.HasField(fd.name), at
            agrees(a, b, hidden, at)
        else:
            assert a == b, f"{at}: {a} != {b}"


def table_size(kind: str) -> int:
    game = registry.game(kind)
    return max(game.min_seats, min(game.max_seats, 3))


def heuristics(kind: str, seats: int) -> list[Any]:
    found = strategy(kind)
    assert found is not None
    return [found] * seats


@pytest.mark.parametrize("kind", KINDS)
def test_every_sample_agrees_with_the_seats_view_and_places_every_card(kind: str) -> None:
    game, det = registry.game(kind), determinizer(kind)
    assert det is not None, f"{kind} has no determinize.DETERMINIZER"
    seats = table_size(kind)
    checked = 0
    for seed in range(3):
        local = LocalGame(kind, seats, seed)
        strategies, rngs = heuristics(kind, seats), [random.Random(s) for s in range(seats)]
        rng = random.Random(seed)
        while not local.over and local.commands < 400:
            local.step(strategies, rngs)
            if local.commands % 7:
                continue
            for seat in range(seats):
                viewer = Viewer.of_seat(seat)
                fold = local.folds[viewer].game_state
                sample = det.sample(fold, seat, rng)
                agrees(game.view(fold, viewer), game.view(sample, viewer), HIDDEN[kind])
                # The sample is complete: the auditor's rendering of it has
                # as many cards in every place as the real game's.
                full = game.view(local.full.game_state, Viewer("auditor"))
                assert _shape(game.view(sample, Viewer("auditor"))) == _shape(full)
                checked += 1
    assert checked > 20


def _shape(view: Message) -> Any:
    """How many values each repeated field holds, everywhere in a view."""
    out = []
    for fd in view.DESCRIPTOR.fields:
        value = getattr(view, fd.name)
        if fd.is_repeated:
            out.append((fd.name, len(value)))
            if fd.message_type is not None:
                out.extend((fd.name, _shape(v)) for v in value)
        elif fd.message_type is not None:
            out.append((fd.name, _shape(value)))
    return tuple(out)


def first_choice(kind: str, at_least: int) -> tuple[Any, int, list[Message]]:
    """The first fold, seat and legal moves of a heuristic game (seed 1, 3
    seats) where that seat has ``at_least`` moves to choose from."""
    game = registry.game(kind)
    local = LocalGame(kind, 3, 1)
    rngs = [random.Random(s) for s in range(3)]
    strategies = heuristics(kind, 3)
    while not local.over:
        local.step(strategies, rngs)
        for seat in range(3):
            fold = local.folds[Viewer.of_seat(seat)].game_state
            legal = game.legal_actions(fold, seat)
            if len(legal) >= at_least:
                return fold, seat, legal
    raise AssertionError(f"no choice of {at_least} moves in a whole game")


def test_the_flat_search_overrules_the_heuristic_only_on_paired_evidence() -> None:
    kind = "smiles-and-daggers"
    game, det, bot = registry.game(kind), determinizer(kind), strategy(kind)
    assert det is not None and bot is not None
    search = Search(game, det, Settings(iterations=0), *strategy_policies(game, bot, det))
    # Differences that go either way, or a single one, are no evidence...
    assert not search._paired_better([0.1, -0.1, 0.1, -0.1])
    assert not search._paired_better([1.0])
    # ...steady ones are.
    assert search._paired_better([0.2, 0.3, 0.25, 0.2])
    # And with no budget the search plays the heuristic's own move.
    fold, seat, legal = first_choice(kind, 2)
    view = game.view(fold, Viewer.of_seat(seat))
    expected = bot.choose(view, legal, seat, random.Random(7))
    result = search.choose(fold, seat, random.Random(7), seats=3)
    assert result.move == expected and result.iterations == 0


def test_the_clock_is_asked_between_rollouts_and_a_cut_iteration_is_dropped() -> None:
    """A move's time is bounded by the clock within a rollout, not an
    iteration (which plays out every move in contention): a stop that comes
    mid-iteration ends the search at once, the cut iteration not counted."""
    kind = "smiles-and-daggers"
    game, det, bot = registry.game(kind), determinizer(kind), strategy(kind)
    assert det is not None and bot is not None
    search = Search(game, det, Settings(iterations=50), *strategy_policies(game, bot, det))
    fold, seat, legal = first_choice(kind, 3)
    asked = 0

    def stop(after: int) -> bool:
        nonlocal asked
        asked += 1
        return asked > after

    # Stopped before the first iteration's second rollout: nothing
    # complete, so the heuristic's move.
    view = game.view(fold, Viewer.of_seat(seat))
    expected = bot.choose(view, legal, seat, random.Random(7))
    result = search.choose(fold, seat, random.Random(7), stop=partial(stop, 1), seats=3)
    assert (result.move, result.iterations, asked) == (expected, 0, 2)
    # Stopped in the second iteration: one counted, every move played out
    # once in it and nothing of the cut one kept.
    asked = 0
    result = search.choose(
        fold, seat, random.Random(7), stop=partial(stop, len(legal) + 2), seats=3
    )
    assert result.iterations == 1
    assert all(child.visits == 1 for child in result.root.children.values())
