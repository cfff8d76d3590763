"""The 200 cards, read once from ``cards.yaml`` (a byte copy of the shared
per-card data, SL-01), so every number the rules use has one source.

A card is named by its type id (``"designer"``, ``"salary_3"``): copies of
one type are interchangeable. Nothing here knows about turns or seats.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml

DATA_FILE = "cards.yaml"

# Families (the YAML's ``family`` values).
STUDY = "study"
JOB = "job"
SALARY = "salary"
FLIRT = "flirt"
MARRIAGE = "marriage"
ADULTERY = "adultery"
CHILD = "child"
PET = "pet"
TRIP = "trip"
HOUSE = "house"
DISTINCTION = "distinction"
MALUS = "malus"
SPECIAL = "special"
ACQUISITIONS = frozenset({TRIP, HOUSE})  # paid with salaries (SL-15)

# Job statuses.
TEMP = "temp"
CIVIL_SERVANT = "civil_servant"

# Card types the rules name.
ARCHITECT = "architect"
ASTRONAUT = "astronaut"
LAWYER = "lawyer"
BANDIT = "bandit"
BARMAN = "barman"
PURCHASING_MANAGER = "purchasing_manager"
SALES_MANAGER = "sales_manager"
RESEARCHER = "researcher"
SURGEON = "surgeon"
DOCTOR = "doctor"
MECHANIC = "mechanic"
GURU = "guru"
GRAND_PROF = "grand_prof"
JOURNALIST = "journalist"
MEDIUM = "medium"
SOLDIER = "soldier"
PHARMACIST = "pharmacist"
AIRLINE_PILOT = "airline_pilot"
POLICE_OFFICER = "police_officer"

MANAGERS = frozenset({PURCHASING_MANAGER, SALES_MANAGER})
CONTINUED_STUDIES = frozenset({DOCTOR, SURGEON})  # SL-13
NEVER_ILL = frozenset({PHARMACIST, DOCTOR, SURGEON})
POLICED = frozenset({BANDIT, GURU})  # SL-14

ACCIDENT = "malus_accident"
BURN_OUT = "malus_burn_out"
DIVORCE = "malus_divorce"
INCOME_TAX = "malus_income_tax"
DISMISSAL = "malus_dismissal"
ILLNESS = "malus_illness"
REPEATED_YEAR = "malus_repeated_year"
PRISON = "malus_prison"
TERRORIST_ATTACK = "malus_terrorist_attack"

BIRTHDAY = "special_birthday"
RAINBOW = "special_rainbow"
CASINO = "special_casino"
LUCK = "special_luck"
SHOOTING_STAR = "special_shooting_star"
INHERITANCE = "special_inheritance"
PISTON = "special_piston"
BARTER = "special_barter"
TSUNAMI = "special_tsunami"
REVENGE = "special_revenge"

UNICORN = "pet_unicorn"
EXCELLENCE_PRIZE = "excellence_prize"
LEGION_OF_HONOUR = "legion_of_honour"

HAND_SIZE = 5
RESEARCHER_HAND_SIZE = 6
STUDY_CAP = 6  # study cards, not levels (SL-13)
FLIRT_CAP = 5  # SL-12
MEDIUM_LOOK = 13  # SL-19
LUCK_LOOK = 3  # SL-16
RIVER_SIZE = 3  # SL-20
MISSED_TURNS = {ACCIDENT: 1, BURN_OUT: 1, ILLNESS: 1, PRISON: 3}  # SL-07


@dataclass(frozen=True, slots=True)
class CardType:
    """One card type as printed (the YAML's fields the rules use)."""

    id: str
    family: str
    name: str
    count: int
    smiles: int
    levels: int = 0  # study: levels it validates
    studies_required: int | None = None  # job: None for the grand prof
    salary_max: int = 0  # job: bundles
    printed_salary_max: int | None = None  # the grand prof's card (SL-01)
    status: str = "none"  # job: none, temp, civil_servant
    is_teacher: bool = False
    excellence_prize_eligible: bool = False
    level: int = 0  # salary
    value: int = 0  # salary and inheritance: bundles when paying
    location: str = ""  # flirt
    allows_child: bool = False  # flirt
    price: int = 0  # pet, trip, house
    price_if_married: int | None = None  # house
    eligible_jobs: tuple[str, ...] = ()  # excellence prize

    @property
    def is_temp(self) -> bool:
        return self.status == TEMP

    @property
    def is_civil_servant(self) -> bool:
        return self.status == CIVIL_SERVANT


@dataclass(frozen=True)
class CardData:
    """Everything the data file says: the types in file order, the summary."""

    types: tuple[CardType, ...]
    total_cards: int
    by_family: dict[str, int]

    @property
    def by_id(self) -> dict[str, CardType]:
        return {t.id: t for t in self.types}


def data_text() -> str:
    """The data file exactly as shipped with the package."""
    return resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8")


def _card_type(raw: dict[str, Any]) -> CardType:
    return CardType(
        id=raw["id"],
        family=raw["family"],
        name=raw["name"],
        count=int(raw["count"]),
        smiles=int(raw["smiles"]),
        levels=int(raw.get("levels", 0)),
        studies_required=raw.get("studies_required"),
        salary_max=int(raw.get("salary_max", 0)),
        printed_salary_max=raw.get("printed_salary_max"),
        status=raw.get("status", "none"),
        is_teacher=bool(raw.get("is_teacher", False)),
        excellence_prize_eligible=bool(raw.get("excellence_prize_eligible", False)),
        level=int(raw.get("level", 0)),
        value=int(raw.get("value", 0)),
        location=raw.get("location", ""),
        allows_child=bool(raw.get("allows_child", False)),
        price=int(raw.get("price", 0)),
        price_if_married=raw.get("price_if_married"),
        eligible_jobs=tuple(raw.get("eligible_jobs", ())),
    )


@cache
def card_data() -> CardData:
    raw = yaml.load(data_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    summary = raw["summary"]
    return CardData(
        types=tuple(_card_type(card) for card in raw["cards"]),
        total_cards=int(summary["total_cards"]),
        by_family={k: int(v) for k, v in summary["by_family"].items()},
    )


CARDS: dict[str, CardType] = card_data().by_id
# The 200 cards, file order, each type repeated ``count`` times.
DECK: tuple[str, ...] = tuple(t.id for t in card_data().types for _ in range(t.count))
DECK_COUNTS: Counter[str] = Counter(DECK)
SALARY_OF_LEVEL: dict[int, str] = {t.level: t.id for t in card_data().types if t.family == SALARY}


def card(card_id: str) -> CardType:
    return CARDS[card_id]


def family(card_id: str) -> str:
    return CARDS[card_id].family


def smiles(card_id: str) -> int:
    return CARDS[card_id].smiles


def is_card(card_id: str) -> bool:
    return card_id in CARDS
