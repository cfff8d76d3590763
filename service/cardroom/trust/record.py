"""Game records: a finished game as one self-contained, signed file
(docs/trust.md, "Signed game records").

The file is a serialized ``cardroom.v1.GameRecord`` (binary protobuf, no
header): ``body`` is a serialized ``GameRecordBody`` holding the exact
stored bytes of every event, the chain head and the openings of the game's
commitments; ``public_key`` and ``signature`` are the server's Ed25519
signature over the body (see :mod:`cardroom.trust.signing`). It decodes with
the .proto files alone, e.g. ``protoc --decode cardroom.v1.GameRecord``.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from google.protobuf.message import DecodeError

from cardroom.trust import chance, signing
from cardroom.trust.chain import chain_head, stored_bytes
from cardroom.trust.commitments import open_secret
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import trust_pb2 as trpb

FORMAT = "cardroom.game-record.v1"


class RecordError(ValueError):
    """A file or message that is not a readable game record."""


def build_record(
    events: Sequence[bytes | epb.EventEnvelope], *, exported_at: datetime | None = None
) -> trpb.GameRecord:
    """An unsigned record of a game from its unredacted events, preferably
    their exact stored bytes (envelopes are serialized as the store does)."""
    if not events:
        raise ValueError("a game record needs at least the game's first event")
    stored = [e if isinstance(e, bytes) else stored_bytes(e) for e in events]
    first = epb.EventEnvelope.FromString(stored[0])
    created = tpb.GameCreated()
    if not first.event.Unpack(created):
        raise ValueError("a game's first event is GameCreated")
    body = trpb.GameRecordBody(
        format=FORMAT,
        game_id=first.game_id,
        kind=created.kind,
        rules_version=created.rules_version,
        events=stored,
        chain_head=chain_head(stored),
    )
    for index in (chance.seed_index(first), chance.set_deal_index(first)):
        if index is not None:
            body.openings.append(open_secret(first, index))
    body.exported_at.FromDatetime(exported_at or datetime.now(UTC))
    return trpb.GameRecord(body=body.SerializeToString(deterministic=True))


def export_record(
    events: Sequence[bytes | epb.EventEnvelope],
    key: Ed25519PrivateKey,
    *,
    exported_at: datetime | None = None,
) -> trpb.GameRecord:
    """A signed record: :func:`build_record`, then :func:`signing.sign`."""
    return signing.sign(build_record(events, exported_at=exported_at), key)


def record_body(record: trpb.GameRecord) -> trpb.GameRecordBody:
    try:
        body = trpb.GameRecordBody.FromString(record.body)
    except DecodeError as error:
        raise RecordError(f"the record's body does not decode: {error}") from None
    if body.format != FORMAT:
        raise RecordError(f"unknown record format {body.format!r} (expected {FORMAT!r})")
    return body


def record_envelopes(record: trpb.GameRecord) -> list[epb.EventEnvelope]:
    """The record's events, decoded (the chain is checked on the bytes)."""
    return [epb.EventEnvelope.FromString(raw) for raw in record_body(record).events]


def to_bytes(record: trpb.GameRecord) -> bytes:
    return record.SerializeToString(deterministic=True)


def from_bytes(data: bytes) -> trpb.GameRecord:
    try:
        record = trpb.GameRecord.FromString(data)
    except DecodeError as error:
        raise RecordError(f"not a cardroom game record: {error}") from None
    if not record.body:
        raise RecordError("not a cardroom game record: it has no body")
    return record


def write_record(record: trpb.GameRecord, path: str | os.PathLike[str]) -> None:
    """Write the record file atomically (a reader never sees half of it)."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    try:
        temporary.write_bytes(to_bytes(record))
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def read_record(path: str | os.PathLike[str]) -> trpb.GameRecord:
    return from_bytes(Path(path).read_bytes())
