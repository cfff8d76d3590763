"""The search bot against heuristic bots: ``python3 dev.py bench search [--games 500]``
(or ``python -m bench.search``).

For every game: ``--games`` games at 3 seats, one search bot
(``cardroom.domain.search``) and two of the game's heuristic bots, the search
bot one seat further each game. The games are played in memory through the
table decider, as the service plays them: the dealer draws chance, and every
seat decides from its own redacted fold (the search bot from its fold, the
heuristic bots from their views), so the search bot sees exactly what it
would through the API. Each search move gets ``--iterations`` (a fixed
budget, so the result does not depend on how busy the machine is) and, with
``--think-ms``, at most that much CPU time of one core (the process clock is
checked between iterations, so a busy machine slows the bench but not the
bot's thinking).

Printed per game: the search bot's wins, its win rate with a 95% Wilson
interval, the rate over the fair share (1/3; above 1.00x is better than a
heuristic bot), and the median, 90th percentile and longest CPU time per search move
(moves with a single legal choice are not searched and not counted). The
default is a few games per game, enough to see the bot work in a few
minutes; ``--games 500`` is the full measure (hours on one core;
``--jobs N`` plays N games at once, each seeded by its index, so the figures
are the same for any N).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from cardroom.client.bots.simulate import wilson
from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import DEALER, GUEST, Actor, Viewer
from cardroom.domain.presentation import strategy
from cardroom.domain.search import ismcts
from cardroom.domain.search.ismcts import Search, Settings, determinizer, strategy_policies
from cardroom.v1 import table_pb2 as tpb

SEATS = 3
MAX_COMMANDS = 5_000


@dataclass
class Tally:
    kind: str
    budget: int  # iterations a move, at most
    games: int = 0
    wins: float = 0.0  # a shared win counts for every winner, as in simulate
    move_seconds: list[float] = field(default_factory=list)
    iterations: list[int] = field(default_factory=list)

    def add(self, played: Played) -> None:
        self.games += 1
        self.wins += played.won
        self.move_seconds += played.move_seconds
        self.iterations += played.iterations

    def line(self) -> str:
        low, high = wilson(round(self.wins), self.games)
        rate = self.wins / self.games if self.games else 0.0
        times = sorted(self.move_seconds) or [0.0]
        p90 = times[min(len(times) - 1, int(len(times) * 0.9))]
        return (
            f"{self.kind:<20} {self.games:5d} {self.wins:5.0f}  {rate:6.1%}  "
            f"[{low:5.1%}, {high:5.1%}]  {rate * SEATS:4.2f}x  "
            f"{statistics.median(times) * 1000:6.0f} ms  {p90 * 1000:6.0f} ms  "
            f"{times[-1] * 1000:6.0f} ms  "
            f"{statistics.median(self.iterations or [0]):6.0f}  {len(self.move_seconds):6d}  "
            f"{sum(n < self.budget for n in self.iterations):5d}"
        )


HEADER = (
    f"{'game':<20} {'games':>5} {'wins':>5}  {'rate':>6}  95% interval     /fair "
    f"{'median':>9}  {'p90':>9}  {'max':>9}  {'iters':>6}  {'moves':>6}  {'cut':>5}"
)


@dataclass
class Played:
    """One game's result for the search bot."""

    won: bool
    move_seconds: list[float]
    iterations: list[int]


def play(
    kind: str,
    me: int,
    seed: int,
    choose: Callable[[object, int, random.Random], tuple[object, int]],
) -> Played:
    """One game: the search bot in seat ``me``, heuristic bots elsewhere."""
    game = registry.game(kind)
    heuristic = strategy(kind)
    assert heuristic is not None
    rng = random.Random(f"dealer:{seed}")
    rngs = [random.Random(f"{seed}:{s}") for s in range(SEATS)]
    created = tables.create(game, game.options_type(), SEATS, set_deal=False)
    full = tables.initial(game, created.public)  # type: ignore[arg-type]
    folds = {s: full for s in range(SEATS)}
    played = Played(False, [], [])

    def apply(actor: Actor, command: object) -> None:
        nonlocal full
        for e in tables.decide(full, actor, command):  # type: ignore[arg-type]
            full = tables.evolve(full, e)
            for s in range(SEATS):
                folds[s] = tables.evolve(folds[s], e.redact(Viewer.of_seat(s)))

    for s in range(SEATS):
        apply(GUEST, tpb.TakeSeat(player_name=f"p{s}", token_sha256=bytes(32)))
    apply(Actor.of_seat(0), tpb.StartGame())
    for _ in range(MAX_COMMANDS):
        if full.finished:
            break
        if tables.chance_needed(full) is not None:
            apply(DEALER, tables.sample_chance(full, rng))
            continue
        movers = [(s, a) for s in range(SEATS) if (a := tables.legal_actions(folds[s], s))]
        seat, legal = rng.choice(movers)
        if seat == me and len(legal) > 1:
            started = time.process_time()
            choice, iterations = choose(folds[seat].game_state, seat, rngs[seat])
            played.move_seconds.append(time.process_time() - started)
            played.iterations.append(iterations)
        elif seat == me:
            choice = legal[0]
        else:
            view = tables.view(folds[seat], Viewer.of_seat(seat))
            choice = heuristic.choose(view, legal, seat, rngs[seat])
        apply(Actor.of_seat(seat), choice)
    else:
        raise RuntimeError(f"{kind} game {seed} did not end in {MAX_COMMANDS} commands")
    played.won = me in full.winners
    return played


@functools.cache  # one per process and run: workers build theirs once
def searcher(
    kind: str, think_ms: int, settings: Settings
) -> Callable[[object, int, random.Random], tuple[object, int]]:
    game, det, heuristic = registry.game(kind), determinizer(kind), strategy(kind)
    assert det is not None and heuristic is not None
    search = Search(game, det, settings, *strategy_policies(game, heuristic, det))

    def choose(fold: object, seat: int, rng: random.Random) -> tuple[object, int]:
        # One core's worth: this process's CPU time, so a busy machine
        # slows the bench down but gives the bot the same thinking.
        deadline = time.process_time() + think_ms / 1000
        stop = (lambda: time.process_time() >= deadline) if think_ms > 0 else None
        result = search.choose(fold, seat, rng, stop=stop, seats=SEATS)
        return result.move, result.iterations

    return choose


@dataclass(frozen=True)
class Job:
    """What a worker needs to play game ``index`` of a run."""

    kind: str
    think_ms: int
    iterations: int
    rollout_moves: int
    seed: int

    def __call__(self, index: int) -> Played:
        settings = Settings(iterations=self.iterations, rollout_moves=self.rollout_moves)
        choose = searcher(self.kind, self.think_ms, settings)
        return play(self.kind, index % SEATS, self.seed * 100_003 + index, choose)

    def run(self) -> dict[str, object]:
        """What makes two games of a record part of one run: the settings
        and the code that plays them (the search, the game, the table)."""
        return {
            "kind": self.kind,
            "seed": self.seed,
            "iterations": self.iterations,
            "think_ms": self.think_ms,
            "rollout_moves": self.rollout_moves,
            "code": code_digest(self.kind),
        }


@functools.cache
def code_digest(kind: str) -> str:
    """A digest of the sources a game's search runs on: its game package,
    the search and the table. A record of older code is not resumed."""
    det = registry.part(kind, "determinize")
    assert det is not None and det.__file__ is not None
    folders = [Path(det.__file__).parent, Path(ismcts.__file__).parent]
    files = sorted(f for folder in folders for f in folder.glob("*.py"))
    files.append(Path(tables.__file__))
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def recorded(path: Path, job: Job) -> dict[int, Played]:
    """The games of this run already in the record, by index."""
    if not path.exists():
        return {}
    run, found = job.run(), {}
    for line in path.read_text().splitlines():
        row = json.loads(line) if line.strip() else None
        if row and row["run"] == run:
            found[row["index"]] = Played(
                row["won"], [ms / 1000 for ms in row["move_ms"]], row["move_iterations"]
            )
    return found


def record(path: Path, job: Job, index: int, played: Played) -> None:
    """One game, a JSON line appended (the run resumes from what is here)."""
    row = {
        "run": job.run(),
        "index": index,
        "won": played.won,
        "move_ms": [round(t * 1000, 1) for t in played.move_seconds],
        "move_iterations": played.iterations,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as out:
        out.write(json.dumps(row, separators=(",", ":")) + "\n")


def results(job: Job, indices: list[int], jobs: int) -> Iterator[tuple[int, Played]]:
    """These games of the run in order, ``jobs`` at a time in worker processes
    (each game is seeded by its index, so the figures do not depend on ``jobs``)."""
    if jobs <= 1:
        yield from zip(indices, map(job, indices), strict=True)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as workers:
        yield from zip(indices, workers.imap(job, indices), strict=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.search", description=__doc__)
    parser.add_argument("--games", type=int, default=3, help="games per game kind")
    parser.add_argument(
        "--think-ms", type=int, default=0, help="CPU ms a move, at most (0: no clock)"
    )
    parser.add_argument("--iterations", type=int, default=24, help="per move, at most")
    parser.add_argument(
        "--rollout-moves", type=int, default=Settings.rollout_moves, help="then the static score"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="games played at once, each in its own process on its own core (default 1)",
    )
    parser.add_argument(
        "--record",
        type=Path,
        metavar="FOLDER",
        help="append each game to FOLDER/<game>.jsonl, and count the games of the same run "
        "(settings and code) already there instead of playing them again: a long run resumes",
    )
    parser.add_argument("--progress", action="store_true", help="a line per game on stderr")
    args = parser.parse_args(argv)
    kinds = args.game or sorted(k for k in registry.games() if determinizer(k) is not None)
    print(
        f"search bot ({args.think_ms} ms, at most {args.iterations} iterations a move) "
        f"vs 2 heuristic bots, {args.games} games per game, seats rotated\n"
    )
    print(HEADER, flush=True)
    for kind in kinds:
        tally = Tally(kind, args.iterations)
        job = Job(kind, args.think_ms, args.iterations, args.rollout_moves, args.seed)
        path = args.record / f"{kind}.jsonl" if args.record else None
        done = recorded(path, job) if path else {}
        for index in sorted(i for i in done if i < args.games):
            tally.add(done[index])
        if done and args.progress:
            print(f"  recorded before: {tally.line()}", file=sys.stderr, flush=True)
        missing = [i for i in range(args.games) if i not in done]
        for index, played in results(job, missing, args.jobs):
            tally.add(played)
            if path:
                record(path, job, index, played)
            if args.progress:
                print(f"  after game {index + 1}: {tally.line()}", file=sys.stderr, flush=True)
        print(tally.line(), flush=True)
    print(
        "\nmedian/p90/max: CPU time (one core) per searched move; iters: median iterations "
        "a move; cut: moves the --think-ms clock ended early"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
