"""The nine maluses: whom each may hit (SL-06) and what it does (SL-07 to
SL-11). A malus is played on another player, who keeps it turned over;
prison goes to the discard pile with the bandit, the terrorist attack out of
the game with every child."""

from __future__ import annotations

from cardroom.domain.kernel import RuleViolation
from cardroom.domain.smile_life.batch import Batch, discard_from_life, lose_job
from cardroom.domain.smile_life.cards import (
    ACCIDENT,
    BANDIT,
    DISMISSAL,
    DIVORCE,
    HAND_SIZE,
    ILLNESS,
    INCOME_TAX,
    LAWYER,
    MALUS,
    MECHANIC,
    MISSED_TURNS,
    NEVER_ILL,
    PRISON,
    REPEATED_YEAR,
    RESEARCHER,
    TERRORIST_ATTACK,
    card,
)
from cardroom.domain.smile_life.state import Life, State
from cardroom.smile_life.v1 import smile_life_pb2 as pb


def malus_targets(state: State, seat: int) -> list[int]:
    return state.others(seat)


def last_unprotected_study(life: Life) -> int | None:
    """SL-31: a repeated year takes the last study a doctor or surgeon
    did not place."""
    for i in range(len(life.studies) - 1, -1, -1):
        if not life.studies[i].protected:
            return i
    return None


def _condition(life: Life, malus: str) -> str | None:
    """Why ``life`` cannot suffer ``malus`` (SL-06), or None."""
    job = life.job
    job_card = card(job) if job is not None else None
    if malus == ACCIDENT:
        return "a mechanic suffers no accident" if job == MECHANIC else None
    if malus == ILLNESS:
        return "pharmacists, doctors and surgeons never fall ill" if job in NEVER_ILL else None
    if malus == DIVORCE:
        if not life.married:
            return "divorce hits only a married player"
        return "a lawyer cannot be divorced" if job == LAWYER else None
    if malus == REPEATED_YEAR:
        if job is not None or not life.studies:
            return "only a student (studies, no job) repeats a year"
        if last_unprotected_study(life) is None:
            return "a doctor's or surgeon's studies cannot be taken back"
        return None
    if malus == PRISON:
        return None if job == BANDIT else "prison is only for the bandit"
    if job_card is None:
        return f"{card(malus).name.lower()} hits only a player with a job"
    if malus == DISMISSAL:
        if job_card.is_civil_servant:
            return "a civil servant cannot be dismissed"
        return "a bandit cannot be dismissed" if job == BANDIT else None
    if malus == INCOME_TAX:
        if job == BANDIT:
            return "a bandit pays no income tax"
        return None if life.face_up_salaries() else "there is no face-up salary to tax"
    return None  # burn out: any worker


def malus_problem(state: State, seat: int, malus: str, target: int | None) -> RuleViolation | None:
    if card(malus).family != MALUS:
        return RuleViolation("SL-06", "only a malus is played on another player")
    if malus == TERRORIST_ATTACK:  # SL-23: any other player, or nobody
        if target == seat:
            return RuleViolation("SL-23", "an attack may name another player, not yourself")
        if state.soldier_in_play():
            return RuleViolation("SL-06", "no terrorist attack while a soldier is in play")
        return None
    if target is None:
        return RuleViolation("SL-06", "name the player the malus hits")
    if target == seat:
        return RuleViolation("SL-06", "a malus is played on another player, not yourself")
    why = _condition(state.lives[target], malus)
    return None if why is None else RuleViolation("SL-06", f"seat {target}: {why}")


def _lose_children(batch: Batch, seat: int, *, out_of_game: bool) -> None:
    while children := batch.state.lives[seat].children:
        index = len(children) - 1
        if out_of_game:
            batch.emit(
                pb.CardRemovedFromGame(
                    seat=seat, card=children[index], zone=pb.ZONE_CHILDREN, index=index
                )
            )
        else:
            discard_from_life(batch, seat, children[index], pb.ZONE_CHILDREN, index)


def suffer(batch: Batch, target: int | None, malus: str) -> None:
    """What a malus does once it is in front of ``target`` (or, for the
    terrorist attack, out of the game)."""
    state = batch.state
    if malus == TERRORIST_ATTACK:  # SL-09
        for seat in range(state.seat_count):
            _lose_children(batch, seat, out_of_game=True)
        return
    assert target is not None
    life = state.lives[target]
    missed = MISSED_TURNS.get(malus, 0)
    if missed:  # SL-07
        batch.emit(pb.TurnsToMiss(seat=target, count=missed))
    if malus == PRISON:
        lose_job(batch, target)
        maluses = batch.state.lives[target].maluses
        discard_from_life(batch, target, PRISON, pb.ZONE_MALUSES, len(maluses) - 1)
    elif malus == DIVORCE:  # SL-11
        assert life.marriage is not None
        discard_from_life(batch, target, life.marriage, pb.ZONE_MARRIAGE)
        if life.adultery is not None:
            discard_from_life(batch, target, life.adultery, pb.ZONE_ADULTERY)
            _lose_children(batch, target, out_of_game=False)
    elif malus == INCOME_TAX:  # SL-08
        index = life.latest_face_up()
        assert index is not None
        discard_from_life(batch, target, life.salaries[index].card, pb.ZONE_SALARIES, index)
    elif malus == DISMISSAL:
        lose_job(batch, target)
        if life.job == RESEARCHER and len(batch.state.hands[target]) > HAND_SIZE:
            batch.emit(pb.StepOpened(step=pb.STEP_RESEARCHER_DISCARD, seat=target))
    elif malus == REPEATED_YEAR:
        index = last_unprotected_study(life)
        assert index is not None
        discard_from_life(batch, target, life.studies[index].card, pb.ZONE_STUDIES, index)
