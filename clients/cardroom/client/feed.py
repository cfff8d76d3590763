"""A viewer's served events in words: the client side of the narrators
(cardroom.domain.presentation).

``Feed`` tells each envelope of one viewer's stream once, in order (a
repeated or older envelope after a reconnect is skipped), folding that
viewer's own redacted copies, so nothing it tells can come from a secret the
viewer was not sent; ``Client.story`` yields each event with its words as a
:class:`NarratedEvent`. ``scene`` and ``choices`` put a GetView answer and a
seat's legal actions into words with the game's narrator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from google.protobuf.message import Message

from cardroom.client.messages import View, unpack
from cardroom.client.printable import printable
from cardroom.domain import registry
from cardroom.domain.kernel import Event, Secret
from cardroom.domain.presentation import PLAIN, Scene, Story, narrator, table_event
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb


def event_of(envelope: epb.EventEnvelope) -> Event:
    """The rules' event from a served envelope: the public message and the
    secrets this copy holds (a secret the viewer may not see arrives as its
    digest only, and is left out)."""
    return Event(
        unpack(envelope.event),
        tuple(
            Secret(frozenset(s.audience.seats), unpack(s.value))
            for s in envelope.secrets
            if s.HasField("value")
        ),
    )


@dataclass(frozen=True)
class NarratedEvent:
    """One event of a viewer's feed and what a person reads of it:
    ``str(event)`` is its lines, e.g. "Ada performs an act of 2 cards,
    claiming 5." (then, for a seat, what only it saw)."""

    envelope: epb.EventEnvelope
    lines: tuple[str, ...]

    @property
    def sequence(self) -> int:
        return int(self.envelope.sequence)

    def __str__(self) -> str:
        return "\n".join(self.lines)


@dataclass
class Feed:
    """One viewer's stream, told line by line."""

    story: Story | None = None
    cursor: int = 0  # the last sequence told
    kind: str = ""
    seated: list[str] = field(default_factory=list)  # names, for a game not known here

    def tell(self, envelope: epb.EventEnvelope) -> list[str]:
        """The envelope in words (nothing for one already told)."""
        if envelope.sequence <= self.cursor:
            return []
        if envelope.sequence != self.cursor + 1:
            raise ValueError(f"event {envelope.sequence} after {self.cursor}: the feed has a gap")
        event = event_of(envelope)
        self.cursor = envelope.sequence
        public = event.public
        if not self.kind:
            if not isinstance(public, tpb.GameCreated):
                raise ValueError("a feed starts with the game's first event (GameCreated)")
            self.kind = public.kind
            self.seated = [""] * public.seat_count
            if self.kind in registry.games():
                self.story = Story.of(self.kind)
        if self.story is not None:
            told = self.story.tell(event)
        else:  # a game this client does not know: its fields in words
            if isinstance(public, tpb.SeatTaken) and public.seat < len(self.seated):
                self.seated[public.seat] = public.player_name
            told = table_event(public, self.seated) or PLAIN.event(None, event, self.seated)
        return [printable(line) for line in told]  # a player's name is anyone's text

    @property
    def names(self) -> tuple[str, ...]:
        names = self.story.names if self.story is not None else tuple(self.seated)
        return tuple(map(printable, names))

    @property
    def finished(self) -> bool:
        table = self.story.table if self.story is not None else None
        return table is not None and table.finished

    @property
    def started(self) -> bool:
        table = self.story.table if self.story is not None else None
        return table is not None and table.started

    @property
    def seats_free(self) -> int:
        table = self.story.table if self.story is not None else None
        return 0 if table is None else table.seat_count - table.seats_taken


def numbered(sequence: int, lines: Sequence[str]) -> list[str]:
    """An event's lines for a log: the first after its sequence number."""
    return [f"#{sequence:<4} {line}" if i == 0 else f"      {line}" for i, line in enumerate(lines)]


def names_of(view: View) -> tuple[str, ...]:
    """The players' names, safe to print (cardroom.client.printable)."""
    return tuple(map(printable, view.table.player_names))


def scene(view: View, seat: int | None) -> Scene:
    """The view in words; ``seat`` is the viewer's seat (None otherwise)."""
    return narrator(view.table.kind).scene(view.game, names_of(view), seat)


def choices(view: View, actions: Sequence[Message]) -> list[str]:
    """Each legal action as a line on a menu, in the server's order."""
    told = narrator(view.table.kind)
    return [
        RESIGN_CHOICE if isinstance(action, tpb.Resign) else told.action(action, view.game, names)
        for names in [names_of(view)]
        for action in actions
    ]


RESIGN_CHOICE = "Resign: leave the game (its default choices play your seat)"


def title(kind: str) -> str:
    game = registry.games().get(kind)
    return game.title if game is not None else kind
