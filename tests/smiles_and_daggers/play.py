"""Random play: seeded games where every seat picks a random legal action
from its own redacted fold, as a client of the service would."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from google.protobuf.message import Message

from cardroom.domain.kernel import AUDITOR, Event
from cardroom.domain.smiles_and_daggers import GAME
from cardroom.domain.smiles_and_daggers.cards import FULL_FAMILY
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb

from .support import KNIGHT, LADY, LORD, Table, options

FAMILY_CARDS = Counter({LORD: 1, LADY: 2, KNIGHT: 3})
COMMAND_CAP = 20_000


def random_options(rng: random.Random, seat_count: int) -> pb.Options:
    return options(
        two=seat_count == 2,
        come_back=rng.random() < 0.5,
        recover_knights=rng.choice([None, True, False]),
    )


class RandomGame:
    def __init__(self, seed: int, seat_count: int | None = None) -> None:
        self.rng = random.Random(seed)
        n = seat_count if seat_count is not None else self.rng.randint(2, 6)
        self.table = Table(n, random_options(self.rng, n), start=None)
        self.commands = 0

    @property
    def over(self) -> bool:
        return GAME.winners(self.table.state) is not None

    def movers(self) -> list[tuple[int, list[Message]]]:
        table = self.table
        return [(s, acts) for s in range(table.seat_count) if (acts := table.legal(s))]

    def step(self) -> tuple[int | None, Message]:
        """One command: the dealer's when chance is needed, else a random
        seat among those with legal actions plays one at random."""
        table = self.table
        self.commands += 1
        if GAME.chance_needed(table.state) is not None:
            outcome = GAME.sample_chance(table.state, self.rng)
            table.dealer(outcome)
            return None, outcome
        movers = self.movers()
        assert movers, "nobody can act in an unfinished game"
        seat, actions = self.rng.choice(movers)
        command = self.rng.choice(actions)
        table.send(seat, command)
        return seat, command

    def play(self, after_command: Callable[[RandomGame], None] | None = None) -> RandomGame:
        while not self.over:
            assert self.commands < COMMAND_CAP, "the game did not end"
            self.step()
            if after_command is not None:
                after_command(self)
        return self


def places_in_state(table: Table) -> list[list[tuple[int, int, int]]]:
    """Per seat, its cards by rank in hand, on the table and out of the
    game, from the full state."""
    state = table.state
    on_table = [[0, 0, 0] for _ in range(state.seat_count)]
    challenge = state.challenge
    if challenge is not None:
        for role, seat in enumerate(challenge.seats):
            card = challenge.cards[role]
            if challenge.committed[role] and challenge.eliminated_role != role:
                assert card is not None, "the full state knows every committed card"
                on_table[seat][card.rank - 1] += 1
        for bet in challenge.bets:
            if bet.shape is not None and bet.correct is not False:
                on_table[bet.seat][KNIGHT - 1] += 1
    places = []
    for seat in range(state.seat_count):
        hand = state.hand(seat)
        assert hand is not None
        out = tuple(e + x for e, x in zip(state.eliminated[seat], state.lost[seat], strict=True))
        places.append([hand, (on_table[seat][0], on_table[seat][1], on_table[seat][2]), out])
    return places


def check_cards(table: Table, _event: Event) -> None:
    """After every event: each seat's 6 cards are each in exactly one place
    (hand, table or out of the game), with no negative counts."""
    for hand, on_table, out in places_in_state(table):
        for rank in range(3):
            assert min(hand[rank], on_table[rank], out[rank]) >= 0
            assert hand[rank] + on_table[rank] + out[rank] == FULL_FAMILY[rank]


def places_in_view(table: Table) -> list[dict[str, Counter[int]]]:
    """Per seat, where each of its cards is, read off the auditor's View."""
    view = table.view(AUDITOR)
    places: list[dict[str, Counter[int]]] = [
        {
            "hand": Counter(s.hand),
            "table": Counter(),
            "out": Counter(s.eliminated) + Counter(s.lost),
        }
        for s in view.seats
    ]
    if view.HasField("challenge"):
        for commitment in (view.challenge.current, view.challenge.opponent):
            if commitment.committed and not commitment.eliminated:
                places[commitment.seat]["table"][commitment.rank] += 1
        for bet in view.challenge.bets:
            if not bet.passed and not (bet.settled and not bet.correct):
                places[bet.seat]["table"][KNIGHT] += 1
    for seat, place in zip(view.seats, places, strict=True):
        assert seat.hand_count == sum(place["hand"].values())
    return places


def check_cards_in_view(table: Table, _event: Event) -> None:
    """The same, black-box: read off what the auditor's View renders."""
    if table.state.start_seat is None:
        return
    for seat, place in enumerate(places_in_view(table)):
        assert place["hand"] + place["table"] + place["out"] == FAMILY_CARDS, (seat, place)
