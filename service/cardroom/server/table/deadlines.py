"""Turn-clock deadlines as the events give them (docs/rules/table.md,
T-CLOCK): when each awaited seat's time runs out, and the check that refuses
an expiry sent too early. Pure functions of a loaded game; the timer loop
that fires them is :mod:`cardroom.server.table.clocks`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from cardroom.domain import table as tables
from cardroom.domain.kernel import RuleViolation
from cardroom.server.storage.cache import LoadedGame
from cardroom.v1 import table_pb2 as tpb


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
    latest = loaded.recorded_at(version - 1)
    return Alarm(latest + timedelta(seconds=table.seconds_per_decision), version, tuple(seats))


def absent_alarm_of(loaded: LoadedGame) -> Alarm | None:
    """When the game may end as abandoned (T-ABSENT): the recording time of
    its latest event plus its seconds, or None (no such option, or the game
    is over). An open game then ends (NeverStarted); a running one if its
    seats still playing are all absent (SeatsAbsent)."""
    version, table = loaded.head
    if not table.end_when_absent_seconds or table.finished:
        return None
    latest = loaded.recorded_at(version - 1)
    return Alarm(latest + timedelta(seconds=table.end_when_absent_seconds), version, ())


def check_absent_time(
    loaded: LoadedGame, command: tpb.SeatsAbsent | tpb.NeverStarted, now: datetime
) -> None:
    """Refuse SeatsAbsent or NeverStarted before the game has recorded
    nothing for its seconds (T-ABSENT)."""
    alarm = absent_alarm_of(loaded)
    if alarm is not None and alarm.version == command.version and now < alarm.deadline:
        raise RuleViolation(
            "T-ABSENT",
            f"the game recorded an event less than its seconds ago; wait until "
            f"{alarm.deadline.isoformat()}",
        )


def check_deadline(loaded: LoadedGame, command: tpb.ClockExpired, now: datetime) -> None:
    """Refuse an expiry whose deadline has not passed (T-CLOCK)."""
    alarm = alarm_of(loaded)
    if alarm is not None and alarm.version == command.version and now < alarm.deadline:
        raise RuleViolation(
            "T-CLOCK",
            f"seat {command.seat} has until {alarm.deadline.isoformat()} to decide",
        )
