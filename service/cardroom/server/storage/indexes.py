"""What commands need of a game's history, kept as its events are absorbed:
command ids by actor (a repeated id is answered with its first outcome), the
dealer's command count (the next chance index) and how many of them were
picks of default choices, and sealed secrets by type
(what a reveal opens). So a command never scans the history.

The indexes travel in the table's checkpoint as compact JSON. They grow with
the game (a finished game of 1,000 events holds about 500 command ids), and
only commands read them, so a game loaded from a checkpoint keeps them as
that JSON (:class:`Deferred`) until its first command: a view of a finished
game after a restart never builds them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from cardroom.domain.kernel import DEALER, Actor
from cardroom.trust import chance
from cardroom.trust.envelopes import actor_of
from cardroom.v1 import envelope_pb2 as epb

# Secrets no event ever opens (the table's credentials, for auditors only):
# left out of the index, which would otherwise grow with every seat and
# invitation and be written whole in every checkpoint of the game.
NEVER_OPENED = frozenset({"cardroom.v1.SeatCredential", "cardroom.v1.InvitationCredential"})


@dataclass
class CommandSpan:
    """Where one command's batch lies in the stream: [start, end)."""

    start: int
    end: int | None = None  # None while it is the last command


@dataclass
class Indexes:
    """What commands need of the history, kept as events are absorbed."""

    commands: dict[tuple[Actor, str], CommandSpan] = field(default_factory=dict)
    last_command: tuple[Actor, str] | None = None
    dealt: int = 0  # the dealer's commands so far (the next chance index)
    picks: int = 0  # of which dealer's picks of default choices (T-PICK)
    # Sealed secrets holding a value, by type: (event index, secret index).
    secrets: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    # What to_json encoded already (not compared: a cache of the fields above).
    _encoded: _Encoded | None = field(default=None, compare=False, repr=False)

    def plain(self) -> tuple[Any, ...]:
        """The checkpoint's form of the indexes, in plain values:
        :meth:`to_json` writes exactly its JSON, without building it (tests
        hold the two equal), and :meth:`from_plain` reads it back."""
        commands = [
            (actor.kind, actor.seat, command_id, span.start, span.end)
            for (actor, command_id), span in self.commands.items()
        ]
        last = None
        if self.last_command is not None:
            actor, command_id = self.last_command
            last = (actor.kind, actor.seat, command_id)
        secrets = [(name, [list(at) for at in places]) for name, places in self.secrets.items()]
        return (commands, last, self.dealt, secrets, self.picks)

    def to_json(self) -> str:
        """``json.dumps(self.plain())``, compact, without encoding again what
        the last checkpoint encoded: a command's span never changes once it
        has ended, and a type's secrets only grow, so each is encoded once
        (a game of 800 commands took a millisecond a checkpoint, every 32
        events, growing with the game)."""
        encoded = self._encoded
        if encoded is None:
            encoded = self._encoded = _Encoded()
        commands = encoded.commands(self.commands)
        last = "null"
        if self.last_command is not None:
            actor, command_id = self.last_command
            last = _dumps((actor.kind, actor.seat, command_id))
        secrets = encoded.secrets(self.secrets)
        return f"[{commands},{last},{self.dealt},{secrets},{self.picks}]"

    @classmethod
    def from_plain(cls, plain: Any) -> Indexes:
        """The indexes :meth:`plain` wrote (ValueError or TypeError if not)."""
        commands, last, dealt, secrets, picks = plain
        indexes = cls(dealt=int(dealt), picks=int(picks))
        for kind, seat, command_id, start, end in commands:
            indexes.commands[(Actor(kind, seat), command_id)] = CommandSpan(start, end)
        if last is not None:
            kind, seat, command_id = last
            indexes.last_command = (Actor(kind, seat), command_id)
        indexes.secrets = {name: [(i, j) for i, j in places] for name, places in secrets}
        return indexes

    def absorb(self, index: int, envelope: epb.EventEnvelope) -> None:
        if envelope.HasField("command"):
            actor = actor_of(envelope.command)
            if actor == DEALER:
                self.dealt += 1
                self.picks += chance.is_pick(envelope.command)
            else:
                if self.last_command is not None:
                    span = self.commands.get(self.last_command)
                    if span is not None and span.end is None:
                        span.end = index
                self.last_command = None
                if envelope.command.command_id:
                    key = (actor, envelope.command.command_id)
                    self.commands.setdefault(key, CommandSpan(index))
                    self.last_command = key
        for position, secret in enumerate(envelope.secrets):
            if secret.HasField("value"):
                name = secret.value.type_url.rpartition("/")[2]
                if name not in NEVER_OPENED:
                    self.secrets.setdefault(name, []).append((index, position))


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class _Encoded:
    """The JSON of the indexes' parts that cannot change any more: the
    commands whose spans ended, in order (the dict only grows, in order),
    and each secret type's positions so far. A part found shorter than
    what was encoded of it is encoded afresh."""

    def __init__(self) -> None:
        self._commands: list[str] = []  # the first commands' JSON, each span ended
        self._secrets: dict[str, tuple[int, str]] = {}  # name: (count, "[i,j],...")

    def commands(self, commands: dict[tuple[Actor, str], CommandSpan]) -> str:
        if len(self._commands) > len(commands):
            self._commands = []
        rest: list[str] = []
        for (actor, command_id), span in islice(commands.items(), len(self._commands), None):
            text = _dumps((actor.kind, actor.seat, command_id, span.start, span.end))
            if span.end is not None and not rest:
                self._commands.append(text)  # ended, and all before it too: final
            else:
                rest.append(text)
        return "[" + ",".join(self._commands + rest) + "]"

    def secrets(self, secrets: dict[str, list[tuple[int, int]]]) -> str:
        parts = []
        for name, places in secrets.items():
            count, text = self._secrets.get(name, (0, ""))
            if count > len(places):
                count, text = 0, ""
            if count < len(places):
                more = ",".join(f"[{i},{j}]" for i, j in places[count:])
                text = f"{text},{more}" if text else more
                self._secrets[name] = (len(places), text)
            parts.append(f"[{_dumps(name)},[{text}]]")
        return "[" + ",".join(parts) + "]"


class Deferred:
    """Indexes still as a checkpoint's JSON (parsed, not built), and the
    events absorbed since, in order: :meth:`build` makes the Indexes they
    amount to (ValueError or TypeError if the JSON is not this code's)."""

    def __init__(self, text: str) -> None:
        self._plain = json.loads(text)
        self._absorbed: list[tuple[int, epb.EventEnvelope]] = []

    def absorb(self, index: int, envelope: epb.EventEnvelope) -> None:
        self._absorbed.append((index, envelope))

    def build(self) -> Indexes:
        indexes = Indexes.from_plain(self._plain)
        for index, envelope in self._absorbed:
            indexes.absorb(index, envelope)
        return indexes
