"""Twin games for Smiles & Daggers: the only hidden value is a committed
card, so the twins differ in one commitment made by a seat other than the
viewer, and agree on every other move until the reveal, which shows it to
all. ``commitment_twins`` plays a seeded game and forks a twin at every
such commitment."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from cardroom.domain.kernel import Viewer
from cardroom.domain.presentation import RANDOM, strategy
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb
from tests.presentation.local import LocalGame, Seen

KIND = "smiles-and-daggers"


@dataclass(frozen=True)
class TwinStep:
    """One command sent to both twins, and what the viewer got of it."""

    a: LocalGame
    b: LocalGame
    seen_a: list[Seen]
    seen_b: list[Seen]


def _mine(copies: list[list[Seen]], viewer: Viewer) -> list[Seen]:
    return [seen for per_viewer in copies for seen in per_viewer if seen.viewer == viewer]


def _reveals(copies: list[list[Seen]]) -> bool:
    return any(isinstance(c[0].event.public, pb.CardsRevealed) for c in copies)


def commitment_twins(
    seats: int, viewer: Viewer, seed: int, max_commands: int = 400
) -> Iterator[TwinStep]:
    """Every command of every fork, from the differing commitment until
    just before the reveal, as the viewer got it in each twin."""
    game = LocalGame(KIND, seats, seed, options=pb.Options(allow_two_players=True))
    rng = random.Random(seed)
    players = [strategy(KIND) or RANDOM, RANDOM]
    choose: Callable[[int, list], object] = lambda seat, legal: players[seat % 2].choose(  # noqa: E731
        game.view(seat), legal, seat, rng
    )
    while not game.over and game.commands < max_commands:
        if game.chance():
            continue
        seat, legal = rng.choice(game.movers())
        command = choose(seat, legal)
        others = [a for a in legal if a != command]
        if not isinstance(command, pb.CommitCard) or seat == viewer.seat or not others:
            game.send(seat, command)  # type: ignore[arg-type]
            continue
        twin = game.fork()
        copies_a = game.send(seat, command)  # type: ignore[arg-type]
        if _reveals(copies_a):
            continue  # the last card down, and nobody to bet: shown at once
        copies_b = twin.send(seat, rng.choice(others))
        yield TwinStep(game, twin, _mine(copies_a, viewer), _mine(copies_b, viewer))
        for _ in range(max_commands):  # the same moves in both, up to the reveal
            movers = game.movers()
            assert [s for s, _ in movers] == [s for s, _ in twin.movers()], "whose move is public"
            seat, legal = rng.choice(movers)
            command = choose(seat, legal)
            copies_a = game.send(seat, command)  # type: ignore[arg-type]
            if _reveals(copies_a):
                break
            copies_b = twin.send(seat, command)  # type: ignore[arg-type]
            yield TwinStep(game, twin, _mine(copies_a, viewer), _mine(copies_b, viewer))
