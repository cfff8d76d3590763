"""A turn's own actions: looking, drawing, taking, calling, giving a Zombie,
Spy peeks, the dagger, discarding and exchanging (SV-03..SV-08, SV-14,
SV-18), each with the legal commands of its decision point.

Every handler gets a batch on the full state, after ``rules`` has checked
the command's shape and that it is this seat's move in the right phase. Its
remaining checks use public facts and the seat's own held card only.
"""

from __future__ import annotations

from google.protobuf.message import Message

from cardroom.domain.kernel import RuleViolation
from cardroom.domain.silver_dagger.batch import (
    Batch,
    arrival,
    hidden_slots,
    known,
    position_in,
    public_card,
    slot_card,
)
from cardroom.domain.silver_dagger.cards import APPROXIMATOR, DRAW_ABILITIES, SET_SIZE, SPY, ZOMBIE
from cardroom.domain.silver_dagger.state import Source, State
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

RB_SPOTS = "rulebook: Card Spots"


# ------------------------------------------------------------------- look


def look(batch: Batch, seat: int, cmd: pb.LookAtCards) -> None:
    state = batch.state
    village = state.villages[seat]
    spots = [position_in(village, p, "SV-01") for p in (cmd.first, cmd.second)]
    batch.emit(
        pb.CardsLooked(seat=seat, positions=[cmd.first, cmd.second]),
        *(slot_card(s.knowers | {seat}, s.slot, s.card) for s in spots if not s.public),
    )


def look_choices() -> list[Message]:
    return [
        pb.LookAtCards(first=a, second=b) for a in range(SET_SIZE) for b in range(a + 1, SET_SIZE)
    ]


# ------------------------------------------------------------ turn actions


def draw(batch: Batch, seat: int, cmd: pb.DrawCard) -> None:
    state = batch.state
    if cmd.private_deck:
        pile = state.private[seat]
        if not pile:
            raise RuleViolation("SV-13", "your private deck is empty")
    else:
        pile = state.deck
        if not pile:
            raise RuleViolation("SV-03", "the deck is empty")
    top, slot = pile[-1], batch.new_slot()
    batch.emit(
        pb.CardDrawn(seat=seat, private_deck=cmd.private_deck, from_slot=top.slot, slot=slot),
        slot_card({seat}, slot, top.card),
    )
    if top.card == ZOMBIE and not state.villages[seat]:
        keep_zombie(batch, seat)  # SV-08 Z2, SV-20: nothing to exchange it with


def take(batch: Batch, seat: int, cmd: pb.TakeDiscard) -> None:
    state = batch.state
    if not state.discard:
        raise RuleViolation("SV-20", "the discard pile is empty")
    if not state.villages[seat]:
        raise RuleViolation("SV-20", "your village is empty: there is nothing to exchange")
    batch.emit(pb.DiscardTaken(seat=seat, card=state.discard[-1], slot=batch.new_slot()))


def call(batch: Batch, seat: int, cmd: pb.CallVote) -> None:
    state = batch.state
    if state.caller is not None:
        raise RuleViolation("SV-04", f"seat {state.caller} has already called this round")
    if state.peeks or state.dagger_turned:
        raise RuleViolation("SV-04", "calling is the whole turn: you have already acted")
    cards = len(state.villages[seat])
    if cards > 4:
        raise RuleViolation("SV-04", f"a call needs four or fewer cards; you have {cards}")
    batch.emit(pb.VoteCalled(seat=seat))


def give_zombie(batch: Batch, seat: int, cmd: pb.GiveZombie) -> None:
    state = batch.state
    spot = position_in(state.villages[seat], cmd.position, "SV-08")
    if not (spot.up and spot.card == ZOMBIE):
        raise RuleViolation("SV-08", "only a face-up Zombie of your village can be given")
    target = state.predecessor(seat)
    if state.protected(target, seat):
        raise RuleViolation("SV-15", f"seat {target}'s face-up Sentinel keeps the Zombie out")
    batch.emit(
        pb.ZombieGiven(seat=seat, position=cmd.position, target=target, slot=batch.new_slot())
    )


def peek(batch: Batch, seat: int, cmd: pb.SpyPeek) -> None:
    state = batch.state
    if cmd.seat == seat:
        raise RuleViolation("SV-14", "a Spy peeks into another player's village")
    if state.peeks_left(seat) <= 0:
        spies = state.face_up_count(seat, SPY)
        raise RuleViolation("SV-14", f"you have used your {spies} peek(s) this turn")
    spot = position_in(state.villages[cmd.seat], cmd.position, "SV-14")
    if spot.up:
        raise RuleViolation("SV-14", "that card is face up")
    batch.emit(
        pb.CardViewed(seat=seat, target=cmd.seat, position=cmd.position, reason=pb.VIEW_REASON_SPY),
        *([] if spot.public else [slot_card(spot.knowers | {seat}, spot.slot, spot.card)]),
    )


def turn_dagger(batch: Batch, seat: int, cmd: pb.TurnDagger) -> None:
    state = batch.state
    if state.dagger != seat or not state.dagger_usable:
        raise RuleViolation(
            "SV-18", "only a player who won the dagger by a successful call may turn it"
        )
    if state.dagger_used:
        raise RuleViolation("SV-18", "the dagger has already been turned this round")
    batch.emit(pb.DaggerTurned(seat=seat))


def turn_choices(state: State, seat: int) -> list[Message]:
    actions: list[Message] = []
    if state.deck:
        actions.append(pb.DrawCard())
    if state.private[seat]:
        actions.append(pb.DrawCard(private_deck=True))
    if state.discard and state.villages[seat]:
        actions.append(pb.TakeDiscard())
    if state.may_call(seat):
        actions.append(pb.CallVote())
    if state.zombie_target(seat) is not None:
        actions.extend(
            pb.GiveZombie(position=p)
            for p, spot in enumerate(state.villages[seat])
            if spot.up and spot.card == ZOMBIE
        )
    actions.extend(free_choices(state, seat))
    return actions


def free_choices(state: State, seat: int) -> list[Message]:
    """What a seat may do besides its action (SV-23): peeks, the dagger."""
    actions: list[Message] = []
    if state.peeks_left(seat) > 0:
        actions.extend(
            pb.SpyPeek(seat=target, position=position)
            for target, position, _ in state.face_down()
            if target != seat
        )
    if state.may_turn_dagger(seat):
        actions.append(pb.TurnDagger())
    return actions


# ---------------------------------------------------------- the held card


def discard_drawn(batch: Batch, seat: int, cmd: pb.DiscardDrawn) -> None:
    state = batch.state
    if state.source is Source.DISCARD:
        raise RuleViolation(
            "rulebook: Take a Card from the Discard Pile",
            "a card taken from the discard pile must be exchanged",
        )
    if state.holds_zombie():
        raise RuleViolation("SV-08", "a drawn Zombie cannot be discarded: exchange it")
    discard_held(batch, seat)


def discard_held(batch: Batch, seat: int) -> None:
    held = batch.state.held
    assert held is not None
    batch.emit(
        pb.HeldDiscarded(seat=seat, card=known(held.card), revealed_slots=hidden_slots([held]))
    )


def keep_zombie(batch: Batch, seat: int) -> None:
    """SV-08 Z2/Z3: a held Zombie that cannot be discarded joins the village
    at its right end, shown to everyone as it stays (SV-26(b))."""
    state = batch.state
    held = state.held
    assert held is not None
    batch.emit(
        pb.CardAdded(
            seat=seat,
            position=len(state.villages[seat]),
            slot=batch.new_slot(),
            face_up=state.source is Source.DISCARD,
            card=ZOMBIE,
            source=pb.ADDED_FROM_HELD,
            revealed_slots=hidden_slots([held]),
        )
    )


def exchange(batch: Batch, seat: int, cmd: pb.Exchange) -> None:
    state = batch.state
    spot = position_in(state.villages[seat], cmd.position, RB_SPOTS)
    held = state.held
    assert held is not None
    card = known(spot.card)
    if card == ZOMBIE:  # SV-08 Z1: a village Zombie never reaches the discard pile
        batch.emit(
            pb.CardsShown(
                seat=seat,
                positions=[cmd.position],
                cards=[card],
                revealed_slots=hidden_slots([spot]),
            )
        )
        _refused_for_a_zombie(batch, seat)
        return
    slot = batch.new_slot()
    batch.emit(
        pb.CardExchanged(
            seat=seat,
            position=cmd.position,
            discarded=card,
            slot=slot,
            face_up=state.source is Source.DISCARD,
            placed=public_card(held),
            revealed_slots=hidden_slots([spot]),
        ),
        *arrival(held, slot),
    )


def _refused_for_a_zombie(batch: Batch, seat: int) -> None:
    """Z1: the held card is discarded instead, unless it is a Zombie too
    (Z2, Z3): then both stay."""
    if batch.state.holds_zombie():
        keep_zombie(batch, seat)
    else:
        discard_held(batch, seat)


def start_multiple(batch: Batch, seat: int, cmd: pb.StartMultipleExchange) -> None:
    if len(batch.state.villages[seat]) < 2:
        raise RuleViolation("SV-06", "a multiple exchange needs two or more village cards")
    batch.emit(pb.MultipleExchangeStarted(seat=seat))


def select(batch: Batch, seat: int, cmd: pb.SelectCard, rule: str) -> None:
    """One more card for a multiple exchange or the Approximator: left to
    right, and the first must leave room for a second (SV-27)."""
    state = batch.state
    village = state.villages[seat]
    position_in(village, cmd.position, rule)
    if state.selection and cmd.position <= state.selection[-1]:
        raise RuleViolation("SV-27", "select cards left to right, with no take-back")
    if not state.selection and cmd.position >= len(village) - 1:
        raise RuleViolation(rule, "choose a first card with another card to its right")
    batch.emit(pb.CardSelected(seat=seat, position=cmd.position))


def confirm(batch: Batch, seat: int, cmd: pb.ConfirmExchange) -> None:
    """SV-06: all selected cards are shown; equal ones are discarded and the
    held card takes the leftmost vacated spot (SV-22); otherwise they go
    back face down and the held card (and, from the threshold on, the deck's
    top card) joins the village's right end."""
    state = batch.state
    chosen = state.selection
    if len(chosen) < 2:
        raise RuleViolation("SV-06", "a multiple exchange needs at least two cards")
    village = state.villages[seat]
    spots = [village[p] for p in chosen]
    cards = [known(s.card) for s in spots]
    held = state.held
    assert held is not None
    batch.emit(
        pb.CardsShown(seat=seat, positions=chosen, cards=cards, revealed_slots=hidden_slots(spots))
    )
    if len(set(cards)) == 1:
        if cards[0] == ZOMBIE:
            _refused_for_a_zombie(batch, seat)
            return
        batch.emit(pb.CardsDiscarded(seat=seat, positions=chosen))
        add_held(batch, seat, chosen[0])
        return
    batch.emit(pb.CardsTurnedDown(seat=seat, positions=chosen))
    add_held(batch, seat, len(village))
    after = batch.state
    if len(chosen) >= after.settings.penalty_threshold and after.deck:
        slot = batch.new_slot()
        batch.emit(
            pb.CardAdded(
                seat=seat,
                position=len(after.villages[seat]),
                slot=slot,
                source=pb.ADDED_FROM_DECK,
            ),
            slot_card((), slot, after.deck[-1].card),
        )


def add_held(batch: Batch, seat: int, position: int, face_up: bool | None = None) -> None:
    """The held card joins the village at ``position``: face up when it came
    from the discard pile, else face down, unless ``face_up`` says."""
    state = batch.state
    held = state.held
    assert held is not None
    slot = batch.new_slot()
    batch.emit(
        pb.CardAdded(
            seat=seat,
            position=position,
            slot=slot,
            face_up=state.source is Source.DISCARD if face_up is None else face_up,
            card=public_card(held),
            source=pb.ADDED_FROM_HELD,
        ),
        *arrival(held, slot),
    )


def holding_choices(state: State, seat: int) -> list[Message]:
    held = state.held
    assert held is not None
    actions: list[Message] = []
    drawn = state.source is not Source.DISCARD
    if drawn and held.card != ZOMBIE:
        actions.append(pb.DiscardDrawn())
    if drawn and held.card in DRAW_ABILITIES:
        card = known(held.card)
        if card != APPROXIMATOR or state.ability_has_effect(card, seat):  # SV-09, SV-24
            actions.append(pb.UseAbility())
    size = len(state.villages[seat])
    actions.extend(pb.Exchange(position=p) for p in range(size))
    if size >= 2:
        actions.append(pb.StartMultipleExchange())
    actions.extend(free_choices(state, seat))
    return actions


def selecting_choices(state: State, seat: int) -> list[Message]:
    size = len(state.villages[seat])
    start = state.selection[-1] + 1 if state.selection else 0
    stop = size if state.selection else size - 1
    return [pb.SelectCard(position=p) for p in range(start, stop)]
