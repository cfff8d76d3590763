"""Seat entropy: the chance key every outcome is drawn with, derived from
the server's seed and every seat's revealed entropy (docs/trust.md, "Chance
outcomes", and section 15), and the audit of the commitments and reveals.

Each seat commits to 32 bytes of entropy when it takes its seat (public in
``SeatTaken``) and reveals them after the start, before the first chance
outcome (T-ENTROPY). The server committed its seed in event 1, before any
seat was taken, so it cannot choose a seed to suit entropies it does not
know, and no seat can choose its entropy to suit a seed it does not know.
Games from before this (no seat commitment recorded) keep the seed itself
as the key, so they replay and audit as they always did.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Sequence

from cardroom.domain.table import ENTROPY_BYTES, entropy_commitment
from cardroom.trust.drbg import SEED_BYTES

__all__ = ["ENTROPY_BYTES", "KEY_DOMAIN", "chance_key", "entropy_commitment"]

KEY_DOMAIN = b"cardroom.v1.chance-key\x00"


def chance_key(seed: bytes, game_id: str, entropies: Sequence[tuple[int, bytes]]) -> bytes:
    """The key of every chance outcome of a game whose seats revealed
    ``entropies`` ((seat, 32 bytes), in increasing seat order):

        HMAC-SHA256(key = seed,
                    msg = "cardroom.v1.chance-key" || 0x00
                          || u32be(len(game_id)) || game_id
                          || u32be(n)
                          || for each of the n seats: u32be(seat) || entropy)

    With no entropy at all (games from before seats added it) the key is
    the seed itself."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a chance seed is {SEED_BYTES} bytes")
    if not entropies:
        return bytes(seed)
    seats = [seat for seat, _ in entropies]
    if seats != sorted(set(seats)):
        raise ValueError("the entropies are one per seat, in increasing seat order")
    gid = game_id.encode()
    message = bytearray(KEY_DOMAIN)
    message += struct.pack(">I", len(gid)) + gid + struct.pack(">I", len(entropies))
    for seat, entropy in entropies:
        if len(entropy) != ENTROPY_BYTES:
            raise ValueError(f"seat {seat}'s entropy is not {ENTROPY_BYTES} bytes")
        message += struct.pack(">I", seat) + entropy
    return hmac.new(seed, bytes(message), hashlib.sha256).digest()
