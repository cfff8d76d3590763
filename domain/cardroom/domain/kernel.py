"""What every game's rules share: viewers, events with hidden parts, rule
violations and the shape of a game module.

A game is a pure decider (Chassaing): ``decide(state, actor, command)``
returns the events that happen or raises a :class:`RuleViolation` naming the
rule; ``evolve(state, event)`` folds one event. Nothing here reads a clock,
does I/O or draws random numbers: chance outcomes (shuffles, blind picks)
arrive as commands from the :data:`DEALER`, drawn by the service.

Hidden information is a type, not a filter: an :class:`Event` has a public
protobuf message plus :class:`Secret` parts that each name their audience.
A viewer's copy of the stream keeps only the secrets it may see, and the same
``evolve`` folds that redacted stream into what the viewer knows.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

from google.protobuf.message import Message

M = TypeVar("M", bound=Message)


# ---------------------------------------------------------------- viewers


@dataclass(frozen=True)
class Viewer:
    """Who is looking: one seat, a spectator (public only) or an auditor (all)."""

    kind: str  # "seat" | "spectator" | "auditor"
    seat: int | None = None

    def may_see(self, audience: Iterable[int]) -> bool:
        if self.kind == "auditor":
            return True
        return self.kind == "seat" and self.seat in set(audience)

    @staticmethod
    def of_seat(seat: int) -> Viewer:
        return Viewer("seat", seat)


SPECTATOR = Viewer("spectator")
AUDITOR = Viewer("auditor")


@dataclass(frozen=True)
class Actor:
    """Who issued a command. ``seat`` is None for the dealer and the operator."""

    kind: str  # "seat" | "dealer" | "operator" | "guest" | "clock"
    seat: int | None = None

    @staticmethod
    def of_seat(seat: int) -> Actor:
        return Actor("seat", seat)


DEALER = Actor("dealer")
OPERATOR = Actor("operator")
GUEST = Actor("guest")  # not seated yet: taking a seat
CLOCK = Actor("clock")  # the table's turn clock: a deadline passed


# ----------------------------------------------------------------- events


@dataclass(frozen=True)
class Secret:
    """A hidden value and the seats that may see it (auditors always may)."""

    audience: frozenset[int]
    value: Message


@dataclass(frozen=True)
class Event:
    """One event: a public message every viewer sees, plus hidden parts."""

    public: Message
    secrets: tuple[Secret, ...] = ()
    # The seat whose own command this event is the first of (its command
    # record's audience), else None: what tells the table that a seat made a
    # decision itself (T-TIMEOUTS). Not part of the event's identity.
    by_seat: int | None = field(default=None, compare=False)

    def secret(self, kind: type[M]) -> M | None:
        """The first visible secret of this type, or None when redacted."""
        for s in self.secrets:
            if isinstance(s.value, kind):
                return s.value
        return None

    def secrets_of(self, kind: type[M]) -> list[M]:
        return [s.value for s in self.secrets if isinstance(s.value, kind)]

    def redact(self, viewer: Viewer) -> Event:
        kept = tuple(s for s in self.secrets if viewer.may_see(s.audience))
        return self if len(kept) == len(self.secrets) else Event(self.public, kept, self.by_seat)


@dataclass(frozen=True)
class Reveal:
    """An event shows an earlier secret: the latest earlier secret of type
    ``kind`` whose value satisfies ``match``, to ``audience`` (None: to
    everyone). The service then attaches that secret's opening, so the
    viewers can check the reveal against the digest they saw when the secret
    was created (docs/trust.md)."""

    kind: type[Message]
    match: Callable[[Message], bool]
    audience: frozenset[int] | None = None


def event(public: Message, *secrets: tuple[Iterable[int], Message]) -> Event:
    """Shorthand: ``event(ActPerformed(...), ({seat}, ActCards(...)))``."""
    return Event(public, tuple(Secret(frozenset(a), v) for a, v in secrets))


# ------------------------------------------------------------------ errors


class RuleViolation(Exception):
    """A command the rules forbid. ``rule`` names the rule (e.g. "SM-03")."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class NotYourTurn(RuleViolation):
    def __init__(self, message: str = "it is not your turn") -> None:
        super().__init__("T-TURN", message)


class MalformedCommand(ValueError):
    """A command that no rule could accept: wrong type, missing fields."""


def quote(text: str, limit: int = 40) -> str:
    """A caller's input quoted in an error message: a short prefix only, so
    an error never grows with what was sent."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"… ({len(text)} chars)"


class Forbidden(Exception):
    """The actor may never send this command (e.g. a seat forging a deal)."""


# ------------------------------------------------------- default choices


@dataclass(frozen=True)
class DealersPick:
    """A default choice that is the dealer's to draw (DECISIONS G-02(b)):
    every legal option touches another player (a target, a partner, their
    card), so none is taken by its place in a list. The table records the
    dealer's uniform draw among ``options`` as a chance outcome
    (``cardroom.v1.DealerPick``), which the audit re-checks like any other."""

    options: tuple[Message, ...]

    def __post_init__(self) -> None:
        if not self.options:
            raise ValueError("a dealer's pick needs at least one option")


# ------------------------------------------------------------ game module


S = TypeVar("S")


class Game(Protocol[S]):
    """The contract every game module fulfils (see ``cardroom.domain.<game>.rules``).

    A game package exposes an instance as ``GAME`` in its ``__init__``; the
    service discovers games by scanning ``domain`` for it, so adding a game
    never edits the service.
    """

    kind: ClassVar[str]
    title: ClassVar[str]  # for people: "Smoke & Mirrors"
    rules_version: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options_type: ClassVar[type[Message]]
    # Commands a seat may send, and chance outcomes the dealer may send.
    command_types: ClassVar[tuple[type[Message], ...]]
    chance_types: ClassVar[tuple[type[Message], ...]]
    view_type: ClassVar[type[Message]]

    def initial_state(self, options: Message, seat_count: int) -> S:
        """The state before anything happened; raises RuleViolation (naming
        the game's rule for its player count) or MalformedCommand for options
        or a seat count the game cannot be played with."""
        ...

    def decide(self, state: S, actor: Actor, command: Message) -> list[Event]: ...

    def evolve(self, state: S, event: Event) -> S:
        """Fold one (possibly redacted) event. Never mutates ``state``.
        Besides the game's own events this receives the table's
        ``cardroom.v1.SeatResigned``: the game records the seat as departed
        (DECISIONS G-02(d), G-03)."""
        ...

    def chance_needed(self, state: S) -> type[Message] | None:
        """The chance outcome type the game waits for now, if any."""
        ...

    def sample_chance(self, state: S, rng: random.Random) -> Message:
        """A random outcome of the pending chance type. Only the service calls
        this, with a cryptographically secure ``rng``."""
        ...

    def legal_actions(self, state: S, seat: int) -> list[Message]:
        """Every command ``seat`` may send now, but talk that changes nothing
        and would bury the choices (Smile Life's journalist announcements,
        SL-35, which its rules file documents). Called on that seat's own
        redacted fold, so it cannot depend on anything the seat cannot see."""
        ...

    def view(self, state: S, viewer: Viewer) -> Message:
        """Render a state folded from ``viewer``'s redacted stream."""
        ...

    def winners(self, state: S) -> Sequence[int] | None:
        """None while the game goes on; the winning seats once it is over.
        Seats that left the game are ranked out (DECISIONS G-03): the
        winners are the best-placed seats still playing, unless every seat
        left."""
        ...

    def reveals(self, event: Event) -> list[Reveal]:
        """The earlier secrets ``event`` shows (a challenged act, a flipped
        card); the service opens them to the reveal's audience. A game
        that reveals nothing mid-game returns ``[]``: every secret is
        still checked when the full log opens at the end."""
        ...

    def default_action(self, state: S, seat: int, *, departed: bool) -> Message | DealersPick:
        """The game's default choice for the decision it awaits from
        ``seat`` (DECISIONS G-02; docs/rules/table.md T-RESIGN, T-CLOCK):
        for a seat that left the game (``departed``), the move that keeps
        it as inert as the game's rules allow; for a seat whose clock ran
        out, its least consequential legal move. It never picks another
        player, or another player's card, by seat number: where every
        option touches someone it returns a :class:`DealersPick`. Like
        ``legal_actions`` it reads only what ``seat`` may see, so it
        reveals nothing.

        ``evolve`` learns departures: the table folds its own
        ``cardroom.v1.SeatResigned`` into the game's state too."""
        ...


def fold(game: Game[Any], state: Any, events: Iterable[Event]) -> Any:
    for e in events:
        state = game.evolve(state, e)
    return state
