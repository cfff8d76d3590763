"""Turn clocks (docs/rules/table.md, T-CLOCK): the table's clock actor.

A game created with ``TableOptions.seconds_per_decision`` gives each seat it
waits for that many seconds from the recording time of its latest event.
Everything a clock needs is in the events: the deadline is that time plus
the seconds, the awaited seats are the full fold's, the version is the
number of events. Nothing here is stored: after a restart :meth:`Clocks.rearm`
finds the running games and arms them again from their events.

When a deadline passes, :meth:`Clocks.fire_due` submits
``ClockExpired{seat, version}`` as the clock actor through the normal
command path. The table refuses it if the game moved on (another version:
the seat moved just in time, or another server's clock fired first), and the
service refuses it if the deadline has not passed by the recorded times, so
an expiry happens at most once however many servers share the store.

The time comes from an injected ``now`` (the same clock that stamps the
events), so tests move time by hand and never sleep.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from cardroom.domain import table as tables
from cardroom.domain.kernel import CLOCK, Forbidden, MalformedCommand, RuleViolation
from cardroom.server.cache import LoadedGame
from cardroom.server.store import VersionConflict
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb

if TYPE_CHECKING:
    from cardroom.server.games import Games

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Alarm:
    """A game's next deadline: when, at which version, for which seats."""

    deadline: datetime
    version: int
    seats: tuple[int, ...]


def alarm_of(loaded: LoadedGame) -> Alarm | None:
    """The game's turn clock as its events give it, or None (no clock, or
    the game waits for nobody)."""
    version, table = loaded.head
    if not table.seconds_per_decision:
        return None
    seats = tables.awaited(table)
    if not seats:
        return None
    latest = loaded.envelope(version - 1).recorded_at.ToDatetime(tzinfo=UTC)
    return Alarm(latest + timedelta(seconds=table.seconds_per_decision), version, tuple(seats))


def check_deadline(loaded: LoadedGame, command: tpb.ClockExpired, now: datetime) -> None:
    """Refuse an expiry whose deadline has not passed (T-CLOCK)."""
    alarm = alarm_of(loaded)
    if alarm is not None and alarm.version == command.version and now < alarm.deadline:
        raise RuleViolation(
            "T-CLOCK",
            f"seat {command.seat} has until {alarm.deadline.isoformat()} to decide",
        )


class Clocks:
    """The armed turn clocks of the games this server knows."""

    def __init__(self, games: Games, now: Callable[[], datetime]) -> None:
        self.games = games
        self.now = now
        self._alarms: dict[str, Alarm] = {}
        self._lock = threading.Lock()

    def arm(self, loaded: LoadedGame) -> None:
        """The game changed: its alarm from its events now."""
        alarm = alarm_of(loaded)
        with self._lock:
            if alarm is None:
                self._alarms.pop(loaded.game_id, None)
            else:
                self._alarms[loaded.game_id] = alarm

    def alarm(self, game_id: str) -> Alarm | None:
        with self._lock:
            return self._alarms.get(game_id)

    def next_deadline(self) -> datetime | None:
        with self._lock:
            return min((a.deadline for a in self._alarms.values()), default=None)

    def rearm(self) -> int:
        """Arm every running game with a clock again, from its events (after
        a restart); the number of games armed."""
        token = ""
        while True:
            page = self.games.list_games(
                gpb.ListGamesRequest(
                    status=gpb.GAME_STATUS_RUNNING, page_size=1000, page_token=token
                )
            )
            for summary in page.games:
                self.arm(self.games.load(summary.game_id))
            token = page.next_page_token
            if not token:
                break
        with self._lock:
            return len(self._alarms)

    def fire_due(self) -> int:
        """Submit ClockExpired for every deadline passed; the number of
        expiries the table accepted. A refused one (the game moved on, or
        another server fired first) re-arms the game from the store."""
        now = self.now()
        with self._lock:
            due = [(g, a) for g, a in self._alarms.items() if a.deadline <= now]
        fired = 0
        for game_id, alarm in due:
            seat = alarm.seats[0]
            command = tpb.ClockExpired(seat=seat, version=alarm.version)
            try:
                # No command id: the version makes a repeat stale, so a
                # second server's expiry is refused, not answered as a retry.
                self.games.commands.execute(game_id, CLOCK, command, "", None)
                fired += 1
            except (RuleViolation, VersionConflict, Forbidden, MalformedCommand) as error:
                log.info("turn clock of game %s not applied: %s", game_id, error)
                with self._lock:
                    if self._alarms.get(game_id) == alarm:
                        del self._alarms[game_id]
                self.arm(self.games.cache.load(game_id, fresh=True))
        return fired


async def run(
    clocks: Clocks,
    in_thread: Callable[[Callable[[], object]], Awaitable[object]],
    *,
    poll_seconds: float = 1.0,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> None:
    """The server's clock loop: re-arm from the events, then fire each
    deadline once it passes (checking at least every ``poll_seconds``, so
    alarms armed by other calls are seen soon). Runs until cancelled."""
    try:
        await in_thread(clocks.rearm)
    except Exception:
        log.warning("re-arming the turn clocks failed; they re-arm as games move", exc_info=True)
    while True:
        upcoming = clocks.next_deadline()
        wait = poll_seconds
        if upcoming is not None:
            wait = max(0.0, min(poll_seconds, (upcoming - clocks.now()).total_seconds()))
        await sleep(wait)
        upcoming = clocks.next_deadline()
        if upcoming is not None and clocks.now() >= upcoming:
            try:
                await in_thread(clocks.fire_due)
            except Exception:
                log.warning("a turn clock failed to fire; it tries again", exc_info=True)
