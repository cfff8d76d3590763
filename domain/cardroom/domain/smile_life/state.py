"""What a viewer knows about a game of Smile Life.

The same types hold the full state (the auditor's) and a viewer's: a card
the viewer has not seen is ``None``. Lives (the cards in front of each
player), the discard pile, the river and the casino are public; a hand is
its owner's, and other viewers know only its size plus the cards they were
shown (a journalist's look, a barter, a river card taken); the draw pile is
hidden, bar what a medium or a luck player saw. Everything is immutable:
``evolve`` builds new objects with :func:`derive`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from cardroom.domain.smile_life.cards import (
    CONTINUED_STUDIES,
    EXCELLENCE_PRIZE,
    GRAND_PROF,
    HAND_SIZE,
    POLICE_OFFICER,
    RAINBOW,
    RESEARCHER,
    RESEARCHER_HAND_SIZE,
    SHOOTING_STAR,
    SOLDIER,
    UNICORN,
    card,
)
from cardroom.smile_life.v1 import smile_life_pb2 as pb

T = TypeVar("T")

Hand = tuple[str | None, ...]  # known cards sorted, then the unseen ones


def derive(obj: T, **changes: Any) -> T:
    """A copy of a frozen dataclass with some fields changed, without
    re-running ``__init__`` (the fold runs this for every event and viewer)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__, **changes)
    return new


def put(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*values[:index], value, *values[index + 1 :])


def drop(values: tuple[T, ...], index: int) -> tuple[T, ...]:
    return (*values[:index], *values[index + 1 :])


# ------------------------------------------------------------------ hands


def normalized(cards: Iterable[str | None]) -> Hand:
    items = list(cards)
    known = sorted(c for c in items if c is not None)
    return (*known, *([None] * (len(items) - len(known))))


def with_card(hand: Hand, new: str | None) -> Hand:
    return normalized((*hand, new))


def without(hand: Hand, gone: str) -> Hand:
    """``hand`` after ``gone`` left it face up: a known copy if the viewer
    knew one was there, else one of the unseen cards."""
    rest = list(hand)
    if gone in rest:
        rest.remove(gone)
    elif None in rest:
        rest.remove(None)
    else:
        raise ValueError(f"{gone} is not in {hand}")
    return tuple(rest)


def forget(hand: Hand, size: int) -> Hand:
    """A hand an unseen card left (or entered): what the viewer knew of it
    no longer holds, only its size does."""
    return (None,) * size


def known(cards: Iterable[str | None]) -> list[str]:
    """The cards, which must all be known (decide runs on the full state)."""
    out = []
    for c in cards:
        if c is None:
            raise ValueError("deciding needs the full (auditor's) state")
        out.append(c)
    return out


# ------------------------------------------------------------------ lives


@dataclass(frozen=True, slots=False)
class Study:
    card: str
    protected: bool = False  # placed by a doctor or surgeon (SL-13)
    counts: bool = True  # usable to reach a job (not under a pistoned doctor, SL-14)


@dataclass(frozen=True, slots=False)
class Salary:
    card: str
    invested: bool = False

    @property
    def level(self) -> int:
        return card(self.card).level


@dataclass(frozen=True)
class Life:
    """The cards in front of one player, and the marks the rules keep."""

    studies: tuple[Study, ...] = ()
    job: str | None = None
    job_since: int = 0  # the turn the job was placed
    by_piston: bool = False
    free_houses_used: int = 0
    prize_active: bool = False
    salaries: tuple[Salary, ...] = ()
    flirts: tuple[str, ...] = ()
    adultery_flirts: tuple[str, ...] = ()
    kept_flirts: tuple[str, ...] = ()
    marriage: str | None = None
    adultery: str | None = None
    children: tuple[str, ...] = ()
    pets: tuple[str, ...] = ()
    trips: tuple[str, ...] = ()
    houses: tuple[str, ...] = ()
    distinctions: tuple[str, ...] = ()
    specials: tuple[str, ...] = ()
    maluses: tuple[str, ...] = ()
    inheritance: int = 0
    missed: int = 0
    was_bandit: bool = False
    attacker: bool = False
    prize_jobs: tuple[str, ...] = ()  # SL-24: jobs an excellence prize was had for

    @property
    def married(self) -> bool:
        return self.marriage is not None

    @property
    def study_levels(self) -> int:
        return sum(card(s.card).levels for s in self.studies if s.counts)

    @property
    def continues_studies(self) -> bool:
        return self.job in CONTINUED_STUDIES

    def last_flirt(self) -> str | None:
        """The last uncovered flirt, the one another player may take
        (SL-29): the top of an adultery's flirts, else the top official
        flirt while unmarried (a marriage covers them)."""
        if self.married:
            return self.adultery_flirts[-1] if self.adultery_flirts else None
        return self.flirts[-1] if self.flirts else None

    def face_up_salaries(self) -> list[int]:
        """Indexes of the salaries that can still pay, oldest first."""
        return [i for i, s in enumerate(self.salaries) if not s.invested]

    def latest_face_up(self, level: int | None = None) -> int | None:
        """The most recently placed face-up salary (of that level)."""
        for i in range(len(self.salaries) - 1, -1, -1):
            salary = self.salaries[i]
            if not salary.invested and (level is None or salary.level == level):
                return i
        return None

    def cards(self) -> Iterator[str]:
        """Every card in front of the player."""
        yield from (s.card for s in self.studies)
        if self.job is not None:
            yield self.job
        yield from (s.card for s in self.salaries)
        yield from self.flirts
        yield from self.adultery_flirts
        yield from self.kept_flirts
        if self.marriage is not None:
            yield self.marriage
        if self.adultery is not None:
            yield self.adultery
        if self.prize_active:
            yield EXCELLENCE_PRIZE
        for group in (
            self.children,
            self.pets,
            self.trips,
            self.houses,
            self.distinctions,
            self.specials,
            self.maluses,
        ):
            yield from group

    def smiles(self) -> int:
        """SL-01: the smiles of every card in front of the player; the
        unicorn counts double beside a rainbow and a shooting star."""
        total = sum(card(c).smiles for c in self.cards())
        if UNICORN in self.pets and RAINBOW in self.specials and SHOOTING_STAR in self.specials:
            total += card(UNICORN).smiles
        return total


# ------------------------------------------------------------- the table


@dataclass(frozen=True, slots=False)
class Step:
    """An open step of the turn (pb.Step): whose choice, and its data."""

    kind: pb.Step
    seat: int
    other: int | None = None
    may_discard: bool = False
    played: int = 0  # rainbow


@dataclass(frozen=True, slots=False)
class Casino:
    owner: int
    open_to_all: bool = False  # SL-27
    bettor: int | None = None
    bet: str | None = None  # the face-down salary, when this viewer knows it
    # The second bet, between being placed and the casino's settling.
    second_bettor: int | None = None
    second_bet: str | None = None


@dataclass(frozen=True, slots=False)
class Barter:
    seat: int
    partner: int
    protected: bool = False
    protected_card: str | None = None  # known to the initiator (and auditors)


@dataclass(frozen=True, slots=True)
class Settings:
    allow_six_players: bool = False
    river: bool = False
    architect_free_houses: int = 1
    grand_prof_salary_max: int = 4
    draw_pile_size: int | None = None
    start_tiebreak: pb.StartTiebreak = pb.START_TIEBREAK_LOWEST_SEAT


@dataclass(frozen=True)
class State:
    settings: Settings
    seat_count: int
    phase: pb.Phase = pb.PHASE_SETUP
    stage: pb.Stage = pb.STAGE_UNSPECIFIED
    lives: tuple[Life, ...] = ()
    hands: tuple[Hand, ...] = ()
    pile: tuple[str | None, ...] = ()  # top first
    set_aside: tuple[str | None, ...] = ()
    discard: tuple[tuple[str, int | None], ...] = ()  # bottom first: (card, discarder)
    river: tuple[str, ...] = ()
    river_idle: int = 0
    took_river: bool = False
    casino: Casino | None = None
    out_of_game: tuple[str, ...] = ()
    held: str | None = None
    luck: tuple[str | None, ...] = ()
    barter: Barter | None = None
    steps: tuple[Step, ...] = ()
    current: int | None = None
    turn: int = 0
    start_seat: int | None = None
    winners: tuple[int, ...] | None = None
    # Seats that left the game (the table's SeatResigned; SL-37).
    departed: frozenset[int] = frozenset()
    # The card the current seat drew for its turn, where this viewer saw it
    # (SL-37: a timed-out seat discards it).
    drawn: str | None = None

    @property
    def top(self) -> Step | None:
        return self.steps[-1] if self.steps else None

    def others(self, seat: int) -> list[int]:
        """The other seats, clockwise from ``seat``'s left (G-01)."""
        n = self.seat_count
        return [(seat + k) % n for k in range(1, n)]

    def hand_size(self, seat: int) -> int:
        return RESEARCHER_HAND_SIZE if self.lives[seat].job == RESEARCHER else HAND_SIZE

    def salary_max(self, seat: int) -> int:
        """SL-14: the job's bundles; 4 with an excellence prize; the grand
        prof's cap is an option (SL-01)."""
        life = self.lives[seat]
        if life.job is None:
            return 0
        if life.prize_active:
            return 4
        if life.job == GRAND_PROF:
            return self.settings.grand_prof_salary_max
        return card(life.job).salary_max

    def soldier_in_play(self) -> bool:
        return any(life.job == SOLDIER for life in self.lives)

    def police_besides(self, seat: int) -> bool:
        return any(life.job == POLICE_OFFICER for s, life in enumerate(self.lives) if s != seat)

    def may_take_back(self, seat: int, index: int) -> bool:
        """SL-04: not a card recorded as ``seat``'s own discard."""
        return self.discard[index][1] != seat

    def smiles(self) -> list[int]:
        return [life.smiles() for life in self.lives]

    @property
    def playing(self) -> list[int]:
        """The seats that have not left the game (G-03, SL-37); every seat
        if all of them left (T-RESIGN)."""
        active = [s for s in range(self.seat_count) if s not in self.departed]
        return active or list(range(self.seat_count))

    def awaiting(self) -> list[int]:
        """Seats whose command the game waits for (public)."""
        if self.phase != pb.PHASE_TURN:
            return []
        top = self.top
        if top is None:
            return [] if self.current is None else [self.current]
        if top.kind in (pb.STEP_BARTER_DRAW, pb.STEP_TSUNAMI):
            return []
        return [top.seat]
