"""The game inside the table, as the service drives it: found by the
registry, created, seated, started, the start seat from a set deal, the
scenario commands, ``GameFinished``, and every viewer's replay."""

from __future__ import annotations

import hashlib

import pytest

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import AUDITOR, DEALER, Actor, Event, RuleViolation
from cardroom.domain.smiles_and_daggers import GAME
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb
from cardroom.v1 import table_pb2 as tpb

from .scenarios import E1, E2, SCENARIOS, Scenario
from .support import key, viewers


def test_the_registry_finds_the_game() -> None:
    assert registry.game("smiles-and-daggers") is GAME


def test_the_table_refuses_two_players_without_the_variant() -> None:
    with pytest.raises(RuleViolation) as caught:
        tables.create(GAME, pb.Options(), 2, set_deal=False)
    assert caught.value.rule == "SD-12"
    tables.create(GAME, pb.Options(allow_two_players=True), 2, set_deal=False)


def play(scenario: Scenario) -> tuple[tables.Table, list[Event]]:
    created = tables.create(GAME, scenario.options, scenario.seat_count, set_deal=True)
    assert isinstance(created.public, tpb.GameCreated)
    table = tables.initial(GAME, created.public)
    log = [created]

    def send(actor: Actor, command: object) -> None:
        nonlocal table
        for e in tables.decide(table, actor, command):  # type: ignore[arg-type]
            table = tables.evolve(table, e)
            log.append(e)

    for seat, name in enumerate(scenario.players):
        digest = hashlib.sha256(name.encode()).digest()
        send(Actor("guest"), tpb.TakeSeat(seat=seat, player_name=name, token_sha256=digest))
    send(Actor.of_seat(0), tpb.StartGame())
    for outcome in scenario.chance:
        assert tables.chance_needed(table) is type(outcome)
        send(DEALER, outcome)
    assert tables.chance_needed(table) is None
    for seat, command in scenario.steps:
        assert key(command) in {key(a) for a in tables.legal_actions(table, seat)}
        send(Actor.of_seat(seat), command)
    return table, log


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_each_scenario_plays_through_the_table_and_replays_for_every_viewer(
    scenario: Scenario,
) -> None:
    table, log = play(scenario)
    final = scenario.stages[-1].expect
    assert table.game_state.coins == final.coins
    assert table.finished == (final.winners is not None)
    assert table.winners == (final.winners or ())
    for viewer in [*viewers(scenario.seat_count), AUDITOR]:
        replayed = tables.replay(GAME, [e.redact(viewer) for e in log])
        assert replayed.game_state.coins == final.coins
        view = tables.view(replayed, viewer)
        assert isinstance(view, pb.View)
        assert [s.coins for s in view.seats] == list(final.coins)


def test_e2_ends_with_game_finished_naming_luigi() -> None:
    _, log = play(E2)
    assert isinstance(log[-1].public, tpb.GameFinished)
    assert list(log[-1].public.winners) == [0]


def test_e1_leaves_the_game_running_with_giacomo_to_challenge() -> None:
    table, _ = play(E1)
    assert not table.finished
    actions = tables.legal_actions(table, 1)
    assert {type(a) for a in actions} == {pb.ChallengeOpponent}
