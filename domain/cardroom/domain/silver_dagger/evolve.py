"""Folding events into a state. Boring on purpose: every rule and refusal
lives in ``rules.py``; each event here only does what it says.

``evolve`` folds full and redacted events alike. A card that lands somewhere
new (or becomes known to more seats) arrives as a ``SlotCard`` secret for its
new slot, addressed to the seats that know it: a viewer outside that
audience gets ``None``. Public cards come in the public message. Who knows
a card (``Spot.knowers``) is public and follows from the events themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from cardroom.domain.kernel import Event
from cardroom.domain.silver_dagger.cards import (
    APPROXIMATOR,
    DECK_SIZE,
    ELUSIVE_SEER,
    FLIPPER,
    MAGICIAN,
    MASTER_THIEF,
    MYSTIC_SEER,
    SET_SIZE,
    SETS,
    VILLAGE_CARDS,
    ZOMBIE,
    Card,
)
from cardroom.domain.silver_dagger.state import (
    EVERYONE,
    ROUNDS,
    TURN_RESET,
    Ability,
    Phase,
    Source,
    Spot,
    State,
    Step,
    derive,
    put,
)
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb
from cardroom.v1 import table_pb2 as tpb

NO_ONE: frozenset[int] = frozenset()
NO_CARDS: dict[int, Card] = {}

FIRST_STEP = {
    APPROXIMATOR: Step.APPROXIMATOR_SELECT,
    FLIPPER: Step.FLIPPER_VILLAGE,
    ELUSIVE_SEER: Step.ELUSIVE_SEER_VIEW,
    MAGICIAN: Step.MAGICIAN_TARGET,
    MYSTIC_SEER: Step.MYSTIC_SEER_VIEW,
    MASTER_THIEF: Step.MASTER_THIEF_VIEW,
}

# What a turn's action leaves behind once it is complete.
ACTION_RESET: dict[str, Any] = {"held": None, "source": None, "selection": (), "ability": None}


def _cards(e: Event) -> dict[int, Card]:
    """The SlotCard secrets this viewer holds: slot -> card."""
    if not e.secrets:
        return NO_CARDS
    return {s.value.slot: s.value.card for s in e.secrets if type(s.value) is pb.SlotCard}


def _hidden(slot: int, card: Card | None, knowers: frozenset[int] = NO_ONE) -> Spot:
    return Spot(slot, card, False, knowers, False)


def _public(state: State, slot: int, card: Card, up: bool) -> Spot:
    return Spot(slot, card, up, EVERYONE[state.seat_count], True)


def _with_village(state: State, seat: int, village: tuple[Spot, ...], **more: Any) -> State:
    return derive(state, villages=put(state.villages, seat, village), **more)


def _set_spot(state: State, seat: int, position: int, spot: Spot, **more: Any) -> State:
    return _with_village(state, seat, put(state.villages[seat], position, spot), **more)


def _shown(state: State, spot: Spot, card: Card, up: bool | None = None) -> Spot:
    """``spot``'s card, now public (turned ``up`` or down when given)."""
    return Spot(spot.slot, card, spot.up if up is None else up, EVERYONE[state.seat_count], True)


def _learnt(spot: Spot, seat: int, card: Card | None) -> Spot:
    """``spot`` now known to ``seat`` too; ``card`` when this viewer knows it."""
    return Spot(
        spot.slot,
        card if card is not None else spot.card,
        spot.up,
        spot.knowers | {seat},
        spot.public,
    )


def _over(**changes: Any) -> dict[str, Any]:
    """The turn's action is complete: the next turn (``State.to_play``) is
    implied, unless the round ends (``RoundEnded`` follows then)."""
    return {"phase": Phase.TURN_OVER, **ACTION_RESET, **changes}


def _settle(state: State) -> State:
    """An ability step with nothing left to choose ends the turn."""
    return state if state.step_has_choice() else derive(state, **_over())


def _held(state: State) -> Spot:
    if state.held is None:
        raise ValueError("nobody holds a card")
    return state.held


def _ability(state: State) -> Ability:
    if state.ability is None:
        raise ValueError("no ability is being resolved")
    return state.ability


# ------------------------------------------------------------------ rounds


def _round_dealt(state: State, e: Event, m: pb.RoundDealt) -> State:
    n, first, start = state.seat_count, m.first_slot, m.start_seat
    cards = _cards(e)
    if cards:
        dealt = [
            Spot(first + k, cards.get(first + k), False, NO_ONE, False) for k in range(DECK_SIZE)
        ]
    else:
        dealt = _unseen_deal(first)
    villages: list[tuple[Spot, ...]] = [()] * n
    out: tuple[Spot, ...] = ()
    for j in range(SETS):
        spots = tuple(dealt[j * SET_SIZE : (j + 1) * SET_SIZE])
        if j < n:
            villages[(start + j) % n] = spots
        else:
            out += spots
    deck = tuple(reversed(dealt[VILLAGE_CARDS + 1 :]))
    first_round = m.round == 1
    return derive(
        state,
        phase=Phase.LOOK,
        round=m.round,
        start_seat=start,
        current=None,
        clockwise=True,
        caller=None,
        dagger=start if first_round else state.dagger,
        dagger_usable=False if first_round else state.dagger_usable,
        dagger_used=False,
        looked=frozenset(),
        villages=tuple(villages),
        deck=deck,
        private=((),) * n,
        discard=(m.discard,),
        out=out,
        next_slot=first + DECK_SIZE,
        **TURN_RESET,
    )


@lru_cache(maxsize=64)
def _unseen_deal(first: int) -> list[Spot]:
    """A deal as a seat or a spectator folds it: every card unknown (spots
    are immutable, so every such fold can share them)."""
    return [Spot(first + k, None, False, NO_ONE, False) for k in range(DECK_SIZE)]


def _cards_looked(state: State, e: Event, m: pb.CardsLooked) -> State:
    cards = _cards(e)
    village = state.villages[m.seat]
    for position in m.positions:
        spot = village[position]
        village = put(village, position, _learnt(spot, m.seat, cards.get(spot.slot)))
    looked = state.looked | {m.seat}
    if len(looked) < state.seat_count:
        return _with_village(state, m.seat, village, looked=looked)
    # Everyone has looked: the start seat's turn is next.
    return _with_village(state, m.seat, village, looked=looked, phase=Phase.TURN_OVER)


def _round_ended(state: State, e: Event, m: pb.RoundEnded) -> State:
    return derive(state, phase=Phase.ROUND_OVER, current=None, **ACTION_RESET)


def _villages_revealed(state: State, e: Event, m: pb.VillagesRevealed) -> State:
    villages = list(state.villages)
    for shown in m.villages:
        villages[shown.seat] = tuple(
            _shown(state, spot, card)
            for spot, card in zip(state.villages[shown.seat], shown.cards, strict=True)
        )
    return derive(state, villages=tuple(villages))


def _round_scored(state: State, e: Event, m: pb.RoundScored) -> State:
    copy = pb.RoundScored()
    copy.CopyFrom(m)
    points = [0] * state.seat_count
    for score in m.scores:
        points[score.seat] = score.points
    return derive(
        state,
        totals=tuple(t + p for t, p in zip(state.totals, points, strict=True)),
        round_points=(*state.round_points, tuple(points)),
        last_round=copy,
    )


def _dagger_passed(state: State, e: Event, m: pb.DaggerPassed) -> State:
    phase = Phase.DEAL if state.round < ROUNDS else Phase.ROUND_OVER
    return derive(state, dagger=m.seat, dagger_usable=m.usable, phase=phase)


def _game_ended(state: State, e: Event, m: pb.GameEnded) -> State:
    return derive(state, phase=Phase.OVER, winners=tuple(m.winners))


# ------------------------------------------------------------------- turns


def _card_viewed(state: State, e: Event, m: pb.CardViewed) -> State:
    spot = state.villages[m.target][m.position]
    seen = _learnt(spot, m.seat, _cards(e).get(spot.slot))
    if m.reason == pb.VIEW_REASON_SPY:
        return _set_spot(state, m.target, m.position, seen, peeks=state.peeks + 1)
    state = _set_spot(state, m.target, m.position, seen)
    ability = _ability(state)
    if m.reason == pb.VIEW_REASON_MASTER_THIEF:
        ability = derive(ability, step=Step.MASTER_THIEF_SWITCH, target=(m.target, m.position))
    else:
        ability = derive(ability, viewed=(*ability.viewed, spot.slot))
    return _settle(derive(state, ability=ability))


def _dagger_turned(state: State, e: Event, m: pb.DaggerTurned) -> State:
    return derive(
        state,
        clockwise=not state.clockwise,
        reversals=state.reversals + 1,
        dagger_used=True,
        dagger_turned=True,
    )


def _card_drawn(state: State, e: Event, m: pb.CardDrawn) -> State:
    if m.private_deck:
        pile = state.private[m.seat]
        more: dict[str, Any] = {"private": put(state.private, m.seat, pile[:-1])}
        source = Source.PRIVATE_DECK
    else:
        more = {"deck": state.deck[:-1]}
        source = Source.DECK
    held = _hidden(m.slot, _cards(e).get(m.slot), frozenset({m.seat}))
    return derive(
        state,
        phase=Phase.HOLDING,
        held=held,
        source=source,
        next_slot=max(state.next_slot, m.slot + 1),
        **more,
    )


def _discard_taken(state: State, e: Event, m: pb.DiscardTaken) -> State:
    return derive(
        state,
        phase=Phase.HOLDING,
        discard=state.discard[:-1],
        held=_public(state, m.slot, m.card, True),
        source=Source.DISCARD,
        next_slot=max(state.next_slot, m.slot + 1),
    )


def _vote_called(state: State, e: Event, m: pb.VoteCalled) -> State:
    return derive(state, caller=m.seat, **_over())


def _zombie_given(state: State, e: Event, m: pb.ZombieGiven) -> State:
    mine = state.villages[m.seat]
    state = _with_village(state, m.seat, mine[: m.position] + mine[m.position + 1 :])
    zombie = _public(state, m.slot, ZOMBIE, False)
    return _with_village(
        state,
        m.target,
        (*state.villages[m.target], zombie),
        next_slot=max(state.next_slot, m.slot + 1),
        **_over(),
    )


def _held_discarded(state: State, e: Event, m: pb.HeldDiscarded) -> State:
    return derive(state, discard=(*state.discard, m.card), **_over())


def _ability_started(state: State, e: Event, m: pb.AbilityStarted) -> State:
    card, seat = m.card, m.seat
    if m.no_effect:  # SV-24: used, and nothing happens
        return derive(state, current=seat, **_over())
    ability = Ability(card, FIRST_STEP.get(card), via_magician=m.via_magician)
    more: dict[str, Any] = {}
    if card == APPROXIMATOR and not m.via_magician:
        more["held"] = _shown(state, _held(state), card)  # shown as it is used
    return derive(
        state,
        phase=Phase.ABILITY,
        current=seat,
        ability=ability,
        selection=(),
        **more,
    )


def _card_exchanged(state: State, e: Event, m: pb.CardExchanged) -> State:
    if m.placed:
        placed = _public(state, m.slot, m.placed, m.face_up)
    else:
        placed = Spot(m.slot, _cards(e).get(m.slot), m.face_up, _held(state).knowers, False)
    return _set_spot(
        state,
        m.seat,
        m.position,
        placed,
        discard=(*state.discard, m.discarded),
        next_slot=max(state.next_slot, m.slot + 1),
        **_over(),
    )


def _multiple_exchange_started(state: State, e: Event, m: pb.MultipleExchangeStarted) -> State:
    return derive(state, phase=Phase.SELECTING, selection=())


def _card_selected(state: State, e: Event, m: pb.CardSelected) -> State:
    return derive(state, selection=(*state.selection, m.position))


def _cards_shown(state: State, e: Event, m: pb.CardsShown) -> State:
    village = state.villages[m.seat]
    for position, card in zip(m.positions, m.cards, strict=True):
        village = put(village, position, _shown(state, village[position], card))
    return _with_village(state, m.seat, village)


def _cards_discarded(state: State, e: Event, m: pb.CardsDiscarded) -> State:
    village = state.villages[m.seat]
    gone = set(m.positions)
    cards: list[Card] = []
    for p in m.positions:
        card = village[p].card
        if card is None:
            raise ValueError("only shown cards are discarded")
        cards.append(card)
    kept = tuple(spot for position, spot in enumerate(village) if position not in gone)
    return _with_village(state, m.seat, kept, discard=(*state.discard, *cards))


def _cards_turned_down(state: State, e: Event, m: pb.CardsTurnedDown) -> State:
    village = state.villages[m.seat]
    for position in m.positions:
        spot = village[position]
        village = put(
            village, position, Spot(spot.slot, spot.card, False, spot.knowers, spot.public)
        )
    return _with_village(state, m.seat, village)


def _card_added(state: State, e: Event, m: pb.CardAdded) -> State:
    if m.source == pb.ADDED_FROM_HELD:
        if m.card:
            spot = _public(state, m.slot, m.card, m.face_up)
        else:
            spot = Spot(m.slot, _cards(e).get(m.slot), m.face_up, _held(state).knowers, False)
        more: dict[str, Any] = _over()
    else:  # the deck's top card, unseen
        spot = _hidden(m.slot, _cards(e).get(m.slot))
        more = {"deck": state.deck[:-1]}
    village = state.villages[m.seat]
    village = (*village[: m.position], spot, *village[m.position :])
    return _with_village(state, m.seat, village, next_slot=max(state.next_slot, m.slot + 1), **more)


def _village_flipped(state: State, e: Event, m: pb.VillageFlipped) -> State:
    village = tuple(
        _shown(state, spot, card, up=not spot.up)
        for spot, card in zip(state.villages[m.target], m.cards, strict=True)
    )
    return _with_village(state, m.target, village, **_over())


def _card_turned_up(state: State, e: Event, m: pb.CardTurnedUp) -> State:
    spot = state.villages[m.target][m.position]
    return _set_spot(state, m.target, m.position, _shown(state, spot, m.card, up=True), **_over())


def _magician_targeted(state: State, e: Event, m: pb.MagicianTargeted) -> State:
    spot = state.villages[m.target][m.position]
    state = _set_spot(state, m.target, m.position, _shown(state, spot, m.card, up=True))
    ability = derive(_ability(state), step=Step.MAGICIAN_CHOICE, target=(m.target, m.position))
    return _settle(derive(state, ability=ability, chain=state.chain | {spot.slot}))


def _cards_switched(state: State, e: Event, m: pb.CardsSwitched) -> State:
    cards = _cards(e)
    first = state.villages[m.first_seat][m.first_position]
    second = state.villages[m.second_seat][m.second_position]

    def arriving(slot: int, old: Spot, public_card: Card) -> Spot:
        card = public_card or cards.get(slot)
        return Spot(slot, card, old.up, old.knowers, old.public)

    state = _set_spot(
        state, m.first_seat, m.first_position, arriving(m.first_slot, second, m.first_card)
    )
    state = _set_spot(
        state, m.second_seat, m.second_position, arriving(m.second_slot, first, m.second_card)
    )
    return derive(
        state, next_slot=max(state.next_slot, m.first_slot + 1, m.second_slot + 1), **_over()
    )


def _private_deck_grown(state: State, e: Event, m: pb.PrivateDeckGrown) -> State:
    spot = _hidden(m.slot, _cards(e).get(m.slot), frozenset({m.seat}))
    return derive(
        state,
        deck=state.deck[:-1],
        private=put(state.private, m.seat, (*state.private[m.seat], spot)),
        next_slot=max(state.next_slot, m.slot + 1),
        **_over(),
    )


def _viewing_stopped(state: State, e: Event, m: pb.ViewingStopped) -> State:
    return derive(state, **_over())


def _direction_reversed(state: State, e: Event, m: pb.DirectionReversed) -> State:
    reversals = state.reversals + 1
    return derive(state, clockwise=not state.clockwise, reversals=reversals, **_over())


def _seat_resigned(state: State, e: Event, m: tpb.SeatResigned) -> State:
    return derive(state, departed=state.departed | {m.seat})


HANDLERS: dict[type, Callable[[State, Event, Any], State]] = {
    tpb.SeatResigned: _seat_resigned,
    pb.RoundDealt: _round_dealt,
    pb.CardsLooked: _cards_looked,
    pb.CardViewed: _card_viewed,
    pb.DaggerTurned: _dagger_turned,
    pb.CardDrawn: _card_drawn,
    pb.DiscardTaken: _discard_taken,
    pb.VoteCalled: _vote_called,
    pb.ZombieGiven: _zombie_given,
    pb.HeldDiscarded: _held_discarded,
    pb.AbilityStarted: _ability_started,
    pb.CardExchanged: _card_exchanged,
    pb.MultipleExchangeStarted: _multiple_exchange_started,
    pb.CardSelected: _card_selected,
    pb.CardsShown: _cards_shown,
    pb.CardsDiscarded: _cards_discarded,
    pb.CardsTurnedDown: _cards_turned_down,
    pb.CardAdded: _card_added,
    pb.VillageFlipped: _village_flipped,
    pb.CardTurnedUp: _card_turned_up,
    pb.MagicianTargeted: _magician_targeted,
    pb.CardsSwitched: _cards_switched,
    pb.PrivateDeckGrown: _private_deck_grown,
    pb.DirectionReversed: _direction_reversed,
    pb.ViewingStopped: _viewing_stopped,
    pb.RoundEnded: _round_ended,
    pb.VillagesRevealed: _villages_revealed,
    pb.RoundScored: _round_scored,
    pb.DaggerPassed: _dagger_passed,
    pb.GameEnded: _game_ended,
}


# The events a turn can begin with (its first command is a draw, a take, a
# call, a Zombie given, a Spy's peek or the dagger turned): between turns,
# one of these begins the implied next turn (``State.begun``).
TURN_OPENERS = frozenset(
    {pb.CardDrawn, pb.DiscardTaken, pb.VoteCalled, pb.ZombieGiven, pb.CardViewed, pb.DaggerTurned}
)


def evolve(state: State, e: Event) -> State:
    kind = type(e.public)
    handler = HANDLERS.get(kind)
    if handler is None:
        raise TypeError(f"not a Silver Dagger event: {e.public.DESCRIPTOR.full_name}")
    if kind in TURN_OPENERS and state.phase is Phase.TURN_OVER:
        state = state.begun()
    return handler(state, e, e.public)
