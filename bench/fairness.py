"""Fairness where a seat is not there (issue 19, DECISIONS G-02, G-03):
``python -m bench.fairness [--games 300] [--quick]``.

For each game at 3 and 4 seats, three runs of games between the game's
heuristic bots (every seat choosing from its own redacted fold, as through
the API), each game with a reference seat R drawn at random:

* **baseline**: nobody leaves;
* **departed**: R resigns at a random point of the first half of the game
  (a decision drawn uniformly below half the baseline's median length);
* **timed out**: R lets its clock run out at every decision it is awaited
  for (the table's ClockExpired, so its default choice is played).

Printed per game and seat count: the win share of each position relative to
R (R+1, R+2, ...: clockwise), among the games R did not win, with 95% Wilson
intervals, for the three runs side by side; shared wins count as fractions.
A departure or a timeout must create no beneficiary: no position's share may
move outside the baseline's interval (flagged ``<<`` when it does). The
reference seat's own share is printed too (a timed-out seat plays badly; a
departed seat never wins), and a chi-square test of whether the wins are
spread evenly over R+1, R+2, ... (the baseline need not be even: R's own
play, its bot's choice of targets for one, favours some neighbours, and
that goes when R leaves, so a share can move outside the baseline's
interval towards an even spread; a small p in the departed or timed-out run
is what shows a beneficiary).

The games run in worker processes through the table decider the server runs
(``cardroom.domain.table``), with every chance outcome, the dealer's picks
included, drawn as the server draws them (``cardroom.trust.chance``), but no
server: the fairness of defaults is a property of the rules, and 7,200 games
through gRPC would take hours on a shared machine. Same-run comparison: each
row's baseline is measured in the same run, with the same seeds.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from google.protobuf.message import Message

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import CLOCK, DEALER, GUEST, OPERATOR, Actor, Viewer
from cardroom.domain.presentation import RANDOM, strategy
from cardroom.trust.drbg import ChanceRandom
from cardroom.v1 import table_pb2 as tpb

RUNS = ("baseline", "departed", "timed out")
SEATS = (3, 4)
MAX_COMMANDS = 20_000
Z = 1.96  # 95%


# ------------------------------------------------------------------ a game


@dataclass
class Outcome:
    winners: tuple[int, ...]
    reference: int
    seats: int
    commands: int
    departed: bool = False  # the reference seat did leave before the end


class Game:
    """One game in memory: the full table, each seat's fold, the dealer
    drawing from a seed as the service does."""

    def __init__(self, kind: str, seats: int, seed: int, clock: bool) -> None:
        game = registry.game(kind)
        created = tables.create(game, game.options_type(), seats, set_deal=False)
        assert isinstance(created.public, tpb.GameCreated)
        if clock:
            created.public.table_options.seconds_per_decision = 30
        self.full = tables.initial(game, created.public)
        self.viewers = [Viewer.of_seat(s) for s in range(seats)]
        self.folds = {v: self.full for v in self.viewers}
        self.seed = seed.to_bytes(32, "big")
        self.game_id = f"fairness-{kind}-{seats}-{seed}"
        self.dealt = 0
        self.commands = 0
        for seat in range(seats):
            self.apply(GUEST, tpb.TakeSeat(player_name=f"P{seat}", token_sha256=bytes(32)))
        self.apply(OPERATOR, tpb.StartGame())

    def apply(self, actor: Actor, command: Message) -> None:
        table = self.full
        batch = tables.decide(table, actor, command)
        while True:
            for e in batch:
                table = tables.evolve(table, e)
                for viewer in self.viewers:
                    self.folds[viewer] = tables.evolve(self.folds[viewer], e.redact(viewer))
            if tables.chance_needed(table) is None:
                break
            rng = ChanceRandom(self.seed, self.game_id, self.dealt)
            self.dealt += 1
            batch = tables.decide(table, DEALER, tables.sample_chance(table, rng))
        self.full = table
        self.commands += 1

    def legal(self, seat: int) -> list[Message]:
        return tables.legal_actions(self.folds[self.viewers[seat]], seat)

    def view(self, seat: int) -> Message:
        viewer = self.viewers[seat]
        return tables.view(self.folds[viewer], viewer)


def play(kind: str, seats: int, seed: int, run: str, leave_before: int) -> Outcome:
    """One game of heuristic bots; ``run`` says what the reference seat does."""
    rng = random.Random(seed)
    bot = strategy(kind) or RANDOM
    reference = rng.randrange(seats)
    leave_at = rng.randrange(max(1, leave_before)) if run == "departed" else -1
    game = Game(kind, seats, seed, clock=run == "timed out")
    rngs = [random.Random(seed * 7 + s) for s in range(seats)]
    departed = False
    while not game.full.finished:
        if game.commands >= MAX_COMMANDS:
            raise RuntimeError(f"{kind} with {seats} seats did not end (seed {seed}, {run})")
        if game.commands == leave_at and not departed:
            game.apply(Actor.of_seat(reference), tpb.Resign())
            departed = True
            continue
        awaited = tables.awaited(game.full)
        seat = rng.choice(awaited)
        if run == "timed out" and seat == reference:
            game.apply(CLOCK, tpb.ClockExpired(seat=seat, version=game.full.version))
            continue
        legal = game.legal(seat)
        game.apply(Actor.of_seat(seat), bot.choose(game.view(seat), legal, seat, rngs[seat]))
    return Outcome(tuple(game.full.winners), reference, seats, game.commands, departed)


# ------------------------------------------------------------- statistics


def wilson(wins: float, n: float) -> tuple[float, float]:
    """The 95% Wilson score interval of a share (fractional wins and games
    allowed: a shared win counts a fraction to each winner)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Shares:
    """Win shares by position relative to the reference seat."""

    seats: int
    games: int = 0
    reference_wins: float = 0.0
    wins: list[float] = field(default_factory=list)  # by offset 1..seats-1

    @classmethod
    def of(cls, seats: int, outcomes: Sequence[Outcome]) -> Shares:
        shares = cls(seats, wins=[0.0] * (seats - 1))
        for o in outcomes:
            shares.games += 1
            for w in o.winners:
                offset = (w - o.reference) % seats
                if offset == 0:
                    shares.reference_wins += 1 / len(o.winners)
                else:
                    shares.wins[offset - 1] += 1 / len(o.winners)
        return shares

    @property
    def others(self) -> float:
        """Games not won by the reference seat (a win it shared counts by
        the share the others got)."""
        return self.games - self.reference_wins

    def share(self, offset: int) -> tuple[float, float, float]:
        n = self.others
        x = self.wins[offset - 1]
        low, high = wilson(x, n)
        return (x / n if n else 0.0), low, high

    def reference_share(self) -> tuple[float, float, float]:
        low, high = wilson(self.reference_wins, self.games)
        return self.reference_wins / max(1, self.games), low, high


def uneven(counts: Sequence[float]) -> float:
    """The p-value of a chi-square test that the wins are spread evenly over
    the positions (1 or 2 degrees of freedom: 3 or 4 seats); small means
    some position wins more than its share."""
    total = sum(counts)
    if total <= 0 or len(counts) < 2:
        return 1.0
    expected = total / len(counts)
    x = sum((c - expected) ** 2 / expected for c in counts)
    freedom = len(counts) - 1
    if freedom == 1:
        return math.erfc(math.sqrt(x / 2))
    if freedom == 2:
        return math.exp(-x / 2)
    raise ValueError("only 3 or 4 seats")


def pct(value: float) -> str:
    return f"{100 * value:4.1f}"


def cell(share: tuple[float, float, float]) -> str:
    value, low, high = share
    return f"{pct(value)}% [{pct(low)}, {pct(high)}]"


# ------------------------------------------------------------------ report


def batch(args: tuple[str, int, str, int, int, int]) -> list[Outcome]:
    kind, seats, run, first, count, leave_before = args
    return [play(kind, seats, first + i, run, leave_before) for i in range(count)]


def chunks(total: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, total, size):
        yield start, min(size, total - start)


def measure(
    pool: ProcessPoolExecutor, kind: str, seats: int, games: int, chunk: int
) -> dict[str, list[Outcome]]:
    base = 1_000_000 * (SEATS.index(seats) + 1)

    def run_all(run: str, leave_before: int) -> list[Outcome]:
        jobs = [
            (kind, seats, run, base + start, count, leave_before)
            for start, count in chunks(games, chunk)
        ]
        return [o for part in pool.map(batch, jobs) for o in part]

    baseline = run_all("baseline", 0)
    half = int(statistics.median(o.commands for o in baseline) // 2)
    return {
        "baseline": baseline,
        "departed": run_all("departed", half),
        "timed out": run_all("timed out", 0),
    }


def report(kind: str, seats: int, outcomes: dict[str, list[Outcome]]) -> tuple[list[str], int]:
    """The table's lines, and how many positions moved outside the baseline."""
    shares = {run: Shares.of(seats, outcomes[run]) for run in RUNS}
    departed = sum(o.departed for o in outcomes["departed"])
    lines = [
        f"### {registry.game(kind).title}, {seats} seats "
        f"({len(outcomes['baseline'])} games a run; R left in {departed} of the departed run)",
        "",
        "| position | baseline | R departed | R timed out |",
        "|---|---|---|---|",
    ]
    outside = 0
    for offset in range(1, seats):
        base = shares["baseline"].share(offset)
        row = [f"R+{offset}", cell(base)]
        for run in RUNS[1:]:
            value = shares[run].share(offset)
            moved = not base[1] <= value[0] <= base[2]
            outside += moved
            row.append(cell(value) + (" <<" if moved else ""))
        lines.append("| " + " | ".join(row) + " |")
    lines.append(
        "| R itself (of all games) | "
        + " | ".join(cell(shares[run].reference_share()) for run in RUNS)
        + " |"
    )
    lines.append(
        "| even over R+1.. (chi-square p) | "
        + " | ".join(f"{uneven(shares[run].wins):.3f}" for run in RUNS)
        + " |"
    )
    lengths = " / ".join(
        f"{statistics.median(o.commands for o in outcomes[run]):.0f}" for run in RUNS
    )
    lines += ["", f"Median commands a game (baseline / departed / timed out): {lengths}.", ""]
    return lines, outside


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.fairness", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=300, help="games per run (default 300)")
    parser.add_argument("--quick", action="store_true", help="3 games a run: a smoke run")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args(argv)
    games = 3 if args.quick else args.games
    kinds = args.game or sorted(registry.games())
    began = time.monotonic()
    print(f"# Fairness when a seat leaves or times out ({games} games a run)\n")
    print(
        "Win share of each position clockwise from the reference seat R, among the games R "
        "did not win, 95% Wilson intervals; `<<`: outside the baseline's interval.\n"
    )
    outside = 0
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for kind in kinds:
            for seats in SEATS:
                game = registry.game(kind)
                if not game.min_seats <= seats <= game.max_seats:
                    continue
                started = time.monotonic()
                lines, moved = report(kind, seats, measure(pool, kind, seats, games, 10))
                outside += moved
                print("\n".join(lines), flush=True)
                print(
                    f"[{kind}, {seats} seats: {time.monotonic() - started:.0f} s]",
                    file=sys.stderr,
                    flush=True,
                )
    print(f"Positions outside the baseline's interval: {outside}.")
    print(f"The run took {time.monotonic() - began:.0f} s.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
