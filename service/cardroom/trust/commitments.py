"""Sealed secrets: salted digests every viewer keeps, openings anyone can
check against them (docs/trust.md, "Sealed secrets").

A sealed :class:`Secret` carries ``salt`` (32 random bytes) and
``digest = SHA-256(salt || value bytes)``, where the value bytes are the exact
serialization of the ``Any`` holding the value (its ``type_url`` and the
packed message). A sealed :class:`CommandRecord` likewise carries
``digest = SHA-256(salt || the record serialized with salt and digest
unset)``. A viewer's copy keeps audience and digest of everything and value
and salt of what it may see; whoever later receives a value with its salt (a
reveal mid-game, the full log at the end) checks it against the digest it
already holds. The salt makes a digest reveal nothing about a value with few
possibilities (a card, an index).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterable, Sequence

from google.protobuf import any_pb2
from google.protobuf.message import Message

from cardroom.domain.kernel import Viewer
from cardroom.v1 import envelope_pb2 as epb

SALT_BYTES = 32


def new_salt() -> bytes:
    return secrets.token_bytes(SALT_BYTES)


def _any(value: Message) -> any_pb2.Any:
    if isinstance(value, any_pb2.Any):
        return value
    packed = any_pb2.Any()
    packed.Pack(value, deterministic=True)
    return packed


def holds(value: any_pb2.Any, kind: type[Message]) -> bool:
    """Whether an ``Any`` holds a message of type ``kind``."""
    return bool(value.type_url) and value.TypeName() == kind.DESCRIPTOR.full_name


# ------------------------------------------------------------------ digests


def secret_digest(salt: bytes, value: any_pb2.Any) -> bytes:
    """SHA-256(salt || value.SerializeToString(deterministic=True))."""
    return hashlib.sha256(salt + value.SerializeToString(deterministic=True)).digest()


def command_digest(salt: bytes, record: epb.CommandRecord) -> bytes:
    """SHA-256(salt || record serialized with its salt and digest unset)."""
    bare = epb.CommandRecord()
    bare.CopyFrom(record)
    bare.ClearField("salt")
    bare.ClearField("digest")
    return hashlib.sha256(salt + bare.SerializeToString(deterministic=True)).digest()


def check_opening(digest: bytes, salt: bytes, value: any_pb2.Any) -> bool:
    """Whether ``value`` with ``salt`` is what ``digest`` committed to."""
    return len(salt) == SALT_BYTES and hmac.compare_digest(digest, secret_digest(salt, value))


def check_secret(secret: epb.Secret) -> bool:
    """Whether a secret holding its value is sealed and its digest matches."""
    return secret.HasField("value") and check_opening(secret.digest, secret.salt, secret.value)


def check_command(record: epb.CommandRecord) -> bool:
    """Whether a command record holding its command is sealed and matches."""
    return (
        record.HasField("command")
        and len(record.salt) == SALT_BYTES
        and hmac.compare_digest(record.digest, command_digest(record.salt, record))
    )


# ------------------------------------------------------------------ sealing


def seal_secret(
    audience: Iterable[int], value: Message, *, salt: bytes | None = None
) -> epb.Secret:
    """A sealed secret: ``value`` (a message, or an ``Any`` kept byte for
    byte) for ``audience``, with a fresh salt unless one is given."""
    salt = new_salt() if salt is None else salt
    if len(salt) != SALT_BYTES:
        raise ValueError(f"a salt is {SALT_BYTES} bytes")
    packed = _any(value)
    return epb.Secret(
        audience=epb.Audience(seats=sorted(audience)),
        value=packed,
        salt=salt,
        digest=secret_digest(salt, packed),
    )


def seal_command(record: epb.CommandRecord, *, salt: bytes | None = None) -> epb.CommandRecord:
    """Seal a command record in place (and return it)."""
    salt = new_salt() if salt is None else salt
    if len(salt) != SALT_BYTES:
        raise ValueError(f"a salt is {SALT_BYTES} bytes")
    record.salt = salt
    record.digest = command_digest(salt, record)
    return record


def seal_envelope(
    envelope: epb.EventEnvelope, *, salt: Callable[[], bytes] = new_salt
) -> epb.EventEnvelope:
    """Seal, in place, every secret and the command record of an unredacted
    envelope that is not sealed yet; returns the envelope. Call it before
    :func:`cardroom.trust.chain.link` (sealing changes the stored bytes)."""
    for secret in envelope.secrets:
        if not secret.digest:
            if not secret.HasField("value"):
                raise ValueError("cannot seal a redacted secret")
            secret.salt = salt()
            secret.digest = secret_digest(secret.salt, secret.value)
    if envelope.HasField("command") and not envelope.command.digest:
        seal_command(envelope.command, salt=salt())
    return envelope


# --------------------------------------------------------------- redaction


def digest_form(envelope: epb.EventEnvelope) -> epb.EventEnvelope:
    """What every viewer holds of an event: the public part and the chain
    link as they are, each secret and the command record reduced to audience
    and digest, no served event_hash. Two copies of one event (any viewer's,
    or the full one) have the same digest form."""
    copy = epb.EventEnvelope()
    copy.CopyFrom(envelope)
    copy.ClearField("event_hash")
    del copy.secrets[:]
    copy.secrets.extend(epb.Secret(audience=s.audience, digest=s.digest) for s in envelope.secrets)
    if envelope.HasField("command"):
        copy.command.Clear()
        copy.command.audience.CopyFrom(envelope.command.audience)
        copy.command.digest = envelope.command.digest
    return copy


def redact(envelope: epb.EventEnvelope, viewer: Viewer) -> epb.EventEnvelope:
    """The viewer's copy of a sealed event: everything it may see whole
    (value and salt), everything else reduced to audience and digest."""
    if viewer.kind == "auditor":
        return envelope
    copy = digest_form(envelope)
    copy.event_hash = envelope.event_hash
    for kept, full in zip(copy.secrets, envelope.secrets, strict=True):
        if viewer.may_see(full.audience.seats):
            kept.CopyFrom(full)
    if envelope.HasField("command") and viewer.may_see(envelope.command.audience.seats):
        copy.command.CopyFrom(envelope.command)
    return copy


def strip_digests(envelope: epb.EventEnvelope) -> epb.EventEnvelope:
    """A copy without the digest-only parts (secrets without a value, a
    command record without a command): the shape ``to_event`` folds."""
    copy = epb.EventEnvelope()
    copy.CopyFrom(envelope)
    del copy.secrets[:]
    copy.secrets.extend(s for s in envelope.secrets if s.HasField("value"))
    if envelope.HasField("command") and not envelope.command.HasField("command"):
        copy.ClearField("command")
    return copy


# ---------------------------------------------------------------- openings


def open_secret(envelope: epb.EventEnvelope, index: int) -> epb.SecretOpening:
    """The opening of secret ``index`` of a full, sealed envelope."""
    secret = envelope.secrets[index]
    if not secret.HasField("value") or not secret.salt:
        raise ValueError(f"secret {index} of event {envelope.sequence} is not held whole")
    return epb.SecretOpening(
        sequence=envelope.sequence, index=index, salt=secret.salt, value=secret.value
    )


def disclose(envelope: epb.EventEnvelope, index: int, audience: Iterable[int]) -> epb.Secret:
    """A sealed secret, for ``audience`` only, opening secret ``index`` of an
    earlier full envelope: a reveal to some seats. For a reveal to everyone
    append ``open_secret(...)`` to the new envelope's ``openings`` instead."""
    return seal_secret(audience, open_secret(envelope, index))


def check_secret_opening(
    opening: epb.SecretOpening, stream: Sequence[epb.EventEnvelope]
) -> str | None:
    """Check an opening against the digest in a viewer's own copy of the
    stream (any copy will do: every copy keeps every digest). Returns None
    when it matches, else what is wrong."""
    earlier = next((e for e in stream if e.sequence == opening.sequence), None)
    if earlier is None:
        return f"it opens event {opening.sequence}, which is not in the stream"
    if opening.index >= len(earlier.secrets):
        return f"event {opening.sequence} has no secret {opening.index}"
    digest = earlier.secrets[opening.index].digest
    if not check_opening(digest, opening.salt, opening.value):
        return (
            f"the value and salt do not match the digest of secret {opening.index} "
            f"of event {opening.sequence}"
        )
    return None
