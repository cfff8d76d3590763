"""Acquisitions and distinctions: pets are free, trips and houses are paid
by turning salaries over with no change and nothing surplus (SL-15), the
inheritance pays once, the unicorn doubles (SL-01), the legion of honour
(SL-17)."""

from __future__ import annotations

import pytest

from cardroom.domain.smile_life.plays import payments
from cardroom.domain.smile_life.state import Salary

from .support import PETS, TRIPS, after_draw, given, life, person


def test_pets_are_free_and_accumulate() -> None:
    table = given(
        [["pet_unicorn", *PETS[1:], "salary_1"], TRIPS], [person(pets=["pet_cat"]), person()]
    )
    after_draw(table).send(0, life("pet_unicorn"))
    assert table.life(0).pets == ("pet_cat", "pet_unicorn")


def test_a_trip_is_paid_with_salaries_turned_over_that_still_score() -> None:
    table = given(
        [["trip_cairo", *PETS], TRIPS], [person(salaries=["salary_1", "salary_2"]), person()]
    )
    after_draw(table)
    assert table.refused(0, life("trip_cairo", 2)).message.endswith("costs 3; you pay 2")
    table.send(0, life("trip_cairo", 1, 2))
    assert table.life(0).salaries == (Salary("salary_1", True), Salary("salary_2", True))
    assert table.life(0).smiles() == 3


def test_no_change_is_given_but_nothing_surplus_is_turned_over() -> None:
    lives = [person(salaries=["salary_4", "salary_1", "salary_2"]), person()]
    table = given([["trip_cairo", *PETS], TRIPS], lives)
    after_draw(table)
    assert table.refused(0, life("trip_cairo", 1, 4)).rule == "SL-30"  # the 1 is not needed
    assert table.refused(0, life("trip_cairo", 2, 2)).rule == "SL-15"  # only one salary_2
    table.send(0, life("trip_cairo", 4))  # 4 for a price of 3: no change
    assert [s.invested for s in table.life(0).salaries] == [True, False, False]


def test_the_payments_offered_are_exactly_the_minimal_ones() -> None:
    table = given(
        [["house_villa", *PETS], TRIPS],
        [person(salaries=["salary_4", "salary_4", "salary_3", "salary_2"]), person()],
    )
    offered = sorted(tuple(p.salary_levels) for p in payments(table.state, 0, "house_villa"))
    assert offered == [(2, 4, 4), (3, 4, 4)]


def test_invested_salaries_no_longer_pay() -> None:
    lives = [person(salaries=[Salary("salary_4", True), "salary_1"]), person()]
    table = given([["trip_cairo", *PETS], TRIPS], lives)
    after_draw(table)
    assert "level 4" in table.refused(0, life("trip_cairo", 4)).message


def test_a_house_costs_half_when_married() -> None:
    single = person(salaries=["salary_4", "salary_2"])
    married = person(
        salaries=["salary_4", "salary_2"], flirts=["flirt_bar"], marriage="marriage_montcuq"
    )
    table = given([["house_medium_white", *PETS], TRIPS], [single, person()])
    assert (
        after_draw(table)
        .refused(0, life("house_medium_white", 2, 4))
        .message.endswith("costs 8; you pay 6")
    )
    table = given([["house_medium_white", *PETS], TRIPS], [married, person()])
    after_draw(table).send(0, life("house_medium_white", 4))
    assert table.life(0).houses == ("house_medium_white",)


def test_the_inheritance_pays_three_bundles_once() -> None:
    lives = [
        person(specials=["special_inheritance"], inheritance=3, salaries=["salary_1"]),
        person(),
    ]
    table = given([["trip_cairo", "house_small_green", *PETS[:3]], TRIPS], lives)
    after_draw(table)
    assert table.refused(0, life("trip_cairo", 1, inheritance=True)).rule == "SL-30"  # surplus
    table.send(0, life("trip_cairo", inheritance=True))
    assert table.life(0).inheritance == 0 and table.life(0).salaries == (Salary("salary_1"),)
    assert all(not p.inheritance for p in payments(table.state, 0, "house_small_green"))


def test_the_inheritance_card_itself_is_worth_three_and_scores_nothing() -> None:
    table = given([["special_inheritance", *PETS], TRIPS])
    after_draw(table).send(0, life("special_inheritance"))
    assert table.life(0).inheritance == 3 and table.life(0).smiles() == 0


@pytest.mark.parametrize(
    ("specials", "smiles"),
    [((), 3), (("special_rainbow",), 3), (("special_rainbow", "special_shooting_star"), 6)],
)
def test_the_unicorn_doubles_beside_a_rainbow_and_a_shooting_star(
    specials: tuple[str, ...], smiles: int
) -> None:
    assert person(pets=["pet_unicorn"], specials=list(specials)).smiles() == smiles


def test_the_legion_of_honour_is_refused_to_bandits_past_and_present_and_to_terrorists() -> None:
    for marks in ({"job": "bandit", "was_bandit": True}, {"was_bandit": True}, {"attacker": True}):
        table = given([["legion_of_honour", *PETS], TRIPS], [person(**marks), person()])
        assert after_draw(table).refused(0, life("legion_of_honour")).rule == "SL-17"
    table = given([["bandit", *PETS], TRIPS], [person(distinctions=["legion_of_honour"]), person()])
    after_draw(table).send(0, life("bandit"))  # a bandit after the legion: it stays
    assert table.life(0).distinctions == ("legion_of_honour",) and table.life(0).smiles() == 5


def test_free_houses_and_trips_start_on_a_later_turn_than_the_job() -> None:
    table = given(
        [["special_rainbow", "airline_pilot", "trip_cairo", "salary_4", "pet_cat"], TRIPS],
        [person(studies=["study_double"] * 3), person()],
    )
    after_draw(table).send(0, life("special_rainbow"))
    table.send(0, life("airline_pilot"))
    table.send(0, life("salary_4"))
    assert table.refused(0, life("trip_cairo", free=True)).rule == "SL-15"
    table.send(0, life("trip_cairo", 4))
    assert table.life(0).trips == ("trip_cairo",)
