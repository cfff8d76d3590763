"""Signed heads: the server's signature over (game id, sequence, chain head,
key id), served with every event, so that two different heads for one
sequence of one game are a portable proof that the server showed two
histories (docs/trust.md, "Signed heads").

What is signed is public to every viewer of the event: the game id, the
sequence number and the chain head (the served ``event_hash``), so a signed
head tells a viewer nothing it was not already served, and it is the same
bytes for every viewer of one event (Ed25519 signatures are deterministic).
The signed message::

    "cardroom.v1.SignedHead" || 0x00
    || u32be(len(game_id)) || game_id        (UTF-8)
    || u64be(sequence)
    || chain_head                             (32 bytes)
    || u32be(len(key_id)) || key_id           (ASCII hex)

Saved heads are JSON lines (:func:`to_json_line`), one head a line.
"""

from __future__ import annotations

import json
import struct
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from cardroom.trust import signing
from cardroom.trust.chain import HASH_BYTES
from cardroom.trust.keyring import KeyList, key_id
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import trust_pb2 as trpb

CONTEXT = b"cardroom.v1.SignedHead\x00"
SIGNATURE_BYTES = 64
# Signed heads kept for reuse: one per event served recently (every viewer
# of an event is served the same head, so it is signed once).
CACHED_HEADS = 4096


class HeadError(ValueError):
    """A saved head that cannot be read."""


def signed_bytes(game_id: str, sequence: int, chain_head: bytes, key: str) -> bytes:
    """The exact bytes a signed head's signature covers (module docstring)."""
    if len(chain_head) != HASH_BYTES:
        raise ValueError(f"a chain head is {HASH_BYTES} bytes")
    game = game_id.encode()
    name = key.encode("ascii")
    return b"".join(
        (
            CONTEXT,
            struct.pack(">I", len(game)),
            game,
            struct.pack(">Q", sequence),
            chain_head,
            struct.pack(">I", len(name)),
            name,
        )
    )


def sign_head(
    key: Ed25519PrivateKey,
    game_id: str,
    sequence: int,
    chain_head: bytes,
    name: str | None = None,
) -> trpb.SignedHead:
    """The server's signed head for event ``sequence`` of a game. ``name``:
    the key's id, when the caller holds it (deriving it costs a third of
    the signature)."""
    if name is None:
        name = key_id(signing.public_key_bytes(key))
    return trpb.SignedHead(
        game_id=game_id,
        sequence=sequence,
        chain_head=chain_head,
        key_id=name,
        signature=key.sign(signed_bytes(game_id, sequence, chain_head, name)),
    )


def verify_head(head: trpb.SignedHead, public_key: bytes) -> bool:
    """Whether ``public_key`` (whose id the head must name) signed the head."""
    if key_id(public_key) != head.key_id or len(public_key) != signing.PUBLIC_KEY_BYTES:
        return False
    try:
        message = signed_bytes(head.game_id, head.sequence, head.chain_head, head.key_id)
        Ed25519PublicKey.from_public_bytes(public_key).verify(head.signature, message)
    except (InvalidSignature, ValueError, UnicodeEncodeError):
        return False
    return True


def head_of(envelope: epb.EventEnvelope) -> tuple[str, int, bytes]:
    """What a served copy says of its event: (game id, sequence, chain head)."""
    return envelope.game_id, envelope.sequence, envelope.event_hash


class HeadSigner:
    """Signs the heads of served events with the current key, each once:
    every viewer of an event is served the same signed head. Safe to call
    from worker threads and the event loop alike."""

    def __init__(self, key: Ed25519PrivateKey, cached: int = CACHED_HEADS) -> None:
        self.key = key
        self.key_name = key_id(signing.public_key_bytes(key))
        self._cached = cached
        self._heads: OrderedDict[tuple[str, int, bytes], trpb.SignedHead] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, envelope: epb.EventEnvelope) -> trpb.SignedHead:
        """The signed head of a served copy (its event_hash is the head)."""
        found = head_of(envelope)
        with self._lock:
            head = self._heads.get(found)
            if head is not None:
                self._heads.move_to_end(found)
                return head
        head = sign_head(self.key, *found, name=self.key_name)
        with self._lock:
            self._heads[found] = head
            while len(self._heads) > self._cached:
                self._heads.popitem(last=False)
        return head

    def last(self, envelopes: Sequence[epb.EventEnvelope]) -> trpb.SignedHead | None:
        """The signed head covering a batch: its last event's (None: empty)."""
        return self.of(envelopes[-1]) if envelopes else None


# ------------------------------------------------------------- saved heads


def to_json_line(head: trpb.SignedHead, public_key: bytes | None = None) -> str:
    """One saved head, as a line of the heads file (without its newline)."""
    line: dict[str, Any] = {
        "game_id": head.game_id,
        "sequence": head.sequence,
        "chain_head": head.chain_head.hex(),
        "key_id": head.key_id,
        "signature": head.signature.hex(),
    }
    if public_key is not None:
        line["public_key"] = public_key.hex()
    return json.dumps(line, separators=(",", ":"))


@dataclass(frozen=True)
class SavedHead:
    """A head read back, with the public key its line carried (if any)."""

    head: trpb.SignedHead
    public_key: bytes | None = None


def from_json_line(text: str) -> SavedHead:
    try:
        line = json.loads(text)
        if not isinstance(line, dict):
            raise TypeError
        head = trpb.SignedHead(
            game_id=str(line["game_id"]),
            sequence=int(line["sequence"]),
            chain_head=bytes.fromhex(line["chain_head"]),
            key_id=str(line["key_id"]),
            signature=bytes.fromhex(line["signature"]),
        )
        public = line.get("public_key")
        return SavedHead(head, None if public is None else bytes.fromhex(public))
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise HeadError(f"not a saved signed head: {error}") from None


def read_heads(lines: Iterable[str]) -> Iterator[SavedHead]:
    """The heads of a heads file (blank lines skipped); HeadError names the line."""
    for number, text in enumerate(lines, 1):
        if text.strip():
            try:
                yield from_json_line(text)
            except HeadError as error:
                raise HeadError(f"line {number}: {error}") from None


# ------------------------------------------------------------ equivocation


@dataclass(frozen=True)
class Proof:
    """Two valid signed heads by the server's keys for the same game and
    sequence with different chain heads: the server equivocated."""

    first: trpb.SignedHead
    second: trpb.SignedHead
    first_key: bytes
    second_key: bytes

    def lines(self) -> list[str]:
        """The proof as two lines of a heads file (each with its key)."""
        return [
            to_json_line(self.first, self.first_key),
            to_json_line(self.second, self.second_key),
        ]


@dataclass
class Comparison:
    """What comparing sets of heads found."""

    proofs: list[Proof] = field(default_factory=list)
    compared: int = 0  # valid heads taken into account
    common: int = 0  # (game, sequence) pairs held by more than one source
    rejected: list[str] = field(default_factory=list)  # heads that prove nothing, and why


KeyFinder = Callable[[SavedHead], bytes | None]


def key_finder(keys: KeyList) -> KeyFinder:
    """Resolve a head's key from ``keys``, the server's own key list (one it
    published, or one the auditor holds). Never from the public key a saved
    line carries: that is the line's word, and a forger's line carries the
    forger's key."""

    def find(saved: SavedHead) -> bytes | None:
        listed = keys.find(saved.head.key_id)
        return None if listed is None else listed.public_key

    return find


def compare(sources: Sequence[Iterable[SavedHead]], find_key: KeyFinder) -> Comparison:
    """Every pair of valid heads for one (game, sequence) with different
    chain heads is a proof. A head whose key is unknown or whose signature
    does not verify is rejected (listed, never part of a proof)."""
    result = Comparison()
    seen: dict[tuple[str, int], dict[bytes, tuple[trpb.SignedHead, bytes, int]]] = {}
    holders: dict[tuple[str, int], set[int]] = {}
    for number, source in enumerate(sources, 1):
        for saved in source:
            head = saved.head
            where = f"source {number}, game {head.game_id} sequence {head.sequence}"
            public = find_key(saved)
            if public is None:
                result.rejected.append(f"{where}: key {head.key_id} is not known")
                continue
            if not verify_head(head, public):
                result.rejected.append(f"{where}: the signature does not verify")
                continue
            result.compared += 1
            slot = (head.game_id, head.sequence)
            holders.setdefault(slot, set()).add(number)
            heads = seen.setdefault(slot, {})
            if bytes(head.chain_head) not in heads:
                for other, other_public, _ in heads.values():
                    result.proofs.append(Proof(other, head, other_public, public))
                heads[bytes(head.chain_head)] = (head, public, number)
    result.common = sum(1 for held in holders.values() if len(held) > 1)
    return result
