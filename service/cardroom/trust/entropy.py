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
from collections.abc import Iterable, Sequence
from typing import TypeVar

from google.protobuf import any_pb2
from google.protobuf.message import Message

from cardroom.domain.table import ENTROPY_BYTES, entropy_commitment
from cardroom.trust.commitments import holds
from cardroom.trust.drbg import SEED_BYTES
from cardroom.trust.problems import Problem
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb

M = TypeVar("M", bound=Message)

__all__ = ["ENTROPY_BYTES", "KEY_DOMAIN", "chance_key", "check_entropy", "entropy_commitment"]

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


# ------------------------------------------------------------------ audit


def _unpacked(packed: any_pb2.Any, kind: type[M]) -> M | None:
    message = kind()
    return message if holds(packed, kind) and packed.Unpack(message) else None


def _is_dealer(envelope: epb.EventEnvelope) -> bool:
    return envelope.HasField("command") and envelope.command.actor.kind == epb.Actor.KIND_DEALER


def check_entropy(envelopes: Iterable[epb.EventEnvelope]) -> tuple[list[Problem], str]:
    """The audit of seat entropy (T-ENTROPY), one pass over a full log: every
    commitment is 32 bytes; a server-drawn entropy is a SeatEntropy secret of
    its SeatTaken for that seat alone that opens to the commitment and that
    GameStarted opens publicly; every reveal matches its seat's commitment,
    comes once, after the start and before the first chance outcome; and
    every seat still playing at the first chance outcome has revealed. (That
    each outcome is drawn from the seed and exactly these reveals is the
    chance check's recomputation.) Returns the problems and a summary."""
    problems: list[Problem] = []
    commitments: dict[int, bytes] = {}
    drawn: dict[int, tuple[int, int, bytes]] = {}  # seat: (sequence, secret index, entropy)
    revealed: set[int] = set()
    resigned: set[int] = set()
    started = dealt = False
    for envelope in envelopes:
        at = envelope.sequence

        def add(message: str, at: int = at) -> None:
            problems.append(Problem("entropy", message, at))

        if _is_dealer(envelope) and not dealt:
            dealt = True
            owed = sorted(set(commitments) - revealed - resigned - set(drawn))
            if owed:
                add(f"the first chance outcome came before seat(s) {owed} revealed")
        taken = _unpacked(envelope.event, tpb.SeatTaken)
        if taken is not None:
            entropies = [
                (i, s)
                for i, s in enumerate(envelope.secrets)
                if s.HasField("value") and _unpacked(s.value, tpb.SeatEntropy) is not None
            ]
            if taken.entropy_commitment:
                if len(taken.entropy_commitment) != ENTROPY_BYTES:
                    add(f"seat {taken.seat}'s entropy commitment is not 32 bytes")
                commitments[taken.seat] = taken.entropy_commitment
            if taken.entropy_by_server:
                if len(entropies) != 1:
                    add(f"seat {taken.seat}: {len(entropies)} server entropy secrets, not 1")
                for index, secret in entropies[:1]:
                    value = _unpacked(secret.value, tpb.SeatEntropy)
                    assert value is not None
                    if value.seat != taken.seat or list(secret.audience.seats) != [taken.seat]:
                        add(f"seat {taken.seat}'s server entropy is not its own, for it alone")
                    if _commit(value.entropy) != taken.entropy_commitment:
                        add(f"seat {taken.seat}'s server entropy does not open its commitment")
                    drawn[taken.seat] = (at, index, value.entropy)
            elif entropies:
                add(f"seat {taken.seat} committed its own entropy, yet the server holds one")
        if _unpacked(envelope.event, tpb.GameStarted) is not None:
            started = True
            opened = {(o.sequence, o.index, o.value.SerializeToString()) for o in envelope.openings}
            for seat, (sequence, index, entropy) in sorted(drawn.items()):
                value = tpb.SeatEntropy(seat=seat, entropy=entropy)
                packed = any_pb2.Any()
                packed.Pack(value)
                if (sequence, index, packed.SerializeToString()) not in opened:
                    add(f"the start does not open the entropy the server drew for seat {seat}")
        shown = _unpacked(envelope.event, tpb.SeatEntropyRevealed)
        if shown is not None:
            seat = shown.seat
            if seat not in commitments or seat in drawn:
                add(f"seat {seat} revealed entropy it did not commit to itself")
            elif _commit(shown.entropy) != commitments[seat]:
                add(f"seat {seat}'s revealed entropy does not match its commitment")
            if seat in revealed:
                add(f"seat {seat} revealed its entropy twice")
            if not started or dealt:
                add(f"seat {seat} revealed its entropy outside the reveal step")
            revealed.add(seat)
        left = _unpacked(envelope.event, tpb.SeatResigned)
        if left is not None:
            resigned.add(left.seat)
    if not commitments:
        return problems, ""  # a game from before seats added entropy: nothing to say
    return problems, (
        f"{len(commitments)} seat commitment(s), {len(drawn)} drawn by the server and opened "
        f"at the start, {len(revealed)} revealed by their seats and matching, all before the "
        "first chance outcome"
    )


def _commit(entropy: bytes) -> bytes | None:
    return entropy_commitment(entropy) if len(entropy) == ENTROPY_BYTES else None
