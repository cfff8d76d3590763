"""The hash chain catches a changed, deleted, inserted or moved event."""

from __future__ import annotations

import hashlib

import pytest

from cardroom.domain.kernel import SPECTATOR
from cardroom.trust.chain import (
    ZERO_HASH,
    chain_head,
    event_hash,
    link,
    served,
    stored_bytes,
    verify_chain,
)
from cardroom.trust.problems import Problem
from cardroom.v1 import envelope_pb2 as epb
from tests.trust import fakegame
from tests.trust.harness import TrustedGame, played_game


@pytest.fixture(scope="module")
def game() -> TrustedGame:
    return played_game(fakegame.GAME, reveals=fakegame.reveals)


def flagged(problems: list[Problem]) -> set[int | None]:
    return {p.event for p in problems}


def test_an_intact_chain_has_no_problems(game: TrustedGame) -> None:
    assert len(game.stored) > 8
    assert verify_chain(game.stored) == []
    assert verify_chain(game.stored, head=chain_head(game.stored)) == []


def test_what_is_hashed(game: TrustedGame) -> None:
    first = epb.EventEnvelope.FromString(game.stored[0])
    assert first.previous_hash == ZERO_HASH
    for before, raw in zip(game.stored, game.stored[1:], strict=False):
        assert epb.EventEnvelope.FromString(raw).previous_hash == hashlib.sha256(before).digest()
    assert chain_head(game.stored) == hashlib.sha256(game.stored[-1]).digest()
    assert chain_head([]) == ZERO_HASH
    # The stored bytes are the envelope's deterministic serialization.
    for envelope, raw in zip(game.envelopes, game.stored, strict=True):
        assert stored_bytes(envelope) == raw


def changed(raw: bytes) -> bytes:
    envelope = epb.EventEnvelope.FromString(raw)
    envelope.recorded_at.seconds += 1
    return envelope.SerializeToString(deterministic=True)


def test_a_changed_event_is_caught(game: TrustedGame) -> None:
    for k in range(len(game.stored) - 1):
        tampered = list(game.stored)
        tampered[k] = changed(tampered[k])
        problems = verify_chain(tampered)
        assert flagged(problems) == {k + 2}, problems  # the next event's link breaks
        assert "previous_hash" in problems[0].message


def test_a_changed_last_event_is_caught_by_the_head(game: TrustedGame) -> None:
    head = chain_head(game.stored)
    tampered = [*game.stored[:-1], changed(game.stored[-1])]
    assert verify_chain(tampered) == []  # nothing after it links to it...
    problems = verify_chain(tampered, head=head)  # ...but the head does
    assert flagged(problems) == {None}


def test_a_single_flipped_bit_is_caught(game: TrustedGame) -> None:
    raw = bytearray(game.stored[3])
    raw[-1] ^= 0x01
    tampered = list(game.stored)
    tampered[3] = bytes(raw)
    assert verify_chain(tampered, head=chain_head(game.stored))


def test_a_deleted_event_is_caught(game: TrustedGame) -> None:
    head = chain_head(game.stored)
    for k in range(1, len(game.stored) - 1):
        tampered = game.stored[:k] + game.stored[k + 1 :]
        problems = verify_chain(tampered, head=head)
        assert flagged(problems) == {k + 1}
        assert any("sequence" in p.message for p in problems)
        assert any("previous_hash" in p.message for p in problems)
    # The first event too.
    assert flagged(verify_chain(game.stored[1:])) == {1}
    # The last: only the head knows.
    assert verify_chain(game.stored[:-1]) == []
    assert flagged(verify_chain(game.stored[:-1], head=head)) == {None}


def test_an_inserted_event_is_caught(game: TrustedGame) -> None:
    head = chain_head(game.stored)
    # A well-formed forgery, linked to the event before it.
    forged = epb.EventEnvelope.FromString(game.stored[4])
    forged.previous_hash = event_hash(game.stored[4])
    forged.sequence = 6
    tampered = [*game.stored[:5], stored_bytes(forged), *game.stored[5:]]
    problems = verify_chain(tampered, head=head)
    assert 7 in flagged(problems)  # the real event 6 now follows the forgery
    # A copy of an existing event slipped in.
    duplicated = [*game.stored[:5], game.stored[2], *game.stored[5:]]
    assert 6 in flagged(verify_chain(duplicated, head=head))
    # An event appended after the head.
    assert verify_chain([*game.stored, stored_bytes(forged)], head=head)


def test_reordered_events_are_caught(game: TrustedGame) -> None:
    head = chain_head(game.stored)
    for k in range(len(game.stored) - 1):
        tampered = list(game.stored)
        tampered[k], tampered[k + 1] = tampered[k + 1], tampered[k]
        problems = verify_chain(tampered, head=head)
        assert {k + 1, k + 2} <= flagged(problems)
    reversed_stream = list(reversed(game.stored))
    assert verify_chain(reversed_stream, head=head)


def test_renumbering_to_hide_a_deletion_is_caught(game: TrustedGame) -> None:
    """Delete event 4 and renumber the rest: sequences look right, but each
    renumbered event changed, so the links break."""
    tampered = list(game.stored[:3])
    for raw in game.stored[4:]:
        envelope = epb.EventEnvelope.FromString(raw)
        envelope.sequence -= 1
        tampered.append(envelope.SerializeToString(deterministic=True))
    problems = verify_chain(tampered, head=chain_head(game.stored))
    assert problems
    assert not any("sequence" in p.message for p in problems)
    assert 4 in flagged(problems)


def test_undecodable_bytes_and_foreign_events_are_caught(game: TrustedGame) -> None:
    tampered = list(game.stored)
    tampered[2] = b"\xff\xff\xff"
    assert 3 in flagged(verify_chain(tampered))
    other = played_game(fakegame.GAME)
    mixed = [*game.stored[:3], other.stored[3], *game.stored[4:]]
    assert any("game id" in p.message for p in verify_chain(mixed))


def test_link_sets_previous_hash_and_returns_the_stored_bytes() -> None:
    envelopes = [epb.EventEnvelope(game_id="g", sequence=n) for n in (1, 2, 3)]
    stored = link(envelopes, ZERO_HASH)
    assert [stored_bytes(e) for e in envelopes] == stored
    assert envelopes[0].previous_hash == ZERO_HASH
    assert envelopes[2].previous_hash == event_hash(stored[1])
    assert verify_chain(stored) == []
    more = [epb.EventEnvelope(game_id="g", sequence=4)]
    assert verify_chain([*stored, *link(more, chain_head(stored))]) == []
    with pytest.raises(ValueError):
        link(more, b"short")


def test_event_hash_is_served_but_never_stored(game: TrustedGame) -> None:
    envelope = game.envelopes[5]
    copy = served(envelope, game.stored[5])
    assert copy.event_hash == event_hash(game.stored[5])
    assert not envelope.event_hash  # the original is untouched
    with pytest.raises(ValueError):
        stored_bytes(copy)
    smuggled = list(game.stored)
    smuggled[5] = copy.SerializeToString(deterministic=True)
    assert any("event_hash" in p.message for p in verify_chain(smuggled))
    # Every viewer's copy carries the chain head as the last event's hash.
    spectator = game.copy_for(SPECTATOR)
    assert spectator[-1].event_hash == chain_head(game.stored)
