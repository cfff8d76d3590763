"""Tournament records: a tournament's events as one signed file, shaped like
a game record (``cardroom.v1.TournamentRecord``; docs/trust.md,
"Tournaments").

A tournament's stream is stored as a game's is: each event a serialized
``EventEnvelope`` (its ``game_id`` the tournament id) with the command
record of its batch (for auditors only: PairRound and FinishTournament carry
the seed) and the hash of the event before it. :func:`append_batch` makes
those bytes; :func:`export_record` signs them.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from google.protobuf.message import DecodeError, Message

from cardroom.domain.kernel import OPERATOR, Actor, Event
from cardroom.trust import chain, commitments, signing
from cardroom.trust.envelopes import command_record, to_envelope
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import tournament_pb2 as tnpb

FORMAT = "cardroom.tournament-record.v1"
CONTEXT = b"cardroom.v1.TournamentRecord\x00"
ENTRY_CONTEXT = b"cardroom.v1.tournament-entry\x00"
# Another domain than the entry's: a registration's signature never passes
# for a withdrawal (TN-LEAVE).
WITHDRAWAL_CONTEXT = b"cardroom.v1.tournament-withdrawal\x00"


class TournamentRecordError(ValueError):
    """A file or message that is not a readable tournament record."""


def entry_claim(tournament_id: str) -> bytes:
    """What a player signs to enter a tournament (TN-REGISTER)."""
    return ENTRY_CONTEXT + tournament_id.encode()


def sign_entry(
    key: Ed25519PrivateKey, tournament_id: str, display_name: str
) -> tnpb.RegisterPlayer:
    """A player's registration, signed with their key (TN-REGISTER)."""
    command = tnpb.RegisterPlayer()
    command.player.public_key = signing.public_key_bytes(key)
    command.player.signature = key.sign(entry_claim(tournament_id))
    command.player.display_name = display_name
    return command


def _signed(public_key: bytes, signature: bytes, claim: bytes) -> bool:
    """Whether ``signature`` is the Ed25519 key's over ``claim``."""
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, claim)
    except (InvalidSignature, ValueError):
        return False
    return True


def entry_signed(registered: tnpb.PlayerRegistered, tournament_id: str) -> bool:
    """Whether the registration's signature is its key's over the claim."""
    proof = registered.player
    return _signed(proof.public_key, proof.signature, entry_claim(tournament_id))


def withdrawal_claim(tournament_id: str) -> bytes:
    """What a player signs to leave a tournament (TN-LEAVE)."""
    return WITHDRAWAL_CONTEXT + tournament_id.encode()


def sign_withdrawal(key: Ed25519PrivateKey, tournament_id: str) -> tnpb.WithdrawPlayer:
    """A player's withdrawal, signed with their key (TN-LEAVE)."""
    return tnpb.WithdrawPlayer(
        public_key=signing.public_key_bytes(key),
        signature=key.sign(withdrawal_claim(tournament_id)),
    )


def withdrawal_signed(command: tnpb.WithdrawPlayer, tournament_id: str) -> bool:
    """Whether the withdrawal's signature is its key's over the claim."""
    return _signed(command.public_key, command.signature, withdrawal_claim(tournament_id))


def append_batch(
    stored: list[bytes],
    tournament_id: str,
    command: Message,
    events: Sequence[Event],
    *,
    recorded_at: datetime,
    actor: Actor = OPERATOR,
    command_id: str = "",
) -> None:
    """Append one command's events to ``stored`` (in place) as the store
    keeps them: sealed, the command recorded on the first event for
    auditors only, chained to the event before."""
    record = command_record(actor, command, command_id)
    record.audience.Clear()  # auditors only: a PairRound holds the seed
    batch = []
    for i, e in enumerate(events):
        envelope = to_envelope(
            tournament_id, len(stored) + i + 1, recorded_at, e, record if i == 0 else None
        )
        batch.append(commitments.seal_envelope(envelope))
    stored.extend(chain.link(batch, chain.chain_head(stored)))


def export_record(
    stored: Sequence[bytes], key: Ed25519PrivateKey, *, exported_at: datetime | None = None
) -> tnpb.TournamentRecord:
    """The signed record of a finished tournament from its events' stored
    bytes. Refused before TournamentFinished: until then the command records
    of PairRound hold the secret seed (TN-SEED)."""
    if not stored:
        raise ValueError("a tournament record needs at least TournamentCreated")
    last = epb.EventEnvelope.FromString(stored[-1])
    if not last.event.Unpack(tnpb.TournamentFinished()):
        raise ValueError("only a finished tournament is exported (its seed is still secret)")
    return sign(build_record(stored, key, exported_at=exported_at), key)


def build_record(
    stored: Sequence[bytes], key: Ed25519PrivateKey, *, exported_at: datetime | None = None
) -> tnpb.TournamentRecord:
    """The unsigned record of these events, naming ``key`` as its signer."""
    first = epb.EventEnvelope.FromString(stored[0])
    created = tnpb.TournamentCreated()
    if not first.event.Unpack(created):
        raise ValueError("a tournament's first event is TournamentCreated")
    body = tnpb.TournamentRecordBody(
        format=FORMAT,
        tournament_id=first.game_id,
        kind=created.kind,
        events=stored,
        chain_head=chain.chain_head(stored),
        key_id=signing.fingerprint(signing.public_key_bytes(key)),
    )
    body.exported_at.FromDatetime(exported_at or datetime.now(UTC))
    return tnpb.TournamentRecord(body=body.SerializeToString(deterministic=True))


def sign(record: tnpb.TournamentRecord, key: Ed25519PrivateKey) -> tnpb.TournamentRecord:
    record.public_key = signing.public_key_bytes(key)
    record.signature = key.sign(CONTEXT + record.body)
    return record


def verify(record: tnpb.TournamentRecord, public_key: bytes | None = None) -> bool:
    """The signature is valid for the key the record names, or for
    ``public_key`` when one is pinned."""
    key = public_key if public_key is not None else record.public_key
    if public_key is not None and record.public_key != public_key:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(record.signature, CONTEXT + record.body)
    except (InvalidSignature, ValueError):
        return False
    return True


def record_body(record: tnpb.TournamentRecord) -> tnpb.TournamentRecordBody:
    try:
        body = tnpb.TournamentRecordBody.FromString(record.body)
    except DecodeError as error:
        raise TournamentRecordError(f"the record's body does not decode: {error}") from None
    if body.format != FORMAT:
        raise TournamentRecordError(f"unknown record format {body.format!r} (expected {FORMAT!r})")
    return body


def from_bytes(data: bytes) -> tnpb.TournamentRecord:
    try:
        record = tnpb.TournamentRecord.FromString(data)
    except DecodeError as error:
        raise TournamentRecordError(f"not a cardroom tournament record: {error}") from None
    if not record.body:
        raise TournamentRecordError("not a cardroom tournament record: it has no body")
    return record


def write_record(record: tnpb.TournamentRecord, path: str | os.PathLike[str]) -> None:
    """Write the record file atomically (a reader never sees half of it)."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    try:
        temporary.write_bytes(record.SerializeToString(deterministic=True))
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def read_record(path: str | os.PathLike[str]) -> tnpb.TournamentRecord:
    """A tournament record file; TournamentRecordError when it is not one
    (a game record, say: its body's format says so)."""
    found = from_bytes(Path(path).read_bytes())
    record_body(found)
    return found
