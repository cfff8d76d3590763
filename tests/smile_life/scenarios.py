"""The rulebook's testable statements (DECISIONS 3.4) and the rulings'
examples, as games played from a set deal.

A scenario depends only on the generated protobuf module, so the pure tests
play it through the decider and the API tests through gRPC. Each stage is
a run of ``(seat, command)`` steps, then commands that must be refused
(naming their rule), then checks of the ``View``: every check reads public
facts, so it holds from every seat's view and a spectator's alike.

Seat 0 is "P0", seat 1 "P1"; decks are written as the hands dealt, then
the draw pile from the top (see ``support.deck``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from google.protobuf.message import Message

from cardroom.smile_life.v1 import smile_life_pb2 as pb

from .support import bet, deck, discard, draw, life, malus, options, take

Check = Callable[[pb.View], None]


@dataclass(frozen=True)
class Stage:
    steps: tuple[tuple[int, Message], ...]
    refused: tuple[tuple[int, Message, str], ...] = ()
    checks: tuple[Check, ...] = ()


@dataclass(frozen=True)
class Scenario:
    name: str
    seat_count: int
    chance: tuple[Message, ...]
    stages: tuple[Stage, ...]
    options: pb.Options = field(default_factory=pb.Options)
    kind: str = "smile-life"

    @property
    def players(self) -> list[str]:
        return [f"P{s}" for s in range(self.seat_count)]


# ----------------------------------------------------------------- checks


def life_is(seat: int, **fields: object) -> Check:
    """Fields of a seat's Life: lists of card ids, or scalars."""

    def check(view: pb.View) -> None:
        seen = view.seats[seat].life
        for name, wanted in fields.items():
            value = getattr(seen, name)
            if name == "studies":
                value = [s.card for s in value]
            elif name == "salaries":
                value = [(s.card, s.invested) for s in value]
            elif not isinstance(wanted, (str, int, bool)):
                value = list(value)
            assert value == wanted, f"seat {seat} {name}: {value} != {wanted}"

    return check


def smiles_are(*smiles: int) -> Check:
    def check(view: pb.View) -> None:
        assert [s.smiles for s in view.seats] == list(smiles)

    return check


def turn_of(seat: int) -> Check:
    def check(view: pb.View) -> None:
        assert view.phase == pb.PHASE_TURN and view.current_seat == seat, view.current_seat

    return check


def top_discard(card: str, by: int | None) -> Check:
    def check(view: pb.View) -> None:
        top = view.discard_pile[-1]
        assert top.card == card
        assert (top.discarded_by if top.HasField("discarded_by") else None) == by

    return check


def out_of_game(*cards: str) -> Check:
    def check(view: pb.View) -> None:
        assert sorted(view.out_of_game) == sorted(cards)

    return check


def game_over(*winners: int) -> Check:
    def check(view: pb.View) -> None:
        assert view.phase == pb.PHASE_OVER and list(view.winners) == list(winners)

    return check


def hand_counts(*counts: int) -> Check:
    def check(view: pb.View) -> None:
        assert [s.hand_count for s in view.seats] == list(counts)

    return check


def casino_is(*, has_bet: bool, bettor: int = 0, open_to_all: bool = False) -> Check:
    def check(view: pb.View) -> None:
        casino = view.casino
        assert casino.open and casino.has_bet == has_bet and casino.open_to_all == open_to_all
        if has_bet:
            assert casino.bettor == bettor

    return check


# ------------------------------------------------------------ the cards

BURN, ACCIDENT, ILLNESS = "malus_burn_out", "malus_accident", "malus_illness"
CAT, DOG, CHICK, RABBIT = "pet_cat", "pet_dog", "pet_chick", "pet_rabbit"
STUDY, DOUBLE = "study_single", "study_double"
S1, S2, S3, S4 = "salary_1", "salary_2", "salary_3", "salary_4"
# Cards nobody wants to play in these scenarios: drawn, then discarded.
J = [
    "trip_london",
    "trip_rio",
    "trip_sydney",
    "trip_new_york",
    "house_small_green",
    "house_small_pink",
    "house_medium_white",
    "house_medium_orange",
]


def interleave(*draws: list[str]) -> list[str]:
    """The draw pile when seats draw in turn, one list per seat in turn
    order (the lists of equal length)."""
    assert len({len(d) for d in draws}) == 1
    return [c for turn in zip(*draws, strict=True) for c in turn]


def idle(seat: int, *cards: str) -> tuple[tuple[int, Message], ...]:
    """A seat's quiet turn: draw, then discard a card (the one it drew)."""
    return tuple(step for c in cards for step in ((seat, draw()), (seat, discard(c))))


def turn(seat: int, command: Message) -> tuple[tuple[int, Message], ...]:
    return ((seat, draw()), (seat, command))


# --------------------------------------------- DECISIONS 3.4 statements

# A designer needs 4 study levels (2 single + 1 double: 4 levels from 3
# cards) and pays salaries 1 to 3; a level-4 salary is refused.
DESIGNER = Scenario(
    name="designer",
    seat_count=2,
    chance=(
        deck(
            [[STUDY, STUDY, DOUBLE, "designer", S3], [ACCIDENT] * 5],
            pile=interleave([CAT, S4, DOG, CHICK, RABBIT, "trip_cairo"], J[:6]),
        ),
    ),
    stages=(
        Stage(
            steps=(*turn(0, life(STUDY)), *idle(1, J[0]), *turn(0, life(STUDY)), *idle(1, J[1])),
            checks=(life_is(0, studies=[STUDY, STUDY], study_levels=2, job=""),),
        ),
        Stage(steps=((0, draw()),), refused=((0, life("designer"), "SL-14"),)),
        Stage(
            steps=(
                (0, life(DOUBLE)),
                *idle(1, J[2]),
                *turn(0, life("designer")),
                *idle(1, J[3]),
                *turn(0, life(S3)),
                *idle(1, J[4]),
                (0, draw()),
            ),
            refused=((0, life(S4), "SL-14"),),
            checks=(
                life_is(0, studies=[STUDY, STUDY, DOUBLE], study_levels=4, job="designer"),
                life_is(0, salary_max=3, salaries=[(S3, False)]),
                smiles_are(6, 0),
                turn_of(0),
            ),
        ),
        Stage(steps=((0, discard(S4)),), checks=(turn_of(1), top_discard(S4, 0))),
    ),
)

# Casino: equal levels, the second bettor takes both; different levels, the
# first bettor does. A lone bet comes home at the end as a 1-smile salary.
CASINO = Scenario(
    name="casino",
    seat_count=3,
    options=options(draw_pile_size=7),
    chance=(
        deck(
            [
                ["special_casino", S2, S3, "pet_unicorn", CAT],  # 6 smiles: P0 starts
                [S2, S4, ACCIDENT, ACCIDENT, ACCIDENT],
                [S1, ILLNESS, ILLNESS, ILLNESS, ILLNESS],
            ],
            pile=J[:7],
        ),
    ),
    stages=(
        Stage(
            steps=((0, draw()), (0, life("special_casino")), (0, bet(S2))),
            checks=(casino_is(has_bet=True, bettor=0), hand_counts(5, 5, 5), turn_of(1)),
        ),
        Stage(
            steps=turn(1, bet(S2)),
            checks=(
                life_is(1, salaries=[(S2, False), (S2, False)], job=""),
                casino_is(has_bet=False, open_to_all=True),
            ),
        ),
        Stage(
            steps=(*turn(2, bet(S1)), *turn(0, bet(S3))),
            checks=(life_is(2, salaries=[(S1, False), (S3, False)]), smiles_are(0, 2, 2)),
        ),
        Stage(
            steps=turn(1, bet(S4)), checks=(casino_is(has_bet=True, bettor=1, open_to_all=True),)
        ),
        Stage(
            steps=turn(2, discard(ILLNESS)),
            checks=(
                life_is(1, salaries=[(S2, False), (S2, False), (S4, False)]),
                smiles_are(0, 3, 2),
                game_over(1),
            ),
        ),
    ),
)

# SL-12: P0 has 4 flirts and plays a 5th at the bar where P1's last flirt
# is: P0 ends with 6 flirts, P1 with none.
FLIRTS = ["flirt_cinema", "flirt_park", "flirt_zoo", "flirt_theatre", "flirt_bar"]
STEAL = Scenario(
    name="flirt stealing up to six",
    seat_count=2,
    chance=(
        deck(
            [FLIRTS, ["flirt_bar", *[ACCIDENT] * 4]],
            pile=interleave([CAT, DOG, CHICK, RABBIT, "flirt_hotel", S1], J[:6]),
        ),
    ),
    stages=(
        Stage(
            steps=(
                *turn(0, life(FLIRTS[0])),
                *turn(1, life("flirt_bar")),
                *turn(0, life(FLIRTS[1])),
                *idle(1, J[1]),
                *turn(0, life(FLIRTS[2])),
                *idle(1, J[2]),
                *turn(0, life(FLIRTS[3])),
                *idle(1, J[3]),
                (0, draw()),
            ),
            refused=((0, life("flirt_bar"), "SL-12"), (0, life("flirt_bar", steal=0), "SL-12")),
            checks=(life_is(0, flirts=FLIRTS[:4]), life_is(1, flirts=["flirt_bar"])),
        ),
        Stage(
            steps=((0, life("flirt_bar", steal=1)),),
            checks=(
                life_is(0, flirts=[*FLIRTS[:4], "flirt_bar", "flirt_bar"]),
                life_is(1, flirts=[]),
                smiles_are(6, 0),
            ),
        ),
        Stage(steps=(*idle(1, J[4]), (0, draw())), refused=((0, life("flirt_hotel"), "SL-12"),)),
    ),
)

# SL-15: a married player pays half a house's price: the villa costs 5.
HOUSE = Scenario(
    name="married house price",
    seat_count=2,
    chance=(
        deck(
            [["flirt_hotel", "marriage_montcuq", "bandit", S4, S1], [ACCIDENT] * 5],
            pile=interleave(["house_villa", CAT, DOG, CHICK, RABBIT, S2], J[:6]),
        ),
    ),
    stages=(
        Stage(
            steps=(
                *turn(0, life("flirt_hotel")),
                *idle(1, J[0]),
                *turn(0, life("marriage_montcuq")),
                *idle(1, J[1]),
                *turn(0, life("bandit")),
                *idle(1, J[2]),
                *turn(0, life(S4)),
                *idle(1, J[3]),
                *turn(0, life(S1)),
                *idle(1, J[4]),
                (0, draw()),
            ),
            refused=(
                (0, life("house_villa", 4), "SL-15"),
                (0, life("house_villa", 1, 4, 4), "SL-15"),
            ),
        ),
        Stage(
            steps=((0, life("house_villa", 1, 4)),),
            checks=(
                life_is(0, houses=["house_villa"], salaries=[(S4, True), (S1, True)]),
                life_is(0, marriage="marriage_montcuq", flirts=["flirt_hotel"]),
                smiles_are(1 + 3 + 2 + 1 + 1 + 3, 0),
            ),
        ),
    ),
)

# Income tax skips invested salaries (SL-08); the grand prof discards the
# professor card and keeps the salaries (SL-14); a civil servant cannot be
# dismissed (SL-06).
CAREER = Scenario(
    name="professor, income tax, grand prof",
    seat_count=2,
    chance=(
        deck(
            [
                [STUDY, STUDY, "maths_teacher", S1, S2],
                ["malus_income_tax", "malus_dismissal", ACCIDENT, ACCIDENT, ACCIDENT],
            ],
            pile=interleave(
                [S1, "trip_cairo", "grand_prof", CAT, DOG, CHICK, RABBIT, "pet_unicorn"], J
            ),
        ),
    ),
    stages=(
        Stage(
            steps=(
                *turn(0, life(STUDY)),
                *idle(1, J[0]),
                *turn(0, life(STUDY)),
                *idle(1, J[1]),
                *turn(0, life("maths_teacher")),
                *idle(1, J[2]),
                *turn(0, life(S1)),
                *idle(1, J[3]),
                *turn(0, life(S2)),
                *idle(1, J[4]),
                *turn(0, life(S1)),
                *idle(1, J[5]),
                *turn(0, life("trip_cairo", 1, 2)),
                (1, draw()),
            ),
            refused=((1, malus("malus_dismissal", 0), "SL-06"),),
            checks=(life_is(0, salaries=[(S1, False), (S2, True), (S1, True)]),),
        ),
        Stage(
            steps=((1, malus("malus_income_tax", 0)),),
            checks=(
                life_is(0, salaries=[(S2, True), (S1, True)], maluses=["malus_income_tax"]),
                top_discard(S1, 0),
            ),
        ),
        Stage(
            steps=turn(0, life("grand_prof")),
            checks=(
                life_is(0, job="grand_prof", salary_max=4, salaries=[(S2, True), (S1, True)]),
                top_discard("maths_teacher", 0),
            ),
        ),
    ),
)

# SL-09: the terrorist attack removes every child, the perpetrator's too;
# the perpetrator can never have the legion of honour (SL-17).
ATTACK = Scenario(
    name="terrorist attack",
    seat_count=2,
    chance=(
        deck(
            [
                ["flirt_hotel", "child_luke", CAT, DOG, CHICK],
                ["flirt_camping", "child_leia", "malus_terrorist_attack", ACCIDENT, ACCIDENT],
            ],
            pile=interleave(J[:4], [J[4], J[5], J[6], "legion_of_honour"]),
        ),
    ),
    stages=(
        Stage(
            steps=(
                *turn(0, life("flirt_hotel")),
                *turn(1, life("flirt_camping")),
                *turn(0, life("child_luke")),
                *turn(1, life("child_leia")),
            ),
            checks=(smiles_are(3, 3),),
        ),
        Stage(
            steps=(*idle(0, J[2]), *turn(1, malus("malus_terrorist_attack"))),
            checks=(
                life_is(0, children=[], flirts=["flirt_hotel"]),
                life_is(1, children=[], attacker=True),
                out_of_game("child_luke", "child_leia", "malus_terrorist_attack"),
                smiles_are(1, 1),
            ),
        ),
        Stage(
            steps=(*idle(0, J[3]), (1, draw())),
            refused=((1, life("legion_of_honour"), "SL-17"),),
        ),
    ),
)

# SL-23: the same attack naming another player (P0) hits every child just
# the same; naming oneself is refused.
ATTACK_NAMING = Scenario(
    name="SL-23 terrorist attack naming a target",
    seat_count=2,
    chance=ATTACK.chance,
    stages=(
        ATTACK.stages[0],
        Stage(
            steps=(*idle(0, J[2]), (1, draw())),
            refused=((1, malus("malus_terrorist_attack", 1), "SL-23"),),
        ),
        Stage(
            steps=((1, malus("malus_terrorist_attack", 0)),),
            checks=ATTACK.stages[1].checks,
        ),
    ),
)


# A temp resigns and plays on (SL-10); a police officer is neither
# dismissed nor divorced while unmarried (SL-06); a police officer resigns
# instead of drawing, and the turn passes.
RESIGN = Scenario(
    name="temp and civil servant resign",
    seat_count=2,
    chance=(
        deck(
            [
                ["waiter", STUDY, CAT, "malus_dismissal", "malus_divorce"],  # 4 smiles
                [STUDY, "police_officer", ACCIDENT, ACCIDENT, ACCIDENT],  # 3
            ],
            pile=interleave(J[:4], J[4:8]),
        ),
    ),
    stages=(
        Stage(
            steps=(
                *turn(0, life("waiter")),
                *turn(1, life(STUDY)),
                *turn(0, life(CAT)),
                *turn(1, life("police_officer")),
            ),
            checks=(life_is(0, job="waiter"), life_is(1, job="police_officer"), turn_of(0)),
        ),
        Stage(
            steps=((0, pb.Resign()),),
            checks=(turn_of(0), life_is(0, job=""), top_discard("waiter", 0)),
        ),
        Stage(
            steps=((0, draw()),),
            refused=(
                (0, malus("malus_dismissal", 1), "SL-06"),
                (0, malus("malus_divorce", 1), "SL-06"),
            ),
        ),
        Stage(
            steps=((0, life(STUDY)), (1, pb.Resign())),
            checks=(
                life_is(0, studies=[STUDY]),
                life_is(1, job=""),
                turn_of(0),
                hand_counts(5, 5),
                top_discard("police_officer", 1),
            ),
        ),
    ),
)

# --------------------------------------------------- rulings' examples

# SL-02: hands worth 4, 7 and 7 smiles: seat 1 starts.
START = Scenario(
    name="SL-02 start player",
    seat_count=3,
    chance=(
        deck(
            [
                [STUDY, STUDY, STUDY, STUDY, BURN],
                ["house_villa", "marriage_montcuq", CAT, ACCIDENT, ACCIDENT],
                ["legion_of_honour", "child_luke", DOG, CHICK, ILLNESS],
            ]
        ),
    ),
    stages=(Stage(steps=(), checks=(turn_of(1),)),),
)

# SL-04: a repeated year throws P1's only study away; P1 may not take it
# back, P0 may.
TAKE_BACK = Scenario(
    name="SL-04 no taking back",
    seat_count=2,
    chance=(
        deck(
            [
                ["malus_repeated_year", CAT, DOG, CHICK, "marriage_montcuq"],
                [STUDY, "pet_unicorn", ACCIDENT, ACCIDENT, ACCIDENT],
            ],
            pile=J,
        ),
    ),
    stages=(
        Stage(
            steps=(
                *turn(0, life(CAT)),
                *turn(1, life(STUDY)),
                *turn(0, malus("malus_repeated_year", 1)),
            ),
            refused=((1, take(), "SL-04"),),
            checks=(top_discard(STUDY, 1), life_is(1, studies=[])),
        ),
        Stage(
            steps=(*turn(1, life("pet_unicorn")), (0, take()), (0, life(STUDY))),
            checks=(life_is(0, studies=[STUDY]), turn_of(1)),
        ),
    ),
)

# SL-05: the draw pile holds one card: P0 draws it and plays a study; the
# game is over and P1 gets no turn.
LAST_CARD = Scenario(
    name="SL-05 last card",
    seat_count=2,
    options=options(draw_pile_size=1),
    chance=(deck([[CAT, DOG, CHICK, RABBIT, BURN], [ACCIDENT] * 5], pile=[STUDY]),),
    stages=(Stage(steps=turn(0, life(STUDY)), checks=(game_over(0), smiles_are(1, 0))),),
)

# ------------------------------------------------------- special cards

# Luck shows P0 three cards; P0 plays the unicorn and discards the others,
# the study on top (SL-16, SL-26): luck's secret is opened to everyone.
LUCK = Scenario(
    name="luck",
    seat_count=2,
    chance=(
        deck(
            [["special_luck", CAT, DOG, CHICK, RABBIT], [ACCIDENT] * 5],
            pile=[J[0], "pet_unicorn", "flirt_bar", STUDY, *J[1:]],
        ),
    ),
    stages=(
        Stage(
            steps=((0, draw()), (0, life("special_luck"))),
            refused=((0, pb.ChooseLuckCard(card="pet_unicorn"), "SL-16"),),
        ),
        Stage(
            steps=(
                (0, pb.ChooseLuckCard(card="pet_unicorn", top_discard=STUDY)),
                (0, life("pet_unicorn")),
            ),
            checks=(
                life_is(0, pets=["pet_unicorn"], specials=["special_luck"]),
                top_discard(STUDY, 0),
                hand_counts(5, 5),
                turn_of(1),
            ),
        ),
    ),
)

# SL-35: P0 places the journalist, sees every hand, and announces "P2
# holds a Divorce" (P2 holds none): accepted, and nothing else changes;
# only the journalist announces, about another player, before Decline.
DIVORCE = "malus_divorce"


def step_is(kind: int, seat: int) -> Check:
    def check(view: pb.View) -> None:
        assert view.steps and (view.steps[-1].step, view.steps[-1].seat) == (kind, seat)
        assert list(view.awaiting) == [seat]

    return check


ANNOUNCED = pb.Announce(seat=2, card=DIVORCE, holds=True)
JOURNALIST = Scenario(
    name="SL-35 the journalist's announcement",
    seat_count=3,
    chance=(
        deck(
            [[DOUBLE, STUDY, "journalist", CAT, DOG], [ACCIDENT] * 5, [ILLNESS] * 5],
            pile=J[:7],
        ),
    ),
    stages=(
        Stage(
            steps=(
                *turn(0, life(DOUBLE)),
                *idle(1, J[1]),
                *idle(2, J[2]),
                *turn(0, life(STUDY)),
                *idle(1, J[4]),
                *idle(2, J[5]),
                *turn(0, life("journalist")),
            ),
            refused=((1, ANNOUNCED, "SL-35"),),
            checks=(life_is(0, job="journalist"), step_is(pb.STEP_JOURNALIST, 0)),
        ),
        Stage(
            steps=((0, ANNOUNCED), (0, pb.Announce(seat=1, card=ACCIDENT, holds=False))),
            refused=((0, pb.Announce(seat=0, card=CAT, holds=True), "SL-35"),),
            checks=(step_is(pb.STEP_JOURNALIST, 0), hand_counts(5, 5, 5), smiles_are(4, 0, 0)),
        ),
        Stage(
            steps=((0, pb.Decline()),),
            refused=((0, ANNOUNCED, "SL-35"),),
            checks=(turn_of(1), hand_counts(5, 5, 5)),
        ),
    ),
)

STATEMENTS = (DESIGNER, CASINO, STEAL, HOUSE, CAREER, ATTACK, RESIGN)
EXAMPLES = (START, TAKE_BACK, LAST_CARD, ATTACK_NAMING, JOURNALIST)
ALL = (*STATEMENTS, *EXAMPLES, LUCK)
