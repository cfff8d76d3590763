"""The table around every game: seats, start and finish, composed with the
game's own decider.

The table is itself a pure decider. It owns what all games share (taking a
seat, starting when every seat is taken, announcing the winners) and hands
every other command to the game, so the service only ever talks to a table.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from google.protobuf import any_pb2
from google.protobuf.message import DecodeError, Message

from cardroom.v1 import table_pb2 as tpb
from domain.kernel import (
    Actor,
    Event,
    Forbidden,
    Game,
    MalformedCommand,
    RuleViolation,
    Viewer,
    event,
    quote,
)


@dataclass(frozen=True)
class Table:
    game: Game[Any]
    options: Message
    seat_count: int
    set_deal: bool
    game_state: Any
    player_names: tuple[str | None, ...]
    # SHA-256 of each seat's token; None where the viewer may not see it.
    token_hashes: tuple[bytes | None, ...]
    started: bool = False
    finished: bool = False
    winners: tuple[int, ...] = ()

    @property
    def kind(self) -> str:
        return self.game.kind

    def seat_of_token_hash(self, digest: bytes) -> int | None:
        found = None
        for seat, h in enumerate(self.token_hashes):  # compare every seat, in constant time
            if h is not None and hmac.compare_digest(h, digest):
                found = seat
        return found

    @property
    def seats_taken(self) -> int:
        return sum(name is not None for name in self.player_names)


def pack(message: Message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


def unpack_options(game: Game[Any], options: any_pb2.Any | None) -> Message:
    """The game's options message from an Any, exactly (defaults when
    unset); fields the schema does not know are dropped."""
    message = game.options_type()
    if options is None or (not options.type_url and not options.value):
        return message
    name = message.DESCRIPTOR.full_name
    _, slash, sent = options.type_url.rpartition("/")
    if not slash or sent != name:
        raise MalformedCommand(
            f"options must be {name} (type_url 'type.googleapis.com/{name}'), "
            f"not {quote(options.type_url)}"
        )
    try:
        unpacked = options.Unpack(message)
    except DecodeError:
        raise MalformedCommand(f"options: could not decode {name}: malformed bytes") from None
    if not unpacked:  # pragma: no cover - the type URL was checked above
        raise MalformedCommand(f"options: could not unpack {name}")
    message.DiscardUnknownFields()
    return message


MAX_SEATS = 64  # no game seats more; checked before a game allocates per seat


def create(game: Game[Any], options: Message, seat_count: int, *, set_deal: bool) -> Event:
    """The first event of a game, after checking the game accepts the options
    and the seat count (the game's own rule names the range it plays)."""
    if not 0 < seat_count <= MAX_SEATS:
        raise RuleViolation(
            "T-SEATS",
            f"{game.title} is played by {game.min_seats} to {game.max_seats} players, "
            f"not {seat_count}",
        )
    game.initial_state(options, seat_count)
    if not game.min_seats <= seat_count <= game.max_seats:
        raise RuleViolation(
            "T-SEATS",
            f"{game.title} is played by {game.min_seats} to {game.max_seats} players, "
            f"not {seat_count}",
        )
    return event(
        tpb.GameCreated(
            kind=game.kind,
            options=pack(options),
            seat_count=seat_count,
            set_deal=set_deal,
            rules_version=game.rules_version,
        )
    )


def decide(table: Table, actor: Actor, command: Message) -> list[Event]:
    if isinstance(command, tpb.TakeSeat):
        return _take_seat(table, command)
    if isinstance(command, tpb.StartGame):
        return _start(table, actor)
    if table.finished:
        raise RuleViolation("T-PLAY", "the game is over")
    if not table.started:
        raise RuleViolation("T-PLAY", "the game has not started")
    _check_sender(table, actor, command)
    events = table.game.decide(table.game_state, actor, command)
    after = table.game_state
    for e in events:
        after = table.game.evolve(after, e)
    winners = table.game.winners(after)
    if winners is not None:
        events = [*events, event(tpb.GameFinished(winners=sorted(winners)))]
    return events


def _check_sender(table: Table, actor: Actor, command: Message) -> None:
    """Seats send the game's commands; only the dealer sends chance outcomes."""
    name = command.DESCRIPTOR.full_name
    if isinstance(command, table.game.chance_types):
        if actor.kind != "dealer":
            raise Forbidden(f"only the dealer may send {name}")
    elif isinstance(command, table.game.command_types):
        if actor.kind != "seat":
            raise Forbidden(f"only a seated player may send {name}")
    else:
        raise MalformedCommand(f"{name} is not a {table.kind} command")


def _take_seat(table: Table, command: tpb.TakeSeat) -> list[Event]:
    if table.started:
        raise RuleViolation("T-JOIN", "the game has already started")
    if not command.player_name.strip():
        raise MalformedCommand("player_name must not be empty")
    if len(command.token_sha256) != 32:
        raise MalformedCommand("token_sha256 must be 32 bytes")
    free = [s for s, name in enumerate(table.player_names) if name is None]
    if command.HasField("seat"):
        if command.seat >= table.seat_count:
            raise MalformedCommand(f"seat must be below {table.seat_count}")
        if command.seat not in free:
            raise RuleViolation("T-JOIN", f"seat {command.seat} is taken")
        seat = command.seat
    elif free:
        seat = free[0]
    else:
        raise RuleViolation("T-JOIN", "every seat is taken")
    return [
        event(
            tpb.SeatTaken(seat=seat, player_name=command.player_name),
            ((), tpb.SeatCredential(token_sha256=command.token_sha256)),
        )
    ]


def _start(table: Table, actor: Actor) -> list[Event]:
    if actor.kind not in ("seat", "operator"):
        raise RuleViolation("T-START", "only a seated player or the operator may start")
    if table.started:
        raise RuleViolation("T-START", "the game has already started")
    if table.seats_taken < table.seat_count:
        raise RuleViolation(
            "T-START",
            f"{table.seat_count - table.seats_taken} seat(s) are still free",
        )
    return [event(tpb.GameStarted())]


def initial(game: Game[Any], created: tpb.GameCreated) -> Table:
    options = unpack_options(game, created.options)
    return Table(
        game=game,
        options=options,
        seat_count=created.seat_count,
        set_deal=created.set_deal,
        game_state=game.initial_state(options, created.seat_count),
        player_names=(None,) * created.seat_count,
        token_hashes=(None,) * created.seat_count,
    )


def evolve(table: Table, e: Event) -> Table:
    public = e.public
    if isinstance(public, tpb.SeatTaken):
        credential = e.secret(tpb.SeatCredential)
        names = list(table.player_names)
        hashes = list(table.token_hashes)
        names[public.seat] = public.player_name
        hashes[public.seat] = credential.token_sha256 if credential else None
        return replace(table, player_names=tuple(names), token_hashes=tuple(hashes))
    if isinstance(public, tpb.GameStarted):
        return replace(table, started=True)
    if isinstance(public, tpb.GameFinished):
        return replace(table, finished=True, winners=tuple(public.winners))
    return replace(table, game_state=table.game.evolve(table.game_state, e))


def chance_needed(table: Table) -> type[Message] | None:
    if not table.started or table.finished:
        return None
    return table.game.chance_needed(table.game_state)


def legal_actions(table: Table, seat: int) -> list[Message]:
    if not table.started or table.finished:
        return []
    return table.game.legal_actions(table.game_state, seat)


def view(table: Table, viewer: Viewer) -> Message:
    return table.game.view(table.game_state, viewer)


def replay(game: Game[Any], events: Sequence[Event]) -> Table:
    """Fold a game's events (full or redacted), starting with GameCreated."""
    first = events[0].public
    if not isinstance(first, tpb.GameCreated):
        raise ValueError("a game's stream starts with GameCreated")
    table = initial(game, first)
    for e in events[1:]:
        table = evolve(table, e)
    return table
