"""The hash chain over a game's stored events (docs/trust.md, "Hash chain").

An event's hash is SHA-256 over its exact stored bytes: the deterministic
protobuf serialization of its unredacted ``EventEnvelope``. Every envelope
carries ``previous_hash``, the hash of the event before it in the same game
(32 zero bytes for the first), so the stored bytes of event *n* commit to the
whole stream up to *n*. The chain head, the hash of the last event, commits
to all of it: the signed game record carries it, and the server serves it to
viewers as ``event_hash`` (a field that is never stored).

Tampering shows up as: a changed event (the next event's ``previous_hash``
no longer matches, or for the last event the head no longer matches), a
deleted, inserted or moved event (a break in the 1, 2, 3... sequence numbers,
and a ``previous_hash`` mismatch). Someone who rewrites an event *and* every
hash after it is only caught by a head kept elsewhere (a signed record, a
viewer's copy): :func:`verify_chain` takes that head when there is one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from google.protobuf.message import DecodeError

from cardroom.trust.problems import Problem
from cardroom.v1 import envelope_pb2 as epb

HASH_BYTES = 32
ZERO_HASH = bytes(HASH_BYTES)


def stored_bytes(envelope: epb.EventEnvelope) -> bytes:
    """The bytes stored for an envelope (as ``cardroom.server.storage.log`` writes them)."""
    if envelope.event_hash:
        raise ValueError("event_hash is never stored: clear it before storing")
    return envelope.SerializeToString(deterministic=True)


def event_hash(stored: bytes) -> bytes:
    """SHA-256 over an event's exact stored bytes."""
    return hashlib.sha256(stored).digest()


def chain_head(stored: Sequence[bytes]) -> bytes:
    """The hash of the last stored event (ZERO_HASH for an empty stream)."""
    return event_hash(stored[-1]) if stored else ZERO_HASH


def link(envelopes: Sequence[epb.EventEnvelope], previous_hash: bytes) -> list[bytes]:
    """Chain a batch about to be appended: set each envelope's
    ``previous_hash`` (in place), starting from the hash of the game's last
    stored event (ZERO_HASH for a new game). Returns the stored bytes of each;
    the last one's :func:`event_hash` is the new head."""
    if len(previous_hash) != HASH_BYTES:
        raise ValueError(f"previous_hash must be {HASH_BYTES} bytes")
    stored = []
    for envelope in envelopes:
        envelope.previous_hash = previous_hash
        raw = stored_bytes(envelope)
        stored.append(raw)
        previous_hash = event_hash(raw)
    return stored


def served(envelope: epb.EventEnvelope, stored: bytes) -> epb.EventEnvelope:
    """A copy of ``envelope`` (possibly redacted) with ``event_hash`` set to
    the hash of the event's stored bytes, for sending to a viewer."""
    copy = epb.EventEnvelope()
    copy.CopyFrom(envelope)
    copy.event_hash = event_hash(stored)
    return copy


# verify_chain's problem for an event whose bytes do not decode.
UNDECODABLE = "the stored bytes are not an EventEnvelope"


def verify_chain(stored: Iterable[bytes], *, head: bytes | None = None) -> list[Problem]:
    """Check a game's stored events, in stored order: each decodes, has the
    same game id, the sequence number after the one before it (1 first), and
    the hash of the event before it as ``previous_hash``. With ``head`` (a
    chain head kept elsewhere), also that the last event hashes to it, which
    catches a change to the last event and events removed from or added at
    the end. Returns the problems found; empty means the chain is intact."""
    problems: list[Problem] = []
    expected_previous = ZERO_HASH
    expected_sequence = 1
    game_id: str | None = None
    for position, raw in enumerate(stored, 1):
        try:
            envelope = epb.EventEnvelope.FromString(raw)
        except DecodeError:
            problems.append(Problem("chain", UNDECODABLE, position))
            expected_previous = event_hash(raw)
            expected_sequence += 1
            continue
        if envelope.sequence != expected_sequence:
            problems.append(
                Problem(
                    "chain",
                    f"sequence {envelope.sequence} where {expected_sequence} was due "
                    "(an event was deleted, inserted or moved)",
                    position,
                )
            )
        if envelope.previous_hash != expected_previous:
            problems.append(
                Problem(
                    "chain",
                    "previous_hash is not the hash of the event before it "
                    "(that event was changed, or events were deleted, inserted or moved)",
                    position,
                )
            )
        if game_id is None:
            game_id = envelope.game_id
        elif envelope.game_id != game_id:
            problems.append(
                Problem(
                    "chain", f"game id {envelope.game_id!r} in a stream of {game_id!r}", position
                )
            )
        if envelope.event_hash:
            problems.append(Problem("chain", "a stored event carries event_hash", position))
        expected_previous = event_hash(raw)
        expected_sequence = envelope.sequence + 1
    if head is not None and head != expected_previous:
        problems.append(
            Problem(
                "chain",
                f"the chain ends at {expected_previous.hex()[:16]}..., not at the head "
                f"{head.hex()[:16]}... (the last event was changed, or events were removed "
                "from or added at the end)",
            )
        )
    return problems
