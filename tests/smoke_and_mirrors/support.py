"""Test helpers: named cards, set deals and a table that keeps the event log.

Tests drive the pure decider exactly as the service would: the dealer's
chance outcomes are commands too, so a test picks the deal (and the blind
pick) and every scenario is deterministic.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations_with_replacement
from typing import TypeVar

from google.protobuf.message import Message

from cardroom.domain.kernel import AUDITOR, DEALER, Actor, Event, RuleViolation, Viewer, fold
from cardroom.domain.smoke_and_mirrors import GAME
from cardroom.domain.smoke_and_mirrors.cards import (
    CARD_KINDS,
    DECK,
    SKULLS,
    STARS,
    SWIRLS,
    Card,
    card_to_pb,
    cards_to_pb,
    piles_for,
)
from cardroom.domain.smoke_and_mirrors.state import State
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as pb

M = TypeVar("M", bound=Message)

STAR_1 = Card(STARS, 1)
STAR_M = Card(STARS, 0)
SWIRL_1, SWIRL_2, SWIRL_3, SWIRL_4, SWIRL_5 = (Card(SWIRLS, v) for v in range(1, 6))
SWIRL_M = Card(SWIRLS, 0)
SKULL_5 = Card(SKULLS, 5)
SKULL_M = Card(SKULLS, 0)

ALL_CARDS = Counter(DECK)


def options(
    rounds_to_win: int = 0, turn_cap: int = 0, remove_swirl5: bool | None = None
) -> pb.Options:
    opts = pb.Options(rounds_to_win=rounds_to_win, turn_cap=turn_cap)
    if remove_swirl5 is not None:
        opts.two_player_remove_swirl5 = remove_swirl5
    return opts


def deal_command(
    hands: Sequence[Iterable[Card]], start: int, *, remove_swirl5: bool = True
) -> pb.DealRound:
    """A DealRound giving seat s exactly ``hands[s]`` (one card of each pile);
    the rest of each pile follows in sorted order and is set aside."""
    n = len(hands)
    piles = {p: list(cards) for p, cards in piles_for(n, remove_swirl5).items()}
    top: dict[int, list[Card]] = {STARS: [], SWIRLS: [], SKULLS: []}
    for hand in hands:
        by_pile = {c.pile: c for c in hand}
        assert sorted(by_pile) == [STARS, SWIRLS, SKULLS], f"not one card per pile: {hand}"
        for pile, card in by_pile.items():
            piles[pile].remove(card)
            top[pile].append(card)
    return pb.DealRound(
        start_seat=start,
        stars=cards_to_pb(top[STARS] + sorted(piles[STARS])),
        swirls=cards_to_pb(top[SWIRLS] + sorted(piles[SWIRLS])),
        skulls=cards_to_pb(top[SKULLS] + sorted(piles[SKULLS])),
    )


def act(*cards: Card) -> pb.PerformAct:
    return pb.PerformAct(cards=cards_to_pb(cards))


def give(card: Card) -> pb.GiveCard:
    """SM-10: the card given back after a blind take."""
    return pb.GiveCard(card=card_to_pb(card))


def old_swap(card: Card) -> pb.Swap:
    """Rules version smoke-and-mirrors/1's swap, no longer accepted."""
    return pb.Swap(give=card_to_pb(card))


def pb_cards(cards: Iterable[Card]) -> list[pb.Card]:
    return [card_to_pb(c) for c in cards]


def as_cards(msgs: Iterable[pb.Card]) -> list[Card]:
    return sorted(Card(m.pile, m.value) for m in msgs)


class Table:
    """One game: the auditor's state, the full event log and helpers."""

    def __init__(self, seats: int, opts: pb.Options | None = None) -> None:
        self.n = seats
        self.options = opts if opts is not None else pb.Options()
        self.state: State = GAME.initial_state(self.options, seats)
        self.log: list[Event] = []

    # -- sending commands

    def send(self, actor: Actor, command: Message) -> list[Event]:
        events = GAME.decide(self.state, actor, command)
        for e in events:
            self.state = GAME.evolve(self.state, e)
        self.log.extend(events)
        return events

    def by(self, seat: int, command: Message) -> list[Event]:
        return self.send(Actor.of_seat(seat), command)

    def deal(self, hands: Sequence[Iterable[Card]], start: int, **kw: bool) -> list[Event]:
        return self.send(DEALER, deal_command(hands, start, **kw))

    def act(self, seat: int, *cards: Card) -> list[Event]:
        return self.by(seat, act(*cards))

    def challenge(self, seat: int) -> list[Event]:
        return self.by(seat, pb.Challenge())

    def take_break(self, seat: int) -> list[Event]:
        return self.by(seat, pb.TakeBreak())

    def swap(self, seat: int, index: int, card: Card) -> list[Event]:
        """SM-10: take blind (the dealer picks ``index``), then give ``card``."""
        self.by(seat, pb.TakeBlind())
        events = self.blind_pick(index)
        return events + self.give(seat, card)

    def take_blind(self, seat: int) -> list[Event]:
        return self.by(seat, pb.TakeBlind())

    def give(self, seat: int, card: Card) -> list[Event]:
        return self.by(seat, give(card))

    def decline(self, seat: int) -> list[Event]:
        return self.by(seat, pb.DeclineSwap())

    def blind_pick(self, index: int) -> list[Event]:
        return self.send(DEALER, pb.BlindPick(index=index))

    # -- looking at the game

    def fold(self, viewer: Viewer = AUDITOR) -> State:
        initial = GAME.initial_state(self.options, self.n)
        return fold(GAME, initial, (e.redact(viewer) for e in self.log))

    def view(self, viewer: Viewer = AUDITOR) -> pb.View:
        return view_of(self.fold(viewer), viewer)

    def legal(self, seat: int) -> list[Message]:
        return GAME.legal_actions(self.fold(Viewer.of_seat(seat)), seat)

    def hand(self, seat: int) -> list[Card]:
        return sorted(c for c in self.state.seats[seat].hand if c is not None)

    def refusal(self, actor: Actor | int, command: Message) -> RuleViolation:
        """The RuleViolation ``command`` gets; the state must not change."""
        who = Actor.of_seat(actor) if isinstance(actor, int) else actor
        try:
            GAME.decide(self.state, who, command)
        except RuleViolation as e:
            return e
        raise AssertionError(f"{command} by {who} was accepted")


def view_of(state: State, viewer: Viewer) -> pb.View:
    view = GAME.view(state, viewer)
    assert isinstance(view, pb.View)
    return view


def publics(events: Iterable[Event], kind: type[M]) -> list[M]:
    return [e.public for e in events if isinstance(e.public, kind)]


def only(events: Iterable[Event], kind: type[M]) -> M:
    found = publics(events, kind)
    assert len(found) == 1, f"expected one {kind.__name__}, got {found}"
    return found[0]


def kinds(events: Iterable[Event]) -> list[str]:
    return [type(e.public).__name__ for e in events]


def canonical(command: Message) -> tuple[str, bytes]:
    """A command up to the order of an act's cards (acts are multisets)."""
    if isinstance(command, pb.PerformAct):
        command = act(*as_cards(command.cards))
    return type(command).__name__, command.SerializeToString(deterministic=True)


def every_act_command(max_cards: int = 3) -> list[pb.PerformAct]:
    """PerformAct for every multiset of 0..max_cards distinct card kinds."""
    out = [act()]
    for k in range(1, max_cards + 1):
        out += [act(*combo) for combo in combinations_with_replacement(CARD_KINDS, k)]
    return out


def command_universe(max_cards: int = 3) -> list[Message]:
    """Every command a seat could try, up to acts of ``max_cards`` cards."""
    return [
        pb.Challenge(),
        pb.TakeBreak(),
        pb.DeclineSwap(),
        pb.TakeBlind(),
        *[give(c) for c in CARD_KINDS],
        *every_act_command(max_cards),
    ]


def accounted_cards(state: State) -> Counter[Card | None]:
    """Every card of the auditor's state: hands, acts, set aside, out."""
    found: Counter[Card | None] = Counter(state.set_aside)
    found.update(state.out)
    for st in state.seats:
        found.update(st.hand)
        found.update(st.act)
    return found
