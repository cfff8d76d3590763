"""SV-28: the default choice of a seat that left the game or ran out of time
(DECISIONS G-02), for every decision point.

Read off the seat's own legal actions and what it knows (a card counts as
known only where the seat is among its knowers or it is public, never
because the deciding state happens to hold it), so the same choice comes
out of the seat's fold and the full state, and shows nothing. A choice that
must touch another village is the dealer's uniform draw (``DealersPick``).
"""

from __future__ import annotations

from collections.abc import Sequence

from google.protobuf.message import Message

from cardroom.domain.kernel import DealersPick
from cardroom.domain.silver_dagger.cards import value
from cardroom.domain.silver_dagger.state import Phase, Source, Spot, State, Step
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb


def default_action(
    state: State, seat: int, actions: Sequence[Message], *, departed: bool
) -> Message | DealersPick:
    """The departed seat's and the timed-out seat's default are the same at
    every decision the game can await from them (SV-28): a departed seat
    never starts a take, a call, a gift, a peek or a turn of the dagger, and
    so never reaches an ability."""
    state = state.begun()
    phase = state.phase
    if phase is Phase.LOOK:
        return pb.LookAtCards(first=0, second=1)
    if phase is Phase.TURN:
        return pb.DrawCard(private_deck=not state.deck)
    if phase is Phase.HOLDING:
        if state.source is not Source.DISCARD and not state.holds_zombie():
            return pb.DiscardDrawn()
        return pb.Exchange(position=highest_known(state, seat))
    if phase is Phase.SELECTING:
        if len(state.selection) >= 2:
            return pb.ConfirmExchange()
        return _first(actions, pb.SelectCard)
    return _ability(state, seat, actions)


def highest_known(state: State, seat: int, among: Sequence[int] | None = None) -> int:
    """The position of the village card ``seat`` knows to be highest (the
    leftmost of equals), among ``among`` (every position by default); the
    first of them when it knows none."""
    village = state.villages[seat]
    positions = list(range(len(village))) if among is None else list(among)
    known = [p for p in positions if _knows(village[p], seat)]
    if not known:
        return positions[0]
    return max(known, key=lambda p: (value(village[p].card), -p))  # type: ignore[arg-type]


def _knows(spot: Spot, seat: int) -> bool:
    return spot.card is not None and (spot.public or seat in spot.knowers)


def _first(actions: Sequence[Message], kind: type[Message]) -> Message:
    return next(a for a in actions if isinstance(a, kind))


def _own_or_dealers(actions: Sequence[Message], seat: int) -> Message | DealersPick:
    """The seat's own card or village first (it touches nobody), else the
    dealer's uniform draw among the others."""
    own = [a for a in actions if getattr(a, "seat", None) == seat]
    return own[0] if own else DealersPick(tuple(actions))


def _ability(state: State, seat: int, actions: Sequence[Message]) -> Message | DealersPick:
    ability = state.ability
    assert ability is not None and ability.step is not None
    step = ability.step
    if step is Step.APPROXIMATOR_SELECT:  # its two known-highest cards, left to right
        if state.selection:
            choices = [a.position for a in actions if isinstance(a, pb.SelectCard)]
            return pb.SelectCard(position=highest_known(state, seat, choices))
        best = highest_known(state, seat)
        rest = [p for p in range(len(state.villages[seat])) if p != best]
        return pb.SelectCard(position=min(best, highest_known(state, seat, rest)))
    if step is Step.FLIPPER_VILLAGE:
        return _own_or_dealers(actions, seat)
    if step is Step.MYSTIC_SEER_VIEW and ability.viewed:
        return pb.StopViewing()
    if step in (Step.ELUSIVE_SEER_VIEW, Step.MYSTIC_SEER_VIEW, Step.MASTER_THIEF_VIEW):
        return _own_or_dealers([a for a in actions if isinstance(a, pb.ChooseCard)], seat)
    if step is Step.MAGICIAN_CHOICE:
        if any(isinstance(a, pb.UseAbility) for a in actions):
            return pb.UseAbility()
        positions = [a.position for a in actions if isinstance(a, pb.SwitchWith)]
        return pb.SwitchWith(position=highest_known(state, seat, positions))
    # The Thief's switch and the Magician's target always touch another village.
    return DealersPick(tuple(actions))
