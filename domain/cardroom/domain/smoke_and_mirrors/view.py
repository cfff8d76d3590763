"""Render a state folded from one viewer's stream as a ``pb.View``.

The state already holds only what the viewer has seen (unseen cards are
``None``). Cards are listed only where every one of them is known: the
viewer's own cards, an act revealed to them in a challenge, everything for an
auditor. A spectator never gets cards, whatever state it is handed.
"""

from __future__ import annotations

from cardroom.domain.kernel import Viewer
from cardroom.domain.smoke_and_mirrors.cards import card_to_pb, cards_to_pb
from cardroom.domain.smoke_and_mirrors.state import Holding, Phase, State
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as pb

_PHASES = {
    Phase.DEALING: pb.PHASE_DEALING,
    Phase.TURN: pb.PHASE_TURN,
    Phase.ELIMINATING: pb.PHASE_TURN,
    Phase.ROUND_OVER: pb.PHASE_TURN,
    Phase.SWAP: pb.PHASE_SWAP,
    Phase.BLIND_PICK: pb.PHASE_SWAP,
    Phase.GIVE: pb.PHASE_SWAP_GIVE,
    Phase.OVER: pb.PHASE_OVER,
}


def _shown(cards: Holding, viewer: Viewer) -> list[pb.Card]:
    if viewer.kind == "spectator" or None in cards:
        return []
    return cards_to_pb(c for c in cards if c is not None)


def awaiting(state: State) -> list[int]:
    """Seats whose command the game waits for (public): the turn's seat, or
    the swapper while its swap is decided (SM-10)."""
    if state.phase is Phase.TURN and state.turn_seat is not None:
        return [state.turn_seat]
    if state.phase in (Phase.SWAP, Phase.GIVE) and state.swapper is not None:
        return [state.swapper]
    return []


def render(state: State, viewer: Viewer) -> pb.View:
    view = pb.View(
        awaiting=awaiting(state),
        round=state.round,
        phase=_PHASES[state.phase],
        turn_seat=state.turn_seat or 0,
        start_seat=state.start_seat or 0,
        next_claim=state.last_claim + 1,
        challenged_this_turn=state.challenged,
        set_aside_count=len(state.set_aside),
    )
    if state.last_actor is not None:
        view.last_actor = state.last_actor
    if state.swapper is not None:
        view.swapper = state.swapper
        swap = {state.swapper} | ({state.eliminated} if state.eliminated is not None else set())
        if state.swap_taken is not None and viewer.kind != "spectator" and viewer.may_see(swap):
            view.swap_taken.CopyFrom(card_to_pb(state.swap_taken))
    if state.phase is Phase.OVER:
        need = state.settings.rounds_to_win
        for i, st in enumerate(state.seats):
            if st.round_wins >= need:
                view.winner = i
    for i, st in enumerate(state.seats):
        view.seats.append(
            pb.SeatView(
                seat=i,
                active=st.active,
                round_wins=st.round_wins,
                break_used=st.break_used,
                hand_count=len(st.hand),
                hand=_shown(st.hand, viewer),
                act_count=len(st.act),
                act=_shown(st.act, viewer),
                act_claim=st.act_claim,
            )
        )
    return view
