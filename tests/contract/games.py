"""What the contract needs to know of each registered game, and no more:
options that keep a random game short, the commands worth asking ``decide``
about (each game's own command universe, from its tests), and the hidden
identities a view shows and a fold holds.

A fifth game registers, adds its entry here, and gets the whole contract;
``test_registry`` fails until it does.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from google.protobuf.message import Message

from cardroom.domain.kernel import Viewer
from cardroom.domain.smiles_and_daggers.cards import ranks_in
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as sv
from cardroom.smile_life.v1 import smile_life_pb2 as sl
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as sd
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from tests.silver_dagger import support as sv_support
from tests.smile_life import play as sl_play
from tests.smile_life import universe as sl_universe
from tests.smiles_and_daggers import play as sd_play
from tests.smiles_and_daggers import support as sd_support
from tests.smoke_and_mirrors import support as sm_support

# A hidden identity as a comparable token: (place, seat or position, card).
Identities = Counter[tuple[Any, ...]]


def key(command: Message) -> tuple[str, bytes]:
    return command.DESCRIPTOR.full_name, command.SerializeToString(deterministic=True)


@dataclass(frozen=True)
class Contract:
    """One game's entry: see the module's docstring."""

    # Options for a short random game of this many seats (the rng varies them).
    options: Callable[[random.Random, int], Message]
    # Commands worth asking decide about for this seat now, legal or not.
    universe: Callable[[Any, int], list[Message]]
    # The hidden identities a view shows (never the public ones).
    shown: Callable[[Message], Identities]
    # The hidden identities a state folded for ``viewer`` holds that the view
    # must show that viewer.
    known: Callable[[Any, Viewer], Identities]
    # Every place a seat's fold may hold a hidden identity in (a contract
    # game set must show each: a view that drops one is caught only there).
    places: frozenset[str]
    # What the game says of itself: (rules version, seats from, seats to,
    # its chance outcomes' names, how many commands a seat may send).
    describes: tuple[str, int, int, frozenset[str], int]
    # Commands are the same up to this (an act's cards are a multiset).
    canonical: Callable[[Message], tuple[str, bytes]] = key


# ------------------------------------------------------------ Silver Dagger


def _sv_universe(state: Any, seat: int) -> list[Message]:
    return sv_support.command_universe(SimpleNamespace(seat_count=state.seat_count, state=state))  # type: ignore[arg-type]


def _sv_shown(view: Message) -> Identities:
    assert isinstance(view, sv.View)
    found: Identities = Counter()
    for seat in view.seats:
        for spot in seat.village:
            if spot.card != sv.CARD_UNSPECIFIED and not spot.public:
                found["village", seat.seat, spot.slot, spot.card] += 1
        for i, card in enumerate(seat.private_deck):
            if card != sv.CARD_UNSPECIFIED:
                found["private", seat.seat, i, card] += 1
    if view.held != sv.CARD_UNSPECIFIED:
        found["held", view.held] += 1
    return found


def _sv_known(state: Any, viewer: Viewer) -> Identities:
    found: Identities = Counter()
    for seat, village in enumerate(state.villages):
        for spot in village:
            if spot.card is not None and not spot.public:
                found["village", seat, spot.slot, spot.card] += 1
    for seat, pile in enumerate(state.private):
        for i, spot in enumerate(pile):
            if spot.card is not None:
                found["private", seat, i, spot.card] += 1
    if state.held is not None and state.held.card is not None:
        found["held", state.held.card] += 1
    return found


# --------------------------------------------------------------- Smile Life


def _sl_options(rng: random.Random, seats: int) -> Message:
    """Mostly short piles; now and then a long one, where a casino opens,
    luck is drawn and a pile is looked at."""
    options = sl_play.random_options(rng, seats, full=False)
    options.draw_pile_size = rng.randint(8, 40) if rng.random() < 0.6 else rng.randint(60, 150)
    return options


def _sl_shown(view: Message) -> Identities:
    assert isinstance(view, sl.View)
    found: Identities = Counter()
    for seat in view.seats:
        for card in [*seat.hand, *seat.known_cards]:
            found["hand", seat.seat, card] += 1
    for known in view.known_pile:
        found["pile", known.position, known.card] += 1
    for card in view.luck_cards:
        found["luck", card] += 1
    for card in (view.casino.bet_card, view.casino.second_bet_card):
        if card:
            found["bet", card] += 1
    return found


def _sl_known(state: Any, viewer: Viewer) -> Identities:
    found: Identities = Counter()
    for seat, hand in enumerate(state.hands):
        for card in hand:
            if card is not None:
                found["hand", seat, card] += 1
    for position, card in enumerate(state.pile):
        if card is not None:
            found["pile", position, card] += 1
    if state.current is not None and viewer.may_see({state.current}):
        # Luck's cards are drawn for the luck player alone (the proto's
        # "visible to the luck player"): another seat that knew one of them
        # from a look at the pile keeps it in its fold, not in its view.
        for card in state.luck:
            if card is not None:
                found["luck", card] += 1
    if state.casino is not None:
        for card in (state.casino.bet, state.casino.second_bet):
            if card is not None:
                found["bet", card] += 1
    return found


# ------------------------------------------------------- Smiles & Daggers


def _sd_shown(view: Message) -> Identities:
    assert isinstance(view, sd.View)
    found: Identities = Counter()
    for seat in view.seats:
        if seat.hand_visible:
            found["hand", seat.seat, tuple(seat.hand)] += 1
    if view.HasField("challenge"):
        for side in (view.challenge.current, view.challenge.opponent):
            if side.rank != sd.RANK_UNSPECIFIED:
                found["challenge", side.seat, side.rank, side.orientation] += 1
    return found


def _sd_known(state: Any, viewer: Viewer) -> Identities:
    """The viewer's own hand (another seat's hand is never drawn for it,
    though its count is public) and every committed card it knows."""
    found: Identities = Counter()
    for seat in range(state.seat_count):
        hand = state.hand(seat)
        if hand is not None and viewer.may_see({seat}):
            found["hand", seat, tuple(ranks_in(hand))] += 1
    challenge = state.challenge
    if challenge is not None:
        for seat, card in zip(challenge.seats, challenge.cards, strict=True):
            if card is not None:
                found["challenge", seat, card.rank, card.orientation] += 1
    return found


# ------------------------------------------------------- Smoke & Mirrors


def _sm_options(rng: random.Random, seats: int) -> Message:
    return sm_support.options(rounds_to_win=rng.choice([1, 1, 2]))


def _sm_card(card: Any) -> tuple[int, int]:
    return card.pile, card.value


def _sm_shown(view: Message) -> Identities:
    assert isinstance(view, sm.View)
    found: Identities = Counter()
    for seat in view.seats:
        if seat.hand:
            found["hand", seat.seat, tuple(sorted(map(_sm_card, seat.hand)))] += 1
        if seat.act:
            found["act", seat.seat, tuple(sorted(map(_sm_card, seat.act)))] += 1
    if view.HasField("swap_taken"):
        found["swap", _sm_card(view.swap_taken)] += 1
    return found


def _sm_known(state: Any, viewer: Viewer) -> Identities:
    """Every holding the state knows whole (a view draws no half hand)."""
    found: Identities = Counter()
    for seat, st in enumerate(state.seats):
        for place, cards in (("hand", st.hand), ("act", st.act)):
            if cards and None not in cards:
                found[place, seat, tuple(sorted(map(_sm_card, cards)))] += 1
    if state.swap_taken is not None:
        found["swap", _sm_card(state.swap_taken)] += 1
    return found


CONTRACTS: dict[str, Contract] = {
    "silver-dagger": Contract(
        places=frozenset({"village", "private", "held"}),
        describes=("silver-dagger/2", 2, 4, frozenset({"DealRound"}), 17),
        options=lambda rng, seats: sv.Options(
            furry_sequential_plus50=rng.random() < 0.5,
            mismatch_penalty_threshold=rng.choice([2, 3, 4]),
        ),
        universe=_sv_universe,
        shown=_sv_shown,
        known=_sv_known,
    ),
    "smile-life": Contract(
        places=frozenset({"hand", "pile", "luck", "bet"}),
        describes=(
            "smile-life/2",
            2,
            6,
            frozenset({"PickBarterCards", "RedealHands", "ShuffleDeck"}),
            16,
        ),
        options=_sl_options,
        universe=sl_universe.universe,
        shown=_sl_shown,
        known=_sl_known,
    ),
    "smiles-and-daggers": Contract(
        places=frozenset({"hand", "challenge"}),
        describes=("smiles-and-daggers/2", 2, 6, frozenset({"ChooseStartSeat"}), 7),
        options=lambda rng, seats: sd_play.random_options(rng, seats),
        universe=lambda state, seat: sd_support.command_universe(state.seat_count),
        shown=_sd_shown,
        known=_sd_known,
    ),
    "smoke-and-mirrors": Contract(
        places=frozenset({"hand", "act", "swap"}),
        describes=("smoke-and-mirrors/2", 2, 5, frozenset({"BlindPick", "DealRound"}), 7),
        options=_sm_options,
        universe=lambda state, seat: sm_support.command_universe(),
        shown=_sm_shown,
        known=_sm_known,
        canonical=sm_support.canonical,
    ),
}
