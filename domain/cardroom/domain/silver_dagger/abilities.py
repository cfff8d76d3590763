"""The draw/discard abilities (cards 5..12, SV-09..SV-13) and the Magician's
use of them, one successive choice at a time, each with its legal commands.

An ability starts with ``UseAbility``; the ones that need choices set a step
(``state.Step``) and wait for ``SelectCard``, ``ChooseVillage``,
``ChooseCard``, ``SwitchWith`` or ``StopViewing``. When a step has nothing
left to choose, ``evolve`` ends the turn (``State.step_has_choice``).
"""

from __future__ import annotations

from google.protobuf.message import Message

from cardroom.domain.kernel import RuleViolation
from cardroom.domain.silver_dagger.actions import add_held, discard_held, select, selecting_choices
from cardroom.domain.silver_dagger.batch import (
    Batch,
    arrival,
    hidden_slots,
    known,
    position_in,
    public_card,
    slot_card,
)
from cardroom.domain.silver_dagger.cards import (
    APPROXIMATOR,
    DRAW_ABILITIES,
    ELUSIVE_STOP,
    RENFIELD,
    REVERSER,
    ZOMBIE,
    Card,
    label,
    value,
)
from cardroom.domain.silver_dagger.state import Ability, Source, State, Step
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

RB_ABILITIES = "rulebook: Abilities"
RB_FLIPPER = "rulebook: 6 Flipper"
RB_MYSTIC = "rulebook: 9 Mystic Seer"


def _ability(state: State) -> Ability:
    assert state.ability is not None
    return state.ability


# ------------------------------------------------------------------ start


def use_drawn(batch: Batch, seat: int, cmd: pb.UseAbility) -> None:
    """A card drawn from a deck: discard it and use its ability; the
    Approximator is shown and goes into the village instead (SV-09)."""
    state = batch.state
    held = state.held
    assert held is not None
    if state.source is Source.DISCARD:
        raise RuleViolation(RB_ABILITIES, "no ability on a card taken from the discard pile")
    card = known(held.card)
    if card not in DRAW_ABILITIES:
        raise RuleViolation(RB_ABILITIES, f"the {label(card)} has no draw/discard ability")
    effect = state.ability_has_effect(card, seat)
    if card == APPROXIMATOR:
        if not effect:
            raise RuleViolation("SV-09", "the Approximator needs two other cards in your village")
        batch.emit(pb.AbilityStarted(seat=seat, card=card, revealed_slots=hidden_slots([held])))
        return
    discard_held(batch, seat)
    batch.emit(pb.AbilityStarted(seat=seat, card=card, no_effect=not effect))
    if effect:
        _resolve_at_once(batch, seat, card)


def use_targeted(batch: Batch, seat: int, cmd: pb.UseAbility) -> None:
    """SV-10: the Magician's user resolves the turned card's ability; the
    card stays where it is."""
    state = batch.state
    target, position = _target(state)
    card = known(state.villages[target][position].card)
    if not state.magician_may_use(seat):
        raise RuleViolation("SV-10", f"the {label(card)}'s ability cannot be used: switch it")
    effect = state.ability_has_effect(card, seat)
    batch.emit(pb.AbilityStarted(seat=seat, card=card, via_magician=True, no_effect=not effect))
    if effect:
        _resolve_at_once(batch, seat, card)


def _resolve_at_once(batch: Batch, seat: int, card: Card) -> None:
    state = batch.state
    if card == RENFIELD:  # SV-13
        top, slot = state.deck[-1], batch.new_slot()
        batch.emit(
            pb.PrivateDeckGrown(seat=seat, from_slot=top.slot, slot=slot),
            slot_card({seat}, slot, top.card),
        )
    elif card == REVERSER:  # SV-02: in 2-player the reversal skips the opponent
        batch.emit(pb.DirectionReversed(seat=seat))


def _target(state: State) -> tuple[int, int]:
    target = _ability(state).target
    assert target is not None
    return target


# ---------------------------------------------------------------- steps


def approximator_select(batch: Batch, seat: int, cmd: pb.SelectCard) -> None:
    """SV-09 with SV-08 Z5: the two cards are shown and discarded, lowest on
    top; a Zombie stays unless its partner is lower than 4. The Approximator
    goes face up into the leftmost vacated spot, or the right end."""
    select(batch, seat, cmd, "SV-09")
    state = batch.state
    if len(state.selection) < 2:
        return
    village = state.villages[seat]
    chosen = state.selection
    spots = [village[p] for p in chosen]
    cards = [known(s.card) for s in spots]
    batch.emit(
        pb.CardsShown(seat=seat, positions=chosen, cards=cards, revealed_slots=hidden_slots(spots))
    )
    zombies = [p for p, c in zip(chosen, cards, strict=True) if c == ZOMBIE]
    others = [(p, c) for p, c in zip(chosen, cards, strict=True) if c != ZOMBIE]
    if not zombies:
        ordered = sorted(others, key=lambda pc: value(pc[1]), reverse=True)
        gone = [p for p, _ in ordered]
    elif len(zombies) == 1 and value(others[0][1]) < value(ZOMBIE):
        gone = [zombies[0], others[0][0]]  # the lower card on top of the Zombie
    elif len(zombies) == 1:
        gone = [others[0][0]]
    else:
        gone = []
    if gone:
        batch.emit(pb.CardsDiscarded(seat=seat, positions=gone))
    where = min(gone) if gone else len(batch.state.villages[seat])
    add_held(batch, seat, where, face_up=True)


def choose_village(batch: Batch, seat: int, cmd: pb.ChooseVillage) -> None:
    """Flipper: every card of the village turns over; all of it is public."""
    village = batch.state.villages[cmd.seat]
    if not village:
        raise RuleViolation(RB_FLIPPER, "that village is empty")
    batch.emit(
        pb.VillageFlipped(
            seat=seat,
            target=cmd.seat,
            cards=[known(s.card) for s in village],
            revealed_slots=hidden_slots(village),
        )
    )


def choose_card(batch: Batch, seat: int, cmd: pb.ChooseCard) -> None:
    step = _ability(batch.state).step
    if step is Step.ELUSIVE_SEER_VIEW:
        _view(batch, seat, cmd, pb.VIEW_REASON_ELUSIVE_SEER, "SV-12")
    elif step is Step.MYSTIC_SEER_VIEW:
        _view(batch, seat, cmd, pb.VIEW_REASON_MYSTIC_SEER, RB_MYSTIC)
    elif step is Step.MASTER_THIEF_VIEW:
        _view(batch, seat, cmd, pb.VIEW_REASON_MASTER_THIEF, "SV-11")
    elif step is Step.MASTER_THIEF_SWITCH:
        _thief_switch(batch, seat, cmd)
    else:
        _magician_target(batch, seat, cmd)


def _view(batch: Batch, seat: int, cmd: pb.ChooseCard, reason: pb.ViewReason, rule: str) -> None:
    state = batch.state
    spot = position_in(state.villages[cmd.seat], cmd.position, rule)
    if spot.up:
        raise RuleViolation(rule, "that card is face up: view a face-down card")
    if spot.slot in _ability(state).viewed:
        raise RuleViolation(rule, "you have already viewed that card")
    batch.emit(
        pb.CardViewed(seat=seat, target=cmd.seat, position=cmd.position, reason=reason),
        *([] if spot.public else [slot_card(spot.knowers | {seat}, spot.slot, spot.card)]),
    )
    card = known(spot.card)
    if reason == pb.VIEW_REASON_ELUSIVE_SEER and card in ELUSIVE_STOP:
        batch.emit(
            pb.CardTurnedUp(
                seat=seat,
                target=cmd.seat,
                position=cmd.position,
                card=card,
                revealed_slots=hidden_slots([spot]),
            )
        )


def _thief_switch(batch: Batch, seat: int, cmd: pb.ChooseCard) -> None:
    state = batch.state
    home, position = _target(state)
    if cmd.seat == home:
        raise RuleViolation("SV-11", "switch with a card of another village")
    position_in(state.villages[cmd.seat], cmd.position, "SV-11")
    if not state.may_switch(home, cmd.seat, seat):
        raise RuleViolation("SV-15", f"seat {cmd.seat}'s face-up Sentinel forbids the switch")
    switch(batch, seat, (home, position), (cmd.seat, cmd.position))


def _magician_target(batch: Batch, seat: int, cmd: pb.ChooseCard) -> None:
    state = batch.state
    if cmd.seat == seat:
        raise RuleViolation("SV-10", "the Magician turns a card in another village")
    spot = position_in(state.villages[cmd.seat], cmd.position, "SV-10")
    if spot.slot in state.chain:
        raise RuleViolation("SV-25", "a Magician has already turned that card this turn")
    batch.emit(
        pb.MagicianTargeted(
            seat=seat,
            target=cmd.seat,
            position=cmd.position,
            card=known(spot.card),
            revealed_slots=hidden_slots([spot]),
        )
    )


def magician_switch(batch: Batch, seat: int, cmd: pb.SwitchWith) -> None:
    state = batch.state
    target, position = _target(state)
    position_in(state.villages[seat], cmd.position, "SV-10")
    if state.protected(target, seat):
        raise RuleViolation("SV-15", f"seat {target}'s face-up Sentinel forbids the switch")
    switch(batch, seat, (target, position), (seat, cmd.position))


def switch(batch: Batch, seat: int, first: tuple[int, int], second: tuple[int, int]) -> None:
    """Two village cards trade places, each keeping its orientation and its
    knowers (SV-10, SV-11); each lands in a new slot."""
    state = batch.state
    a = state.villages[first[0]][first[1]]
    b = state.villages[second[0]][second[1]]
    at_first, at_second = batch.new_slot(), batch.new_slot(1)
    batch.emit(
        pb.CardsSwitched(
            seat=seat,
            first_seat=first[0],
            first_position=first[1],
            first_slot=at_first,
            first_card=public_card(b),
            second_seat=second[0],
            second_position=second[1],
            second_slot=at_second,
            second_card=public_card(a),
        ),
        *arrival(b, at_first),
        *arrival(a, at_second),
    )


def stop_viewing(batch: Batch, seat: int, cmd: pb.StopViewing) -> None:
    if not _ability(batch.state).viewed:
        raise RuleViolation(RB_MYSTIC, "view a card first (or discard the Mystic Seer plainly)")
    batch.emit(pb.ViewingStopped(seat=seat))


# ---------------------------------------------------------- legal choices


def ability_choices(state: State, seat: int) -> list[Message]:
    ability = _ability(state)
    step = ability.step
    if step is None:
        # Renfield and Reverser resolve within the command that starts them:
        # only a state between its events (a replay's step) is here.
        return []
    if step is Step.APPROXIMATOR_SELECT:
        return selecting_choices(state, seat)
    if step is Step.FLIPPER_VILLAGE:
        return [pb.ChooseVillage(seat=t) for t, village in enumerate(state.villages) if village]
    if step in (Step.ELUSIVE_SEER_VIEW, Step.MYSTIC_SEER_VIEW):
        actions: list[Message] = [
            pb.ChooseCard(seat=t, position=p)
            for t, p, spot in state.face_down()
            if spot.slot not in ability.viewed
        ]
        if step is Step.MYSTIC_SEER_VIEW and ability.viewed:
            actions.append(pb.StopViewing())
        return actions
    if step is Step.MASTER_THIEF_VIEW:
        return [pb.ChooseCard(seat=t, position=p) for t, p, _ in state.face_down()]
    if step is Step.MASTER_THIEF_SWITCH:
        return [pb.ChooseCard(seat=t, position=p) for t, p in state.thief_switches(seat)]
    if step is Step.MAGICIAN_TARGET:
        return [pb.ChooseCard(seat=t, position=p) for t, p in state.magician_targets(seat)]
    actions = [pb.UseAbility()] if state.magician_may_use(seat) else []
    if state.magician_may_switch(seat):
        actions.extend(pb.SwitchWith(position=p) for p in range(len(state.villages[seat])))
    return actions
