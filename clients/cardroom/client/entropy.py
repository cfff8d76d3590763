"""Your share of the deal (T-ENTROPY, docs/trust.md sections 3 and 15): the
client draws 32 bytes of entropy, commits to them when it takes its seat,
reveals them when the game starts, and at the end checks that the opened
seed and every seat's entropy (its own included) give every chance outcome
of the game, and that what it was shown during play is that game.

The seat's entropy is what keeps the server from choosing the deal: it
committed to its seed before the seat committed to this, and cannot know
this until it is revealed, after every seat has committed."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import trust_pb2

ENTROPY_BYTES = 32
DOMAIN = b"cardroom.v1.seat-entropy\x00"


def new_entropy() -> bytes:
    """32 bytes from the operating system's secure source."""
    return secrets.token_bytes(ENTROPY_BYTES)


def commitment(entropy: bytes) -> bytes:
    """SHA-256("cardroom.v1.seat-entropy" || 0x00 || entropy): what JoinGame
    sends; the entropy itself stays with the client until the reveal."""
    if len(entropy) != ENTROPY_BYTES:
        raise ValueError(f"a seat's entropy is {ENTROPY_BYTES} bytes")
    return hashlib.sha256(DOMAIN + entropy).digest()


def _public(envelope: epb.EventEnvelope, kind: type[tpb.SeatTaken]) -> tpb.SeatTaken | None:
    message = kind()
    return message if envelope.event.Unpack(message) else None


def _own_entropy_problems(
    events: Sequence[epb.EventEnvelope], seat: int, entropy: bytes, by_server: bool
) -> list[str]:
    """Whether the log commits to and reveals this seat's entropy as the
    client knows it."""
    problems = []
    taken = next(
        (
            t
            for e in events
            for t in [_public(e, tpb.SeatTaken)]
            if t is not None and t.seat == seat
        ),
        None,
    )
    if taken is None:
        return [f"the log does not seat you (seat {seat})"]
    if taken.entropy_commitment != commitment(entropy):
        problems.append("your seat's commitment in the log is not the one to your entropy")
    if by_server != taken.entropy_by_server:
        problems.append("the log says otherwise about who drew your seat's entropy")
    if not by_server:
        shown = [
            r
            for e in events
            for r in [tpb.SeatEntropyRevealed()]
            if e.event.Unpack(r) and r.seat == seat
        ]
        if [r.entropy for r in shown] != [entropy]:
            problems.append("the log does not reveal your entropy once, as you sent it")
    return problems


def verify_deal(
    record: trust_pb2.GameRecord,
    seat: int,
    entropy: bytes,
    *,
    by_server: bool = False,
    copies: Sequence[epb.EventEnvelope] = (),
    public_key: bytes | None = None,
) -> list[str]:
    """Everything that fails, as sentences (none: your deal is verified):
    the signed record's full audit (every commitment, every reveal, every
    chance outcome recomputed from the opened seed and all reveals, every
    command re-run), your own commitment and reveal in it, and your
    ``copies`` (the events as you were served them) against it."""
    from cardroom.trust.audit import audit_record, compare_viewer_stream
    from cardroom.trust.record import record_body

    report = audit_record(record, public_key=public_key)
    problems = [str(p) for p in report.problems]
    stored = list(record_body(record).events)
    events = [epb.EventEnvelope.FromString(raw) for raw in stored]
    problems += _own_entropy_problems(events, seat, entropy, by_server)
    problems += [str(p) for p in compare_viewer_stream(copies, stored)]
    return problems


def verdict(problems: Sequence[str], *, by_server: bool = False) -> str:
    """The line a player reads at the end: short when all is well (the
    why is :func:`verdict_details`), every problem when it is not."""
    if problems:
        shown = "; ".join(problems[:5])
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        return f"Deal NOT verified ✗: {shown}{more}"
    return "Deal verified ✓" + (" (on the server's word for your seat)" if by_server else "")


def verdict_details(*, by_server: bool = False) -> str:
    """What a verified deal means, for a reader who asks."""
    whose = "the server's word for your seat's entropy" if by_server else "your own entropy"
    return (
        "The opened seed and every seat's revealed entropy "
        f"({whose}) give every card dealt, and what you were shown is that game."
    )
