"""A sensible Smile Life player (cardroom.domain.presentation, ``Strategy``).

It builds a life: each legal action is scored in smiles, now and to come.
A card played to its life is worth its smiles plus what it opens (studies
lead to a job, a job to salaries, salaries to trips and houses; flirts to a
marriage, a marriage to children). A malus is worth the harm it does,
weighed by how far its victim is ahead. A discard costs what the card
might still be worth in hand, so the least useful card goes. It draws
rather than take the top discard unless that card is worth playing now,
and it never resigns or divorces. Scores of close moves are mixed a little
with the given ``rng``.

It reads only its seat's view (the public lives, the discard pile, its own
hand) and the legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from google.protobuf.message import Message

from cardroom.domain.smile_life.cards import (
    ACCIDENT,
    ADULTERY,
    BANDIT,
    BARTER,
    BIRTHDAY,
    BURN_OUT,
    CASINO,
    CHILD,
    CONTINUED_STUDIES,
    DISMISSAL,
    DISTINCTION,
    DIVORCE,
    EXCELLENCE_PRIZE,
    FLIRT,
    FLIRT_CAP,
    GRAND_PROF,
    HOUSE,
    ILLNESS,
    INCOME_TAX,
    INHERITANCE,
    JOB,
    LAWYER,
    LEGION_OF_HONOUR,
    LUCK,
    MALUS,
    MARRIAGE,
    MECHANIC,
    NEVER_ILL,
    PET,
    PISTON,
    PRISON,
    RAINBOW,
    REPEATED_YEAR,
    REVENGE,
    SALARY,
    SHOOTING_STAR,
    SPECIAL,
    STUDY,
    STUDY_CAP,
    TERRORIST_ATTACK,
    TRIP,
    TSUNAMI,
    card,
    is_card,
)
from cardroom.smile_life.v1 import smile_life_pb2 as pb

# The harm a malus does to its victim, in smiles (a missed turn is a card
# not placed; a lost job takes its salaries to come with it).
HARM: dict[str, float] = {
    ACCIDENT: 1.4,
    ILLNESS: 1.4,
    BURN_OUT: 1.4,
    INCOME_TAX: 1.2,
    REPEATED_YEAR: 1.2,
    DIVORCE: 3.5,
    DISMISSAL: 2.5,
    PRISON: 4.5,
}
# Hurting one rival helps less than gaining as much oneself.
SPITE = 0.7
# What drawing an unknown card is worth, against taking the top discard.
DRAW_WORTH = 1.9
SPECIAL_WORTH: dict[str, float] = {
    RAINBOW: 1.6,
    LUCK: 1.2,
    SHOOTING_STAR: 1.0,
    INHERITANCE: 0.8,
    BARTER: 0.3,
    TSUNAMI: 0.2,
    CASINO: 0.3,
}


def _family(card_id: str) -> str:
    return card(card_id).family if is_card(card_id) else ""


class Reader:
    """One decision's facts, read from the seat's view."""

    def __init__(self, view: pb.View, seat: int) -> None:
        self.view, self.seat = view, seat
        self.me = view.seats[seat]
        self.life = self.me.life
        self.hand = list(self.me.hand)
        self.others = [s for s in view.seats if s.seat != seat]
        self.best_other = max((s.smiles for s in self.others), default=0)

    # -------------------------------------------------- placing a card

    def cap(self) -> int:
        return self.life.salary_max if self.life.job else 0

    def job_value(self, job: str) -> float:
        kind = card(job)
        bundles = 4 if job == GRAND_PROF else kind.salary_max
        salaries = sum(1 for c in self.hand if _family(c) == SALARY and card(c).level <= bundles)
        value = 0.6 * bundles + 0.7 * salaries
        if job == GRAND_PROF:
            return 0.5 + value - 0.6 * self.cap()
        return kind.smiles + value

    def place_value(self, played: str) -> float:
        """Smiles now and what the card opens, when played to this life."""
        family = _family(played)
        life = self.life
        if family == STUDY:
            if life.job and life.job not in CONTINUED_STUDIES:
                return 0.5
            wanted = max(
                (
                    card(c).studies_required or 0
                    for c in self.hand
                    if _family(c) == JOB and c != GRAND_PROF
                ),
                default=0,
            )
            return 1.5 + (0.6 if wanted > life.study_levels else 0.0)
        if family == JOB:
            return self.job_value(played)
        if family == SALARY:
            return 1.3 + 0.05 * card(played).level
        if family == FLIRT:
            if life.marriage:
                return 1.0
            marriage = any(_family(c) == MARRIAGE for c in self.hand)
            return 1.2 + (0.3 if marriage and not life.flirts else 0.0)
        if family == MARRIAGE:
            return 3.5 + 0.5 * sum(_family(c) == CHILD for c in self.hand)
        if family == ADULTERY:
            return 0.6
        if family == CHILD:
            return 2.2
        if family in (PET, TRIP, HOUSE):
            return card(played).smiles + 0.2
        if family == DISTINCTION:
            if played == EXCELLENCE_PRIZE:
                return 4.0 + 0.5 * sum(
                    _family(c) == SALARY and card(c).level > self.cap() for c in self.hand
                )
            return card(played).smiles + 0.1
        if family == SPECIAL:
            return self.special_value(played)
        return 0.0

    def special_value(self, special: str) -> float:
        life = self.life
        if special == PISTON:
            if life.job:
                return 0.2
            best = max(
                (self.job_value(c) for c in self.hand if _family(c) == JOB and c != GRAND_PROF),
                default=0.0,
            )
            return 0.2 + 0.9 * best
        if special == REVENGE:
            return 0.2 + (1.5 if life.maluses else 0.0)
        if special == BIRTHDAY:
            givers = sum(any(not s.invested for s in other.life.salaries) for other in self.others)
            return 0.2 + 0.9 * givers
        return SPECIAL_WORTH.get(special, 0.3)

    def payment_cost(self, payment: pb.Payment, played: str) -> float:
        """Turned-over salaries still count; what a payment costs is the
        money it uses up (and the inheritance, once)."""
        if payment.free:
            return -0.3
        paid = sum(payment.salary_levels) + (3 if payment.inheritance else 0)
        return 0.05 * paid + (0.4 if payment.inheritance else 0.0)

    # ------------------------------------------------------------ maluses

    def threat(self, target: int) -> float:
        """How much harming ``target`` matters: more when it leads."""
        theirs = self.view.seats[target].smiles
        weight = 1.0 + 0.08 * (theirs - self.me.smiles)
        if theirs >= self.best_other:
            weight += 0.3
        return min(max(weight, 0.4), 2.5)

    def harm(self, malus: str, target: int) -> float:
        if malus == TERRORIST_ATTACK:
            theirs = sum(len(s.life.children) for s in self.others)
            return SPITE * 2.0 * theirs - 2.0 * len(self.life.children)
        victim = self.view.seats[target].life
        harm = HARM.get(malus, 1.0)
        if malus == DIVORCE and victim.adultery:
            harm += 2.0 * len(victim.children)
        if malus == DISMISSAL:
            harm += 0.3 * victim.salary_max
        return SPITE * harm * self.threat(target)

    # -------------------------------------------------------------- keeping

    def keep_value(self, held: str) -> float:
        """What a card in hand may still be worth later."""
        family = _family(held)
        life = self.life
        if family == STUDY:
            no_job = not life.job or life.job in CONTINUED_STUDIES
            return 1.0 if no_job and len(life.studies) < STUDY_CAP else 0.1
        if family == JOB:
            if life.job:
                return 0.4 if held == GRAND_PROF else 0.2
            required = card(held).studies_required or 0
            return 1.8 if life.study_levels >= required else 1.0 + 0.1 * life.study_levels
        if family == SALARY:
            if not life.job:
                return 0.6
            return 1.2 if card(held).level <= self.cap() else 0.4
        if family == FLIRT:
            return 0.9 if not life.marriage or life.adultery else 0.2
        if family == MARRIAGE:
            return 0.3 if life.marriage else 2.0 if life.flirts else 1.5
        if family == CHILD:
            return 1.6 if life.marriage else 0.8
        if family == MALUS:
            return 0.9 if held != TERRORIST_ATTACK else 0.3
        if family in (TRIP, HOUSE):
            return 0.8 if life.salaries or life.job else 0.4
        if family == PET:
            return 1.0
        if family == DISTINCTION:
            return 2.0 if held == LEGION_OF_HONOUR and not life.was_bandit else 1.0
        if family == SPECIAL:
            return 0.6
        if family == ADULTERY:
            return 0.3
        return 0.5

    # ----------------------------------------------------- any legal play

    def play_value(self, command: pb.PlayCard) -> float:
        destination = command.destination
        if destination == pb.DESTINATION_DISCARD:
            return -self.keep_value(command.card)
        if destination == pb.DESTINATION_CASINO:
            # An unmatched bet comes home as a salary at the end.
            first = not self.view.casino.has_bet
            playable = self.life.job and card(command.card).level <= self.cap()
            return (0.2 if playable else 0.8) if first else 0.1
        if destination == pb.DESTINATION_MALUS:
            target = command.target if command.HasField("target") else self.seat
            return self.harm(command.card, target)
        value = self.place_value(command.card)
        if command.HasField("steal_from"):
            value += SPITE * self.threat(command.steal_from)
        if _family(command.card) in (TRIP, HOUSE):
            value -= self.payment_cost(command.payment, command.card)
        return value

    def guess(self, held: str) -> float:
        """What a card not yet held might be worth played now (the top
        discard, a luck card, a card from the discard pile): its best use
        among those that plainly work."""
        best = 0.0
        if self.could_place(held):
            best = self.place_value(held)
        if _family(held) == MALUS:
            targets = [s.seat for s in self.others if self.hits(held, s.seat)]
            if held == TERRORIST_ATTACK:
                targets = [self.seat]
            best = max([best, *(self.harm(held, t) for t in targets)])
        return best

    def could_place(self, held: str) -> bool:
        family = _family(held)
        life = self.life
        if family == STUDY:
            return (not life.job and len(life.studies) < STUDY_CAP) or (
                life.job in CONTINUED_STUDIES
            )
        if family == JOB:
            if held == GRAND_PROF:
                return bool(life.job) and card(life.job).is_teacher
            return not life.job and life.study_levels >= (card(held).studies_required or 0)
        if family == SALARY:
            return card(held).level <= self.cap()
        if family == FLIRT:
            return bool(life.adultery) or (not life.marriage and len(life.flirts) < FLIRT_CAP)
        if family == MARRIAGE:
            return not life.marriage and bool(life.flirts)
        if family == CHILD:
            return bool(life.marriage)
        if family == PET:
            return True
        if family == DISTINCTION:
            if held == EXCELLENCE_PRIZE:
                return bool(life.job) and life.job in card(held).eligible_jobs
            return not life.was_bandit and not life.attacker
        return family == SPECIAL

    def hits(self, malus: str, target: int) -> bool:
        victim = self.view.seats[target].life
        job = victim.job
        if malus in (ACCIDENT,):
            return job != MECHANIC
        if malus == ILLNESS:
            return job not in NEVER_ILL
        if malus == DIVORCE:
            return bool(victim.marriage) and job != LAWYER
        if malus == REPEATED_YEAR:
            return not job and any(not s.protected for s in victim.studies)
        if malus == PRISON:
            return job == BANDIT
        if not job:
            return False
        if malus == DISMISSAL:
            return not card(job).is_civil_servant and job != BANDIT
        if malus == INCOME_TAX:
            return job != BANDIT and any(not s.invested for s in victim.salaries)
        return True


class SmileLifeStrategy:
    # Noise added to each score, so that close moves are mixed.
    jitter: float = 0.05

    def choose(
        self, view: Message, legal: Sequence[Message], seat: int, rng: random.Random
    ) -> Message:
        assert isinstance(view, pb.View)
        read = Reader(view, seat)
        scored = [(self.score(read, a) + rng.random() * self.jitter, a) for a in legal]
        return max(scored, key=lambda pair: pair[0])[1]

    def score(self, read: Reader, action: Message) -> float:
        if isinstance(action, pb.PlayCard):
            return read.play_value(action)
        if isinstance(action, pb.DrawCard):
            return DRAW_WORTH
        if isinstance(action, pb.TakeDiscard):
            top = read.view.discard_pile[-1].card if read.view.discard_pile else ""
            return read.guess(top) if top else 0.0
        if isinstance(action, pb.TakeRiverCard):
            return DRAW_WORTH - 1.0 + read.keep_value(action.card)
        if isinstance(action, (pb.Resign, pb.Divorce, pb.StopAdultery)):
            return -5.0
        if isinstance(action, pb.Decline):
            return 0.0
        if isinstance(action, pb.ChooseLuckCard):
            value = read.guess(action.card)
            return max(value, 0.0) - 0.01 * read.keep_value(action.top_discard)
        if isinstance(action, pb.TakeFromDiscard):
            return read.guess(action.card) - 0.1
        if isinstance(action, pb.ChooseBarterPartner):
            partner = read.view.seats[action.partner]
            value = 0.2 + 0.05 * (partner.smiles - read.me.smiles)
            if action.protect:
                value += 0.1 * read.keep_value(action.protect)
            return value
        if isinstance(action, pb.TakeRevenge):
            return read.harm(action.malus, action.target)
        if isinstance(action, pb.GiveSalary):
            return -action.level
        if isinstance(action, pb.DiscardFromHand):
            return -read.keep_value(action.card)
        return 0.0


STRATEGY = SmileLifeStrategy()
