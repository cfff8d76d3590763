"""The per-viewer ``View``, rendered from a state folded from that viewer's
redacted stream. As a second line of defence it shows a card only to a
viewer that knows it (auditors, everyone for public cards, the seats in
``Spot.knowers``), whatever state it is given.
"""

from __future__ import annotations

from cardroom.domain.kernel import Viewer
from cardroom.domain.silver_dagger.state import Phase, Source, Spot, State
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

PHASES = {
    Phase.DEAL: pb.PHASE_DEAL,
    Phase.LOOK: pb.PHASE_LOOK,
    Phase.TURN: pb.PHASE_TURN,
    Phase.HOLDING: pb.PHASE_HOLDING,
    Phase.SELECTING: pb.PHASE_SELECTING,
    Phase.ABILITY: pb.PHASE_ABILITY,
    Phase.ROUND_OVER: pb.PHASE_ROUND_OVER,
    Phase.OVER: pb.PHASE_OVER,
}
WAITING = (Phase.TURN, Phase.HOLDING, Phase.SELECTING, Phase.ABILITY)


def knows(viewer: Viewer, spot: Spot) -> bool:
    return viewer.kind == "auditor" or spot.public or viewer.seat in spot.knowers


def card_of(viewer: Viewer, spot: Spot) -> pb.Card:
    """The card as ``viewer`` may see it (CARD_UNSPECIFIED: its back)."""
    if spot.card is None or not knows(viewer, spot):
        return pb.CARD_UNSPECIFIED
    return spot.card


def awaiting(state: State) -> list[int]:
    """Seats whose command the game waits for (public)."""
    if state.round_end() is None:
        state = state.begun()
    if state.phase is Phase.LOOK:
        return [s for s in range(state.seat_count) if s not in state.looked]
    if state.phase in WAITING and state.current is not None:
        return [state.current]
    return []


def _seat(state: State, seat: int, viewer: Viewer) -> pb.SeatView:
    out = pb.SeatView(
        seat=seat,
        village=[
            pb.CardView(
                card=card_of(viewer, spot),
                face_up=spot.up,
                slot=spot.slot,
                known_by=sorted(spot.knowers),
                public=spot.public,
            )
            for spot in (state.villages[seat] if state.villages else ())
        ],
        looked=seat in state.looked,
        total=state.totals[seat],
        round_points=[points[seat] for points in state.round_points],
    )
    if state.private:
        pile = state.private[seat]
        out.private_deck_count = len(pile)
        out.private_deck.extend(card_of(viewer, spot) for spot in pile)
    return out


def _ability(state: State) -> pb.AbilityView | None:
    ability = state.ability
    if ability is None:
        return None
    out = pb.AbilityView(
        card=ability.card,
        step=ability.step.value if ability.step is not None else pb.ABILITY_STEP_UNSPECIFIED,
        viewed_slots=ability.viewed,
        via_magician=ability.via_magician,
    )
    if ability.target is not None:
        out.target_seat, out.target_position = ability.target
    return out


def render(state: State, viewer: Viewer) -> pb.View:
    ending = state.round_end() is not None
    if not ending:
        state = state.begun()  # between turns: the next one, as it will begin
    settings = state.settings
    view = pb.View(
        # Between the round's last turn and its scoring (seen step by step
        # in a replay) the round is over.
        phase=pb.PHASE_ROUND_OVER if ending else PHASES[state.phase],
        round=state.round,
        turn=state.turn,
        awaiting=awaiting(state),
        clockwise=state.clockwise,
        dagger_usable=state.dagger_usable,
        dagger_used=state.dagger_used,
        seats=[_seat(state, s, viewer) for s in range(state.seat_count)],
        deck_count=len(state.deck),
        discard_pile=state.discard,
        selected=state.selection,
        peeks_used=state.peeks,
        out_of_play=len(state.out),
        winners=state.winners or (),
        mismatch_penalty_threshold=settings.penalty_threshold,
        furry_sequential_plus50=settings.furry_sequential,
    )
    for name in ("start_seat", "current", "dagger", "caller"):
        value = getattr(state, name)
        if value is not None:
            setattr(
                view, {"current": "current_seat", "dagger": "dagger_seat"}.get(name, name), value
            )
    if state.held is not None:
        view.holding = True
        view.held = card_of(viewer, state.held)
        view.held_from_private_deck = state.source is Source.PRIVATE_DECK
        view.held_from_discard = state.source is Source.DISCARD
    ability = _ability(state)
    if ability is not None:
        view.ability.CopyFrom(ability)
    if state.last_round is not None:
        view.last_round.CopyFrom(state.last_round)
    return view
