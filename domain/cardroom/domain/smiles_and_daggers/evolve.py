"""Folding events into a state. Boring on purpose: every rule and refusal
lives in ``rules.py``; each event here only sets what it says.

``evolve`` folds full and redacted events alike. The only secret is a
committed card (``CommittedCard``); without it the card stays ``None`` until
``CardsRevealed`` shows it to everyone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardroom.domain.kernel import Event
from cardroom.domain.smiles_and_daggers.cards import KNIGHT, Card, Hand, Rank, add
from cardroom.domain.smiles_and_daggers.state import (
    TARGET_COINS,
    Bet,
    Challenge,
    EndReason,
    Phase,
    State,
    derive,
)
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb
from cardroom.v1 import table_pb2 as tpb

END_REASONS = {
    pb.GAME_END_REASON_NINE_COINS: EndReason.NINE_COINS,
    pb.GAME_END_REASON_NO_CHALLENGE_POSSIBLE: EndReason.NO_CHALLENGE_POSSIBLE,
    pb.GAME_END_REASON_ALL_SKIPPED: EndReason.ALL_SKIPPED,
    pb.GAME_END_REASON_NO_COINS_POSSIBLE: EndReason.NO_COINS_POSSIBLE,
    pb.GAME_END_REASON_STALEMATE: EndReason.STALEMATE,
    pb.GAME_END_REASON_OVERTIME: EndReason.OVERTIME,
    pb.GAME_END_REASON_TURN_CAP: EndReason.TURN_CAP,
}


def _turn_over(state: State) -> State:
    """SD-15: count a turn that changed nothing, and note when the first
    turn ended with a seat still playing at 9 coins or more."""
    quiet = 0 if state.turn_changed else state.quiet_turns + 1
    overtime = state.overtime_from
    if overtime is None and any(state.coins[s] >= TARGET_COINS for s in state.playing):
        overtime = state.turn
    return derive(state, quiet_turns=quiet, overtime_from=overtime)


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _move(hands: tuple[Hand, ...], seat: int, rank: Rank, delta: int) -> tuple[Hand, ...]:
    return _set(hands, seat, add(hands[seat], rank, delta))


def _challenge(state: State) -> Challenge:
    if state.challenge is None:
        raise ValueError("no challenge on the table")
    return state.challenge


def _card(play: pb.Play) -> Card:
    return Card(play.rank, play.orientation)


def _start_seat_chosen(state: State, e: Event, m: pb.StartSeatChosen) -> State:
    return derive(state, phase=Phase.FAMILIES, start_seat=m.seat)


def _family_chosen(state: State, e: Event, m: pb.FamilyChosen) -> State:
    return derive(state, families=_set(state.families, m.seat, m.family))


def _turn_started(state: State, e: Event, m: pb.TurnStarted) -> State:
    return derive(
        state,
        phase=Phase.TURN,
        current=m.seat,
        turn=m.turn,
        recovered=False,
        challenge=None,
        turn_changed=False,
    )


def _card_recovered(state: State, e: Event, m: pb.CardRecovered) -> State:
    rank = m.rank
    return derive(
        state,
        coins=_set(state.coins, m.seat, state.coins[m.seat] - m.cost),
        eliminated=_move(state.eliminated, m.seat, rank, -1),
        in_play=_move(state.in_play, m.seat, rank, +1),
        recovered=True,
        turn_changed=True,
    )


def _turn_skipped(state: State, e: Event, m: pb.TurnSkipped) -> State:
    return _turn_over(derive(state, skipped=state.skipped | {m.seat}))


def _opponent_challenged(state: State, e: Event, m: pb.OpponentChallenged) -> State:
    return derive(
        state,
        phase=Phase.COMMIT,
        challenge=Challenge(seats=(m.current_seat, m.opponent_seat)),
        skipped=frozenset(),
    )


def _card_committed(state: State, e: Event, m: pb.CardCommitted) -> State:
    challenge = _challenge(state)
    role = challenge.role_of(m.seat)
    if role is None:
        raise ValueError(f"seat {m.seat} is not a challenger")
    secret = e.secret(pb.CommittedCard)
    card = None if secret is None else Card(secret.rank, secret.orientation)
    return derive(
        state,
        challenge=derive(
            challenge,
            committed=_set(challenge.committed, role, True),
            cards=_set(challenge.cards, role, card),
        ),
    )


def _betting_opened(state: State, e: Event, m: pb.BettingOpened) -> State:
    challenge = derive(_challenge(state), bettors=tuple(m.bettors))
    return derive(state, phase=Phase.BETTING, challenge=challenge)


def _bet(state: State, bet: Bet) -> State:
    challenge = _challenge(state)
    return derive(state, challenge=derive(challenge, bets=(*challenge.bets, bet)))


def _bet_placed(state: State, e: Event, m: pb.BetPlaced) -> State:
    return _bet(state, Bet(m.seat, m.shape))


def _bet_passed(state: State, e: Event, m: pb.BetPassed) -> State:
    return _bet(state, Bet(m.seat, None))


def _cards_revealed(state: State, e: Event, m: pb.CardsRevealed) -> State:
    challenge = _challenge(state)
    return derive(
        state,
        challenge=derive(challenge, cards=(_card(m.current), _card(m.opponent)), revealed=True),
    )


def _bet_settled(state: State, e: Event, m: pb.BetSettled) -> State:
    challenge = _challenge(state)
    bets = tuple(
        Bet(b.seat, b.shape, m.correct) if b.seat == m.seat and b.shape is not None else b
        for b in challenge.bets
    )
    state = derive(state, challenge=derive(challenge, bets=bets), turn_changed=True)
    if m.correct:
        return derive(state, coins=_set(state.coins, m.seat, state.coins[m.seat] + m.coins))
    # SD-04: the Knight leaves the game; recoverable unless the flag says no.
    in_play = _move(state.in_play, m.seat, KNIGHT, -1)
    if state.settings.recover_lost_bet_knights:
        eliminated = _move(state.eliminated, m.seat, KNIGHT, +1)
        return derive(state, in_play=in_play, eliminated=eliminated)
    return derive(state, in_play=in_play, lost=_move(state.lost, m.seat, KNIGHT, +1))


def _card_eliminated(state: State, e: Event, m: pb.CardEliminated) -> State:
    challenge = _challenge(state)
    rank = m.rank
    return derive(
        state,
        in_play=_move(state.in_play, m.seat, rank, -1),
        eliminated=_move(state.eliminated, m.seat, rank, +1),
        challenge=derive(challenge, eliminated_role=challenge.role_of(m.seat)),
        turn_changed=True,
    )


def _coins_paid(state: State, e: Event, m: pb.CoinsPaid) -> State:
    coins = _set(state.coins, m.seat, state.coins[m.seat] + m.amount)
    return derive(state, coins=coins, turn_changed=True)


def _turn_ended(state: State, e: Event, m: pb.TurnEnded) -> State:
    # What is left on the table goes back to hand: in_play already counts it.
    return _turn_over(derive(state, phase=Phase.TURN, challenge=None))


def _game_ended(state: State, e: Event, m: pb.GameEnded) -> State:
    return derive(
        state,
        phase=Phase.OVER,
        challenge=None,
        winners=tuple(m.winners),
        end_reason=END_REASONS[m.reason],
    )


def _seat_resigned(state: State, e: Event, m: tpb.SeatResigned) -> State:
    return derive(state, departed=state.departed | {m.seat})


HANDLERS: dict[type, Callable[[State, Event, Any], State]] = {
    tpb.SeatResigned: _seat_resigned,
    pb.StartSeatChosen: _start_seat_chosen,
    pb.FamilyChosen: _family_chosen,
    pb.TurnStarted: _turn_started,
    pb.CardRecovered: _card_recovered,
    pb.TurnSkipped: _turn_skipped,
    pb.OpponentChallenged: _opponent_challenged,
    pb.CardCommitted: _card_committed,
    pb.BettingOpened: _betting_opened,
    pb.BetPlaced: _bet_placed,
    pb.BetPassed: _bet_passed,
    pb.CardsRevealed: _cards_revealed,
    pb.BetSettled: _bet_settled,
    pb.CardEliminated: _card_eliminated,
    pb.CoinsPaid: _coins_paid,
    pb.TurnEnded: _turn_ended,
    pb.GameEnded: _game_ended,
}


def evolve(state: State, e: Event) -> State:
    handler = HANDLERS.get(type(e.public))
    if handler is None:
        raise TypeError(f"not a Smiles & Daggers event: {e.public.DESCRIPTOR.full_name}")
    return handler(state, e, e.public)
