"""The events of one command, folded as they are emitted so that later
decisions in the same command see the earlier ones; and the two ways a card
travels in an event: its identity as a ``SlotCard`` secret addressed to the
seats that know it, or in the public message once everyone does."""

from __future__ import annotations

from collections.abc import Iterable

from google.protobuf.message import Message

from cardroom.domain.kernel import Event, RuleViolation, Secret
from cardroom.domain.silver_dagger.cards import Card
from cardroom.domain.silver_dagger.evolve import evolve
from cardroom.domain.silver_dagger.state import Spot, State
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

SecretPart = tuple[frozenset[int], Message]


class Batch:
    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, public: Message, *secrets: SecretPart) -> None:
        e = Event(public, tuple(Secret(audience, value) for audience, value in secrets))
        self.events.append(e)
        self.state = evolve(self.state, e)

    def new_slot(self, offset: int = 0) -> int:
        return self.state.next_slot + offset


def known(card: Card | None) -> Card:
    """A card the deciding (full) state must know."""
    if card is None:
        raise ValueError("decide needs the full (auditor's) state")
    return card


def slot_card(audience: Iterable[int], slot: int, card: Card | None) -> SecretPart:
    """A card's identity in ``slot``, for ``audience`` (empty: auditors only)."""
    return frozenset(audience), pb.SlotCard(slot=slot, card=known(card))


def arrival(spot: Spot, slot: int) -> list[SecretPart]:
    """The secret for a card landing in ``slot``: none when it is public (its
    identity then goes in the public message), else to the seats that know it."""
    return [] if spot.public else [slot_card(spot.knowers, slot, spot.card)]


def public_card(spot: Spot) -> Card:
    """The card for a public message: set only when everyone knows it."""
    return known(spot.card) if spot.public else pb.CARD_UNSPECIFIED


def hidden_slots(spots: Iterable[Spot]) -> list[int]:
    """Slots of the cards an event is about to make public (their last
    secrets are opened for everyone: see ``rules.reveals``)."""
    return [spot.slot for spot in spots if not spot.public]


def position_in(village: tuple[Spot, ...], position: int, rule: str) -> Spot:
    if position >= len(village):
        raise RuleViolation(
            rule, f"there is no card at position {position}: the village has {len(village)}"
        )
    return village[position]
