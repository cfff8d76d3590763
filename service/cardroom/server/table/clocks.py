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
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime, timedelta

from cardroom.domain.kernel import Forbidden, MalformedCommand, RuleViolation
from cardroom.server.storage.cache import LoadedGame
from cardroom.server.storage.log import VersionConflict
from cardroom.server.table.deadlines import Alarm, absent_alarm_of, alarm_of
from cardroom.v1 import table_pb2 as tpb

log = logging.getLogger(__name__)


class Clocks:
    """The armed turn clocks of the games this server knows. It is given what
    it calls: ``expire`` submits a ``ClockExpired`` as the clock actor through
    the command path, ``reload`` reads a game afresh from the store, and
    ``running`` lists the running games (after a restart)."""

    def __init__(
        self,
        *,
        expire: Callable[[str, tpb.ClockExpired], object],
        reload: Callable[[str], LoadedGame],
        running: Callable[[], Iterable[LoadedGame]],
        now: Callable[[], datetime],
        leave: Callable[[str, tpb.SeatsAbsent | tpb.NeverStarted], object] | None = None,
        all_absent: Callable[[LoadedGame], bool] = lambda loaded: False,
    ) -> None:
        self.expire = expire
        self.reload = reload
        self.running = running
        self.now = now
        # T-ABSENT: at the game's absent deadline ``leave`` submits, as the
        # clock actor, NeverStarted for an open game, or SeatsAbsent for a
        # running one when ``all_absent`` (the server's presence) says every
        # seat still playing is absent.
        self.leave = leave
        self.all_absent = all_absent
        self._alarms: dict[str, Alarm] = {}
        self._absent: dict[str, Alarm] = {}
        self._heard: set[str] = set()  # games other servers wrote, to re-arm
        self._lock = threading.Lock()

    def heard(self, game_id: str) -> None:
        """Another server wrote the game: re-arm it at the next refresh."""
        with self._lock:
            self._heard.add(game_id)

    def pending(self) -> bool:
        with self._lock:
            return bool(self._heard)

    def refresh(self) -> int:
        """Read every game heard of since the last refresh and arm its
        clock from its events; the number of games read."""
        with self._lock:
            heard, self._heard = self._heard, set()
        for game_id in heard:
            try:
                self.arm(self.reload(game_id))
            except Exception:
                log.warning("re-arming the clock of game %s failed", game_id, exc_info=True)
        return len(heard)

    def arm(self, loaded: LoadedGame) -> None:
        """The game changed: its alarms from its events now."""
        alarm = alarm_of(loaded)
        absent = absent_alarm_of(loaded) if self.leave is not None else None
        with self._lock:
            if alarm is None:
                self._alarms.pop(loaded.game_id, None)
            else:
                self._alarms[loaded.game_id] = alarm
            if absent is None:
                self._absent.pop(loaded.game_id, None)
            else:
                self._absent[loaded.game_id] = absent

    def absent_alarm(self, game_id: str) -> Alarm | None:
        with self._lock:
            return self._absent.get(game_id)

    def alarm(self, game_id: str) -> Alarm | None:
        with self._lock:
            return self._alarms.get(game_id)

    def next_deadline(self) -> datetime | None:
        with self._lock:
            alarms = [*self._alarms.values(), *self._absent.values()]
            return min((a.deadline for a in alarms), default=None)

    def rearm(self) -> int:
        """Arm every running game with a clock again, from its events (after
        a restart); the number of games armed."""
        for loaded in self.running():
            self.arm(loaded)
        with self._lock:
            return len(self._alarms.keys() | self._absent.keys())

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
                self.expire(game_id, command)
                fired += 1
            except (RuleViolation, VersionConflict, Forbidden, MalformedCommand) as error:
                log.info("turn clock of game %s not applied: %s", game_id, error)
                with self._lock:
                    if self._alarms.get(game_id) == alarm:
                        del self._alarms[game_id]
                self.arm(self.reload(game_id))
        return fired + self._end_absent(now)

    def _end_absent(self, now: datetime) -> int:
        """T-ABSENT: each game past its absent deadline ends if nobody
        started it (NeverStarted), or if its seats still playing are all
        absent (SeatsAbsent); a running one with a seat present is looked
        at again a quarter of its seconds later."""
        with self._lock:
            due = [(g, a) for g, a in self._absent.items() if a.deadline <= now]
        ended = 0
        for game_id, alarm in due:
            try:
                loaded = self.reload(game_id)
                if loaded.version == alarm.version and not loaded.table.started:
                    assert self.leave is not None
                    self.leave(game_id, tpb.NeverStarted(version=alarm.version))
                    ended += 1
                    continue
                if loaded.version == alarm.version and self.all_absent(loaded):
                    assert self.leave is not None
                    self.leave(game_id, tpb.SeatsAbsent(version=alarm.version))
                    ended += 1
                    continue
            except (RuleViolation, VersionConflict, Forbidden, MalformedCommand) as error:
                log.info("absent seats of game %s not applied: %s", game_id, error)
                self.arm(self.reload(game_id))
                continue
            seconds = max(1, loaded.table.end_when_absent_seconds // 4)
            with self._lock:
                if self._absent.get(game_id) == alarm:
                    self._absent[game_id] = Alarm(
                        now + timedelta(seconds=seconds), alarm.version, ()
                    )
            if loaded.version != alarm.version:
                self.arm(loaded)
        return ended


async def run(
    clocks: Clocks,
    in_thread: Callable[[Callable[[], object]], Awaitable[object]],
    *,
    poll_seconds: float = 1.0,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> None:
    """The server's clock loop: re-arm from the events, then fire each
    deadline once it passes (checking at least every ``poll_seconds``, so
    alarms armed by other calls, and games other servers wrote, are seen
    soon). Runs until cancelled."""
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
        if clocks.pending():
            try:
                await in_thread(clocks.refresh)
            except Exception:
                log.warning("re-arming the turn clocks heard of failed", exc_info=True)
        upcoming = clocks.next_deadline()
        if upcoming is not None and clocks.now() >= upcoming:
            try:
                await in_thread(clocks.fire_due)
            except Exception:
                log.warning("a turn clock failed to fire; it tries again", exc_info=True)
