"""Resigning (T-RESIGN), for every game: random games in which seats resign
at random points still end, keep every card in exactly one place, never
name a resigned seat among the winners (unless every seat left), and pass
the audit; the default choice made for a resigned seat is the one its own
fold gives, so it reveals nothing."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import Actor, RuleViolation, Viewer
from cardroom.trust import commitments
from cardroom.trust.audit import audit_events
from cardroom.trust.envelopes import to_event
from cardroom.v1 import table_pb2 as tpb
from tests.bounded import steps
from tests.trust.harness import TrustedGame


def _sm(state: Any) -> None:
    from tests.smoke_and_mirrors.support import ALL_CARDS, accounted_cards

    if state.round:
        assert accounted_cards(state) == ALL_CARDS


def _sd(state: Any) -> None:
    from tests.smiles_and_daggers.play import check_cards

    check_cards(SimpleNamespace(state=state), None)  # type: ignore[arg-type]


def _sl(state: Any) -> None:
    from tests.smile_life.play import check_cards

    check_cards(SimpleNamespace(state=state), None)  # type: ignore[arg-type]


def _sv(state: Any) -> None:
    from tests.silver_dagger.support import check_cards

    check_cards(state)


CARDS: dict[str, Callable[[Any], None]] = {
    "smoke-and-mirrors": _sm,
    "smiles-and-daggers": _sd,
    "smile-life": _sl,
    "silver-dagger": _sv,
}


def test_every_game_has_a_card_check_here() -> None:
    assert set(CARDS) == set(registry.games())


class ResigningGame:
    """A game played at random through the trust harness, each seat choosing
    from its own fold; ``resign_at`` maps a command count to a seat that
    resigns then (if it still plays)."""

    def __init__(self, kind: str, seats: int, seed: int) -> None:
        self.game = registry.game(kind)
        self.rng = random.Random(seed)
        self.trusted = TrustedGame(self.game)
        self.trusted.create(seats)
        self.trusted.seat_everyone()
        self.seats = seats
        self.folds = [self.trusted.fold_for(Viewer.of_seat(s)) for s in range(seats)]
        self.seen = len(self.trusted.envelopes)
        self.defaults_checked = 0

    @property
    def table(self) -> tables.Table:
        assert self.trusted.table is not None
        return self.trusted.table

    def send(self, seat: int, command: Any) -> None:
        self.trusted.execute(Actor.of_seat(seat), command, f"c{len(self.trusted.stored)}")
        for s in range(self.seats):
            for envelope in self.trusted.envelopes[self.seen :]:
                mine = commitments.redact(envelope, Viewer.of_seat(s))
                self.folds[s] = tables.evolve(
                    self.folds[s], to_event(commitments.strip_digests(mine))
                )
        self.seen = len(self.trusted.envelopes)
        assert [f.version for f in self.folds] == [self.table.version] * self.seats
        CARDS[self.game.kind](self.table.game_state)

    def check_defaults(self) -> None:
        """The default choice of every awaited seat, from its own fold, is
        the one the table makes from the full state."""
        for seat in tables.awaited(self.table):
            fold = self.folds[seat]
            assert tables.default_action(fold, seat) == tables.default_action(self.table, seat)
            self.defaults_checked += 1

    def play(self, resign_at: dict[int, int]) -> None:
        commands = 0
        for _ in steps(20_000, "the game"):
            self.commands = commands
            if self.table.finished:
                return
            if commands in resign_at and resign_at[commands] not in self.table.resigned:
                self.send(resign_at[commands], tpb.Resign())
                commands += 1
                continue
            movers = [
                (s, acts)
                for s in range(self.seats)
                if (acts := tables.legal_actions(self.folds[s], s))
            ]
            assert movers, "nobody can act in an unfinished game"
            assert not any(s in self.table.resigned for s, _ in movers)
            if commands % 7 == 0:
                self.check_defaults()
            seat, actions = self.rng.choice(movers)
            self.send(seat, self.rng.choice(actions))
            commands += 1


def playable(kind: str) -> list[int]:
    """The seat counts (up to 5) the game plays with its default options."""
    game = registry.game(kind)
    counts = []
    for seats in range(max(2, game.min_seats), min(game.max_seats, 5) + 1):
        try:
            game.initial_state(game.options_type(), seats)
        except RuleViolation:
            continue
        counts.append(seats)
    return counts


def cases() -> list[tuple[str, int, int]]:
    found = []
    for kind in sorted(registry.games()):
        counts = playable(kind)
        for index, seats in enumerate(counts):
            for seed in range(3):
                found.append((kind, seats, 100 * index + seed))
    return found


@pytest.mark.parametrize(("kind", "seats", "seed"), cases())
def test_random_games_with_resignations_end_whole_and_audited(
    kind: str, seats: int, seed: int
) -> None:
    planner = random.Random(f"{kind}/{seats}/{seed}")
    # Resign early, midway or late; up to every seat but one, or every seat.
    leaving = planner.sample(range(seats), planner.randint(1, seats))
    resign_at = {planner.choice([0, 1, 4, 10, 25, 60]) + i: s for i, s in enumerate(leaving)}
    played = ResigningGame(kind, seats, seed)
    played.play(resign_at)
    table = played.table
    assert table.finished
    resigned = table.resigned
    assert resigned or min(resign_at) >= played.commands
    if len(resigned) < seats:
        assert not set(table.winners) & resigned
    assert len(table.winners) <= seats
    report = audit_events(played.trusted.stored)
    assert report.ok, report.render()


@pytest.mark.parametrize("kind", sorted(registry.games()))
def test_a_game_left_with_one_active_seat_ends_with_it_as_winner(kind: str) -> None:
    seats = playable(kind)[0]
    played = ResigningGame(kind, seats, 7)
    for seat in range(1, seats):
        played.send(seat, tpb.Resign())
    table = played.table
    assert table.finished and table.winners == (0,)
    assert audit_events(played.trusted.stored).ok


@pytest.mark.parametrize("kind", sorted(registry.games()))
def test_a_resigned_seat_can_neither_play_nor_resign_again(kind: str) -> None:
    seats = max(3, playable(kind)[0])
    played = ResigningGame(kind, seats, 3)
    played.send(1, tpb.Resign())
    table = played.table
    assert not table.finished and table.resigned == {1}
    assert tables.legal_actions(table, 1) == []
    assert 1 not in tables.awaited(table)
    with pytest.raises(RuleViolation) as refused:
        tables.decide(table, Actor.of_seat(1), tpb.Resign())
    assert refused.value.rule == "T-RESIGN"
    mover = tables.awaited(table)[0]
    action = tables.legal_actions(table, mover)[0]
    with pytest.raises(RuleViolation) as refused:
        tables.decide(table, Actor.of_seat(1), action)
    assert refused.value.rule in ("T-RESIGN",)


def test_defaults_are_checked_against_the_seats_folds() -> None:
    played = ResigningGame("smoke-and-mirrors", 3, 1)
    played.play({3: 1})
    assert played.defaults_checked > 0


def test_resignations_are_told_in_words() -> None:
    from cardroom.domain.presentation import table_event

    names = ("Ada", "Bo")
    resigned = tpb.SeatResigned(seat=1, reason=tpb.SeatResigned.REASON_RESIGNED)
    removed = tpb.SeatResigned(seat=0, reason=tpb.SeatResigned.REASON_REMOVED)
    assert table_event(resigned, names) == ["Bo resigns: the game makes their choices from now on."]
    assert table_event(removed, names) == [
        "Ada is removed by the operator: the game makes their choices from now on."
    ]
    assert table_event(tpb.SeatTimedOut(seat=1), names) == [
        "Bo's time runs out: the game makes the choice."
    ]
