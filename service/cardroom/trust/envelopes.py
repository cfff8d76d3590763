"""Converts between the rules' events and stored protobuf envelopes.
No rules live here; redaction is cardroom.trust.commitments::redact."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from google.protobuf import any_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError, Message

from cardroom.domain.kernel import (
    CLOCK,
    DEALER,
    GUEST,
    OPERATOR,
    Actor,
    Event,
    MalformedCommand,
    Secret,
    quote,
)
from cardroom.domain.table import TYPE_URL_PREFIX, pack, type_name
from cardroom.v1 import envelope_pb2 as epb


def unpack(packed: any_pb2.Any, field: str = "message") -> Message:
    """Decode an Any into its message class, looked up by type name, exactly:
    the type URL must be ``type.googleapis.com/`` and a known full name (the
    one form the server writes, so an accepted message is stored and hashed
    as it will be read back), the bytes must parse, and fields this schema
    does not know are dropped (never stored or hashed). Anything else is a
    MalformedCommand naming ``field``."""
    url = packed.type_url
    name = type_name(url)
    if name is None:
        raise MalformedCommand(
            f"{field}: type_url must be '{TYPE_URL_PREFIX}<message name>', not {quote(url)}"
        )
    try:
        descriptor = descriptor_pool.Default().FindMessageTypeByName(name)
    except KeyError:
        raise MalformedCommand(f"{field}: unknown message type {quote(name)}") from None
    message = message_factory.GetMessageClass(descriptor)()
    try:
        unpacked = packed.Unpack(message)
    except DecodeError:
        raise MalformedCommand(f"{field}: could not decode {name}: malformed bytes") from None
    if not unpacked:  # pragma: no cover - the checks above make Unpack parse
        raise MalformedCommand(f"{field}: could not unpack {quote(url)}")
    message.DiscardUnknownFields()
    return message


def audience(seats: Iterable[int]) -> epb.Audience:
    return epb.Audience(seats=sorted(seats))


def actor_pb(actor: Actor) -> epb.Actor:
    kind = {
        "seat": epb.Actor.KIND_SEAT,
        "dealer": epb.Actor.KIND_DEALER,
        "operator": epb.Actor.KIND_OPERATOR,
        "guest": epb.Actor.KIND_GUEST,
        "clock": epb.Actor.KIND_CLOCK,
    }[actor.kind]
    return epb.Actor(kind=kind, seat=actor.seat or 0)


def actor_of(record: epb.CommandRecord) -> Actor:
    kind = record.actor.kind
    if kind == epb.Actor.KIND_SEAT:
        return Actor.of_seat(record.actor.seat)
    if kind == epb.Actor.KIND_DEALER:
        return DEALER
    if kind == epb.Actor.KIND_OPERATOR:
        return OPERATOR
    if kind == epb.Actor.KIND_CLOCK:
        return CLOCK
    return GUEST


def command_record(actor: Actor, command: Message, command_id: str) -> epb.CommandRecord:
    """A command as recorded: its actor's seat may see it, nobody else."""
    seats = [actor.seat] if actor.seat is not None else []
    return epb.CommandRecord(
        audience=audience(seats),
        command_id=command_id,
        actor=actor_pb(actor),
        command=pack(command),
    )


def to_envelope(
    game_id: str,
    sequence: int,
    recorded_at: datetime,
    e: Event,
    command: epb.CommandRecord | None = None,
) -> epb.EventEnvelope:
    envelope = epb.EventEnvelope(
        game_id=game_id,
        sequence=sequence,
        event=pack(e.public),
        secrets=[epb.Secret(audience=audience(s.audience), value=pack(s.value)) for s in e.secrets],
    )
    envelope.recorded_at.FromDatetime(recorded_at)
    if command is not None:
        envelope.command.CopyFrom(command)
    return envelope


def to_event(
    envelope: epb.EventEnvelope, keep: Callable[[int, epb.Secret], bool] | None = None
) -> Event:
    """The rules' event; digest-only secrets (what a viewer may not see of a
    sealed event) are left out, so every viewer's copy folds the same way.
    ``keep(position, secret)`` leaves out more (reads.visible: what a viewer
    may not see of a full event)."""
    return Event(
        unpack(envelope.event),
        tuple(
            Secret(frozenset(s.audience.seats), unpack(s.value))
            for position, s in enumerate(envelope.secrets)
            if s.HasField("value") and (keep is None or keep(position, s))
        ),
        by_seat_of(envelope),
    )


def by_seat_of(envelope: epb.EventEnvelope) -> int | None:
    """The seat whose own command's batch this event opens: its command
    record's audience, which every viewer's copy keeps (T-TIMEOUTS)."""
    if not envelope.HasField("command"):
        return None
    seats = envelope.command.audience.seats
    return seats[0] if len(seats) == 1 else None
