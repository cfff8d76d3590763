"""The nine maluses: whom each may hit and who is immune (SL-06), missed
turns (SL-07), income tax (SL-08), the terrorist attack (SL-09), prison,
and that the victim keeps the malus."""

from __future__ import annotations

import pytest

from cardroom.domain.smile_life.maluses import malus_problem
from cardroom.domain.smile_life.state import Life, Salary, Study
from cardroom.smile_life.v1 import smile_life_pb2 as pb

from .support import HOUSES, PETS, TRIPS, after_draw, discard, draw, given, life, malus, person

WORKER = person(job="writer", salaries=["salary_1"])
MARRIED = person(flirts=["flirt_bar"], marriage="marriage_montcuq")
STUDENT = person(studies=["study_single"])

# SL-06: (malus, a victim it may hit, victims it may not hit).
TARGETS: list[tuple[str, Life, list[Life]]] = [
    ("malus_accident", person(), [person(job="mechanic")]),
    ("malus_illness", person(), [person(job=j) for j in ("pharmacist", "doctor", "surgeon")]),
    ("malus_burn_out", WORKER, [person()]),
    (
        "malus_dismissal",
        WORKER,
        [
            person(),
            person(job="bandit"),
            *(person(job=j) for j in ("soldier", "police_officer", "history_teacher")),
        ],
    ),
    (
        "malus_income_tax",
        WORKER,
        [
            person(),
            person(job="writer"),
            person(job="bandit", salaries=["salary_1"]),
            person(job="writer", salaries=[Salary("salary_1", True)]),
        ],
    ),
    ("malus_divorce", MARRIED, [person(), person(job="lawyer", marriage="marriage_montcuq")]),
    (
        "malus_repeated_year",
        STUDENT,
        [
            person(),
            person(studies=["study_single"], job="writer"),
            person(studies=[Study("study_single", protected=True)]),
        ],
    ),
    ("malus_prison", person(job="bandit"), [person(), WORKER]),
]


@pytest.mark.parametrize(("card", "victim", "immune"), TARGETS, ids=[t[0] for t in TARGETS])
def test_a_malus_hits_only_whom_its_condition_names(
    card: str, victim: Life, immune: list[Life]
) -> None:
    for other in immune:
        table = given([[card, *PETS], TRIPS], [person(), other])
        assert after_draw(table).refused(0, malus(card, 1)).rule == "SL-06"
    table = given([[card, *PETS], TRIPS], [person(), victim])
    after_draw(table).send(0, malus(card, 1))
    kept = card not in ("malus_prison",)
    assert (card in table.life(1).maluses) == kept


def test_a_malus_is_never_played_on_yourself_nor_to_your_own_life() -> None:
    table = given([["malus_accident", *PETS], TRIPS])
    after_draw(table)
    assert table.refused(0, malus("malus_accident", 0)).rule == "SL-06"
    assert table.refused(0, life("malus_accident")).rule == "SL-06"
    assert malus_problem(table.state, 0, "pet_cat", 1) is not None


def test_missed_turns_stack_and_are_skipped_without_drawing() -> None:
    table = given(
        [["malus_accident", "malus_illness", *PETS[:3]], TRIPS, HOUSES],
        [person(), person(missed=1), person()],
        pile=["pet_rabbit", "salary_1", "salary_2", "salary_3"],
    )
    after_draw(table).send(0, malus("malus_accident", 1))
    assert table.events_of(pb.TurnsToMiss) == [pb.TurnsToMiss(seat=1, count=1)]  # 1 + 1 stacked
    assert table.life(1).missed == 1  # and one of them is missed at once
    assert table.state.current == 2 and table.events_of(pb.TurnMissed) == [
        pb.TurnMissed(seat=1, remaining=1)
    ]
    pile = len(table.state.pile)
    after_draw(table).send(2, discard("salary_1"))
    assert table.state.current == 0 and len(table.state.pile) == pile - 1
    after_draw(table).send(0, discard("pet_cat"))
    assert table.state.current == 2 and table.life(1).missed == 0
    assert len(table.state.hands[1]) == 4  # no draw in the missed turns


def test_prison_sends_the_bandit_to_the_discard_pile_for_three_turns() -> None:
    table = given(
        [["malus_prison", *PETS], TRIPS], [person(), person(job="bandit", was_bandit=True)]
    )
    after_draw(table).send(0, malus("malus_prison", 1))
    assert table.state.discard == (("bandit", 1), ("malus_prison", 1))
    assert (
        table.life(1).job is None and table.life(1).missed == 3 - 1
    )  # the first is missed at once
    assert table.state.current == 0


def test_income_tax_takes_the_last_face_up_salary() -> None:
    worker = person(job="designer", salaries=["salary_1", "salary_2", Salary("salary_3", True)])
    table = given([["malus_income_tax", *PETS], TRIPS], [person(), worker])
    after_draw(table).send(0, malus("malus_income_tax", 1))
    assert table.life(1).salaries == (Salary("salary_1"), Salary("salary_3", True))
    assert table.state.discard[-1] == ("salary_2", 1)


def test_repeated_year_takes_the_last_study_card_single_or_double() -> None:
    table = given(
        [["malus_repeated_year", *PETS], TRIPS],
        [person(), person(studies=["study_single", "study_double"])],
    )
    after_draw(table).send(0, malus("malus_repeated_year", 1))
    assert table.life(1).studies == (Study("study_single"),) and table.state.discard[-1] == (
        "study_double",
        1,
    )


def test_dismissal_takes_the_job_and_leaves_the_salaries() -> None:
    worker = person(job="designer", studies=["study_double"] * 2, salaries=["salary_3"])
    table = given([["malus_dismissal", *PETS], TRIPS], [person(), worker])
    after_draw(table).send(0, malus("malus_dismissal", 1))
    assert table.life(1).job is None and table.life(1).salaries == (Salary("salary_3"),)
    assert table.state.discard[-1] == ("designer", 1)


def test_the_terrorist_attack_names_no_target_and_is_blocked_by_any_soldier() -> None:
    table = given([["malus_terrorist_attack", *PETS], TRIPS])
    after_draw(table).send(0, malus("malus_terrorist_attack"))  # legal with no child in play
    assert table.state.out_of_game == ("malus_terrorist_attack",) and table.life(0).attacker
    table = given([["malus_terrorist_attack", *PETS], TRIPS], [person(), person(job="soldier")])
    assert after_draw(table).refused(0, malus("malus_terrorist_attack")).rule == "SL-06"
    table = given([["malus_terrorist_attack", *PETS], TRIPS], [person(job="soldier"), person()])
    assert after_draw(table).refused(0, malus("malus_terrorist_attack")).rule == "SL-06"


def test_the_attacks_children_leave_the_game_and_score_nothing_more() -> None:
    families = [
        person(
            flirts=["flirt_bar"], marriage="marriage_montcuq", children=["child_luke", "child_leia"]
        ),
        person(flirts=["flirt_hotel"], children=["child_mario"]),
        person(),
    ]
    table = given(
        [[*TRIPS, "salary_1"], [*HOUSES, "salary_2"], ["malus_terrorist_attack", *PETS]],
        families,
        current=2,
    )
    before = table.state.smiles()
    table.send(2, draw())
    table.send(2, malus("malus_terrorist_attack"))
    assert [life.children for life in table.state.lives] == [(), (), ()]
    assert table.state.smiles() == [before[0] - 4, before[1] - 2, 0]
    assert sorted(table.state.out_of_game) == sorted(
        ["child_luke", "child_leia", "child_mario", "malus_terrorist_attack"]
    )
