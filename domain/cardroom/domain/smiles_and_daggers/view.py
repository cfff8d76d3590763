"""The per-viewer ``View``, rendered from a state folded from that viewer's
redacted stream. As a second line of defence it also withholds hands and
unrevealed cards from viewers who may not see them, whatever state it gets.
"""

from __future__ import annotations

from cardroom.domain.kernel import Viewer
from cardroom.domain.smiles_and_daggers.cards import ranks_in
from cardroom.domain.smiles_and_daggers.state import Challenge, EndReason, Phase, State
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb

PHASES = {
    Phase.START: pb.PHASE_START,
    Phase.FAMILIES: pb.PHASE_FAMILIES,
    Phase.TURN: pb.PHASE_TURN,
    Phase.COMMIT: pb.PHASE_COMMIT,
    Phase.BETTING: pb.PHASE_BETTING,
    Phase.OVER: pb.PHASE_OVER,
}
END_REASONS = {
    EndReason.NINE_COINS: pb.GAME_END_REASON_NINE_COINS,
    EndReason.NO_CHALLENGE_POSSIBLE: pb.GAME_END_REASON_NO_CHALLENGE_POSSIBLE,
    EndReason.ALL_SKIPPED: pb.GAME_END_REASON_ALL_SKIPPED,
    EndReason.NO_COINS_POSSIBLE: pb.GAME_END_REASON_NO_COINS_POSSIBLE,
    EndReason.STALEMATE: pb.GAME_END_REASON_STALEMATE,
    EndReason.OVERTIME: pb.GAME_END_REASON_OVERTIME,
    EndReason.TURN_CAP: pb.GAME_END_REASON_TURN_CAP,
}


def awaiting(state: State) -> list[int]:
    """Seats whose command the game waits for (public)."""
    challenge = state.challenge
    if state.phase is Phase.FAMILIES:
        chooser = state.family_chooser
        return [] if chooser is None else [chooser]
    if state.phase is Phase.TURN and state.current is not None:
        return [state.current]
    if state.phase is Phase.COMMIT and challenge is not None:
        return [s for s, done in zip(challenge.seats, challenge.committed, strict=True) if not done]
    if state.phase is Phase.BETTING and challenge is not None:
        bettor = challenge.next_bettor
        return [] if bettor is None else [bettor]
    return []


def _seat(state: State, seat: int, viewer: Viewer) -> pb.SeatView:
    family = state.families[seat]
    out = pb.SeatView(
        seat=seat,
        family=pb.FAMILY_UNSPECIFIED if family is None else family,
        coins=state.coins[seat],
        hand_count=state.hand_count(seat),
        eliminated=ranks_in(state.eliminated[seat]),
        lost=ranks_in(state.lost[seat]),
    )
    hand = state.hand(seat)
    if hand is not None and viewer.may_see({seat}):
        out.hand_visible = True
        out.hand.extend(ranks_in(hand))
    return out


def _challenge(challenge: Challenge, viewer: Viewer) -> pb.ChallengeView:
    out = pb.ChallengeView(
        betting_opened=challenge.bettors is not None, bettors=challenge.bettors or ()
    )
    for role, target in enumerate((out.current, out.opponent)):
        seat = challenge.seats[role]
        target.seat = seat
        target.committed = challenge.committed[role]
        target.eliminated = challenge.eliminated_role == role
        card = challenge.cards[role]
        if card is not None and (challenge.revealed or viewer.may_see({seat})):
            target.rank = card.rank
            target.orientation = card.orientation
    for bet in challenge.bets:
        out.bets.add(
            seat=bet.seat,
            passed=bet.shape is None,
            shape=bet.shape or pb.BET_SHAPE_UNSPECIFIED,
            settled=bet.correct is not None,
            correct=bool(bet.correct),
        )
    return out


def render(state: State, viewer: Viewer) -> pb.View:
    settings = state.settings
    view = pb.View(
        phase=PHASES[state.phase],
        turn=state.turn,
        awaiting=awaiting(state),
        seats=[_seat(state, s, viewer) for s in range(state.seat_count)],
        recovered_this_turn=state.recovered,
        winners=state.winners or (),
        allow_two_players=settings.allow_two_players,
        optional_come_back=settings.come_back,
        recover_lost_bet_knights=settings.recover_lost_bet_knights,
        departed=sorted(state.departed),
    )
    left = state.overtime_left()
    if left is not None and state.phase is not Phase.OVER:
        view.overtime_turns_left = left
    if state.start_seat is not None:
        view.start_seat = state.start_seat
    if state.current is not None:
        view.current_seat = state.current
    if state.challenge is not None:
        view.challenge.CopyFrom(_challenge(state.challenge, viewer))
    if state.end_reason is not None:
        view.end_reason = END_REASONS[state.end_reason]
    return view
