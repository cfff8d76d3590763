"""Every game has a guide beside its narrator (goal, rules in short, a
legend of every symbol the narrator draws), exportable as JSON for the web,
and warnings before moves the seat can know are costly."""

from __future__ import annotations

import inspect
import json

import pytest

from cardroom.domain import registry
from cardroom.domain.presentation import Guide, guide, narrator
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as sv
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm

KINDS = sorted(registry.games())
# The symbols the narrators draw cards and seats with (letters aside; the
# Swirls' "@" is checked on its own, since every module has decorators).
SYMBOLS = "★☠◆↑÷♔♕♘☺†♥"


@pytest.mark.parametrize("kind", KINDS)
def test_every_game_has_a_guide_that_exports_as_json(kind: str) -> None:
    found = guide(kind)
    assert isinstance(found, Guide)
    assert found.title == registry.game(kind).title
    assert found.goal and found.rules and found.symbols
    exported = json.loads(json.dumps(found.as_dict()))
    assert exported["goal"] == found.goal
    assert exported["symbols"][0] == {"symbol": found.symbols[0][0], "meaning": found.symbols[0][1]}


@pytest.mark.parametrize("kind", KINDS)
def test_the_legend_explains_every_symbol_the_narrator_draws(kind: str) -> None:
    source = inspect.getsource(inspect.getmodule(type(narrator(kind))))  # type: ignore[arg-type]
    drawn = {c for c in SYMBOLS if c in source} | ({"[??]"} if "[??]" in source else set())
    legend = " ".join(symbol for symbol, _ in guide(kind).symbols)  # type: ignore[union-attr]
    assert drawn, "the narrator draws some symbol"
    assert {s for s in drawn if s not in legend} == set()


def test_the_swirls_are_explained() -> None:
    legend = dict(guide("smoke-and-mirrors").symbols)  # type: ignore[union-attr]
    assert "Swirl" in legend["[@3]"]


def test_the_goals_say_what_wins() -> None:
    assert "9 coins" in guide("smiles-and-daggers").goal  # type: ignore[union-attr]
    assert "fewest points" in guide("silver-dagger").goal  # type: ignore[union-attr]
    assert "most smiles" in guide("smile-life").goal  # type: ignore[union-attr]
    assert "4 rounds" in guide("smoke-and-mirrors").goal  # type: ignore[union-attr]


def test_a_kind_without_a_guide_has_none() -> None:
    assert guide("chess") is None


NAMES = ("Ada", "Bo", "Cy")


def test_a_challenge_of_an_act_already_shown_true_is_warned_of() -> None:
    caution = guide("smoke-and-mirrors").caution  # type: ignore[union-attr]
    view = sm.View(round=1, phase=sm.PHASE_TURN, turn_seat=2, next_claim=5, last_actor=0)
    dealt = sm.RoundDealt(round=1, seats=[0, 1, 2])
    shown_true = sm.ActChallenged(challenger=1, actor=0, claim=4, act_was_true=True, eliminated=1)
    said = caution(sm.Challenge(), view, NAMES, 2, [dealt, shown_true])
    assert "already shown true" in said and "Bo" in said
    # Not when the act was a bluff, not in an earlier round, not for an act.
    bluff = sm.ActChallenged(challenger=1, actor=0, claim=4, act_was_true=False, eliminated=0)
    assert caution(sm.Challenge(), view, NAMES, 2, [dealt, bluff]) == ""
    assert caution(sm.Challenge(), view, NAMES, 2, [shown_true, dealt]) == ""
    assert caution(sm.PerformAct(), view, NAMES, 2, [dealt, shown_true]) == ""
    # Nor for a newer act of the same seat (another claim).
    newer = sm.View(round=1, phase=sm.PHASE_TURN, turn_seat=2, next_claim=6, last_actor=0)
    assert caution(sm.Challenge(), newer, NAMES, 2, [dealt, shown_true]) == ""


def village(*cards: int) -> list[sv.CardView]:
    return [sv.CardView(card=c) for c in cards]


def test_a_call_above_a_village_the_seat_knows_is_warned_of() -> None:
    caution = guide("silver-dagger").caution  # type: ignore[union-attr]
    low, high = sv.CARD_SPY, sv.CARD_FURRY  # 1 and 13 werewolves
    seats = [
        sv.SeatView(seat=0, village=village(high, high, low, low)),  # known 28
        sv.SeatView(seat=1, village=village(low, low, low)),  # known to seat 0: 3
        sv.SeatView(seat=2, village=village(0, 0, 0)),  # unknown
    ]
    view = sv.View(phase=sv.PHASE_TURN, current_seat=0, seats=seats)
    said = caution(sv.CallVote(), view, NAMES, 0, [])
    assert "+10" in said and "Bo's village" in said and "3" in said
    assert caution(sv.DrawCard(), view, NAMES, 0, []) == ""
    # A low village of one's own, every card known, lower than all one knows: no warning.
    seats[0] = sv.SeatView(seat=0, village=village(low, low))
    calm = sv.View(phase=sv.PHASE_TURN, current_seat=0, seats=seats)
    assert caution(sv.CallVote(), calm, NAMES, 0, []) == ""
    # Cards of one's own unknown: the call is a guess.
    blind = sv.View(
        phase=sv.PHASE_TURN,
        current_seat=0,
        seats=[sv.SeatView(seat=0, village=village(low, 0)), *seats[1:]],
    )
    assert "do not know 1 of your cards" in caution(sv.CallVote(), blind, NAMES, 0, [])


@pytest.mark.parametrize("kind", KINDS)
def test_the_legend_explains_what_the_table_draws_beside_the_game(kind: str) -> None:
    """The terminal draws ▶ (whose move) and ⏱ 0:42 (a turn clock) on every
    game's seats; the web shows the same legend."""
    legend = " ".join(symbol for symbol, _ in guide(kind).symbols)  # type: ignore[union-attr]
    assert "▶" in legend and "⏱" in legend


def test_smoke_and_mirrors_says_you_pick_your_act_back_up() -> None:
    rules = " ".join(guide("smoke-and-mirrors").rules)  # type: ignore[union-attr]
    assert "pick them back up" in rules


def test_silver_dagger_says_what_every_ability_does() -> None:
    from cardroom.domain.silver_dagger.narrate import ABILITIES, NAMES
    from cardroom.domain.silver_dagger.narrate import NARRATOR as told

    rules = " ".join(guide("silver-dagger").rules)  # type: ignore[union-attr]
    for card in (*ABILITIES, sv.CARD_SPY, sv.CARD_SENTINEL, sv.CARD_ZOMBIE):
        assert NAMES[card] in rules, NAMES[card]
    # And the move that uses one says what it does.
    view = sv.View(phase=sv.PHASE_HOLDING, held=sv.CARD_FLIPPER, current_seat=0)
    label = told.action(sv.UseAbility(), view, NAMES_AT_TABLE)
    assert label.endswith(f"use its ability: {ABILITIES[sv.CARD_FLIPPER]}")


NAMES_AT_TABLE = ("Ada", "Bo")


def test_smile_life_tells_a_double_card_from_two_single_ones() -> None:
    from cardroom.domain.smile_life.narrate import draw_all

    double, two = draw_all(["study_double"]), draw_all(["study_single", "study_single"])
    assert double != two and "x2" not in double
    legend = dict(guide("smile-life").symbols)  # type: ignore[union-attr]
    assert double in legend


def test_a_seat_opening_its_share_of_the_shuffle_says_why() -> None:
    from cardroom.domain.presentation import table_event
    from cardroom.v1 import table_pb2 as tpb

    (line,) = table_event(tpb.SeatEntropyRevealed(seat=0), ["Ada"]) or []
    assert line.startswith("Ada opens their sealed share of the shuffle")
    assert "nobody" in line and "alone" in line  # what it is for, on the line itself
