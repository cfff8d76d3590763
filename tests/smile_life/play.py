"""Random play: seeded games where every seat picks a random legal action
from its own redacted fold, as a client of the service would, and checks
that every card is somewhere."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from google.protobuf.message import Message

from cardroom.domain.kernel import Event
from cardroom.domain.smile_life import GAME
from cardroom.domain.smile_life.cards import DECK_COUNTS
from cardroom.domain.smile_life.state import State
from cardroom.smile_life.v1 import smile_life_pb2 as pb

from .support import Table

COMMAND_CAP = 20_000


def random_options(rng: random.Random, seat_count: int, full: bool) -> pb.Options:
    opts = pb.Options(
        allow_six_players=seat_count == 6,
        river_variant=rng.random() < 0.3,
    )
    if rng.random() < 0.3:
        opts.grand_prof_salary_max = 3
    if rng.random() < 0.2:
        opts.architect_free_houses = rng.choice([0, 2])
    if not full:
        opts.draw_pile_size = rng.randint(1, 40)
    return opts


class RandomGame:
    def __init__(
        self,
        seed: int,
        seat_count: int | None = None,
        *,
        full: bool = False,
        folds: bool = True,
        opts: pb.Options | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        n = seat_count if seat_count is not None else self.rng.randint(2, 5)
        self.options = opts if opts is not None else random_options(self.rng, n, full)
        self.table = Table(n, self.options, seed=seed, folds=folds)
        self.commands = 0

    @property
    def over(self) -> bool:
        return GAME.winners(self.table.state) is not None

    def movers(self) -> list[tuple[int, list[Message]]]:
        table = self.table
        return [(s, acts) for s in range(table.seat_count) if (acts := table.legal(s))]

    def step(self) -> tuple[int, Message]:
        movers = self.movers()
        assert len(movers) == 1, f"exactly one seat may act, not {movers}"
        seat, actions = movers[0]
        command = self.rng.choice(actions)
        self.commands += 1
        self.table.send(seat, command)
        return seat, command

    def play(self, after_command: Callable[[RandomGame], None] | None = None) -> RandomGame:
        while not self.over:
            assert self.commands < COMMAND_CAP, "the game did not end"
            self.step()
            if after_command is not None:
                after_command(self)
        return self


def places(state: State) -> Counter[str]:
    """Every card of the full state, wherever it is."""
    found: list[str | None] = [c for hand in state.hands for c in hand]
    for life in state.lives:
        found.extend(life.cards())
    found.extend(state.pile)
    found.extend(state.set_aside)
    found.extend(c for c, _ in state.discard)
    found.extend(state.river)
    found.extend(state.out_of_game)
    found.extend(state.luck)
    assert None not in found, "the full state knows every card"
    if state.held is not None:
        found.append(state.held)
    casino = state.casino
    if casino is not None:
        found.append("special_casino")
        found.extend(c for c in (casino.bet, casino.second_bet) if c is not None)
    return Counter(found)


def check_cards(table: Table, _event: Event) -> None:
    """After every event (once dealt): all 200 cards, each in one place."""
    state = table.state
    if state.phase != pb.PHASE_SETUP:
        assert dict(places(state)) == DECK_COUNTS


def cards_in_view(view: pb.View) -> int:
    """How many cards a View puts somewhere: hands (by count), lives, the
    piles, the river, the casino and its bets, the held card, luck's."""
    total = sum(seat.hand_count for seat in view.seats)
    for seat in view.seats:
        life = seat.life
        total += len(life.studies) + len(life.salaries) + bool(life.job) + life.prize_active
        total += bool(life.marriage) + bool(life.adultery)
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
            total += len(group)
    total += view.draw_pile_count + view.set_aside_count + len(view.discard_pile)
    total += len(view.river) + len(view.out_of_game) + bool(view.held_card) + view.luck_count
    casino = view.casino
    total += casino.open + casino.has_bet + casino.has_second_bet
    return total
