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

import contextlib
import mmap
import os
import secrets
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO, overload

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
    events: Sequence[bytes | epb.EventEnvelope],
    *,
    exported_at: datetime | None = None,
    key_id: str = "",
) -> trpb.GameRecord:
    """An unsigned record of a game from its unredacted events, preferably
    their exact stored bytes (envelopes are serialized as the store does);
    ``key_id`` names the key that is to sign it."""
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
    body.key_id = key_id
    return trpb.GameRecord(body=body.SerializeToString(deterministic=True))


def export_record(
    events: Sequence[bytes | epb.EventEnvelope],
    key: Ed25519PrivateKey,
    *,
    exported_at: datetime | None = None,
) -> trpb.GameRecord:
    """A signed record: :func:`build_record` naming the key's id (its
    fingerprint), then :func:`signing.sign`."""
    key_id = signing.fingerprint(signing.public_key_bytes(key))
    return signing.sign(build_record(events, exported_at=exported_at, key_id=key_id), key)


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


# ------------------------------------------------------- records of any size
#
# A long game's record is many megabytes. These read one without decoding it
# into a message: the record's three fields and the body's fields other than
# its events are found by walking the protobuf wire format (every field a
# varint, a fixed 32/64-bit value or a length-delimited run), the body's
# other fields are decoded by protobuf itself, and its events are handed out
# one at a time as slices of the file's bytes.

_EVENTS_FIELD = 5


def _varint(data: memoryview, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(data) or shift > 63:
            raise RecordError("not a cardroom game record: a truncated or overlong varint")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, at
        shift += 7


def _fields(data: memoryview) -> Iterator[tuple[int, int, int, int, int]]:
    """(field number, wire type, start of the field's tag, start of its
    value, end) for each field of a serialized message, in order; the value
    of a length-delimited field is data[start:end] without its length."""
    at = 0
    while at < len(data):
        tag_at = at
        tag, at = _varint(data, at)
        number, wire = tag >> 3, tag & 7
        if number == 0:
            raise RecordError("not a cardroom game record: field number 0")
        if wire == 0:
            _, end = _varint(data, at)
            yield number, wire, tag_at, at, end
        elif wire == 1:
            end = at + 8
            yield number, wire, tag_at, at, end
        elif wire == 5:
            end = at + 4
            yield number, wire, tag_at, at, end
        elif wire == 2:
            length, at = _varint(data, at)
            end = at + length
            yield number, wire, tag_at, at, end
        else:
            raise RecordError(f"not a cardroom game record: wire type {wire}")
        if end > len(data):
            raise RecordError("not a cardroom game record: a field runs past the end")
        at = end


@dataclass
class ScannedRecord:
    """A serialized GameRecord read in place: ``body`` is the slice of the
    record's bytes that was signed; ``header`` is the body decoded without
    its events; ``events()`` yields the events' stored bytes in order."""

    body: memoryview
    public_key: bytes
    signature: bytes
    header: trpb.GameRecordBody
    _events: list[tuple[int, int]]

    @property
    def event_count(self) -> int:
        return len(self._events)

    def events(self) -> Iterator[bytes]:
        for start, end in self._events:
            yield bytes(self.body[start:end])

    @property
    def stored(self) -> Sequence[bytes]:
        """The events' stored bytes by position, each read when asked for."""
        return _Events(self)

    def event(self, index: int) -> bytes:
        start, end = self._events[index]
        return bytes(self.body[start:end])

    def verify(self, public_key: bytes | None = None) -> bool:
        """``signing.verify`` of the whole record (the body is copied once,
        with the signing context in front: Ed25519 needs it whole)."""
        return signing.verify_body(self.body, self.public_key, self.signature, public_key)


class _Events(Sequence[bytes]):
    def __init__(self, scanned: ScannedRecord) -> None:
        self._scanned = scanned

    def __len__(self) -> int:
        return self._scanned.event_count

    @overload
    def __getitem__(self, index: int) -> bytes: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[bytes]: ...
    def __getitem__(self, index: int | slice) -> bytes | Sequence[bytes]:
        if isinstance(index, slice):
            return [self._scanned.event(i) for i in range(*index.indices(len(self)))]
        return self._scanned.event(index)


def scan(data: bytes | memoryview | mmap.mmap) -> ScannedRecord:
    """Read a serialized GameRecord in place (see above): what
    :func:`from_bytes` and :func:`record_body` give, but the events stay in
    ``data`` until asked for. RecordError when it is not a record whose
    body has a known format."""
    view = memoryview(data)
    try:
        return _scan(view)
    finally:
        view.release()  # the body's slice keeps what it needs


def _scan(view: memoryview) -> ScannedRecord:
    body = memoryview(b"")
    public_key = signature = b""
    found_body = False
    for number, wire, _tag, start, end in _fields(view):
        if wire != 2 or number not in (1, 2, 3):
            continue
        if number == 1:
            body, found_body = view[start:end], True
        elif number == 2:
            public_key = bytes(view[start:end])
        else:
            signature = bytes(view[start:end])
    try:
        return _scan_body(body, found_body, public_key, signature)
    except BaseException:
        # A refused record must not keep its slice of the caller's buffer:
        # a mapped file could not be closed (BufferError instead of the
        # RecordError that says what is wrong with it).
        body.release()
        raise


def _scan_body(
    body: memoryview, found_body: bool, public_key: bytes, signature: bytes
) -> ScannedRecord:
    if not found_body or not len(body):
        raise RecordError("not a cardroom game record: it has no body")
    header = bytearray()
    events: list[tuple[int, int]] = []
    try:
        for number, wire, tag, start, end in _fields(body):
            if number == _EVENTS_FIELD and wire == 2:
                events.append((start, end))
            else:
                header += body[tag:end]
        parsed = trpb.GameRecordBody.FromString(bytes(header))
    except (RecordError, DecodeError) as error:
        raise RecordError(f"the record's body does not decode: {error}") from None
    if parsed.format != FORMAT:
        raise RecordError(f"unknown record format {parsed.format!r} (expected {FORMAT!r})")
    return ScannedRecord(body, public_key, signature, parsed, events)


@contextlib.contextmanager
def mapped(source: str | os.PathLike[str] | BinaryIO) -> Iterator[ScannedRecord]:
    """:func:`scan` of a record file (a path, or a file open for reading),
    mapped into memory rather than read: its bytes are paged in as they are
    used."""
    with contextlib.ExitStack() as stack:
        if isinstance(source, (str, os.PathLike)):
            file: BinaryIO = stack.enter_context(open(source, "rb"))
        else:
            file = source
        if os.fstat(file.fileno()).st_size == 0:
            raise RecordError("not a cardroom game record: the file is empty")
        memory = stack.enter_context(mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ))
        scanned = scan(memory)
        try:
            yield scanned
        finally:
            scanned.body.release()


@dataclass(frozen=True)
class Summary:
    game_id: str
    kind: str
    event_count: int
    public_key: bytes


def summarize(path: str | os.PathLike[str]) -> Summary:
    """What a record file says it holds (nothing is verified)."""
    with mapped(path) as scanned:
        header = scanned.header
        return Summary(header.game_id, header.kind, scanned.event_count, scanned.public_key)


@contextlib.contextmanager
def open_for_writing(output: str) -> Iterator[BinaryIO]:
    """A record file being written a chunk at a time: ``-`` is standard
    output; a path is written under a temporary name and moved into place
    when the block ends without an error (a reader never sees half of it)."""
    if output == "-":
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    path = Path(output)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    try:
        with temporary.open("wb") as file:
            yield file
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
