"""Professional life: studies (SL-13), jobs and salaries (SL-14), statuses
and resigning (SL-10), every professional advantage, the excellence prize
(SL-17) and losing a job that lifted a limit (SL-22)."""

from __future__ import annotations

import pytest

from cardroom.domain.smile_life.plays import life_problem
from cardroom.domain.smile_life.state import Study
from cardroom.smile_life.v1 import smile_life_pb2 as pb

from .support import (
    HOUSES,
    PETS,
    TRIPS,
    after_draw,
    discard,
    given,
    life,
    malus,
    options,
    person,
    take,
)

STUDY, DOUBLE = "study_single", "study_double"


def test_a_student_may_place_up_to_six_study_cards_whatever_their_levels() -> None:
    table = given([[STUDY, *PETS], TRIPS], [person(studies=[DOUBLE] * 3 + [STUDY] * 2), person()])
    after_draw(table).send(0, life(STUDY))
    assert len(table.life(0).studies) == 6 and table.life(0).study_levels == 9
    table = given([[STUDY, *PETS], TRIPS], [person(studies=[STUDY] * 6), person()])
    assert after_draw(table).refused(0, life(STUDY)).rule == "SL-13"


def test_nobody_studies_with_a_job_but_a_doctor_or_surgeon_studies_on_beyond_six() -> None:
    table = given([[STUDY, *PETS], TRIPS], [person(studies=[STUDY], job="writer"), person()])
    assert after_draw(table).refused(0, life(STUDY)).rule == "SL-13"
    six = [DOUBLE] * 3 + [STUDY] * 3
    for doctor in ("doctor", "surgeon"):
        table = given([[STUDY, *PETS], TRIPS], [person(studies=six, job=doctor), person()])
        after_draw(table).send(0, life(STUDY))
        assert table.life(0).studies[-1] == Study(STUDY, protected=True, counts=True)


def test_a_job_needs_its_study_levels_and_only_one_job_is_held_at_a_time() -> None:
    table = given([["pharmacist", *PETS], TRIPS], [person(studies=[DOUBLE, DOUBLE]), person()])
    error = after_draw(table).refused(0, life("pharmacist"))
    assert error.rule == "SL-14" and "needs 5 study levels; you have 4" in error.message
    table = given(
        [["pharmacist", *PETS], TRIPS], [person(studies=[DOUBLE] * 2 + [STUDY]), person()]
    )
    after_draw(table).send(0, life("pharmacist"))
    assert table.life(0).job == "pharmacist"
    table = given([["waiter", *PETS], TRIPS], [person(job="writer"), person()])
    assert after_draw(table).refused(0, life("waiter")).rule == "SL-14"


@pytest.mark.parametrize(
    ("job", "allowed", "refused"),
    [
        ("writer", "salary_1", "salary_2"),
        ("guru", "salary_3", "salary_4"),
        ("bandit", "salary_4", None),
    ],
)
def test_a_job_pays_salaries_up_to_its_bundles(job: str, allowed: str, refused: str | None) -> None:
    table = given([[allowed, refused or "salary_1", *PETS[:3]], TRIPS], [person(job=job), person()])
    after_draw(table)
    if refused is not None:
        assert table.refused(0, life(refused)).rule == "SL-14"
    table.send(0, life(allowed))
    assert [s.card for s in table.life(0).salaries] == [allowed]


def test_no_salary_without_a_job() -> None:
    table = given([["salary_1", *PETS], TRIPS])
    assert after_draw(table).refused(0, life("salary_1")).message == "a salary needs a job"


def test_the_excellence_prize_raises_the_salaries_of_its_job_to_four() -> None:
    table = given(
        [["excellence_prize", "salary_4", *PETS[:3]], TRIPS], [person(job="journalist"), person()]
    )
    after_draw(table).send(0, life("excellence_prize"))
    assert table.state.salary_max(0) == 4
    table.send(1, pb.DrawCard())
    table.send(1, discard("trip_london"))
    after_draw(table).send(0, life("salary_4"))
    assert table.life(0).prize_active


def test_the_excellence_prize_is_for_writers_researchers_and_journalists_one_per_job() -> None:
    table = given([["excellence_prize", *PETS], TRIPS], [person(job="designer"), person()])
    assert after_draw(table).refused(0, life("excellence_prize")).rule == "SL-17"
    writer = person(job="writer", prize_active=True, prize_jobs=["writer"])
    table = given([["excellence_prize", *PETS], TRIPS], [writer, person()])
    assert after_draw(table).refused(0, life("excellence_prize")).rule == "SL-24"


def test_a_lost_prize_job_turns_the_prize_over_and_the_prize_keeps_its_smiles() -> None:
    table = given(
        [["malus_dismissal", *PETS], TRIPS],
        [
            person(),
            person(job="writer", prize_active=True, prize_jobs=["writer"], salaries=["salary_4"]),
        ],
    )
    before = table.life(1).smiles()
    after_draw(table).send(0, malus("malus_dismissal", 1))
    life1 = table.life(1)
    assert not life1.prize_active and life1.distinctions == ("excellence_prize",)
    assert life1.salaries[0].card == "salary_4"  # SL-22: placed cards stay
    assert life1.smiles() == before - 2  # only the job's 2 smiles are gone


def test_the_grand_prof_is_a_promotion_for_professors_only_and_not_by_piston() -> None:
    table = given([["grand_prof", *PETS], TRIPS], [person(job="writer"), person()])
    assert after_draw(table).refused(0, life("grand_prof")).rule == "SL-14"
    table = given([["special_piston", "grand_prof", *PETS[:3]], TRIPS])
    after_draw(table).send(0, life("special_piston"))
    assert table.legal(0) == [pb.Decline()]  # no job the piston may place


def test_the_grand_prof_salary_cap_is_an_option() -> None:
    lives = [person(job="grand_prof"), person()]
    table = given([["salary_4", *PETS], TRIPS], lives)
    after_draw(table).send(0, life("salary_4"))
    table = given([["salary_4", *PETS], TRIPS], lives, opts=options(grand_prof_salary_max=3))
    assert after_draw(table).refused(0, life("salary_4")).message.endswith("level 1 to 3")


def test_a_temp_resigns_before_or_after_drawing_and_plays_on() -> None:
    for before_drawing in (True, False):
        table = given([[STUDY, *PETS], TRIPS], [person(job="plumber", studies=[STUDY]), person()])
        if not before_drawing:
            after_draw(table)
        table.send(0, pb.Resign())
        assert table.state.current == 0 and table.life(0).job is None
        if before_drawing:
            after_draw(table)
        table.send(0, life(STUDY))
        assert table.state.current == 1 and len(table.state.hands[0]) == 5


def test_any_other_job_is_resigned_instead_of_drawing_and_the_turn_ends() -> None:
    table = given([[*PETS, STUDY], TRIPS], [person(job="lawyer"), person()])
    table.send(0, pb.Resign())
    assert table.state.current == 1 and len(table.state.hands[0]) == 5
    assert table.state.discard[-1] == ("lawyer", 0)
    table = given([[*PETS, STUDY], TRIPS], [person(job="lawyer"), person()])
    assert after_draw(table).refused(0, pb.Resign()).rule == "SL-10"


def test_a_researcher_holds_six_cards_and_leaves_one_under_the_job() -> None:
    table = given(
        [[*PETS, "researcher"], TRIPS],
        [person(studies=[DOUBLE] * 3), person()],
        pile=["pet_unicorn", STUDY],
    )
    after_draw(table).send(0, life("researcher"))
    assert len(table.state.hands[0]) == 6 and "study_single" in table.hand(0)
    assert table.state.hand_size(0) == 6
    for seat, card in ((1, "trip_london"), (0, "pet_dog")):
        after_draw(table).send(seat, discard(card))
    assert len(table.state.hands[0]) == 6
    table.send(1, pb.DrawCard())
    table.send(1, discard("trip_rio"))
    assert table.refused(0, pb.Resign()).rule == "SL-10"
    table.send(0, pb.Resign(discard="pet_unicorn"))
    assert [c for c, _ in table.state.discard[-2:]] == ["pet_unicorn", "researcher"]
    assert len(table.state.hands[0]) == 5 and table.state.current == 1


def test_a_dismissed_researcher_discards_a_card_of_their_choice_under_the_job() -> None:
    hand = ["pet_unicorn", *PETS, STUDY]
    table = given(
        [[*TRIPS, "trip_cairo"], hand, [*HOUSES[:3], "malus_dismissal", "salary_1"]],
        [person(), person(job="researcher"), person()],
        current=2,
    )
    after_draw(table).send(2, malus("malus_dismissal", 1))
    assert table.state.top is not None and table.state.top.seat == 1
    assert table.legal(2) == [] and {a.card for a in table.legal(1)} == set(hand)  # type: ignore[attr-defined]
    table.send(1, pb.DiscardFromHand(card=STUDY))
    assert [c for c, _ in table.state.discard[-2:]] == [STUDY, "researcher"]
    assert len(table.state.hands[1]) == 5 and table.state.current == 0


@pytest.mark.parametrize(
    "job", ["maths_teacher", "grand_prof", "police_officer", "soldier", "bandit"]
)
def test_civil_servants_and_the_bandit_cannot_be_dismissed(job: str) -> None:
    table = given([["malus_dismissal", *PETS], TRIPS], [person(), person(job=job)])
    assert after_draw(table).refused(0, malus("malus_dismissal", 1)).rule == "SL-06"


def test_the_architect_builds_one_house_free_per_tenure() -> None:
    table = given(
        [["house_villa", "house_small_pink", *PETS[:3]], TRIPS], [person(job="architect"), person()]
    )
    after_draw(table).send(0, life("house_villa", free=True))
    assert table.life(0).free_houses_used == 1
    table.send(1, pb.DrawCard())
    table.send(1, discard("trip_london"))
    assert after_draw(table).refused(0, life("house_small_pink", free=True)).rule == "SL-15"


def test_the_architects_free_houses_are_an_option() -> None:
    table = given(
        [["house_villa", *PETS], TRIPS],
        [person(job="architect"), person()],
        opts=options(architect_free_houses=0),
    )
    assert after_draw(table).refused(0, life("house_villa", free=True)).rule == "SL-15"


def test_the_airline_pilot_travels_free() -> None:
    table = given([["trip_cairo", *PETS], TRIPS], [person(job="airline_pilot"), person()])
    after_draw(table)
    assert table.refused(0, life("trip_cairo", 3)).rule == "SL-30"
    table.send(0, life("trip_cairo", free=True))
    assert table.life(0).trips == ("trip_cairo",)


def test_the_astronaut_may_take_a_card_from_the_discard_pile_and_play_it() -> None:
    table = given(
        [["astronaut", *PETS], TRIPS],
        [person(studies=[DOUBLE] * 3), person()],
        discard=[("salary_4", 1), ("pet_unicorn", 0), ("malus_accident", 1)],
    )
    after_draw(table).send(0, life("astronaut"))
    actions = table.legal(0)
    assert pb.Decline() in actions and pb.TakeFromDiscard(card="salary_4") in actions
    assert pb.TakeFromDiscard(card="pet_unicorn") not in actions  # SL-32: its own discard
    table.send(0, pb.TakeFromDiscard(card="salary_4"))
    assert table.legal(0) == [life("salary_4")]  # SL-21: no discarding it
    table.send(0, life("salary_4"))
    assert table.state.current == 1 and [c for c, _ in table.state.discard] == [
        "pet_unicorn",
        "malus_accident",
    ]


def test_the_managers_barter_protecting_a_card() -> None:
    table = given(
        [["purchasing_manager", "pet_unicorn", *PETS[:3]], ["salary_1"] * 5],
        [person(studies=[DOUBLE, STUDY]), person()],
        pile=["pet_rabbit"],
    )
    after_draw(table).send(0, life("purchasing_manager"))
    actions = table.legal(0)
    assert pb.Decline() in actions
    assert pb.ChooseBarterPartner(partner=1, protect="pet_unicorn") in actions
    table.send(0, pb.ChooseBarterPartner(partner=1, protect="pet_unicorn"))
    assert "pet_unicorn" in table.hand(0) and "salary_1" in table.hand(0)
    assert table.state.current == 1


def test_the_journalist_sees_every_hand_and_the_medium_the_next_13_cards() -> None:
    table = given(
        [["journalist", *PETS], ["salary_1"] * 5], [person(studies=[DOUBLE, STUDY]), person()]
    )
    after_draw(table).send(0, life("journalist"))
    assert table.fold(0).hands[1] == ("salary_1",) * 5
    assert table.fold(None).hands[1] == (None,) * 5
    table = given([["medium", *PETS], TRIPS])
    after_draw(table).send(0, life("medium"))
    assert table.fold(0).pile[:13] == table.state.pile[:13] and None not in table.fold(0).pile[:13]
    assert table.fold(0).pile[13] is None and table.fold(1).pile[0] is None


def test_a_police_officer_sends_bandits_and_gurus_away_and_keeps_them_away() -> None:
    table = given(
        [["police_officer", *PETS], TRIPS, HOUSES],
        [person(studies=[STUDY]), person(job="guru"), person(job="bandit", was_bandit=True)],
        pile=[STUDY, "pet_unicorn"],
    )
    after_draw(table).send(0, life("police_officer"))
    assert table.life(1).job is None and table.life(2).job is None and table.life(2).was_bandit
    assert table.state.discard == (("guru", 1), ("bandit", 2))
    assert table.refused(1, take()).rule == "SL-21"  # the bandit cannot come back
    error = life_problem(table.state, 1, life("bandit"))
    assert error is not None and error.rule == "SL-14" and "police officer" in error.message


def test_a_doctor_placed_by_piston_cannot_use_later_studies_for_another_job() -> None:
    table = given(
        [["special_piston", "doctor", STUDY, *PETS[:2]], TRIPS], pile=["pet_unicorn", "salary_1"]
    )
    after_draw(table).send(0, life("special_piston"))
    table.send(0, life("doctor"))
    assert table.life(0).by_piston and len(table.state.hands[0]) == 5  # drawn back to five
    table.send(1, pb.DrawCard())
    table.send(1, discard("trip_london"))
    after_draw(table).send(0, life(STUDY))
    assert table.life(0).studies == (Study(STUDY, protected=True, counts=False),)
    assert table.life(0).study_levels == 0 and table.life(0).smiles() == 3


def test_losing_a_job_that_lifted_a_limit_keeps_the_cards_but_not_the_limit() -> None:
    """SL-22: a doctor's eighth study stays; no ninth without the job."""
    eight = [Study(STUDY)] * 6 + [Study(STUDY, protected=True)] * 2
    table = given(
        [["malus_dismissal", *PETS], TRIPS],
        [person(), person(job="doctor", studies=eight)],
    )
    after_draw(table).send(0, malus("malus_dismissal", 1))
    assert len(table.life(1).studies) == 8
    table2 = given([[STUDY, *PETS], TRIPS], [person(studies=eight), person()])
    assert after_draw(table2).refused(0, life(STUDY)).rule == "SL-13"


def test_a_taken_discard_is_played_to_a_life_or_as_a_malus_never_discarded_again() -> None:
    table = given(
        [[*PETS, "salary_1"], TRIPS], [person(job="writer"), person()], discard=[("salary_1", 1)]
    )
    table.send(0, take())
    assert table.legal(0) == [life("salary_1")]
    assert table.refused(0, discard("salary_1")).rule == "SL-21"
