"""A tiny hidden-information game for the trust tests, independent of the
real games (which may be mid-edit): "duel", a trick game.

The deck is cards 0..N-1 (N = seats * hand_size + 2). The dealer shuffles it
(chance ``Deal``), each seat gets ``hand_size`` cards secretly, two stay
undealt (auditors only); then the dealer picks who leads (chance ``Lead``,
a ``randrange``). In turn each seat plays a card face down (``Played`` with a
``PlayedCard`` secret); when all have played, ``TrickShown`` reveals the cards
and the highest wins the trick and leads the next. Most tricks wins.

Its messages are built at import into the default descriptor pool, so the
envelope helpers can pack and unpack them like any generated message.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import Message

from cardroom.domain.kernel import (
    Actor,
    Event,
    MalformedCommand,
    NotYourTurn,
    Reveal,
    RuleViolation,
    Viewer,
    event,
)
from cardroom.trust.commitments import holds
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1.table_pb2 import SeatResigned

PACKAGE = "cardroom.trusttest.v1"

_UINT32 = descriptor_pb2.FieldDescriptorProto.TYPE_UINT32
_OPTIONAL = descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL
_REPEATED = descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED

_MESSAGES: dict[str, list[tuple[str, bool]]] = {
    # name: [(field, repeated)], every field a uint32
    "Options": [("hand_size", False)],
    "Deal": [("order", True)],
    "Lead": [("seat", False)],
    "Play": [("card", False)],
    "Dealt": [("deck_size", False)],
    "Hand": [("seat", False), ("cards", True)],
    "Undealt": [("cards", True)],
    "LeadChosen": [("seat", False)],
    "Played": [("seat", False)],
    "PlayedCard": [("seat", False), ("card", False)],
    "TrickShown": [("cards", True), ("winner", False)],
    "View": [("hand", True), ("tricks", True), ("turn", False)],
}


def _build() -> dict[str, type[Message]]:
    pool = descriptor_pool.Default()
    name = "cardroom/trusttest/v1/duel.proto"
    try:
        pool.FindFileByName(name)
    except KeyError:
        file = descriptor_pb2.FileDescriptorProto(name=name, package=PACKAGE, syntax="proto3")
        for message, fields in _MESSAGES.items():
            proto = file.message_type.add(name=message)
            for number, (field, repeated) in enumerate(fields, 1):
                proto.field.add(
                    name=field,
                    number=number,
                    type=_UINT32,
                    label=_REPEATED if repeated else _OPTIONAL,
                )
        pool.AddSerializedFile(file.SerializeToString())
    return {
        m: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{PACKAGE}.{m}"))
        for m in _MESSAGES
    }


_CLASSES = _build()
# Typed Any: built at run time, so mypy cannot see their fields.
Options: Any = _CLASSES["Options"]
Deal: Any = _CLASSES["Deal"]
Lead: Any = _CLASSES["Lead"]
Play: Any = _CLASSES["Play"]
Dealt: Any = _CLASSES["Dealt"]
Hand: Any = _CLASSES["Hand"]
Undealt: Any = _CLASSES["Undealt"]
LeadChosen: Any = _CLASSES["LeadChosen"]
Played: Any = _CLASSES["Played"]
PlayedCard: Any = _CLASSES["PlayedCard"]
TrickShown: Any = _CLASSES["TrickShown"]
View: Any = _CLASSES["View"]


@dataclass(frozen=True)
class State:
    seat_count: int
    hand_size: int
    dealt: bool = False
    # Each seat's cards; None where the viewer cannot see them.
    hands: tuple[tuple[int, ...] | None, ...] = ()
    lead: int | None = None
    turn: int = 0
    # This trick's cards in play order: (seat, card or None if unseen).
    trick: tuple[tuple[int, int | None], ...] = ()
    tricks: tuple[int, ...] = ()
    tricks_played: int = 0

    @property
    def deck_size(self) -> int:
        return self.seat_count * self.hand_size + 2


class Duel:
    kind: ClassVar[str] = "duel"
    rules_version: ClassVar[str] = "duel-1"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    options_type: ClassVar[type[Message]] = Options
    command_types: ClassVar[tuple[type[Message], ...]] = (Play,)
    chance_types: ClassVar[tuple[type[Message], ...]] = (Deal, Lead)
    view_type: ClassVar[type[Message]] = View

    def initial_state(self, options: Message, seat_count: int) -> State:
        hand_size = getattr(options, "hand_size", 0) or 2
        if hand_size > 5:
            raise RuleViolation("options", "at most 5 cards each")
        return State(
            seat_count=seat_count,
            hand_size=hand_size,
            hands=(None,) * seat_count,
            tricks=(0,) * seat_count,
        )

    def chance_needed(self, state: State) -> type[Message] | None:
        if not state.dealt:
            return Deal
        if state.lead is None:
            return Lead
        return None

    def sample_chance(self, state: State, rng: random.Random) -> Message:
        if not state.dealt:
            order = list(range(state.deck_size))
            rng.shuffle(order)
            return Deal(order=order)
        return Lead(seat=rng.randrange(state.seat_count))

    def decide(self, state: State, actor: Actor, command: Message) -> list[Event]:
        if isinstance(command, Deal):
            if state.dealt or sorted(command.order) != list(range(state.deck_size)):
                raise RuleViolation("deal", "a deal is a permutation of the deck, once")
            order = list(command.order)
            n = state.hand_size
            return [
                event(
                    Dealt(deck_size=state.deck_size),
                    *(
                        ({seat}, Hand(seat=seat, cards=sorted(order[seat * n : (seat + 1) * n])))
                        for seat in range(state.seat_count)
                    ),
                    ((), Undealt(cards=sorted(order[state.seat_count * n :]))),
                )
            ]
        if isinstance(command, Lead):
            if not state.dealt or state.lead is not None or command.seat >= state.seat_count:
                raise RuleViolation("lead", "the lead is chosen once, after the deal")
            return [event(LeadChosen(seat=command.seat))]
        if not isinstance(command, Play):
            raise MalformedCommand(f"{command.DESCRIPTOR.full_name} is not a duel command")
        if actor.seat != state.turn or state.lead is None:
            raise NotYourTurn()
        hand = state.hands[actor.seat]
        assert hand is not None
        if command.card not in hand:
            raise RuleViolation("play", f"card {command.card} is not in your hand")
        events = [
            event(
                Played(seat=actor.seat),
                ({actor.seat}, PlayedCard(seat=actor.seat, card=command.card)),
            )
        ]
        trick = [*state.trick, (actor.seat, command.card)]
        if len(trick) == state.seat_count:
            cards = [card for _, card in sorted(trick)]
            winner = max(trick, key=lambda played: played[1] or 0)[0]
            events.append(event(TrickShown(cards=cards, winner=winner)))
        return events

    def evolve(self, state: State, e: Event) -> State:
        public = e.public
        if isinstance(public, Dealt):
            hands = list(state.hands)
            for hand in e.secrets_of(Hand):
                hands[hand.seat] = tuple(hand.cards)
            return replace(state, dealt=True, hands=tuple(hands))
        if isinstance(public, LeadChosen):
            return replace(state, lead=public.seat, turn=public.seat)
        if isinstance(public, Played):
            seen = e.secret(PlayedCard)
            card = seen.card if seen is not None else None
            hands = list(state.hands)
            held = hands[public.seat]
            if held is not None and card is not None:
                hands[public.seat] = tuple(c for c in held if c != card)
            return replace(
                state,
                hands=tuple(hands),
                trick=(*state.trick, (public.seat, card)),
                turn=(public.seat + 1) % state.seat_count,
            )
        if isinstance(public, TrickShown):
            tricks = list(state.tricks)
            tricks[public.winner] += 1
            hands = list(state.hands)
            for seat, card in enumerate(public.cards):
                held = hands[seat]
                if held is not None:
                    hands[seat] = tuple(c for c in held if c != card)
            return replace(
                state,
                hands=tuple(hands),
                trick=(),
                tricks=tuple(tricks),
                tricks_played=state.tricks_played + 1,
                turn=public.winner,
            )
        if isinstance(public, SeatResigned):
            return state  # a departed seat plays its lowest card, as a timed-out one
        raise ValueError(f"duel cannot fold {public.DESCRIPTOR.full_name}")

    def reveals(self, event: Event) -> list[Reveal]:
        return []  # the harness's ``reveals`` below opens the tricks

    def default_action(self, state: State, seat: int, *, departed: bool) -> Message:
        return self.legal_actions(state, seat)[0]  # the lowest card: no other player's

    def legal_actions(self, state: State, seat: int) -> list[Message]:
        hand = state.hands[seat]
        if state.lead is None or state.turn != seat or hand is None or self.winners(state):
            return []
        return [Play(card=card) for card in hand]

    def view(self, state: State, viewer: Viewer) -> Message:
        hand = state.hands[viewer.seat] if viewer.seat is not None else None
        return View(hand=hand or (), tricks=state.tricks, turn=state.turn)

    def winners(self, state: State) -> Sequence[int] | None:
        if state.tricks_played < state.hand_size:
            return None
        best = max(state.tricks)
        return [seat for seat, won in enumerate(state.tricks) if won == best]


GAME = Duel()


def reveals(history: Sequence[epb.EventEnvelope], public: Message) -> list[tuple[int, int]]:
    """The secrets a duel event reveals to everyone: ``TrickShown`` shows the
    ``PlayedCard`` secrets of its trick. (sequence, index) pairs. This is the
    game knowledge a public reveal needs; the harness opens them."""
    if not isinstance(public, TrickShown):
        return []
    found: list[tuple[int, int]] = []
    for envelope in reversed(history):
        if holds(envelope.event, TrickShown):
            break
        for index, secret in enumerate(envelope.secrets):
            if holds(secret.value, PlayedCard):
                found.append((envelope.sequence, index))
    return sorted(found)
