"""The choices inside a turn that a card opens (SL-16, SL-19, CR-SL-14):
luck's pick, the shooting star's and astronaut's pick from the discard
pile, the barter's partner, revenge, birthday gifts, a dismissed
researcher's discard, and declining an optional step. Each has a
``*_options`` list (the legal actions) and a handler that emits its events.
"""

from __future__ import annotations

from google.protobuf.message import Message

from cardroom.domain.kernel import RuleViolation
from cardroom.domain.smile_life.batch import Batch, refill
from cardroom.domain.smile_life.cards import SALARY_OF_LEVEL, card
from cardroom.domain.smile_life.maluses import malus_problem, suffer
from cardroom.domain.smile_life.plays import TAKEN, has_play
from cardroom.domain.smile_life.state import State, known
from cardroom.smile_life.v1 import smile_life_pb2 as pb

OPTIONAL = frozenset(
    {
        pb.STEP_RAINBOW,
        pb.STEP_CASINO_BET,
        pb.STEP_PISTON,
        pb.STEP_ASTRONAUT,
        pb.STEP_MANAGER_BARTER,
        pb.STEP_JOURNALIST,  # SL-35
    }
)


def open_step(
    batch: Batch, step: pb.Step, seat: int, other: int | None = None, may_discard: bool = False
) -> None:
    opened = pb.StepOpened(step=step, seat=seat, may_discard=may_discard)
    if other is not None:
        opened.other_seat = other
    batch.emit(opened)


def close_step(batch: Batch) -> None:
    top = batch.state.top
    assert top is not None
    batch.emit(pb.StepClosed(step=top.kind, seat=top.seat))


# -------------------------------------------------- shooting star, astronaut


def topmost_copy(state: State, seat: int, wanted: str) -> int | None:
    """SL-32: the topmost copy of ``wanted`` that ``seat`` did not discard."""
    for index in range(len(state.discard) - 1, -1, -1):
        if state.discard[index][0] == wanted and state.may_take_back(seat, index):
            return index
    return None


def discard_choices(state: State, seat: int) -> list[str]:
    """The card types a shooting star or astronaut may take: not the
    player's own discard (SL-04), and playable at once (SL-21)."""
    types = {c for i, (c, _) in enumerate(state.discard) if state.may_take_back(seat, i)}
    return sorted(c for c in types if has_play(state, seat, c, TAKEN))


def take_from_discard_problem(state: State, seat: int, wanted: str) -> RuleViolation | None:
    if topmost_copy(state, seat, wanted) is None:
        return RuleViolation("SL-32", f"no {wanted} you did not discard is in the discard pile")
    if not has_play(state, seat, wanted, TAKEN):
        return RuleViolation("SL-21", f"you could not play {wanted} at once")
    return None


def take_from_discard(batch: Batch, seat: int, wanted: str) -> None:
    index = topmost_copy(batch.state, seat, wanted)
    assert index is not None
    close_step(batch)
    batch.emit(pb.DiscardTaken(seat=seat, card=wanted, index=index))
    open_step(batch, pb.STEP_PLAY_HELD, seat)


# ------------------------------------------------------------------- luck


def luck_options(state: State, seat: int) -> list[pb.ChooseLuckCard]:
    found = []
    cards = known(state.luck)
    for chosen in sorted(set(cards)):
        rest = list(cards)
        rest.remove(chosen)
        for top in sorted(set(rest)) or [""]:
            found.append(pb.ChooseLuckCard(card=chosen, top_discard=top))
    return found


def luck_problem(state: State, command: pb.ChooseLuckCard) -> RuleViolation | None:
    cards = known(state.luck)
    if command.card not in cards:
        return RuleViolation("SL-16", f"{command.card} is not among the cards luck showed you")
    rest = list(cards)
    rest.remove(command.card)
    if rest and command.top_discard not in rest:
        return RuleViolation("SL-16", "name which of the other cards lies on top of the discard")
    if not rest and command.top_discard:
        return RuleViolation("SL-16", "no other card is left to discard")
    return None


def choose_luck_card(batch: Batch, seat: int, command: pb.ChooseLuckCard) -> None:
    rest = known(batch.state.luck)
    rest.remove(command.card)
    if rest:
        rest.remove(command.top_discard)
        rest.append(command.top_discard)
    close_step(batch)
    batch.emit(pb.LuckCardChosen(seat=seat, card=command.card, discarded=rest))
    open_step(batch, pb.STEP_PLAY_HELD, seat, may_discard=True)


# ----------------------------------------------------------------- barter


def barter_partners(state: State, seat: int) -> list[int]:
    return [s for s in state.others(seat) if state.hands[s]]


def barter_options(state: State, seat: int, manager: bool) -> list[pb.ChooseBarterPartner]:
    protects = sorted(set(known(state.hands[seat]))) if manager else [""]
    return [
        pb.ChooseBarterPartner(partner=partner, protect=protect)
        for partner in barter_partners(state, seat)
        for protect in protects
    ]


def barter_problem(
    state: State, seat: int, command: pb.ChooseBarterPartner, manager: bool
) -> RuleViolation | None:
    if command.partner == seat or not state.hands[command.partner]:
        return RuleViolation("SL-16", "barter with another player who holds cards")
    if manager and command.protect not in state.hands[seat]:
        return RuleViolation("SL-33", "protect one card of your hand")
    if not manager and command.protect:
        return RuleViolation(
            "SL-33", "a card is protected only as a purchasing or sales manager is placed"
        )
    return None


def choose_partner(batch: Batch, seat: int, command: pb.ChooseBarterPartner) -> None:
    close_step(batch)
    started = pb.BarterStarted(seat=seat, partner=command.partner, protected=bool(command.protect))
    if command.protect:
        batch.emit(started, ({seat}, pb.ProtectedCard(seat=seat, card=command.protect)))
    else:
        batch.emit(started)
    open_step(batch, pb.STEP_BARTER_DRAW, seat, command.partner)


# ---------------------------------------------------------------- revenge


def revenge_options(state: State, seat: int) -> list[pb.TakeRevenge]:
    return [
        pb.TakeRevenge(malus=malus, target=target)
        for malus in sorted(set(state.lives[seat].maluses))
        for target in state.others(seat)
        if malus_problem(state, seat, malus, target) is None
    ]


def revenge_problem(state: State, seat: int, command: pb.TakeRevenge) -> RuleViolation | None:
    if command.malus not in state.lives[seat].maluses:
        return RuleViolation("SL-16", f"you have received no {command.malus}")
    return malus_problem(state, seat, command.malus, command.target)


def take_revenge(batch: Batch, seat: int, command: pb.TakeRevenge) -> None:
    close_step(batch)
    batch.emit(pb.MalusMoved(seat=seat, target=command.target, card=command.malus))
    suffer(batch, command.target, command.malus)


# --------------------------------------------------------------- birthday


def gift_levels(state: State, giver: int) -> list[int]:
    life = state.lives[giver]
    return sorted({life.salaries[i].level for i in life.face_up_salaries()})


def give_salary(batch: Batch, seat: int, level: int) -> None:
    top = batch.state.top
    assert top is not None and top.other is not None
    close_step(batch)
    batch.emit(pb.SalaryGiven(seat=seat, to_seat=top.other, level=level))


def gift_problem(state: State, seat: int, level: int) -> RuleViolation | None:
    if level not in gift_levels(state, seat):
        name = card(SALARY_OF_LEVEL[level]).name.lower()
        return RuleViolation("SL-16", f"you have no face-up {name} to give")
    return None


# ------------------------------------------------- researcher, declining


def discard_from_hand(batch: Batch, seat: int, discarded: str) -> None:
    close_step(batch)
    batch.emit(pb.CardDiscarded(seat=seat, card=discarded, zone=pb.ZONE_HAND, under_top=True))


def decline(batch: Batch, seat: int) -> None:
    top = batch.state.top
    assert top is not None
    close_step(batch)
    if top.kind == pb.STEP_RAINBOW:
        refill(batch, seat)


def decline_actions(state: State, seat: int) -> list[Message]:
    top = state.top
    return [pb.Decline()] if top is not None and top.kind in OPTIONAL else []
