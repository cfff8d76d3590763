"""Folding events into a state. Boring on purpose: every rule and refusal
lives in ``rules.py``; each event here only sets what it says.

``evolve`` folds full and redacted events alike: a card missing from a
redacted event becomes ``None`` in the viewer's state.
"""

from __future__ import annotations

from collections.abc import Callable

from google.protobuf.message import Message

from cardroom.domain.kernel import Event, MalformedCommand
from cardroom.domain.smoke_and_mirrors.cards import (
    Card,
    cards_from_event,
)
from cardroom.domain.smoke_and_mirrors.state import (
    Phase,
    SeatState,
    State,
    normalized,
    removing,
    unknown,
)
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as pb
from cardroom.v1 import table_pb2 as tpb


def _set_seat(seats: tuple[SeatState, ...], i: int, seat: SeatState) -> tuple[SeatState, ...]:
    return (*seats[:i], seat, *seats[i + 1 :])


def _on_round_dealt(s: State, e: Event) -> State:
    pub: pb.RoundDealt = e.public  # type: ignore[assignment]
    hands = {h.seat: cards_from_event(h.cards) for h in e.secrets_of(pb.HandDealt)}
    dealt_in = set(pub.seats)
    seats = tuple(
        SeatState(
            hand=hands.get(i, unknown(3)) if i in dealt_in else (),
            active=i in dealt_in,
            round_wins=old.round_wins,
        )
        for i, old in enumerate(s.seats)
    )
    aside = e.secret(pb.CardsSetAside)
    return s.replace(
        seats=seats,
        phase=Phase.TURN,
        round=pub.round,
        start_seat=pub.start_seat,
        turn_seat=pub.start_seat,
        challenged=False,
        last_claim=0,
        last_actor=None,
        acts_this_round=0,
        set_aside=cards_from_event(aside.cards) if aside else unknown(pub.set_aside_count),
        out=(),
        challenger=None,
        eliminated=None,
        swapper=None,
        swap_taken=None,
        swap_give=None,
    )


def _on_act_performed(s: State, e: Event) -> State:
    pub: pb.ActPerformed = e.public  # type: ignore[assignment]
    seat, count = pub.seat, pub.card_count
    st = s.seats[seat]
    owned = st.owned  # SM-04: the previous act is picked up first
    shown = e.secret(pb.ActCards)
    if shown is not None:
        act: tuple[Card | None, ...] = cards_from_event(shown.cards)
        hand = removing(owned, act)  # type: ignore[arg-type]
    else:
        act, hand = unknown(count), unknown(len(owned) - count)
    seats = _set_seat(s.seats, seat, st.replace(hand=hand, act=act, act_claim=pub.claim))
    acts = s.acts_this_round + 1
    capped = 0 < s.settings.turn_cap <= acts
    return s.replace(
        seats=seats,
        phase=Phase.ROUND_OVER if capped else Phase.TURN,
        turn_seat=s.next_active(seat),
        challenged=False,
        last_claim=pub.claim,
        last_actor=seat,
        acts_this_round=acts,
    )


def _on_break_taken(s: State, e: Event) -> State:
    seat = e.public.seat  # type: ignore[attr-defined]
    seats = _set_seat(s.seats, seat, s.seats[seat].replace(break_used=True))
    return s.replace(seats=seats, turn_seat=s.next_active(seat), challenged=False)


def _on_act_challenged(s: State, e: Event) -> State:
    pub: pb.ActChallenged = e.public  # type: ignore[assignment]
    challenger, actor, out = pub.challenger, pub.actor, pub.eliminated
    seats = s.seats
    revealed = e.secret(pb.ActRevealed)
    if revealed is not None:
        seats = _set_seat(seats, actor, seats[actor].replace(act=cards_from_event(revealed.cards)))
    seats = _set_seat(seats, out, seats[out].replace(active=False))
    remaining = actor if out == challenger else challenger
    still_in = sum(1 for st in seats if st.active)
    # SM-06: a swap needs cards in both hands, and a round that goes on.
    swap = still_in >= 2 and bool(seats[remaining].hand) and bool(seats[out].hand)
    return s.replace(
        seats=seats,
        phase=Phase.SWAP if swap else Phase.ELIMINATING,
        challenged=True,
        challenger=challenger,
        eliminated=out,
        swapper=remaining if swap else None,
    )


def _on_swap_started(s: State, e: Event) -> State:
    return s.replace(phase=Phase.BLIND_PICK)


def _moved(s: State, source: int, target: int, card: Card | None) -> tuple[SeatState, ...]:
    """One card from ``source``'s hand to ``target``'s. A viewer that does
    not see it keeps only the sizes of both hands."""
    giving, getting = s.seats[source].hand, s.seats[target].hand
    if card is None:
        giving, getting = unknown(len(giving) - 1), unknown(len(getting) + 1)
    else:
        giving, getting = removing(giving, [card]), normalized([*getting, card])
    seats = _set_seat(s.seats, source, s.seats[source].replace(hand=giving))
    return _set_seat(seats, target, seats[target].replace(hand=getting))


def _on_blind_card_taken(s: State, e: Event) -> State:
    pub: pb.BlindCardTaken = e.public  # type: ignore[assignment]
    shown = e.secret(pb.TakenCard)
    taken = Card(shown.card.pile, shown.card.value) if shown is not None else None
    seats = _moved(s, pub.eliminated, pub.seat, taken)
    return s.replace(seats=seats, phase=Phase.GIVE, swap_taken=taken)


def _on_card_given(s: State, e: Event) -> State:
    pub: pb.CardGiven = e.public  # type: ignore[assignment]
    shown = e.secret(pb.GivenCard)
    given = Card(shown.card.pile, shown.card.value) if shown is not None else None
    seats = _moved(s, pub.seat, pub.eliminated, given)
    return s.replace(seats=seats, phase=Phase.ELIMINATING, swapper=None, swap_taken=None)


def _on_swap_declined(s: State, e: Event) -> State:
    return s.replace(phase=Phase.ELIMINATING, swapper=None)


# Rules version smoke-and-mirrors/1 (CR-SM-04: the card to give named before
# the blind pick): no longer decided, still folded so its games can be read.


def _on_swap_offered(s: State, e: Event) -> State:
    choice = e.secret(pb.SwapChoice)
    give = Card(choice.give.pile, choice.give.value) if choice is not None else None
    return s.replace(phase=Phase.BLIND_PICK, swap_give=give)


def _on_cards_swapped(s: State, e: Event) -> State:
    pub: pb.CardsSwapped = e.public  # type: ignore[assignment]
    swapper, out = pub.seat, pub.eliminated
    mine, theirs = s.seats[swapper].hand, s.seats[out].hand
    detail = e.secret(pb.SwapDetail)
    if detail is not None:
        taken = Card(detail.taken.pile, detail.taken.value)
        given = Card(detail.given.pile, detail.given.value)
        mine = normalized([*removing(mine, [given]), taken])
        theirs = normalized([*removing(theirs, [taken]), given])
    else:
        mine, theirs = unknown(len(mine)), unknown(len(theirs))
    seats = _set_seat(s.seats, swapper, s.seats[swapper].replace(hand=mine))
    seats = _set_seat(seats, out, seats[out].replace(hand=theirs))
    return s.replace(seats=seats, phase=Phase.ELIMINATING, swapper=None, swap_give=None)


def _on_player_eliminated(s: State, e: Event) -> State:
    seat = e.public.seat  # type: ignore[attr-defined]
    st = s.seats[seat]
    seats = _set_seat(s.seats, seat, st.replace(hand=(), act=(), act_claim=0, active=False))
    state = s.replace(
        seats=seats,
        out=s.out + st.hand + st.act,
        challenger=None,
        eliminated=None,
        swapper=None,
        swap_taken=None,
        swap_give=None,
    )
    if sum(1 for x in seats if x.active) <= 1:
        return state.replace(phase=Phase.ROUND_OVER)
    if seat == s.challenger:
        # SM-06: the challenger lost; the next player faces the same act.
        return state.replace(phase=Phase.TURN, turn_seat=state.next_active(seat), challenged=False)
    if s.challenger is None or not seats[s.challenger].active:
        # SM-11: the challenger left the round while deciding on the swap.
        return state.replace(phase=Phase.TURN, turn_seat=state.next_active(seat), challenged=False)
    # The actor lost; the challenger goes on with step 2 of the same turn.
    return state.replace(phase=Phase.TURN, turn_seat=s.challenger, challenged=True)


def _on_player_left_round(s: State, e: Event) -> State:
    """SM-11: like an elimination without a challenge. If the seat was the
    swapper (before its blind take or after it, SM-10: the card taken leaves
    with it), the eliminated player's removal follows; on its turn, play
    passes to the next active seat."""
    seat = e.public.seat  # type: ignore[attr-defined]
    st = s.seats[seat]
    seats = _set_seat(s.seats, seat, st.replace(hand=(), act=(), act_claim=0, active=False))
    state = s.replace(seats=seats, out=s.out + st.hand + st.act)
    if s.phase in (Phase.SWAP, Phase.GIVE):
        return state.replace(phase=Phase.ELIMINATING, swapper=None, swap_taken=None)
    if sum(1 for x in seats if x.active) <= 1:
        return state.replace(phase=Phase.ROUND_OVER)
    return state.replace(turn_seat=state.next_active(seat), challenged=False)


def _on_round_won(s: State, e: Event) -> State:
    pub: pb.RoundWon = e.public  # type: ignore[assignment]
    seats = s.seats
    over = False
    if pub.HasField("seat"):
        st = seats[pub.seat]
        seats = _set_seat(seats, pub.seat, st.replace(round_wins=st.round_wins + 1))
        over = st.round_wins + 1 >= s.settings.rounds_to_win
    return s.replace(
        seats=seats,
        phase=Phase.OVER if over else Phase.DEALING,
        turn_seat=None,
        challenged=False,
    )


def _on_seat_resigned(s: State, e: Event) -> State:
    return s.replace(departed=s.departed | {e.public.seat})  # type: ignore[attr-defined]


HANDLERS: dict[type[Message], Callable[[State, Event], State]] = {
    tpb.SeatResigned: _on_seat_resigned,
    pb.RoundDealt: _on_round_dealt,
    pb.ActPerformed: _on_act_performed,
    pb.BreakTaken: _on_break_taken,
    pb.ActChallenged: _on_act_challenged,
    pb.SwapStarted: _on_swap_started,
    pb.BlindCardTaken: _on_blind_card_taken,
    pb.CardGiven: _on_card_given,
    pb.SwapDeclined: _on_swap_declined,
    pb.SwapOffered: _on_swap_offered,  # smoke-and-mirrors/1
    pb.CardsSwapped: _on_cards_swapped,  # smoke-and-mirrors/1
    pb.PlayerEliminated: _on_player_eliminated,
    pb.PlayerLeftRound: _on_player_left_round,
    pb.RoundWon: _on_round_won,
}


def evolve(state: State, event: Event) -> State:
    handler = HANDLERS.get(type(event.public))
    if handler is None:
        raise MalformedCommand(f"not a Smoke & Mirrors event: {type(event.public).__name__}")
    return handler(state, event)
