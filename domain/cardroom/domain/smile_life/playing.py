"""Playing one card, once ``plays.problem`` has allowed it: the card goes
where it was played, then what follows at once: the payment, a stolen
flirt, a malus's effect, a job's instant advantage (SL-19, the police
officer, the researcher's sixth card) or a special card's action, which may
open a step for a further choice (``steps``)."""

from __future__ import annotations

from collections.abc import Callable

from cardroom.domain.smile_life.batch import Batch, draw, lose_job, refill
from cardroom.domain.smile_life.cards import (
    ACQUISITIONS,
    ASTRONAUT,
    BARTER,
    BIRTHDAY,
    CASINO,
    FLIRT,
    GRAND_PROF,
    JOB,
    JOURNALIST,
    LUCK,
    LUCK_LOOK,
    MANAGERS,
    MEDIUM,
    MEDIUM_LOOK,
    PISTON,
    POLICE_OFFICER,
    POLICED,
    RAINBOW,
    RESEARCHER,
    REVENGE,
    SHOOTING_STAR,
    SPECIAL,
    TSUNAMI,
    card,
)
from cardroom.domain.smile_life.maluses import suffer
from cardroom.domain.smile_life.plays import Context
from cardroom.domain.smile_life.state import State, known
from cardroom.domain.smile_life.steps import (
    barter_partners,
    discard_choices,
    open_step,
    revenge_options,
)
from cardroom.smile_life.v1 import smile_life_pb2 as pb


def play(batch: Batch, seat: int, command: pb.PlayCard, ctx: Context) -> None:
    played, destination = command.card, command.destination
    if destination == pb.DESTINATION_CASINO:
        bet(batch, seat, played)
        return
    if destination == pb.DESTINATION_LIFE and played == GRAND_PROF:
        lose_job(batch, seat)  # SL-14: the professor card is discarded
    target = command.target if command.HasField("target") else None
    batch.emit(
        pb.CardPlayed(
            seat=seat,
            card=played,
            source=ctx.source,
            destination=destination,
            target=target,
            by_piston=ctx.piston,
        )
    )
    if destination == pb.DESTINATION_MALUS:
        suffer(batch, target, played)
    elif destination == pb.DESTINATION_LIFE:
        _placed(batch, seat, command, ctx)


def bet(batch: Batch, seat: int, salary: str) -> None:
    """SL-16: a face-down bet; the second bet settles the casino at once."""
    batch.emit(pb.CasinoBetPlaced(seat=seat), ({seat}, pb.CasinoBet(seat=seat, card=salary)))
    casino = batch.state.casino
    assert casino is not None and casino.bettor is not None
    if casino.bettor == seat:
        return
    first, first_card = casino.bettor, known([casino.bet])[0]
    same = card(first_card).level == card(salary).level
    batch.emit(
        pb.CasinoResolved(
            first_seat=first,
            first_card=first_card,
            second_seat=seat,
            second_card=salary,
            winner=seat if same else first,
        )
    )


def _placed(batch: Batch, seat: int, command: pb.PlayCard, ctx: Context) -> None:
    played = command.card
    kind = card(played).family
    if kind in ACQUISITIONS:
        payment = command.payment
        batch.emit(
            pb.AcquisitionPaid(
                seat=seat,
                card=played,
                salary_levels=payment.salary_levels,
                inheritance=payment.inheritance,
                free=payment.free,
            )
        )
    elif kind == FLIRT and command.HasField("steal_from"):
        victim = command.steal_from
        taken = batch.state.lives[victim].last_flirt()
        assert taken is not None
        batch.emit(pb.FlirtStolen(seat=seat, from_seat=victim, card=taken))
    elif kind == JOB:
        if ctx.piston:
            refill(batch, seat)  # SL-14: then draw back to five
        _job_advantage(batch, seat, played)
    elif kind == SPECIAL:
        _special_action(batch, seat, played)


def _job_advantage(batch: Batch, seat: int, job: str) -> None:
    state = batch.state
    if job == POLICE_OFFICER:  # SL-14
        for other in state.others(seat):
            if state.lives[other].job in POLICED:
                lose_job(batch, other)
    elif job == RESEARCHER:  # SL-34(a): the sixth card at once
        draw(batch, seat)
    elif job == JOURNALIST:  # SL-19; SL-35: then the announcements
        hands = [pb.HandCards(seat=s, cards=known(state.hands[s])) for s in state.others(seat)]
        batch.emit(pb.HandsShown(seat=seat), ({seat}, pb.ShownHands(seat=seat, hands=hands)))
        open_step(batch, pb.STEP_JOURNALIST, seat)
    elif job == MEDIUM:  # SL-19
        shown = known(state.pile[:MEDIUM_LOOK])
        if shown:
            batch.emit(
                pb.PileShown(seat=seat, count=len(shown)),
                ({seat}, pb.ShownPile(seat=seat, cards=shown)),
            )
    elif job == ASTRONAUT:
        if discard_choices(state, seat):
            open_step(batch, pb.STEP_ASTRONAUT, seat)
    elif job in MANAGERS and barter_partners(state, seat) and len(state.hands[seat]) >= 2:
        open_step(batch, pb.STEP_MANAGER_BARTER, seat)


def _may_barter(state: State, seat: int) -> bool:
    return bool(barter_partners(state, seat)) and bool(state.hands[seat])


def _always(state: State, seat: int) -> bool:
    return True


# The step a special card opens, when its action is possible (SL-25). The
# casino's bet and the piston's job depend on the hand: their steps open
# whatever it holds, so that nobody learns what it holds (CR-SL-14).
SPECIAL_STEPS: dict[str, tuple[pb.Step, Callable[[State, int], bool]]] = {
    RAINBOW: (pb.STEP_RAINBOW, _always),
    CASINO: (pb.STEP_CASINO_BET, _always),
    SHOOTING_STAR: (pb.STEP_SHOOTING_STAR, lambda state, seat: bool(discard_choices(state, seat))),
    PISTON: (pb.STEP_PISTON, _always),
    BARTER: (pb.STEP_BARTER, _may_barter),
    TSUNAMI: (pb.STEP_TSUNAMI, lambda state, seat: any(state.hands)),
    REVENGE: (pb.STEP_REVENGE, lambda state, seat: bool(revenge_options(state, seat))),
}


def _special_action(batch: Batch, seat: int, special: str) -> None:
    """SL-16, SL-25: the action, as far as it is possible."""
    state = batch.state
    if special == BIRTHDAY:
        givers = [s for s in state.others(seat) if state.lives[s].face_up_salaries()]
        for giver in reversed(givers):  # the nearest clockwise gives first
            open_step(batch, pb.STEP_BIRTHDAY_GIFT, giver, seat)
    elif special == LUCK:
        shown = known(state.pile[:LUCK_LOOK])
        if shown:
            batch.emit(
                pb.LuckCardsDrawn(seat=seat, count=len(shown)),
                ({seat}, pb.LuckCards(seat=seat, cards=shown)),
            )
            open_step(batch, pb.STEP_LUCK, seat)
    elif special in SPECIAL_STEPS:
        step, possible = SPECIAL_STEPS[special]
        if possible(state, seat):
            open_step(batch, step, seat)
