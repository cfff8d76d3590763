"""The decider, for every registered game: ``legal_actions`` lists exactly
what ``decide`` accepts over the game's command universe, from the seat's
own fold as from the full state; a refused command changes nothing and
names a documented rule (or is malformed); every decision point has a
default choice among the legal ones; and every game ends, under random
play, heuristic play, and with seats leaving or timing out, and every
viewer's view names its winners."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest
from google.protobuf.message import Message

from cardroom.domain.kernel import Actor, DealersPick, MalformedCommand, RuleViolation
from cardroom.domain.presentation import strategy
from tests.bounded import steps
from tests.contract.cases import KINDS, options_for, seat_counts
from tests.contract.games import CONTRACTS
from tests.contract.play import Played
from tests.table.leaving import LeavingGame

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"


def documented(kind: str) -> str:
    return (RULES / f"{kind}.md").read_text() + (RULES / "table.md").read_text()


def refusal(game: Any, state: Any, seat: int, command: Message) -> Exception | None:
    try:
        game.decide(state, Actor.of_seat(seat), command)
    except (RuleViolation, MalformedCommand) as error:
        return error
    return None


def check_decisions(played: Played, every: int) -> int:
    """At every ``every``-th command: the contract for each seat. Returns
    how many commands were asked about."""
    game, state, kind = played.game, played.state, played.kind
    if played.commands % every or played.over or game.chance_needed(state) is not None:
        return 0
    contract, rules = CONTRACTS[kind], documented(kind)
    canonical = contract.canonical
    asked = 0
    for seat in range(played.seats):
        legal = played.legal(seat)
        listed = [canonical(c) for c in legal]
        assert listed == [canonical(c) for c in game.legal_actions(state, seat)]
        assert len(set(listed)) == len(listed), "an action is listed twice"
        for command in legal:
            assert refusal(game, state, seat, command) is None, command
        before = copy.deepcopy(state)
        for command in contract.universe(state, seat):
            if canonical(command) in listed:
                continue
            error = refusal(game, state, seat, command)
            assert error is not None, f"seat {seat} may {command} but it is not listed"
            if isinstance(error, RuleViolation):
                assert error.rule and error.rule in rules, f"{error.rule!r} is not documented"
            asked += 1
        assert state == before, "a refused command changed the state"
        if legal:
            default = game.default_action(played.fold(seat), seat, departed=False)
            options = default.options if isinstance(default, DealersPick) else (default,)
            assert {canonical(o) for o in options} <= set(listed), default
    return asked


@pytest.mark.parametrize("kind", KINDS)
def test_legal_actions_are_exactly_what_decide_accepts(kind: str) -> None:
    asked = 0
    for seats in seat_counts(kind)[:3]:
        options = options_for(kind, seats, 40 + seats)
        if options is None:
            continue
        played = Played(kind, seats, 40 + seats, options)

        def check(p: Played) -> None:
            nonlocal asked
            asked += check_decisions(p, every=7)

        played.play(check)
    assert asked > 100


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(3))
def test_legal_actions_are_exactly_what_decide_accepts_at_every_step(kind: str, seed: int) -> None:
    seats = random.Random(seed).choice(seat_counts(kind))
    options = options_for(kind, seats, seed)
    if options is None:
        return
    asked = 0

    def check(p: Played) -> None:
        nonlocal asked
        asked += check_decisions(p, every=1)

    Played(kind, seats, seed, options).play(check)
    assert asked > 0


@pytest.mark.parametrize("kind", KINDS)
def test_every_game_ends_under_random_and_heuristic_play(kind: str) -> None:
    heuristic = strategy(kind)
    assert heuristic is not None
    for seats in seat_counts(kind):
        options = options_for(kind, seats, seats)
        if options is None:
            continue
        for lineup in ([], [heuristic] * seats, [heuristic, None] * seats):
            played = Played(kind, seats, seats, options).play(strategies=lineup)
            winners = played.game.winners(played.state)
            assert winners and set(winners) <= set(range(seats))
            for viewer, fold in played.folds.items():
                assert named_winners(played.game.view(fold, viewer)) == sorted(winners)


def named_winners(view: Message) -> list[int]:
    """The winners a finished game's view names (``winners``, or one ``winner``)."""
    fields = view.DESCRIPTOR.fields_by_name
    if "winners" in fields:
        return sorted(view.winners)  # type: ignore[attr-defined]
    return [view.winner]  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", KINDS)
def test_every_game_ends_with_seats_leaving_and_timing_out(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seat 0 leaves early, seat 1 lets its clock run out at every decision,
    the others play at random: the game ends with a winner still playing,
    and every default the departed seat is given is one of its legal
    actions (the table plays it in the batch, so nobody else asks)."""
    seats = next(s for s in seat_counts(kind) if s >= 3 and options_for(kind, s, 0) is not None)
    rng = random.Random(7)
    game = LeavingGame(kind, seats, seed=7)
    rules = game.table.game
    decided = rules.default_action
    departed_defaults: list[Any] = []

    def legal_default(state: Any, seat: int, *, departed: bool) -> Any:
        choice = decided(state, seat, departed=departed)
        if departed:
            legal = rules.legal_actions(state, seat)
            options = choice.options if isinstance(choice, DealersPick) else (choice,)
            assert all(option in legal for option in options), (choice, legal)
            departed_defaults.append(choice)
        return choice

    monkeypatch.setattr(rules, "default_action", legal_default)
    for _ in steps(20_000, f"{kind} with seats leaving"):
        if game.table.finished:
            break
        if game.commands == 5:
            game.leave(0)
            continue
        seat = rng.choice(game.awaited())
        if seat == 1:
            game.time_out(seat)
        else:
            game.act(seat, rng.choice(game.legal(seat)))
    table = game.table
    assert table.finished and 0 in table.resigned
    assert table.winners and set(table.winners) <= set(range(1, seats))
    assert game.checked_defaults > 0
    # In Smoke & Mirrors a departed seat leaves the round as it is reached (SM-11).
    if kind != "smoke-and-mirrors":
        assert departed_defaults, "the departed seat was never given a default"
