"""The game inside the table, as the service drives it: found by the
registry, created, seated, started, dealt from a set deal, played to
``GameFinished``, and replayed by every viewer from its own redacted copy."""

from __future__ import annotations

import hashlib
import random

import pytest
from google.protobuf.message import Message

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import AUDITOR, DEALER, Actor, Event, Forbidden, RuleViolation
from cardroom.domain.silver_dagger import GAME
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb
from cardroom.v1 import table_pb2 as tpb

from .scenarios import R2
from .support import key, viewers


def test_the_registry_finds_the_game() -> None:
    assert registry.game("silver-dagger") is GAME


def test_the_table_refuses_five_players_naming_the_games_own_rule() -> None:
    with pytest.raises(RuleViolation) as refused:
        tables.create(GAME, pb.Options(), 5, set_deal=False)
    assert refused.value.rule == "DECISIONS 2.1"
    assert "2 to 4 players, not 5" in refused.value.message


class Driver:
    def __init__(self, seat_count: int, set_deal: list[pb.DealRound]) -> None:
        created = tables.create(GAME, pb.Options(), seat_count, set_deal=bool(set_deal))
        assert isinstance(created.public, tpb.GameCreated)
        self.table = tables.initial(GAME, created.public)
        self.log: list[Event] = [created]
        self.set_deal = list(set_deal)
        self.rng = random.Random(4)
        for seat in range(seat_count):
            digest = hashlib.sha256(f"P{seat}".encode()).digest()
            self.send(
                Actor("guest"), tpb.TakeSeat(seat=seat, player_name=f"P{seat}", token_sha256=digest)
            )
        self.send(Actor.of_seat(0), tpb.StartGame())

    def send(self, actor: Actor, command: Message) -> None:
        for e in tables.decide(self.table, actor, command):
            self.table = tables.evolve(self.table, e)
            self.log.append(e)
        while tables.chance_needed(self.table) is not None:
            state = self.table.game_state
            outcome = self.set_deal.pop(0) if self.set_deal else GAME.sample_chance(state, self.rng)
            self.send(DEALER, outcome)


def test_a_scenario_plays_through_the_table_with_every_command_legal() -> None:
    driver = Driver(R2.seat_count, list(R2.deals))
    for stage in R2.stages:
        for seat, command in stage.steps:
            assert key(command) in {key(a) for a in tables.legal_actions(driver.table, seat)}
            driver.send(Actor.of_seat(seat), command)
    assert driver.table.game_state.round_points == ((7, 27),)


def test_a_whole_game_ends_with_game_finished_and_replays_for_every_viewer() -> None:
    driver = Driver(3, [])
    for _ in range(5000):
        if driver.table.finished:
            break
        seat = next(s for s in range(3) if tables.legal_actions(driver.table, s))
        driver.send(
            Actor.of_seat(seat), driver.rng.choice(tables.legal_actions(driver.table, seat))
        )
    assert driver.table.finished and isinstance(driver.log[-1].public, tpb.GameFinished)
    assert list(driver.log[-1].public.winners) == list(driver.table.game_state.winners)
    for viewer in [*viewers(3), AUDITOR]:
        replayed = tables.replay(GAME, [e.redact(viewer) for e in driver.log])
        assert replayed.finished and replayed.game_state.totals == driver.table.game_state.totals
        view = tables.view(replayed, viewer)
        assert isinstance(view, pb.View) and view.phase == pb.PHASE_OVER


def test_only_the_dealer_deals_and_only_seats_play() -> None:
    driver = Driver(2, [])
    try:
        tables.decide(driver.table, Actor.of_seat(0), pb.DealRound())
    except Forbidden:
        pass
    else:
        raise AssertionError("a seat dealt")
    try:
        tables.decide(driver.table, DEALER, pb.DrawCard())
    except Forbidden:
        pass
    else:
        raise AssertionError("the dealer played")
