"""Test helpers: set deals, a table that keeps every viewer's fold, checks of
what each fold knows against the full state, and the universe of
well-formed commands.

Tests drive the pure decider as the service does: the dealer's shuffle is a
command too, and every seat's view and legal actions come from a state
folded from that seat's own redacted stream.
"""

from __future__ import annotations

from collections import Counter
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
from cardroom.domain.silver_dagger import GAME
from cardroom.domain.silver_dagger.cards import DECK, Card
from cardroom.domain.silver_dagger.state import EVERYONE, Phase, Spot, State, derive
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

from .scenarios import Scenario, Views

C = pb  # card names read better as C.CARD_SPY in scenarios
SORTED_DECK = sorted(DECK.elements())


def viewers(seat_count: int) -> list[Viewer]:
    return [Viewer.of_seat(s) for s in range(seat_count)] + [SPECTATOR]


def key(message: Message) -> tuple[str, bytes]:
    """A hashable identity for a protobuf message."""
    return message.DESCRIPTOR.full_name, message.SerializeToString(deterministic=True)


def event_key(e: Event) -> tuple[Any, ...]:
    return (key(e.public), tuple((tuple(sorted(s.audience)), key(s.value)) for s in e.secrets))


# --------------------------------------------------------------- knowledge


def places(state: State) -> list[tuple[str, tuple[Spot, ...]]]:
    """Every place that holds spots, in a fixed order."""
    found = [(f"village {s}", v) for s, v in enumerate(state.villages)]
    found += [(f"private {s}", p) for s, p in enumerate(state.private)]
    found += [("deck", state.deck), ("out", state.out)]
    found.append(("held", (state.held,) if state.held is not None else ()))
    return found


def all_cards(state: State) -> Counter[Card | None]:
    cards: Counter[Card | None] = Counter(state.discard)
    for _, spots in places(state):
        cards.update(s.card for s in spots)
    return cards


def check_cards(state: State) -> None:
    """All 52 cards are in exactly one place, once a round is dealt."""
    if not state.round:
        return
    cards = [*state.discard, *(s.card for s in state.deck), *(s.card for s in state.out)]
    for row in (*state.villages, *state.private):
        cards.extend(s.card for s in row)
    if state.held is not None:
        cards.append(state.held.card)
    assert sorted(cards) == SORTED_DECK, all_cards(state) - DECK  # type: ignore[type-var]


def should_know(viewer: Viewer, spot: Spot) -> bool:
    if viewer.kind == "auditor":
        return True
    return spot.public or (viewer.seat is not None and viewer.seat in spot.knowers)


def check_known_cards(fold: State, full: State, viewer: Viewer) -> None:
    """The quick check after every command of a random game: the fold holds
    exactly the cards the viewer knows (public ones, and those whose knowers
    include its seat), each the true card of its spot. The deck and the sets
    out of play are nobody's to know (checked after each deal)."""
    seat = viewer.seat
    rows = [
        *zip(fold.villages, full.villages, strict=True),
        *zip(fold.private, full.private, strict=True),
    ]
    if full.held is not None:
        assert fold.held is not None
        rows.append(((fold.held,), (full.held,)))
    for mine, spots in rows:
        expected = [b.card if b.public or seat in b.knowers else None for b in spots]
        assert [a.card for a in mine] == expected, (viewer, spots)
    assert len(fold.deck) == len(full.deck) and len(fold.out) == len(full.out)


def check_knowledge(full: State, fold: State, viewer: Viewer) -> None:
    """The viewer's fold agrees with the full state on every public fact,
    knows exactly the cards it should, and each of them truly."""
    assert fold.discard == full.discard
    assert (fold.phase, fold.current, fold.round, fold.totals) == (
        full.phase,
        full.current,
        full.round,
        full.totals,
    )
    for (name, mine), (_, truth) in zip(places(fold), places(full), strict=True):
        assert len(mine) == len(truth), name
        for a, b in zip(mine, truth, strict=True):
            assert (a.slot, a.up, a.knowers, a.public) == (b.slot, b.up, b.knowers, b.public), name
            if a.card is not None:
                assert a.card == b.card, (name, viewer)
            assert (a.card is not None) == should_know(viewer, b), (name, viewer, b)


# ------------------------------------------------------------------ tables


def outcome(state: State, seat: int, command: Message) -> tuple[Any, ...]:
    """What ``decide`` answers: the events, or the refusal's type and text."""
    try:
        return ("ok", GAME.decide(state, Actor.of_seat(seat), command))
    except (RuleViolation, MalformedCommand) as error:
        return ("refused", type(error).__name__, str(error))


class Table:
    """A game in progress: the full state, the log, and every viewer's fold."""

    def __init__(
        self,
        seat_count: int,
        opts: pb.Options | None = None,
        deals: Iterable[pb.DealRound] = (),
        *,
        check: bool = True,
        spectator: bool = True,
    ) -> None:
        self.seat_count = seat_count
        self.state: State = GAME.initial_state(opts or pb.Options(), seat_count)
        self.initial = self.state
        self.log: list[Event] = []
        watching = viewers(seat_count) if spectator else viewers(seat_count)[:-1]
        self.folds: dict[Viewer, State] = {v: self.state for v in watching}
        self.on_event: list[Callable[[Table, Event], None]] = []
        if check:
            self.on_event.append(_check_everything)
        self.deals = list(deals)

    def copy(self) -> Table:
        twin = Table.__new__(Table)
        twin.__dict__.update(self.__dict__)
        twin.log = list(self.log)
        twin.folds = dict(self.folds)
        twin.on_event = list(self.on_event)
        twin.deals = list(self.deals)
        return twin

    # ------------------------------------------------------------ driving

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

    def deal_next(self) -> list[Event]:
        """The next set deal (the round's shuffle) from ``deals``."""
        assert GAME.chance_needed(self.state) is pb.DealRound
        return self.apply(GAME.decide(self.state, DEALER, self.deals.pop(0)))

    def send(self, seat: int, command: Message) -> list[Event]:
        events = self.apply(GAME.decide(self.state, Actor.of_seat(seat), command))
        if GAME.chance_needed(self.state) is not None and self.deals:
            events += self.deal_next()
        return events

    def look(self, *positions: tuple[int, int]) -> None:
        """Every seat looks: seat s at positions[s] (default the first two)."""
        for seat in range(self.seat_count):
            a, b = positions[seat] if seat < len(positions) else (0, 1)
            self.send(seat, pb.LookAtCards(first=a, second=b))

    def refused(self, seat: int, command: Message) -> RuleViolation:
        with pytest.raises(RuleViolation) as caught:
            GAME.decide(self.state, Actor.of_seat(seat), command)
        return caught.value

    # ------------------------------------------------------------ reading

    def fold(self, seat: int | None) -> State:
        return self.folds[SPECTATOR if seat is None else Viewer.of_seat(seat)]

    def view(self, viewer: Viewer) -> pb.View:
        state = self.state if viewer == AUDITOR else self.folds[viewer]
        view = GAME.view(state, viewer)
        assert isinstance(view, pb.View)
        return view

    def legal(self, seat: int) -> list[Message]:
        return GAME.legal_actions(self.fold(seat), seat)

    def events_of(self, kind: type[Message], since: int = 0) -> list[Any]:
        return [e.public for e in self.log[since:] if isinstance(e.public, kind)]

    def village(self, seat: int) -> list[Card | None]:
        return [s.card for s in self.state.villages[seat]]

    def faces(self, seat: int) -> list[bool]:
        return [s.up for s in self.state.villages[seat]]


def _check_everything(table: Table, _event: Event) -> None:
    check_cards(table.state)
    for viewer, fold in table.folds.items():
        check_knowledge(table.state, fold, viewer)


def started(
    seat_count: int,
    *deals: pb.DealRound,
    looks: Sequence[tuple[int, int]] = (),
    opts: pb.Options | None = None,
) -> Table:
    """A table past round 1's deal and looks, at the start player's turn."""
    table = Table(seat_count, opts, deals)
    table.deal_next()
    table.look(*looks)
    return table


def command_universe(table: Table) -> list[Message]:
    """Every well-formed command a seat could send in this table's game now:
    positions up to the largest village (and one beyond)."""
    n = table.seat_count
    size = max(len(v) for v in table.state.villages) + 1 if table.state.villages else 6
    positions = range(size)
    return [
        *(pb.LookAtCards(first=a, second=b) for a in range(5) for b in range(a + 1, 5)),
        pb.DrawCard(),
        pb.DrawCard(private_deck=True),
        pb.TakeDiscard(),
        pb.CallVote(),
        *(pb.GiveZombie(position=p) for p in positions),
        *(pb.SpyPeek(seat=s, position=p) for s in range(n) for p in positions),
        pb.TurnDagger(),
        pb.DiscardDrawn(),
        pb.UseAbility(),
        *(pb.Exchange(position=p) for p in positions),
        pb.StartMultipleExchange(),
        *(pb.SelectCard(position=p) for p in positions),
        pb.ConfirmExchange(),
        *(pb.ChooseVillage(seat=s) for s in range(n)),
        *(pb.ChooseCard(seat=s, position=p) for s in range(n) for p in positions),
        *(pb.SwitchWith(position=p) for p in positions),
        pb.StopViewing(),
    ]


# --------------------------------------------------------------- scenarios


def pure_views(table: Table) -> Views:
    n = table.seat_count
    return Views(
        seats=[table.view(Viewer.of_seat(s)) for s in range(n)],
        spectator=table.view(SPECTATOR),
        auditor=table.view(AUDITOR),
        legal=[table.legal(s) for s in range(n)],
    )


def play(scenario: Scenario, *, upto: int | None = None) -> Table:
    """The scenario through the pure rules, every stage's check passing and
    every fold checked after every event; stops after stage ``upto``."""
    table = Table(scenario.seat_count, scenario.options, scenario.deals)
    table.deal_next()
    for index, stage in enumerate(scenario.stages):
        for seat, command in stage.steps:
            table.send(seat, command)
        if stage.check is not None:
            stage.check(pure_views(table))
        if index == upto:
            break
    return table


# ------------------------------------------------------------ given states

SpotSpec = int | tuple[int, bool]  # a card face down (known to its owner), or (card, face up)


def forget(state: State, viewer: Viewer) -> State:
    """``state`` as ``viewer`` knows it: cards it does not know become None."""

    def seen(spot: Spot) -> Spot:
        if should_know(viewer, spot):
            return spot
        return Spot(spot.slot, None, spot.up, spot.knowers, spot.public)

    return derive(
        state,
        villages=tuple(tuple(seen(s) for s in v) for v in state.villages),
        deck=tuple(seen(s) for s in state.deck),
        private=tuple(tuple(seen(s) for s in p) for p in state.private),
        out=tuple(seen(s) for s in state.out),
        held=seen(state.held) if state.held is not None else None,
    )


def given(
    villages: Sequence[Sequence[SpotSpec]],
    *,
    deck: Sequence[int] = (),
    discard: Sequence[int] = (),
    private: Sequence[Sequence[int]] = (),
    current: int = 0,
    opts: pb.Options | None = None,
    **more: Any,
) -> Table:
    """A table at the start of ``current``'s turn in round 1 with these
    villages (face-down cards known to their owner only, face-up ones to
    everyone), ``deck`` (top first), ``discard`` (bottom first) and private
    decks; every other card is out of play. ``more`` sets other State fields."""
    n = len(villages)
    base = GAME.initial_state(opts or pb.Options(), n)
    rest = Counter(DECK)
    slot = 0

    def spot(card: int, up: bool, knowers: frozenset[int]) -> Spot:
        nonlocal slot
        slot += 1
        rest[card] -= 1
        assert rest[card] >= 0, f"too many {pb.Card.Name(card)}"
        public = up
        return Spot(slot, card, up, EVERYONE[n] if public else knowers, public)

    rows = []
    for seat, row in enumerate(villages):
        specs = [c if isinstance(c, tuple) else (c, False) for c in row]
        rows.append(tuple(spot(c, up, frozenset({seat})) for c, up in specs))
    piles = tuple(
        tuple(spot(c, False, frozenset({s})) for c in (private[s] if s < len(private) else ()))
        for s in range(n)
    )
    top_first = [spot(c, False, frozenset()) for c in deck]
    for card in discard:
        rest[card] -= 1
    out = tuple(spot(c, False, frozenset()) for c in sorted(rest.elements()))
    state = derive(
        base,
        phase=Phase.TURN,
        round=1,
        start_seat=current,
        current=current,
        turn=1,
        dagger=current,
        looked=frozenset(range(n)),
        villages=tuple(rows),
        deck=tuple(reversed(top_first)),
        private=piles,
        discard=tuple(discard),
        out=out,
        next_slot=slot + 1,
        **more,
    )
    table = Table(n, opts)
    table.state = table.initial = state
    table.folds = {v: forget(state, v) for v in table.folds}
    check_cards(state)
    return table
