"""The game inside the table, as the service drives it: found by the
registry, created, seated, started, dealt from a set deal, played to
``GameFinished``, and replayed by every viewer."""

from __future__ import annotations

import hashlib

import pytest
from google.protobuf.message import Message

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import AUDITOR, DEALER, Actor, Event, RuleViolation
from cardroom.domain.smile_life import GAME
from cardroom.smile_life.v1 import smile_life_pb2 as pb
from cardroom.v1 import table_pb2 as tpb

from .scenarios import CASINO, LAST_CARD, Scenario
from .support import key, viewers


def test_the_registry_finds_the_game() -> None:
    assert registry.game("smile-life") is GAME


def test_the_table_refuses_a_sixth_player_without_the_option() -> None:
    with pytest.raises(RuleViolation) as caught:
        tables.create(GAME, pb.Options(), 6, set_deal=False)
    assert caught.value.rule == "DECISIONS 3.1"
    tables.create(GAME, pb.Options(allow_six_players=True), 6, set_deal=False)


def play(scenario: Scenario) -> tuple[tables.Table, list[Event]]:
    created = tables.create(GAME, scenario.options, scenario.seat_count, set_deal=True)
    assert isinstance(created.public, tpb.GameCreated)
    table = tables.initial(GAME, created.public)
    log = [created]

    def send(actor: Actor, command: Message) -> None:
        nonlocal table
        for e in tables.decide(table, actor, command):
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
    for stage in scenario.stages:
        for seat, command in stage.steps:
            assert key(command) in {key(a) for a in tables.legal_actions(table, seat)}
            send(Actor.of_seat(seat), command)
    return table, log


@pytest.mark.parametrize("scenario", [CASINO, LAST_CARD], ids=lambda s: s.name)
def test_a_finished_game_ends_with_game_finished_and_replays_for_every_viewer(
    scenario: Scenario,
) -> None:
    table, log = play(scenario)
    assert isinstance(log[-1].public, tpb.GameFinished)
    assert table.finished and table.winners == tuple(GAME.winners(table.game_state) or ())
    for viewer in [*viewers(scenario.seat_count), AUDITOR]:
        replayed = tables.replay(GAME, [e.redact(viewer) for e in log])
        assert replayed.finished and replayed.winners == table.winners
        view = tables.view(replayed, viewer)
        assert isinstance(view, pb.View)
        for check in scenario.stages[-1].checks:
            check(view)
