"""What may be played where: a card to your life (SL-12..SL-17), as a malus
(SL-06, in ``maluses``), to the discard pile (SL-18) or on the casino
(SL-16), and how an acquisition is paid (SL-15).

``problem`` answers for one fully filled-in ``PlayCard``; ``candidates``
lists every filled-in ``PlayCard`` worth asking about for a card, so the
legal plays are exactly the candidates without a problem, and ``decide``
and ``legal_actions`` can never disagree. Only public facts and the
player's own cards are read.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from cardroom.domain.kernel import RuleViolation
from cardroom.domain.smile_life.cards import (
    ACQUISITIONS,
    ADULTERY,
    AIRLINE_PILOT,
    ARCHITECT,
    BARMAN,
    CHILD,
    DISTINCTION,
    EXCELLENCE_PRIZE,
    FLIRT,
    FLIRT_CAP,
    GRAND_PROF,
    HOUSE,
    JOB,
    MALUS,
    MARRIAGE,
    POLICED,
    SALARY,
    STUDY,
    STUDY_CAP,
    TERRORIST_ATTACK,
    TRIP,
    card,
)
from cardroom.domain.smile_life.maluses import malus_problem, malus_targets
from cardroom.domain.smile_life.state import State
from cardroom.smile_life.v1 import smile_life_pb2 as pb

LIFE = pb.DESTINATION_LIFE
MALUS_ON = pb.DESTINATION_MALUS
DISCARD = pb.DESTINATION_DISCARD
CASINO_BET = pb.DESTINATION_CASINO


@dataclass(frozen=True)
class Context:
    """Where the played card comes from, and where it may go."""

    source: pb.Source
    destinations: frozenset[pb.Destination]
    piston: bool = False  # SL-14: a job, whatever the studies
    rule: str = "SL-03"  # named when a destination is refused

    def allows(self, destination: pb.Destination) -> bool:
        return destination in self.destinations


FROM_HAND = Context(pb.SOURCE_HAND, frozenset({LIFE, MALUS_ON, DISCARD, CASINO_BET}))
CASINO_ONLY = Context(pb.SOURCE_HAND, frozenset({CASINO_BET}), rule="SL-16")
PISTON_JOB = Context(pb.SOURCE_HAND, frozenset({LIFE}), piston=True, rule="SL-14")
TAKEN = Context(pb.SOURCE_HELD, frozenset({LIFE, MALUS_ON}), rule="SL-21")
FROM_LUCK = Context(pb.SOURCE_HELD, frozenset({LIFE, MALUS_ON, DISCARD}), rule="SL-26")


# ---------------------------------------------------------------- paying


def price(state: State, seat: int, acquisition: str) -> int:
    """SL-15: the printed price; a house costs half when married."""
    kind = card(acquisition)
    if kind.family == HOUSE and state.lives[seat].married and kind.price_if_married is not None:
        return kind.price_if_married
    return kind.price


def free_acquisition(state: State, seat: int, acquisition: str) -> bool:
    """The airline pilot's trips, the architect's free houses (SL-15), "on
    a later turn" than the job's own (the rulebook)."""
    life = state.lives[seat]
    kind = card(acquisition).family
    if state.turn <= life.job_since:
        return False
    if kind == TRIP:
        return life.job == AIRLINE_PILOT
    return (
        kind == HOUSE
        and life.job == ARCHITECT
        and life.free_houses_used < state.settings.architect_free_houses
    )


@lru_cache(maxsize=4096)
def _minimal_payments(
    available: tuple[int, int, int, int], inheritance: int, cost: int
) -> tuple[tuple[tuple[int, ...], bool], ...]:
    """Every way to reach ``cost`` with these face-up salaries (counts of
    levels 1..4) and the inheritance where nothing turned over is surplus."""
    found = []
    bounds = [min(available[i], -(-cost // (i + 1))) for i in range(4)]
    for uses_inheritance in (False, True) if inheritance else (False,):
        extra = inheritance if uses_inheritance else 0
        for n1 in range(bounds[0] + 1):
            for n2 in range(bounds[1] + 1):
                for n3 in range(bounds[2] + 1):
                    for n4 in range(bounds[3] + 1):
                        counts = (n1, n2, n3, n4)
                        total = n1 + 2 * n2 + 3 * n3 + 4 * n4 + extra
                        if total < cost:
                            continue
                        parts = [lvl for lvl in range(1, 5) if counts[lvl - 1]]
                        if uses_inheritance:
                            parts.append(extra)
                        if all(total - part < cost for part in parts):
                            levels = tuple(
                                lvl for lvl in range(1, 5) for _ in range(counts[lvl - 1])
                            )
                            found.append((levels, uses_inheritance))
    return tuple(found)


def _face_up_levels(state: State, seat: int) -> Counter[int]:
    life = state.lives[seat]
    return Counter(life.salaries[i].level for i in life.face_up_salaries())


def payments(state: State, seat: int, acquisition: str) -> list[pb.Payment]:
    """Every payment worth asking about for a trip or a house."""
    if free_acquisition(state, seat, acquisition):
        found = [pb.Payment(free=True)]
        if card(acquisition).family == TRIP:
            return found  # SL-30: the pilot's trips are always free
    else:
        found = []
    levels = _face_up_levels(state, seat)
    available = (levels[1], levels[2], levels[3], levels[4])
    inheritance = state.lives[seat].inheritance
    for chosen, uses in _minimal_payments(available, inheritance, price(state, seat, acquisition)):
        found.append(pb.Payment(salary_levels=chosen, inheritance=uses))
    return found


def payment_problem(
    state: State, seat: int, acquisition: str, payment: pb.Payment
) -> RuleViolation | None:
    life = state.lives[seat]
    cost = price(state, seat, acquisition)
    if payment.free:
        if payment.salary_levels or payment.inheritance:
            return RuleViolation("SL-30", "a free acquisition is not also paid")
        if not free_acquisition(state, seat, acquisition):
            return RuleViolation(
                "SL-15", "only an architect's house or an airline pilot's trip is free"
            )
        return None
    if card(acquisition).family == TRIP and free_acquisition(state, seat, acquisition):
        return RuleViolation("SL-30", "an airline pilot's trips are free: take them free")
    wanted = Counter(payment.salary_levels)
    have = _face_up_levels(state, seat)
    for level, count in sorted(wanted.items()):
        if have[level] < count:
            return RuleViolation(
                "SL-15", f"you have {have[level]} face-up salaries of level {level}, not {count}"
            )
    if payment.inheritance and not life.inheritance:
        return RuleViolation("SL-15", "you have no inheritance to spend")
    parts = list(payment.salary_levels)
    if payment.inheritance:
        parts.append(life.inheritance)
    total = sum(parts)
    if total < cost:
        return RuleViolation("SL-15", f"{card(acquisition).name} costs {cost}; you pay {total}")
    if any(total - part >= cost for part in parts):
        return RuleViolation(
            "SL-30", f"{card(acquisition).name} costs {cost}: turn over only what it needs"
        )
    return None


# ---------------------------------------------------------------- flirts


def steal_candidates(state: State, seat: int, flirt: str) -> list[int]:
    """SL-12: the other players whose last uncovered flirt is at the same
    place, nearest clockwise first."""
    place = card(flirt).location
    found = []
    for other in state.others(seat):
        last = state.lives[other].last_flirt()
        if last is not None and card(last).location == place:
            found.append(other)
    return found


# ------------------------------------------------------------- your life


def _study_problem(state: State, seat: int) -> RuleViolation | None:
    life = state.lives[seat]
    if life.continues_studies:
        return None  # SL-13: doctors and surgeons study on, beyond the cap
    if life.job is not None:
        return RuleViolation("SL-13", "you can no longer study once you have a job")
    if len(life.studies) >= STUDY_CAP:
        return RuleViolation("SL-13", f"you already have {STUDY_CAP} study cards")
    return None


def _job_problem(state: State, seat: int, job: str, piston: bool) -> RuleViolation | None:
    life = state.lives[seat]
    if job == GRAND_PROF:
        if piston:
            return RuleViolation("SL-14", "the piston cannot place the grand prof")
        if life.job is None or not card(life.job).is_teacher:
            return RuleViolation("SL-14", "the grand prof is a promotion reserved for professors")
        return None
    if life.job is not None:
        return RuleViolation("SL-14", "you can only practise one job at a time")
    if job in POLICED and state.police_besides(seat):
        return RuleViolation(
            "SL-14", f"no {card(job).name.lower()} while another player is a police officer"
        )
    required = card(job).studies_required or 0
    if not piston and life.study_levels < required:
        return RuleViolation(
            "SL-14",
            f"{card(job).name} needs {required} study levels; you have {life.study_levels}",
        )
    return None


def _flirt_problem(state: State, seat: int, command: pb.PlayCard) -> RuleViolation | None:
    life = state.lives[seat]
    if life.married:
        if life.adultery is None:
            return RuleViolation("SL-12", "you can no longer flirt once married (bar adultery)")
    elif life.job != BARMAN and len(life.flirts) >= FLIRT_CAP:
        return RuleViolation("SL-12", f"you already have {FLIRT_CAP} flirts")
    victims = steal_candidates(state, seat, command.card)
    if not command.HasField("steal_from"):
        if victims:
            return RuleViolation(
                "SL-12", f"name whose flirt you take: one of seats {', '.join(map(str, victims))}"
            )
        return None
    if command.steal_from not in victims:
        return RuleViolation(
            "SL-12", f"seat {command.steal_from}'s last uncovered flirt is not at that place"
        )
    return None


def _personal_problem(state: State, seat: int, played: str) -> RuleViolation | None:
    life = state.lives[seat]
    kind = card(played).family
    if kind == MARRIAGE:
        if life.married:
            return RuleViolation("rulebook: marriages", "you cannot have two marriages at once")
        if not life.flirts:
            return RuleViolation("rulebook: marriages", "you can only marry after a flirt")
    elif kind == ADULTERY:
        if not life.married:
            return RuleViolation("rulebook: adultery", "adultery needs a marriage")
        if life.adultery is not None:
            return RuleViolation("rulebook: adultery", "you already are in adultery")
    elif kind == CHILD and not life.married:
        top = life.flirts[-1] if life.flirts else None
        if top is None or not card(top).allows_child:
            return RuleViolation(
                "SL-12", "a child needs a marriage, or your last flirt at a hotel or campsite"
            )
        if life.children:
            return RuleViolation("SL-28", "only one child while unmarried")
    return None


def _distinction_problem(state: State, seat: int, played: str) -> RuleViolation | None:
    life = state.lives[seat]
    if played == EXCELLENCE_PRIZE:
        if life.job is None or life.job not in card(played).eligible_jobs:
            return RuleViolation(
                "SL-17", "the excellence prize is for a writer, researcher or journalist"
            )
        if life.job in life.prize_jobs:  # an active prize's job is among them
            return RuleViolation(
                "SL-24", f"one excellence prize per job for the whole game: {life.job} had one"
            )
        return None
    if life.was_bandit or life.attacker:
        return RuleViolation(
            "SL-17", "no legion of honour for a bandit, past or present, or a terrorist"
        )
    return None


def life_problem(
    state: State, seat: int, command: pb.PlayCard, piston: bool = False
) -> RuleViolation | None:
    played = command.card
    kind = card(played).family
    if piston and kind != JOB:
        return RuleViolation("SL-14", "the piston places a job")
    if kind == STUDY:
        return _study_problem(state, seat)
    if kind == JOB:
        return _job_problem(state, seat, played, piston)
    if kind == SALARY:
        cap = state.salary_max(seat)
        if cap == 0:
            return RuleViolation("SL-14", "a salary needs a job")
        if card(played).level > cap:
            return RuleViolation("SL-14", f"your job pays salaries of level 1 to {cap}")
        return None
    if kind == FLIRT:
        return _flirt_problem(state, seat, command)
    if kind in ACQUISITIONS:
        return payment_problem(state, seat, played, command.payment)
    if kind == DISTINCTION:
        return _distinction_problem(state, seat, played)
    if kind == MALUS:
        return RuleViolation("SL-06", "a malus is played on another player")
    return _personal_problem(state, seat, played)


# ---------------------------------------------------------------- casino


def casino_problem(state: State, seat: int, played: str) -> RuleViolation | None:
    casino = state.casino
    if card(played).family != SALARY:
        return RuleViolation("SL-16", "only a salary is bet on the casino")
    if casino is None:
        return RuleViolation("SL-16", "no casino is open")
    if casino.bettor is None:
        if not casino.open_to_all and seat != casino.owner:
            return RuleViolation("SL-27", "the casino's owner makes its first bet")
    elif casino.bettor == seat:
        return RuleViolation("SL-27", "you cannot bet against yourself")
    return None


# ------------------------------------------------------------------- all


def problem(state: State, seat: int, command: pb.PlayCard, ctx: Context) -> RuleViolation | None:
    """Why this play is refused now, or None. The card is known to be
    where ``ctx`` takes it from."""
    destination = command.destination
    if not ctx.allows(destination):
        where = pb.Destination.Name(destination).split("_", 1)[1].lower()
        return RuleViolation(ctx.rule, f"this card cannot go to the {where} now")
    if destination == DISCARD:
        return None  # SL-18
    if destination == CASINO_BET:
        return casino_problem(state, seat, command.card)
    if destination == MALUS_ON:
        target = command.target if command.HasField("target") else None
        return malus_problem(state, seat, command.card, target)
    return life_problem(state, seat, command, ctx.piston)


def candidates(state: State, seat: int, played: str, ctx: Context) -> list[pb.PlayCard]:
    """Every filled-in play of this card that ``ctx`` might allow."""
    kind = card(played).family
    found: list[pb.PlayCard] = []
    if ctx.allows(LIFE) and kind != MALUS:
        if kind in ACQUISITIONS:
            found.extend(
                pb.PlayCard(card=played, destination=LIFE, payment=p)
                for p in payments(state, seat, played)
            )
        elif kind == FLIRT:
            victims = steal_candidates(state, seat, played)
            found.extend(pb.PlayCard(card=played, destination=LIFE, steal_from=v) for v in victims)
            if not victims:
                found.append(pb.PlayCard(card=played, destination=LIFE))
        else:
            found.append(pb.PlayCard(card=played, destination=LIFE))
    if ctx.allows(MALUS_ON) and kind == MALUS:
        if played == TERRORIST_ATTACK:  # SL-23: naming nobody, or another player
            found.append(pb.PlayCard(card=played, destination=MALUS_ON))
            found.extend(
                pb.PlayCard(card=played, destination=MALUS_ON, target=t)
                for t in malus_targets(state, seat)
            )
        else:
            found.extend(
                pb.PlayCard(card=played, destination=MALUS_ON, target=t)
                for t in malus_targets(state, seat)
            )
    if ctx.allows(CASINO_BET) and kind == SALARY:
        found.append(pb.PlayCard(card=played, destination=CASINO_BET))
    if ctx.allows(DISCARD):
        found.append(pb.PlayCard(card=played, destination=DISCARD))
    return found


def legal_plays(state: State, seat: int, played: str, ctx: Context) -> list[pb.PlayCard]:
    return [c for c in candidates(state, seat, played, ctx) if problem(state, seat, c, ctx) is None]


def has_play(state: State, seat: int, played: str, ctx: Context) -> bool:
    return any(problem(state, seat, c, ctx) is None for c in candidates(state, seat, played, ctx))
