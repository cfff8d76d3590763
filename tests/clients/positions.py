"""Positions of every game for the screen tests, played in memory through
the table decider (no server): for each seat count a game allows, a seat's
view at its first move, midway, and after the end (the post-mortem view a
seat is served then), with its legal actions. Played once per seat count
and shared by every test and screen size."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from google.protobuf.message import Message

from cardroom.client.messages import View, view_of
from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import AUDITOR, DEALER, GUEST, Actor, Event, Viewer
from cardroom.domain.presentation import RANDOM, strategy
from cardroom.server.games.reads import view_response
from cardroom.smile_life.v1 import smile_life_pb2 as sl
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as sd
from cardroom.v1 import table_pb2 as tpb

# Names as people and the bots pick them: a long one among them.
NAMES = (
    "Ada",
    "Babbage (heuristic bot)",
    "Curie (search bot, 500 ms)",
    "Dorothea Lovelace-Byron",
    "Euler (random bot)",
    "Fermat (heuristic bot)",
)
MOMENTS = ("start", "middle", "end")


@dataclass(frozen=True)
class Position:
    view: View
    actions: tuple[Message, ...]  # the seat's legal actions (none after the end)
    # The seat's own copies of the events so far (the end only).
    events: tuple[Event, ...] = ()


def seat_counts(kind: str) -> range:
    game = registry.game(kind)
    return range(game.min_seats, game.max_seats + 1)


def options(kind: str, seats: int) -> Message | None:
    """The options a seat count needs (a sixth Smile Life player, two at
    Smiles & Daggers)."""
    if kind == "smile-life" and seats == 6:
        return sl.Options(allow_six_players=True)
    if kind == "smiles-and-daggers" and seats == 2:
        return sd.Options(allow_two_players=True)
    return None


@cache
def positions(kind: str, seats: int, seat: int = 0) -> dict[str, Position]:
    """``seat``'s view at its first move, at its move nearest the middle of
    the game, and after the end; the heuristic bot plays every seat."""
    game = registry.game(kind)
    rng = random.Random(f"{kind}:{seats}")
    chosen = options(kind, seats)
    created = tables.create(game, chosen or game.options_type(), seats, set_deal=False)
    table = tables.initial(game, created.public)  # type: ignore[arg-type]
    version = 1
    me = Viewer.of_seat(seat)
    told: list[Event] = [created.redact(me)]

    def apply(actor: Actor, command: Message) -> None:
        nonlocal table, version
        for event in tables.decide(table, actor, command):
            table, version = tables.evolve(table, event), version + 1
            told.append(event.redact(me))

    for s in range(seats):
        apply(GUEST, tpb.TakeSeat(player_name=NAMES[s], token_sha256=bytes(32)))
    apply(Actor.of_seat(0), tpb.StartGame())
    judge = strategy(kind) or RANDOM
    turns: list[tuple[tables.Table, int, tuple[Message, ...]]] = []
    while not table.finished:
        if tables.chance_needed(table) is not None:
            apply(DEALER, tables.sample_chance(table, rng))
            continue
        movers = [(s, legal) for s in range(seats) if (legal := tables.legal_actions(table, s))]
        mover, legal = rng.choice(movers)
        if mover == seat:
            turns.append((table, version, tuple(legal)))
        view = tables.view(table, Viewer.of_seat(mover))
        apply(Actor.of_seat(mover), judge.choose(view, legal, mover, rng))

    def at(table: tables.Table, version: int, legal: tuple[Message, ...]) -> Position:
        return Position(view_of(view_response(table, me, version)), legal)

    end = view_of(view_response(table, me, version, shown=AUDITOR))
    return {
        "start": at(*turns[0]),
        "middle": at(*turns[len(turns) // 2]),
        "end": Position(end, (), tuple(told)),
    }
