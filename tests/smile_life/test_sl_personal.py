"""Personal life: flirts, their limit and stealing (SL-12), a child from a
hotel or campsite flirt, marriage, children, adultery, and divorce, both
voluntary (SL-10) and as a malus (SL-11)."""

from __future__ import annotations

from cardroom.smile_life.v1 import smile_life_pb2 as pb

from .support import HOUSES, PETS, TRIPS, after_draw, given, life, malus, person

FIVE = ["flirt_cinema", "flirt_park", "flirt_zoo", "flirt_theatre", "flirt_restaurant"]


def test_five_flirts_is_the_limit_but_a_bartender_flirts_on() -> None:
    table = given([["flirt_bar", *PETS], TRIPS], [person(flirts=FIVE), person()])
    assert after_draw(table).refused(0, life("flirt_bar")).rule == "SL-12"
    table = given([["flirt_bar", *PETS], TRIPS], [person(flirts=FIVE, job="barman"), person()])
    after_draw(table).send(0, life("flirt_bar"))
    assert len(table.life(0).flirts) == 6


def test_a_married_player_no_longer_flirts_unless_in_adultery_where_flirts_are_unlimited() -> None:
    married = person(flirts=FIVE, marriage="marriage_montcuq")
    table = given([["flirt_bar", *PETS], TRIPS], [married, person()])
    assert after_draw(table).refused(0, life("flirt_bar")).rule == "SL-12"
    cheating = person(flirts=FIVE, marriage="marriage_montcuq", adultery="adultery")
    table = given([["flirt_bar", *PETS], TRIPS], [cheating, person()])
    after_draw(table).send(0, life("flirt_bar"))
    assert table.life(0).adultery_flirts == ("flirt_bar",) and len(table.life(0).flirts) == 5


def test_a_flirt_takes_the_last_uncovered_flirt_at_the_same_place() -> None:
    """With two cards per place, at most one other player can match."""
    table = given(
        [["flirt_bar", *PETS], TRIPS, HOUSES],
        [person(), person(flirts=["flirt_zoo"]), person(flirts=["flirt_bar", "flirt_park"])],
    )
    after_draw(table).send(0, life("flirt_bar"))
    assert table.life(2).flirts == ("flirt_bar", "flirt_park")  # covered: not the last
    table = given(
        [["flirt_bar", *PETS], TRIPS, HOUSES],
        [person(), person(flirts=["flirt_zoo", "flirt_bar"]), person(flirts=["flirt_park"])],
    )
    after_draw(table)
    plays = [a for a in table.legal(0) if a.card == "flirt_bar" and a.destination == 1]  # type: ignore[attr-defined]
    assert plays == [life("flirt_bar", steal=1)]
    assert table.refused(0, life("flirt_bar")).rule == "SL-12"
    assert table.refused(0, life("flirt_bar", steal=2)).rule == "SL-12"
    table.send(0, life("flirt_bar", steal=1))
    assert table.life(0).flirts == ("flirt_bar", "flirt_bar") and table.life(1).flirts == (
        "flirt_zoo",
    )
    assert table.events_of(pb.FlirtStolen) == [
        pb.FlirtStolen(seat=0, from_seat=1, card="flirt_bar")
    ]


def test_a_flirt_under_a_marriage_is_covered_and_an_adulterys_last_flirt_is_not() -> None:
    married = person(flirts=["flirt_bar"], marriage="marriage_montcuq")
    table = given([["flirt_bar", *PETS], TRIPS], [person(), married])
    after_draw(table).send(0, life("flirt_bar"))
    assert table.life(1).flirts == ("flirt_bar",) and table.life(0).flirts == ("flirt_bar",)
    cheating = person(
        flirts=["flirt_bar"],
        marriage="marriage_montcuq",
        adultery="adultery",
        adultery_flirts=["flirt_zoo"],
    )
    table = given([["flirt_zoo", *PETS], TRIPS], [person(), cheating])
    after_draw(table).send(0, life("flirt_zoo", steal=1))
    assert table.life(1).adultery_flirts == () and table.life(0).flirts == (
        "flirt_zoo",
        "flirt_zoo",
    )


def test_kept_flirts_of_an_ended_adultery_cannot_be_taken() -> None:
    table = given([["flirt_zoo", *PETS], TRIPS], [person(), person(kept_flirts=["flirt_zoo"])])
    after_draw(table).send(0, life("flirt_zoo"))
    assert table.life(1).kept_flirts == ("flirt_zoo",)


def test_an_unmarried_player_has_one_child_on_a_hotel_or_campsite_flirt() -> None:
    table = given(
        [["child_luke", *PETS], TRIPS], [person(flirts=["flirt_hotel", "flirt_bar"]), person()]
    )
    assert after_draw(table).refused(0, life("child_luke")).rule == "SL-12"
    table = given(
        [["child_luke", *PETS], TRIPS], [person(flirts=["flirt_bar", "flirt_camping"]), person()]
    )
    after_draw(table).send(0, life("child_luke"))
    assert table.life(0).children == ("child_luke",)
    lives = [person(flirts=["flirt_hotel"], children=["child_leia"]), person()]
    table = given([["child_luke", *PETS], TRIPS], lives)
    assert after_draw(table).refused(0, life("child_luke")).rule == "SL-28"


def test_marriage_needs_a_flirt_and_then_children_come_one_by_one() -> None:
    table = given([["marriage_montcuq", *PETS], TRIPS])
    assert after_draw(table).refused(0, life("marriage_montcuq")).rule == "rulebook: marriages"
    lives = [
        person(flirts=["flirt_bar"], marriage="marriage_fourqueux", children=["child_leia"]),
        person(),
    ]
    table = given([["child_luke", "marriage_montcuq", *PETS[:3]], TRIPS], lives)
    after_draw(table)
    assert (
        table.refused(0, life("marriage_montcuq")).message
        == "you cannot have two marriages at once"
    )
    table.send(0, life("child_luke"))
    assert table.life(0).children == ("child_leia", "child_luke")


def test_adultery_needs_a_marriage_and_is_single() -> None:
    table = given([["adultery", *PETS], TRIPS], [person(flirts=["flirt_bar"]), person()])
    assert after_draw(table).refused(0, life("adultery")).rule == "rulebook: adultery"
    table = given(
        [["adultery", *PETS], TRIPS],
        [person(marriage="marriage_montcuq", adultery="adultery"), person()],
    )
    assert after_draw(table).refused(0, life("adultery")).rule == "rulebook: adultery"


def test_stopping_an_adultery_keeps_its_flirts_aside_and_play_goes_on() -> None:
    cheating = person(
        flirts=["flirt_bar"],
        marriage="marriage_montcuq",
        adultery="adultery",
        adultery_flirts=["flirt_zoo"],
    )
    table = given([[*PETS, "salary_1"], TRIPS], [cheating, person()])
    table.send(0, pb.StopAdultery())
    assert table.state.current == 0 and table.life(0).kept_flirts == ("flirt_zoo",)
    assert table.life(0).adultery is None and table.state.discard[-1] == ("adultery", 0)
    assert after_draw(table).refused(0, pb.StopAdultery()).rule == "SL-10"


def test_a_voluntary_divorce_ends_the_turn_and_keeps_children_and_adultery_flirts() -> None:
    cheating = person(
        flirts=["flirt_bar"],
        marriage="marriage_montcuq",
        adultery="adultery",
        adultery_flirts=["flirt_zoo"],
        children=["child_luke"],
    )
    table = given([[*PETS, "salary_1"], TRIPS], [cheating, person()])
    smiles = table.life(0).smiles()
    table.send(0, pb.Divorce())
    mine = table.life(0)
    assert table.state.current == 1 and len(table.state.hands[0]) == 5
    assert mine.marriage is None and mine.adultery is None and mine.children == ("child_luke",)
    assert mine.kept_flirts == ("flirt_zoo",) and mine.flirts == ("flirt_bar",)
    assert table.state.discard == (("adultery", 0), ("marriage_montcuq", 0))  # marriage on top
    assert mine.smiles() == smiles - 4


def test_a_divorce_malus_in_adultery_takes_the_children_too_but_not_the_flirts() -> None:
    cheating = person(
        flirts=["flirt_bar"],
        marriage="marriage_montcuq",
        adultery="adultery",
        children=["child_luke", "child_leia"],
        adultery_flirts=["flirt_zoo"],
    )
    table = given([["malus_divorce", *PETS], TRIPS], [person(), cheating])
    after_draw(table).send(0, malus("malus_divorce", 1))
    victim = table.life(1)
    assert victim.children == () and victim.marriage is None and victim.adultery is None
    assert victim.kept_flirts == ("flirt_zoo",) and victim.maluses == ("malus_divorce",)
    assert [c for c, _ in table.state.discard] == [
        "marriage_montcuq",
        "adultery",
        "child_leia",
        "child_luke",
    ]
    assert {by for _, by in table.state.discard} == {1}


def test_a_plain_divorce_malus_takes_only_the_marriage_and_a_lawyer_is_immune() -> None:
    table = given(
        [["malus_divorce", *PETS], TRIPS],
        [
            person(),
            person(flirts=["flirt_bar"], marriage="marriage_montcuq", children=["child_luke"]),
        ],
    )
    after_draw(table).send(0, malus("malus_divorce", 1))
    assert table.life(1).children == ("child_luke",) and table.life(1).flirts == ("flirt_bar",)
    lawyer = person(job="lawyer", flirts=["flirt_bar"], marriage="marriage_montcuq")
    table = given([["malus_divorce", *PETS], TRIPS], [person(), lawyer])
    assert "lawyer" in after_draw(table).refused(0, malus("malus_divorce", 1)).message
    table = given([[*PETS, "salary_1"], TRIPS], [lawyer, person()])
    table.send(0, pb.Divorce())  # a lawyer may still divorce of their own will
    assert table.life(0).marriage is None


def test_after_a_divorce_flirting_resumes_where_it_stopped() -> None:
    table = given([["flirt_bar", *PETS], TRIPS], [person(flirts=FIVE[:4]), person()])
    after_draw(table).send(0, life("flirt_bar"))
    assert len(table.life(0).flirts) == 5
