"""Players: an Ed25519 key pair the client holds, and its signature over the
one seat it claims (docs/trust.md, "Players").

A seat claim is the bytes

    "cardroom.v1.seat-claim" || 0x00 || game_id (UTF-8) || 0x00
    || u32be(seat) || entropy_commitment

where ``entropy_commitment`` is the seat's own commitment as the request
carried it (empty when the server drew the seat's entropy, as for the
server's bots). The server checks the signature before it seats anyone, and
records the proof verbatim in ``SeatTaken``; ``cardroom audit`` checks it
again, so a server cannot put a player into a game they never joined.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Iterable

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from cardroom.trust import signing
from cardroom.trust.commitments import holds
from cardroom.trust.problems import Problem
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb

CLAIM_DOMAIN = b"cardroom.v1.seat-claim\x00"
BOT_DOMAIN = b"cardroom.v1.bot-player\x00"
PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64
MAX_DISPLAY_NAME = 64


def player_id(public_key: bytes) -> str:
    """How a player is named in URLs and listings: the lowercase hex of the
    first 16 bytes of SHA-256 of the public key (as a server key's id)."""
    return signing.fingerprint(public_key)


def seat_claim(game_id: str, seat: int, entropy_commitment: bytes) -> bytes:
    """The exact bytes a player signs to claim ``seat`` of ``game_id``."""
    return (
        CLAIM_DOMAIN
        + game_id.encode()
        + b"\x00"
        + struct.pack(">I", seat)
        + bytes(entropy_commitment)
    )


def sign_seat(
    key: Ed25519PrivateKey,
    game_id: str,
    seat: int,
    entropy_commitment: bytes = b"",
    display_name: str = "",
) -> tpb.PlayerProof:
    """The proof a client sends with JoinGame or AcceptInvitation."""
    return tpb.PlayerProof(
        public_key=signing.public_key_bytes(key),
        signature=key.sign(seat_claim(game_id, seat, entropy_commitment)),
        display_name=display_name,
    )


def proof_problem(
    proof: tpb.PlayerProof, game_id: str, seat: int, entropy_commitment: bytes
) -> str | None:
    """Why ``proof`` does not prove a claim to ``seat`` of ``game_id``, or
    None when it does."""
    if len(proof.public_key) != PUBLIC_KEY_BYTES:
        return f"player.public_key must be {PUBLIC_KEY_BYTES} bytes (raw Ed25519)"
    if len(proof.signature) != SIGNATURE_BYTES:
        return f"player.signature must be {SIGNATURE_BYTES} bytes (Ed25519)"
    if len(proof.display_name) > MAX_DISPLAY_NAME:
        return f"player.display_name is longer than {MAX_DISPLAY_NAME} characters"
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes(proof.public_key))
        key.verify(bytes(proof.signature), seat_claim(game_id, seat, entropy_commitment))
    except (InvalidSignature, ValueError):
        return f"player.signature does not sign seat {seat} of game {game_id} with this key"
    return None


def signed_commitment(taken: tpb.SeatTaken) -> bytes:
    """The commitment a recorded seat's proof signed: the seat's own, or
    nothing when the server drew its entropy."""
    return b"" if taken.entropy_by_server else bytes(taken.entropy_commitment)


def bot_player_key(bot_secret: bytes, strategy: str) -> Ed25519PrivateKey:
    """The key of the server's bots of one strategy: derived from the
    server's bot secret, so every bot of that level is one rated player,
    after a restart too, and only the server can sign as it."""
    seed = hmac.new(bot_secret, BOT_DOMAIN + strategy.encode(), hashlib.sha256).digest()
    return Ed25519PrivateKey.from_private_bytes(seed)


def check_players(envelopes: Iterable[epb.EventEnvelope]) -> tuple[list[Problem], str]:
    """The audit of players' seat claims, one pass over a full log: every
    recorded ``SeatTaken.player`` signs exactly that seat of that game (with
    the seat's own commitment). Returns the problems and a summary."""
    problems: list[Problem] = []
    signed = anonymous = 0
    for envelope in envelopes:
        taken = tpb.SeatTaken()
        if not (holds(envelope.event, tpb.SeatTaken) and envelope.event.Unpack(taken)):
            continue
        if not taken.HasField("player"):
            anonymous += 1
            continue
        problem = proof_problem(
            taken.player, envelope.game_id, taken.seat, signed_commitment(taken)
        )
        if problem is None:
            signed += 1
        else:
            problems.append(Problem("players", f"seat {taken.seat}: {problem}", envelope.sequence))
    summary = f"{signed} seat(s) signed by their player's key, {anonymous} anonymous"
    return problems, summary
