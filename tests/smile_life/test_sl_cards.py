"""The card data: the project's copy of the shared per-card YAML is byte
for byte the reviewed file, the deck built from it has exactly the counts of
DECISIONS 3.2, and the values the rulings quote (SL-01) are the ones read."""

from __future__ import annotations

import hashlib
from collections import Counter
from importlib import resources

import pytest

from cardroom.domain.smile_life import cards
from cardroom.domain.smile_life.cards import CARDS, DECK, card, card_data, data_text

# SHA-256 of ../shared/rules/smile-life-cards.yaml as reviewed for SL-01.
SHARED_YAML_SHA256 = "3b20076c1f46f1f37d73b7d6e5b93db2b8db8e703836aef8cd2fbb048889d987"


def test_the_data_file_is_a_byte_copy_of_the_shared_card_data() -> None:
    shipped = resources.files("cardroom.domain.smile_life").joinpath("cards.yaml").read_bytes()
    assert hashlib.sha256(shipped).hexdigest() == SHARED_YAML_SHA256


def test_the_deck_builder_reads_that_file() -> None:
    shipped = (
        resources.files("cardroom.domain.smile_life").joinpath("cards.yaml").read_text("utf-8")
    )
    assert data_text() == shipped
    assert "\n".join(f"- id: {t.id}" for t in card_data().types) in "\n".join(
        line for line in shipped.splitlines() if line.startswith("- id: ")
    )


def test_the_deck_has_the_200_cards_of_decisions_3_2() -> None:
    families = Counter(card(c).family for c in DECK)
    assert len(DECK) == 200 == card_data().total_cards
    assert families == {
        "study": 25,
        "job": 30,
        "salary": 40,
        "flirt": 20,
        "marriage": 7,
        "adultery": 3,
        "child": 10,
        "malus": 37,
        "special": 10,
        "house": 5,
        "trip": 5,
        "pet": 5,
        "distinction": 3,
    }
    assert dict(families) == card_data().by_family  # the file's own summary agrees


def test_each_family_is_made_of_the_cards_decisions_3_2_lists() -> None:
    counts = Counter(DECK)
    assert (counts["study_single"], counts["study_double"]) == (22, 3)
    jobs = [t for t in CARDS.values() if t.family == "job"]
    assert len(jobs) == 30 and all(t.count == 1 for t in jobs)
    assert all(counts[f"salary_{level}"] == 10 for level in range(1, 5))
    flirts = [t for t in CARDS.values() if t.family == "flirt"]
    assert len({t.location for t in flirts}) == 10 and all(t.count == 2 for t in flirts)
    maluses = {t.id: t.count for t in CARDS.values() if t.family == "malus"}
    assert sorted(maluses.values()) == [1, 1, 5, 5, 5, 5, 5, 5, 5]
    assert maluses["malus_prison"] == maluses["malus_terrorist_attack"] == 1
    specials = [t for t in CARDS.values() if t.family == "special"]
    assert len(specials) == 10 and all(t.count == 1 for t in specials)
    assert (counts["excellence_prize"], counts["legion_of_honour"]) == (2, 1)
    assert "pet_unicorn" in counts


# SL-01: each job's study requirement and salary level, as the ruling lists them.
JOBS = {
    "waiter": (0, 1), "barman": (0, 1), "gardener": (1, 1), "plumber": (1, 1),
    "stripper": (0, 1), "pizza_maker": (0, 2), "mechanic": (1, 2), "bandit": (0, 4),
    "guru": (0, 3), "soldier": (0, 1), "police_officer": (1, 1), "maths_teacher": (2, 2),
    "french_teacher": (2, 2), "english_teacher": (2, 2), "history_teacher": (2, 2),
    "designer": (4, 3), "writer": (0, 1), "journalist": (3, 2), "pharmacist": (5, 3),
    "purchasing_manager": (3, 3), "sales_manager": (3, 3), "medium": (0, 1),
    "researcher": (6, 2), "lawyer": (4, 3), "architect": (4, 3), "doctor": (6, 4),
    "surgeon": (6, 4), "airline_pilot": (5, 4), "astronaut": (6, 4),
}  # fmt: skip


@pytest.mark.parametrize("job", sorted(JOBS))
def test_a_jobs_studies_and_salary_are_the_rulings(job: str) -> None:
    assert (card(job).studies_required, card(job).salary_max) == JOBS[job]
    assert card(job).smiles == 2


def test_the_grand_prof_needs_no_studies_and_pays_4_by_the_rulebook_3_as_printed() -> None:
    grand_prof = card("grand_prof")
    assert grand_prof.studies_required is None
    assert (grand_prof.salary_max, grand_prof.printed_salary_max) == (4, 3)
    assert card("grand_prof").is_civil_servant


def test_statuses_and_prize_jobs_are_the_rulings() -> None:
    temps = {t.id for t in CARDS.values() if t.is_temp}
    servants = {t.id for t in CARDS.values() if t.is_civil_servant}
    assert temps == {"gardener", "waiter", "barman", "plumber", "stripper"}
    assert servants == {
        "maths_teacher", "french_teacher", "english_teacher", "history_teacher",
        "grand_prof", "police_officer", "soldier",
    }  # fmt: skip
    assert set(card("excellence_prize").eligible_jobs) == {"writer", "researcher", "journalist"}
    assert {t.id for t in CARDS.values() if t.is_teacher} == servants - {
        "grand_prof",
        "police_officer",
        "soldier",
    }


def test_smiles_prices_and_values_are_the_rulings() -> None:
    uniform = ("house", "pet", "distinction")
    smiles = {t.family: t.smiles for t in CARDS.values() if t.family not in uniform}
    assert smiles == {
        "study": 1, "job": 2, "salary": 1, "flirt": 1, "marriage": 3, "adultery": 1,
        "child": 2, "trip": 1, "malus": 0, "special": 0,
    }  # fmt: skip
    for family in smiles:
        assert len({t.smiles for t in CARDS.values() if t.family == family}) == 1
    assert (card("legion_of_honour").smiles, card("excellence_prize").smiles) == (3, 4)
    assert card("study_double").levels == 2 and card("study_double").smiles == 1
    assert card("pet_unicorn").smiles == 3
    assert all(card(p).smiles == 1 for p in ("pet_cat", "pet_dog", "pet_chick", "pet_rabbit"))
    assert {t.price for t in CARDS.values() if t.family == "trip"} == {3}
    houses = sorted(
        (t.price, t.price_if_married, t.smiles) for t in CARDS.values() if t.family == "house"
    )
    assert houses == [(6, 3, 1), (6, 3, 1), (8, 4, 2), (8, 4, 2), (10, 5, 3)]
    assert {t.id for t in CARDS.values() if t.allows_child} == {"flirt_hotel", "flirt_camping"}
    assert card("special_inheritance").value == 3
    assert [card(f"salary_{n}").level for n in range(1, 5)] == [1, 2, 3, 4]


def test_every_card_the_rules_name_is_in_the_data() -> None:
    named = [
        value
        for name, value in vars(cards).items()
        if name.isupper() and isinstance(value, str) and ("_" in value or value.isalpha())
    ]
    ids = set(CARDS)
    families = {t.family for t in CARDS.values()}
    statuses = {t.status for t in CARDS.values()}
    unknown = [v for v in named if v not in ids | families | statuses | {"cards.yaml"}]
    assert unknown == []
