"""Test helpers: command shorthands, set deals, a table that keeps every
viewer's fold, and a builder for "given" positions.

Tests drive the pure decider as the service does: chance outcomes are the
dealer's commands (a set deal's, in order, then seeded draws), and every
seat's view and legal actions come from a state folded from that seat's own
redacted stream.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest
from google.protobuf.message import Message

from cardroom.domain.kernel import (
    AUDITOR,
    DEALER,
    SPECTATOR,
    Actor,
    Event,
    MalformedCommand,
    RuleViolation,
    Viewer,
)
from cardroom.domain.smile_life import GAME
from cardroom.domain.smile_life.cards import DECK
from cardroom.domain.smile_life.state import Life, Salary, State, Step, Study, derive, normalized
from cardroom.smile_life.v1 import smile_life_pb2 as pb

LIFE = pb.DESTINATION_LIFE
MALUS = pb.DESTINATION_MALUS
DISCARD = pb.DESTINATION_DISCARD
CASINO = pb.DESTINATION_CASINO


# Hands of four cards with no copy in common, to fill a seat's hand.
PETS = ["pet_cat", "pet_dog", "pet_chick", "pet_rabbit"]
TRIPS = ["trip_london", "trip_rio", "trip_sydney", "trip_new_york"]
HOUSES = ["house_small_green", "house_small_pink", "house_medium_white", "house_medium_orange"]


def options(**fields: Any) -> pb.Options:
    return pb.Options(**fields)


# ------------------------------------------------------------- commands


def draw() -> pb.DrawCard:
    return pb.DrawCard()


def take() -> pb.TakeDiscard:
    return pb.TakeDiscard()


def life(
    card: str,
    *levels: int,
    inheritance: bool = False,
    free: bool = False,
    steal: int | None = None,
) -> pb.PlayCard:
    """Play to your own life; a trip or house is paid with ``levels``."""
    command = pb.PlayCard(card=card, destination=LIFE)
    if levels or inheritance or free or card.startswith(("trip_", "house_")):
        command.payment.CopyFrom(
            pb.Payment(salary_levels=sorted(levels), inheritance=inheritance, free=free)
        )
    if steal is not None:
        command.steal_from = steal
    return command


def malus(card: str, target: int | None = None) -> pb.PlayCard:
    command = pb.PlayCard(card=card, destination=MALUS)
    if target is not None:
        command.target = target
    return command


def discard(card: str) -> pb.PlayCard:
    return pb.PlayCard(card=card, destination=DISCARD)


def bet(card: str) -> pb.PlayCard:
    return pb.PlayCard(card=card, destination=CASINO)


# ------------------------------------------------------------ set deals


def deck(
    hands: Sequence[Sequence[str]], pile: Sequence[str] = (), river: Sequence[str] = ()
) -> pb.ShuffleDeck:
    """A shuffle dealing these hands (five each, seat 0 first), then the
    river, then ``pile`` on top of the draw pile; the rest of the 200 cards
    follow in the data file's order."""
    chosen = [c for hand in hands for c in hand] + list(river) + list(pile)
    assert all(len(hand) == 5 for hand in hands)
    rest = list(DECK)
    for c in chosen:
        rest.remove(c)
    return pb.ShuffleDeck(cards=chosen + rest)


def viewers(seat_count: int) -> list[Viewer]:
    return [Viewer.of_seat(s) for s in range(seat_count)] + [SPECTATOR]


def key(message: Message) -> tuple[str, bytes]:
    return message.DESCRIPTOR.full_name, message.SerializeToString(deterministic=True)


def outcome(state: State, seat: int, command: Message) -> tuple[Any, ...]:
    """What ``decide`` answers: the events, or the refusal's type and text."""
    try:
        return ("ok", GAME.decide(state, Actor.of_seat(seat), command))
    except (RuleViolation, MalformedCommand) as error:
        return ("refused", type(error).__name__, str(error))


class Table:
    """A game in progress: the full state, the log, every viewer's fold.
    Chance is drawn as the service does: the set deal's outcomes first, in
    order, then seeded random draws."""

    def __init__(
        self,
        seat_count: int,
        opts: pb.Options | None = None,
        *,
        deal: Sequence[Message] = (),
        seed: int = 0,
        state: State | None = None,
        folds: bool = True,
    ) -> None:
        self.seat_count = seat_count
        self.rng = random.Random(seed)
        self.deals = list(deal)
        self.state: State = (
            state if state is not None else GAME.initial_state(opts or options(), seat_count)
        )
        self.log: list[Event] = []
        self.folds: dict[Viewer, State] = {}
        if folds:
            self.folds = {v: redacted(self.state, v) for v in viewers(seat_count)}
        self.on_event: list[Callable[[Table, Event], None]] = []
        self.chance()

    # ----------------------------------------------------------- driving

    def apply(self, events: Iterable[Event]) -> list[Event]:
        applied = []
        for e in events:
            self.state = GAME.evolve(self.state, e)
            for v in self.folds:
                self.folds[v] = GAME.evolve(self.folds[v], e.redact(v))
            self.log.append(e)
            applied.append(e)
            for check in self.on_event:
                check(self, e)
        return applied

    def chance(self) -> None:
        while GAME.chance_needed(self.state) is not None:
            outcome = self.deals.pop(0) if self.deals else GAME.sample_chance(self.state, self.rng)
            self.apply(GAME.decide(self.state, DEALER, outcome))

    def send(self, seat: int, command: Message) -> list[Event]:
        events = self.apply(GAME.decide(self.state, Actor.of_seat(seat), command))
        self.chance()
        return events

    def play(self, *steps: tuple[int, Message]) -> None:
        for seat, command in steps:
            self.send(seat, command)

    def refused(self, seat: int, command: Message) -> RuleViolation:
        with pytest.raises(RuleViolation) as caught:
            GAME.decide(self.state, Actor.of_seat(seat), command)
        return caught.value

    # ----------------------------------------------------------- reading

    def fold(self, seat: int | None) -> State:
        return self.folds[SPECTATOR if seat is None else Viewer.of_seat(seat)]

    def view(self, viewer: Viewer = AUDITOR) -> pb.View:
        state = self.state if viewer == AUDITOR else self.folds[viewer]
        view = GAME.view(state, viewer)
        assert isinstance(view, pb.View)
        return view

    def legal(self, seat: int) -> list[Message]:
        state = self.fold(seat) if self.folds else self.state
        return GAME.legal_actions(state, seat)

    def events_of(self, kind: type[Message], since: int = 0) -> list[Any]:
        return [e.public for e in self.log[since:] if isinstance(e.public, kind)]

    def life(self, seat: int) -> Life:
        return self.state.lives[seat]

    def hand(self, seat: int) -> list[str]:
        return [c for c in self.state.hands[seat] if c is not None]


def redacted(state: State, viewer: Viewer) -> State:
    """What ``viewer`` knows of a given position: its own hand (every hand
    for an auditor), counts of the others, and nothing of the draw pile."""
    if viewer == AUDITOR:
        return state
    hands = tuple(
        hand if viewer.may_see({seat}) else (None,) * len(hand)
        for seat, hand in enumerate(state.hands)
    )
    return derive(
        state,
        hands=hands,
        pile=(None,) * len(state.pile),
        set_aside=(None,) * len(state.set_aside),
        luck=state.luck if viewer.may_see({state.current or 0}) else (None,) * len(state.luck),
    )


def given(
    hands: Sequence[Sequence[str]],
    lives: Sequence[Life] | None = None,
    *,
    pile: Sequence[str] = (),
    discard: Sequence[tuple[str, int | None]] = (),
    current: int = 0,
    stage: int = pb.STAGE_START,
    opts: pb.Options | None = None,
    steps: Sequence[Step] = (),
    seed: int = 0,
    only_pile: bool = False,
    **changes: Any,
) -> Table:
    """A table in the middle of ``current``'s turn with these hands and
    lives; the draw pile holds ``pile`` (top first) then whatever of the 200
    cards is left (set aside instead with ``only_pile``), so that every card
    is somewhere."""
    n = len(hands)
    lives = list(lives or [Life()] * n)
    used = [c for hand in hands for c in hand] + [c for c, _ in discard]
    for one in lives:
        used.extend(one.cards())
    rest = list(DECK)
    for c in [*used, *pile]:
        rest.remove(c)
    base = GAME.initial_state(opts or options(allow_six_players=n == 6), n)
    state = derive(
        base,
        phase=pb.PHASE_TURN,
        stage=stage,
        lives=tuple(lives),
        hands=tuple(normalized(h) for h in hands),
        pile=tuple(pile) if only_pile else (*pile, *rest),
        set_aside=tuple(rest) if only_pile else (),
        discard=tuple(discard),
        current=current,
        turn=1,
        start_seat=current,
        steps=tuple(steps),
        **changes,
    )
    return Table(n, state=state, seed=seed)


def person(
    *,
    studies: Sequence[str | Study] = (),
    salaries: Sequence[str | Salary] = (),
    **fields: Any,
) -> Life:
    """A life from card ids: ``person(studies=["study_single"], job="writer")``."""
    return Life(
        studies=tuple(s if isinstance(s, Study) else Study(s) for s in studies),
        salaries=tuple(s if isinstance(s, Salary) else Salary(s) for s in salaries),
        **{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()},
    )


def after_draw(table: Table) -> Table:
    """The current seat draws (the pile's top card joins its hand)."""
    assert table.state.current is not None
    table.send(table.state.current, draw())
    return table
