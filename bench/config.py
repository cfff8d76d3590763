"""How much each measurement does: the full run, and a quick smoke run.

The full run answers the issue's table on this kind of machine (2 cores) in
about 10-15 minutes; ``--quick`` runs every row at a small scale in a
minute or two, to show the benchmark itself works (its figures mean little).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bench.servers import Servers


@dataclass(frozen=True)
class Scale:
    check_calls: int  # health Check calls for a baseline p50
    raw_saves: int  # raw eventsourcing saves for the baseline p50
    submit_commands: int  # SubmitCommand calls for the command p50
    long_game_events: int  # the long game is played up to this version
    old_version_reads: int  # GetView(version=half) calls after the restart
    spectators: int  # watchers of one game for the delivery row
    spectator_commands: int  # commands whose delivery is timed
    writer_spectators: int  # watchers while the writer's p50 is compared
    writer_commands: int  # commands per writer p50 (with and without watchers)
    memory_games: int  # games created and played for the memory-per-game row
    memory_commands: int  # commands played in each of them
    many_games: int  # games created and touched for the RSS and ListGames rows
    fill_seconds: float  # ... unless creating them takes longer than this
    list_calls: int  # ListGames calls for the page p50
    scale_seconds: float  # load per server count in the scale-out table
    failover_seconds: float  # load in the failover run (a server dies halfway)
    load_workers: int  # load processes for the concurrent loads
    games_per_worker: int  # concurrent games per load process
    store_writers: tuple[int, ...]  # processes appending at once, the store alone
    store_seconds: float  # ... for this long per layout and count
    store_rounds: int  # ... this many times each, interleaved
    relay_spectators: int  # watchers of one game through relays (and bare NATS)
    relay_crowd: int  # watchers over 4 relays in the last relay row (0: not tried)


FULL = Scale(
    check_calls=2000,
    raw_saves=2000,
    submit_commands=1500,
    long_game_events=1000,
    old_version_reads=20,
    spectators=1000,
    spectator_commands=100,
    writer_spectators=100,
    writer_commands=200,
    memory_games=300,
    memory_commands=10,
    many_games=100_000,
    fill_seconds=150.0,
    list_calls=20,
    scale_seconds=15.0,
    failover_seconds=20.0,
    load_workers=2,
    games_per_worker=6,
    store_writers=(1, 2, 4),
    store_seconds=2.0,
    store_rounds=5,
    relay_spectators=1000,
    relay_crowd=10_000,
)

# The quick run (CI's: tests/bench/test_bench_quick.py) shows every row is
# measured and printed, not what it measures: each row at the least work that
# still measures it (a p50 and a p99 of a few calls). It crosses every
# per-client share a server gives one address by default (100 watcher
# streams), so a share the benchmark does not lift (bench/servers.py,
# LIFTED_SHARES) fails it there too: the spectator counts stay above 100.
QUICK = Scale(
    check_calls=100,
    raw_saves=100,
    submit_commands=40,
    long_game_events=60,
    old_version_reads=3,
    spectators=120,
    spectator_commands=3,
    writer_spectators=20,
    writer_commands=10,
    memory_games=10,
    memory_commands=5,
    many_games=200,
    fill_seconds=120.0,
    list_calls=3,
    scale_seconds=2.0,
    failover_seconds=4.0,
    load_workers=2,
    games_per_worker=2,
    store_writers=(1, 2),
    store_seconds=1.0,
    store_rounds=1,
    relay_spectators=120,
    relay_crowd=0,
)


def scaled(base: Scale, **overrides: int | None) -> Scale:
    """``base`` with the overrides that were given (None: keep)."""
    given: dict[str, Any] = {k: v for k, v in overrides.items() if v is not None}
    return replace(base, **given)


@dataclass
class Run:
    """What every measurement of one backend gets: the backend ("sqlite" or
    "postgres"), the scale, and the servers it may start."""

    backend: str
    scale: Scale
    servers: Servers

    @property
    def title(self) -> str:
        return "PostgreSQL" if self.backend == "postgres" else "SQLite"
