"""The games the contract runs over (every registered kind), their seat
counts, and options for a short game of each."""

from __future__ import annotations

import random

from google.protobuf.message import Message

from cardroom.domain import registry
from cardroom.domain.kernel import RuleViolation
from tests.contract.games import CONTRACTS

KINDS = sorted(registry.games())


def seat_counts(kind: str) -> list[int]:
    game = registry.game(kind)
    return list(range(game.min_seats, game.max_seats + 1))


def options_for(kind: str, seats: int, seed: int) -> Message | None:
    """Short-game options varied by ``seed``; None where the game refuses
    this many seats with them (a seat count needing an option it lacks)."""
    game = registry.game(kind)
    options = CONTRACTS[kind].options(random.Random(seed), seats)
    for candidate in (options, *_enabling(game.options_type, options)):
        try:
            game.initial_state(candidate, seats)
        except RuleViolation:
            continue
        return candidate
    return None


def _enabling(options_type: type[Message], options: Message) -> list[Message]:
    """The options with each yes/no flag turned on in turn (Smile Life's six
    players, Smiles & Daggers' two need one)."""
    found = []
    for fd in options_type.DESCRIPTOR.fields:
        if fd.type == fd.TYPE_BOOL:
            copy = options_type()
            copy.CopyFrom(options)
            setattr(copy, fd.name, True)
            found.append(copy)
    return found
