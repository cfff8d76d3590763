"""Played games of every registered kind: enough seeded games (random and
heuristic players, every seat count, the options each way) that every
event message of the game's schema occurs in them."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from cardroom.domain import registry
from cardroom.domain.kernel import Game, RuleViolation
from cardroom.domain.presentation import RANDOM, Strategy, strategy
from cardroom.smile_life.v1 import smile_life_pb2 as sl
from cardroom.v1 import table_pb2 as tpb
from tests.presentation.local import LocalGame

TABLE_EVENTS = frozenset(
    m.DESCRIPTOR.full_name
    for m in (tpb.GameCreated, tpb.SeatTaken, tpb.GameStarted, tpb.GameFinished)
)
MIN_GAMES, MAX_GAMES = 6, 200


def event_types(game: Game) -> frozenset[str]:
    """The game's event messages (public parts and secrets): every message
    of its schema that is not a command, a chance outcome, its options or
    view, nor a part of another message (a card, a seat's view), nor
    deprecated (a message only an earlier rules version wrote or accepted)."""
    file = game.view_type.DESCRIPTOR.file
    others = {
        t.DESCRIPTOR.full_name
        for t in (*game.command_types, *game.chance_types, game.view_type, game.options_type)
    }
    parts = {
        fd.message_type.full_name
        for m in file.message_types_by_name.values()
        for fd in m.fields
        if fd.type == FieldDescriptor.TYPE_MESSAGE
    }
    return frozenset(
        m.full_name
        for m in file.message_types_by_name.values()
        if m.full_name not in others | parts and not m.GetOptions().deprecated
    )


def option_variants(game: Game) -> list[Message]:
    """Every yes/no option on, the defaults, then each yes/no option set
    each way on its own, then each optional number (one a game may leave
    unset, like Smile Life's draw_pile_size) set to 1 on its own: some
    events occur only with such an option (Smile Life's set-aside cards).
    A variant the game refuses is skipped when played."""
    fields = game.options_type.DESCRIPTOR.fields
    flags = [fd.name for fd in fields if fd.type == FieldDescriptor.TYPE_BOOL]
    numbers = [
        fd.name
        for fd in fields
        if fd.type in (FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_INT32) and fd.has_presence
    ]
    variants = [game.options_type(**dict.fromkeys(flags, True)), game.options_type()]
    for flag in flags:
        variants += [game.options_type(**{flag: True}), game.options_type(**{flag: False})]
    variants += [game.options_type(**{number: 1}) for number in numbers]
    return variants


class Curious:
    """Plays the kind of command it has played least so far: rare moves
    (skipping a turn with no cards left) are made whenever they are legal."""

    def __init__(self) -> None:
        self.played: Counter[str] = Counter()

    def choose(
        self, view: Message, legal: Sequence[Message], seat: int, rng: random.Random
    ) -> Message:
        fewest = min(self.played[a.DESCRIPTOR.name] for a in legal)
        choice = rng.choice([a for a in legal if self.played[a.DESCRIPTOR.name] == fewest])
        self.played[choice.DESCRIPTOR.name] += 1
        return choice


def journalist_announces(game: LocalGame) -> tuple[int, Message] | None:
    """SL-35: a journalist just placed says one thing (true or false) about
    the next seat's hand, then goes on by the legal actions (Decline)."""
    state = game.full.game_state
    top = state.top
    if top is None or top.kind != sl.STEP_JOURNALIST:
        return None
    if isinstance(game.log[-1].public, sl.JournalistAnnounced):
        return None
    about = (top.seat + 1) % game.seats
    return top.seat, sl.Announce(seat=about, card="malus_divorce", holds=True)


# Commands accepted but not listed among the legal actions, said now and then.
TALK = {"smile-life": journalist_announces}


def occurring(games: tuple[LocalGame, ...]) -> set[str]:
    return {
        m.DESCRIPTOR.full_name
        for g in games
        for e in g.log
        for m in (e.public, *(s.value for s in e.secrets))
    }


@cache
def corpus(kind: str) -> tuple[LocalGame, ...]:
    game = registry.game(kind)
    wanted = event_types(game) | TABLE_EVENTS
    variants = option_variants(game)
    heuristic = strategy(kind) or RANDOM
    curious = Curious()
    played: list[LocalGame] = []
    for i in range(MAX_GAMES):
        seats = game.min_seats + i % (game.max_seats - game.min_seats + 1)
        try:
            # Every other game with every option on (the most there is to see).
            options = variants[0 if i % 2 == 0 else (i // 2) % len(variants)]
            local = LocalGame(kind, seats, seed=i, options=options, talk=TALK.get(kind))
        except RuleViolation:
            continue  # options that do not allow this many seats
        lineups: list[list[Strategy]] = [
            [RANDOM] * seats,
            [heuristic] * seats,
            [heuristic if s % 2 else RANDOM for s in range(seats)],
            [curious if s % 2 else RANDOM for s in range(seats)],
        ]
        # Every fifth game, the last seat leaves midway (T-RESIGN: SM-11, SL-37...).
        resign = (15 + i % 7, seats - 1) if i % 5 == 4 and seats >= 3 else None
        played.append(local.play(lineups[i % len(lineups)], resign=resign))
        if len(played) >= MIN_GAMES and wanted <= occurring(tuple(played)):
            break
    return tuple(played)
