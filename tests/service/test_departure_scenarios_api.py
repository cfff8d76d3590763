"""The rulings' tests for seats that leave or time out (G-02, G-03, SD-15,
SD-16, SM-11, SV-28, SL-37: tests/table/departures.py) through the gRPC API,
as clients see them: seats act and resign over gRPC; a timeout is the
server's own turn clock firing once the test has moved the server's clock
past the deadline (nothing sleeps); every check reads a spectator's view and
events, the seats' legal actions and the operator's log. The finished game's
signed record passes the audit."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from cardroom.client import Client
from cardroom.server.api import server as server_module
from cardroom.server.api.server import RunningServer, Settings, start
from cardroom.server.games.application import Games
from cardroom.server.limits import Limits
from cardroom.trust.audit import audit_record
from cardroom.trust.envelopes import actor_of, unpack
from cardroom.v1 import table_pb2 as tpb
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN
from tests.table.departures import SCENARIOS, Act, Leave, PlayOut, Scenario, Seen, TimeOut

SECONDS = 30


class Now:
    """The server's clock, moved by the test."""

    def __init__(self) -> None:
        self.at = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
async def clocked(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[RunningServer, Client, Now]]:
    """A real server on a free port whose clock the test moves; its clock
    loop is stopped, so the test fires the clocks itself."""
    now = Now()
    monkeypatch.setattr(server_module, "Games", functools.partial(Games, clock=now))
    running = await start(
        Settings(
            address="127.0.0.1:0",
            database=database,
            operator_token=OPERATOR_TOKEN,
            # The rulings' scenarios time a seat out again and again: T-TIMEOUTS
            # (a seat leaves after N in a row) is off here, as in the pure rules.
            limits=Limits(resign_after_timeouts=0),
        )
    )
    assert running.clocks is not None
    running.clocks.cancel()
    client = Client.connect(f"127.0.0.1:{running.port}")
    try:
        yield running, client, now
    finally:
        await client.close()
        await running.stop(grace=None)


class ServedScenario:
    def __init__(self, running: RunningServer, client: Client, now: Now) -> None:
        self.running, self.client, self.now = running, client, now

    async def setup(self, scenario: Scenario) -> None:
        self.game_id = await self.client.create_game(
            scenario.kind,
            seat_count=scenario.seats,
            options=scenario.options,
            set_deal=list(scenario.chance),
            operator_token=OPERATOR_TOKEN,
            table_options=tpb.TableOptions(seconds_per_decision=SECONDS),
        )
        seats = [await self.client.join(self.game_id, f"P{s}", s) for s in range(scenario.seats)]
        self.tokens = [seat.token for seat in seats]
        await self.client.start(self.game_id, self.tokens[0])

    async def legal(self) -> dict[int, list]:
        return {
            s: await self.client.legal_actions(self.game_id, t) for s, t in enumerate(self.tokens)
        }

    async def time_out(self, seat: int | None) -> None:
        if seat is None:
            [seat] = [s for s, legal in (await self.legal()).items() if legal]
        before = await self.client.view(self.game_id)
        # The clock fires for the lowest seat awaited first (cardroom.server.table.clocks).
        assert before.table.clocks[0].seat == seat
        self.now.at += timedelta(seconds=SECONDS)
        assert self.running.games.clocks.fire_due() == 1

    async def play_out(self) -> None:
        for _ in steps(5000, "the game"):
            if (await self.client.view(self.game_id)).table.finished:
                return
            legal = await self.legal()
            seat = next(s for s in sorted(legal) if legal[s])
            await self.client.act(self.game_id, self.tokens[seat], legal[seat][0])

    async def seen(self) -> Seen:
        view = await self.client.view(self.game_id)
        log = await self.client.audit(self.game_id, OPERATOR_TOKEN)
        events: list = []
        async for envelope in self.client.watch(self.game_id):  # a spectator's feed
            events.append(unpack(envelope.event))
            if envelope.sequence == view.version:
                break
        return Seen(
            events=events,
            view=view.game,
            finished=view.table.finished,
            winners=tuple(view.table.winners),
            legal=await self.legal(),
            dealer=[
                unpack(e.command.command)
                for e in log
                if e.HasField("command") and actor_of(e.command).kind == "dealer"
            ],
        )


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name.split(":")[0])
async def test_the_rulings_scenarios_play_through_the_api(
    clocked: tuple[RunningServer, Client, Now], scenario: Scenario
) -> None:
    served = ServedScenario(*clocked)
    await served.setup(scenario)
    client = served.client
    for stage in scenario.stages:
        for step in stage.steps:
            if isinstance(step, Act):
                await client.act(served.game_id, served.tokens[step.seat], step.command)
            elif isinstance(step, Leave):
                await client.resign(served.game_id, served.tokens[step.seat])
            elif isinstance(step, TimeOut):
                await served.time_out(step.seat)
            else:
                assert isinstance(step, PlayOut)
                await served.play_out()
        seen = await served.seen()
        for check in stage.checks:
            check(seen)
    if seen.finished:
        record = await client.export_record(served.game_id, OPERATOR_TOKEN)
        report = audit_record(record)
        assert report.ok, report.render()
