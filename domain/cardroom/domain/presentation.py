"""What people see of a game, and how bots choose: the two optional parts
that live beside each game's rules.

* A **narrator** (``cardroom.domain.<game>.narrate`` exposing ``NARRATOR``) turns
  one viewer's redacted data into words and card pictures: each event, told
  with the viewer's state just before it (folded from the viewer's own
  stream with the game's ``evolve``); the viewer's ``View`` as a
  :class:`Scene`; each legal action as a choice.
* A **strategy** (``cardroom.domain.<game>.strategy`` exposing ``STRATEGY``)
  picks one of a seat's legal actions from that seat's own view.

Both are pure (no I/O, no clock; a strategy draws from the ``rng`` it is
given) and see only what their viewer may see, so nothing they print or do
can depend on a hidden card. They are found like games
(``registry.part``): a new game adds its two files and touches nothing
shared. A game without a narrator is told by :class:`PlainNarrator` (its
messages' fields in words, seats by name); a game without a strategy has
only the random bot. ``docs/presentation.md`` is the guide for game authors.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import Event, Game
from cardroom.v1 import table_pb2 as tpb

Names = Sequence[str]


def seat_label(seat: int) -> str:
    """A seat as people number it: "seat 1" for the API's seat 0 (seats are
    numbered from 1 wherever a number is shown; names come first)."""
    return f"seat {seat + 1}"


def name(names: Names, seat: int) -> str:
    """A seat's player name, or "seat N" (numbered from 1) while the seat is free."""
    return names[seat] if 0 <= seat < len(names) and names[seat] else seat_label(seat)


def listing(words: Sequence[str], conjunction: str = "and") -> str:
    """ "Ada", "Ada and Bo", "Ada, Bo and Cy"; "nobody" for none."""
    if not words:
        return "nobody"
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


@dataclass(frozen=True)
class Scene:
    """A view as people read it. ``seats`` has one line per seat, in seat
    order, without the player's name (the frontend puts the name, the turn
    marker and "you" in front); ``hand`` draws the viewer's own cards."""

    status: str
    seats: tuple[str, ...]
    table: tuple[str, ...] = ()
    hand: str = ""
    # The seats whose move the game waits for (public).
    waiting_for: tuple[int, ...] = ()


Caution = Callable[[Message, Message, Names, int, Sequence[Message]], str]


def no_caution(
    command: Message, view: Message, names: Names, seat: int, seen: Sequence[Message]
) -> str:
    return ""


@dataclass(frozen=True)
class Guide:
    """What a newcomer needs to sit at a game (``GUIDE`` in
    ``cardroom.domain.<game>.guide``), written once beside the narrator and
    shown by every frontend: the terminal's help screen, the web's panel
    (``as_dict`` is JSON-able).

    * ``goal``: one line, always on screen ("First to 9 coins wins").
    * ``rules``: a short summary, one paragraph per entry.
    * ``symbols``: every symbol the narrator draws, with its meaning.
    * ``caution``: a warning before a move the seat can know is costly
      (``""`` for none), from the command, the seat's view, the players'
      names, its seat and the
      public events of its story so far (oldest first). Pure, and it sees
      only what the seat sees, like the narrator.
    """

    title: str
    goal: str
    rules: tuple[str, ...]
    symbols: tuple[tuple[str, str], ...]
    caution: Caution = field(default=no_caution, compare=False)

    def as_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "goal": self.goal,
            "rules": list(self.rules),
            "symbols": [{"symbol": s, "meaning": m} for s, m in self.symbols],
        }


class Narrator(Protocol):
    """Words for one game (``NARRATOR`` in ``cardroom.domain.<game>.narrate``)."""

    def event(self, before: Any, event: Event, names: Names) -> list[str]:
        """One of the game's events as lines of text. ``event`` holds the
        public message and only the secrets the viewer may see; ``before``
        is the viewer's game state just before it (the game's own state
        type, folded from the same redacted stream)."""
        ...

    def scene(self, view: Message, names: Names, seat: int | None) -> Scene:
        """The game's view message (as GetView returns it) for the viewer
        at ``seat`` (None: a spectator or an auditor)."""
        ...

    def action(self, command: Message, view: Message, names: Names) -> str:
        """One of the seat's legal actions, as a choice on a menu."""
        ...


class Strategy(Protocol):
    """A bot's judgement for one game (``STRATEGY`` in ``cardroom.domain.<game>.strategy``)."""

    def choose(
        self, view: Message, legal: Sequence[Message], seat: int, rng: random.Random
    ) -> Message:
        """One of ``legal`` (never empty), from the seat's own view only."""
        ...


class RandomStrategy:
    """Every legal action alike: the baseline every game has."""

    def choose(
        self, view: Message, legal: Sequence[Message], seat: int, rng: random.Random
    ) -> Message:
        return rng.choice(list(legal))


RANDOM = RandomStrategy()


# ------------------------------------------------------------- plain words


SEAT_FIELDS = frozenset(
    {
        "seat",
        "seats",
        "actor",
        "challenger",
        "eliminated",
        "target",
        "winner",
        "winners",
        "bettors",
        "swapper",
        "awaiting",
    }
)
_INTEGERS = {FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_INT32}


def is_seat_field(fd: Any) -> bool:
    """A field that holds seat numbers, by the naming the games' schemas use."""
    named = fd.name in SEAT_FIELDS or fd.name.endswith(("_seat", "_seats", "_actor"))
    return named and fd.type in _INTEGERS


def words(type_name: str) -> str:
    """ "ActPerformed" -> "act performed"."""
    return re.sub(r"(?<!^)(?=[A-Z])", " ", type_name).lower()


def _value(fd: Any, value: Any, names: Names) -> str:
    if fd.type == FieldDescriptor.TYPE_MESSAGE:
        return f"({describe(value, names)})"
    if fd.type == FieldDescriptor.TYPE_ENUM:
        label = fd.enum_type.values_by_number.get(value)
        return label.name.split("_", 1)[-1].lower().replace("_", " ") if label else str(value)
    if is_seat_field(fd):
        return name(names, value)
    return str(value)


def describe(message: Message, names: Names) -> str:
    """Every field of a message in words, zeros included, seats by name."""
    parts = []
    for fd in message.DESCRIPTOR.fields:
        value = getattr(message, fd.name)
        label = fd.name.replace("_", " ")
        if fd.is_repeated:
            shown = ", ".join(_value(fd, v, names) for v in value) or "none"
        elif fd.has_presence and not message.HasField(fd.name):
            shown = "none"
        else:
            shown = _value(fd, value, names)
        parts.append(f"{label} {shown}")
    return ", ".join(parts)


class PlainNarrator:
    """For a game without its own narrator: every field in words."""

    def event(self, before: Any, event: Event, names: Names) -> list[str]:
        lines = [
            f"{words(event.public.DESCRIPTOR.name).capitalize()}: {describe(event.public, names)}"
        ]
        lines += [
            f"  {words(s.value.DESCRIPTOR.name)}: {describe(s.value, names)}" for s in event.secrets
        ]
        return lines

    def scene(self, view: Message, names: Names, seat: int | None) -> Scene:
        return Scene(status="", seats=("",) * len(names), table=(describe(view, names),))

    def action(self, command: Message, view: Message, names: Names) -> str:
        detail = describe(command, names)
        return words(command.DESCRIPTOR.name).capitalize() + (f": {detail}" if detail else "")


PLAIN = PlainNarrator()


def narrator(kind: str) -> Narrator:
    """The game's own narrator, else the plain one."""
    module = registry.part(kind, "narrate")
    found: Narrator | None = getattr(module, "NARRATOR", None)
    return found if found is not None else PLAIN


def guide(kind: str) -> Guide | None:
    """The game's guide (``GUIDE`` in ``cardroom.domain.<game>.guide``), or
    None when it has none; None too for a kind not known here."""
    if kind not in registry.games():
        return None
    module = registry.part(kind, "guide")
    return getattr(module, "GUIDE", None)


def strategy(kind: str) -> Strategy | None:
    """The game's heuristic strategy, or None when it has none."""
    module = registry.part(kind, "strategy")
    return getattr(module, "STRATEGY", None)


# ---------------------------------------------------------------- a story


def table_event(public: Message, names: Names) -> list[str] | None:
    """The table's own events (every game has them) in words; None for a game's event."""
    if isinstance(public, tpb.GameCreated):
        game = registry.games().get(public.kind)
        title = game.title if game else public.kind
        return [f"A game of {title} for {public.seat_count} players is set up."]
    if isinstance(public, tpb.SeatTaken):
        who = public.player_name or name(names, public.seat)
        return [f"{who} sits down at {seat_label(public.seat)}."]
    if isinstance(public, tpb.InvitationIssued):
        return [f"{seat_label(public.seat).capitalize()} is held for an invited player."]
    if isinstance(public, tpb.GameStarted):
        return [
            f"{listing([name(names, s) for s in range(len(names))])} are seated: the game begins."
        ]
    if isinstance(public, tpb.SeatResigned):
        who = name(names, public.seat)
        how = {
            public.REASON_REMOVED: "is removed by the operator",
            public.REASON_TIMED_OUT: "timed out too many times in a row and leaves",
            public.REASON_ABSENT: "has been away too long and leaves",
        }.get(public.reason, "resigns")
        return [f"{who} {how}: the game makes their choices from now on."]
    if isinstance(public, tpb.SeatTimedOut):
        return [f"{name(names, public.seat)}'s time runs out: the game makes the choice."]
    if isinstance(public, tpb.SeatEntropyRevealed):
        return [
            f"{name(names, public.seat)} opens their sealed share of the shuffle "
            "(so nobody, the server included, picks the deal alone)."
        ]
    if isinstance(public, tpb.GameFinished):
        if public.reason == public.REASON_NEVER_STARTED:
            return ["Nobody started the game for too long: it is closed, unplayed and unrated."]
        winners = [name(names, s) for s in public.winners]
        over = (
            "Game over at the table's length limit"
            if public.reason == public.REASON_LENGTH_LIMIT
            else "Game over"
        )
        if not winners:
            return [f"{over}: nobody wins."]
        verb = "wins" if len(winners) == 1 else "share the win"
        return [f"{over}: {listing(winners)} {verb}."]
    return None


@dataclass
class Story:
    """One viewer's events told in order. It folds the viewer's own
    redacted stream with the game's rules, so each event is told with what
    the viewer knew just before it; it holds nothing the viewer did not
    receive."""

    game: Game[Any]
    narrator: Narrator = field(default=PLAIN)
    table: tables.Table | None = None

    @classmethod
    def of(cls, kind: str) -> Story:
        return cls(registry.game(kind), narrator(kind))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n or "" for n in self.table.player_names) if self.table else ()

    def tell(self, event: Event) -> list[str]:
        """The event in words; the story then moves past it."""
        public = event.public
        if isinstance(public, tpb.GameCreated):
            self.table = tables.initial(self.game, public)
            return table_event(public, ()) or []
        if self.table is None:
            raise ValueError("a story starts with the game's first event (GameCreated)")
        before = self.table
        self.table = tables.evolve(before, event)
        told = table_event(public, self.names)
        if told is not None:
            return told
        return self.narrator.event(before.game_state, event, self.names)
