"""Sealed secrets: digests every viewer keeps, openings checked against them."""

from __future__ import annotations

import hashlib

import pytest
from google.protobuf import any_pb2

from cardroom.domain.kernel import AUDITOR, DEALER, SPECTATOR, Actor, Viewer
from cardroom.trust.commitments import (
    SALT_BYTES,
    check_command,
    check_opening,
    check_secret,
    check_secret_opening,
    command_digest,
    digest_form,
    disclose,
    open_secret,
    redact,
    seal_command,
    seal_envelope,
    seal_secret,
    secret_digest,
    strip_digests,
)
from cardroom.trust.envelopes import command_record, to_event
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from tests.trust import fakegame
from tests.trust.harness import played_game

SALT = bytes(range(32))


def packed(message: object) -> any_pb2.Any:
    value = any_pb2.Any()
    value.Pack(message)  # type: ignore[arg-type]
    return value


def test_the_digest_is_sha256_of_salt_then_the_any_bytes() -> None:
    value = packed(fakegame.Hand(seat=1, cards=[3, 5]))
    expected = hashlib.sha256(SALT + value.SerializeToString(deterministic=True)).digest()
    assert secret_digest(SALT, value) == expected
    secret = seal_secret({1}, value, salt=SALT)
    assert secret.digest == expected
    assert secret.salt == SALT
    assert list(secret.audience.seats) == [1]
    assert secret.value == value


def test_seal_secret_packs_messages_and_salts_freshly() -> None:
    a = seal_secret({0}, fakegame.PlayedCard(seat=0, card=4))
    b = seal_secret({0}, fakegame.PlayedCard(seat=0, card=4))
    assert len(a.salt) == SALT_BYTES
    assert a.salt != b.salt
    assert a.digest != b.digest  # same value, unlinkable digests
    assert check_secret(a) and check_secret(b)
    with pytest.raises(ValueError):
        seal_secret({0}, fakegame.Lead(seat=1), salt=b"short")


def test_an_opening_checks_only_with_the_right_value_and_salt() -> None:
    value = packed(fakegame.PlayedCard(seat=0, card=4))
    digest = secret_digest(SALT, value)
    assert check_opening(digest, SALT, value)
    assert not check_opening(digest, bytes(32), value)
    assert not check_opening(digest, SALT, packed(fakegame.PlayedCard(seat=0, card=5)))
    assert not check_opening(digest, SALT[:16], value)
    # Same fields, another type: another value.
    assert not check_opening(digest, SALT, packed(fakegame.Lead(seat=0)))


def test_a_low_entropy_value_cannot_be_guessed_from_its_digest() -> None:
    secret = seal_secret({0}, fakegame.Lead(seat=1))
    guesses = [
        hashlib.sha256(packed(fakegame.Lead(seat=s)).SerializeToString()).digest()
        for s in range(10)
    ]
    assert secret.digest not in guesses


def test_command_records_are_sealed_too() -> None:
    record = command_record(Actor.of_seat(1), fakegame.Play(card=3), "cmd-1")
    seal_command(record, salt=SALT)
    bare = epb.CommandRecord()
    bare.CopyFrom(record)
    bare.ClearField("salt")
    bare.ClearField("digest")
    expected = hashlib.sha256(SALT + bare.SerializeToString(deterministic=True)).digest()
    assert record.digest == expected == command_digest(SALT, record)
    assert check_command(record)
    record.command.CopyFrom(packed(fakegame.Play(card=4)))
    assert not check_command(record)


def envelope_with_secrets() -> epb.EventEnvelope:
    envelope = epb.EventEnvelope(game_id="g", sequence=7, previous_hash=bytes(32))
    envelope.event.Pack(fakegame.Dealt(deck_size=6))
    for seat in (0, 1):
        envelope.secrets.add(
            audience=epb.Audience(seats=[seat]),
            value=packed(fakegame.Hand(seat=seat, cards=[seat, seat + 2])),
        )
    envelope.secrets.add(audience=epb.Audience(), value=packed(fakegame.Undealt(cards=[4, 5])))
    envelope.command.CopyFrom(command_record(DEALER, fakegame.Deal(order=range(6)), ""))
    return seal_envelope(envelope)


def test_seal_envelope_seals_every_secret_and_the_command() -> None:
    envelope = envelope_with_secrets()
    assert all(check_secret(s) for s in envelope.secrets)
    assert check_command(envelope.command)
    salts = {s.salt for s in envelope.secrets} | {envelope.command.salt}
    assert len(salts) == 4
    digests = [s.digest for s in envelope.secrets]
    seal_envelope(envelope)  # sealing twice changes nothing
    assert [s.digest for s in envelope.secrets] == digests


def test_a_redacted_copy_keeps_digests_and_drops_values_and_salts() -> None:
    envelope = envelope_with_secrets()
    seat0 = redact(envelope, Viewer.of_seat(0))
    assert seat0.secrets[0] == envelope.secrets[0]  # its own hand, whole
    for kept, full in zip(seat0.secrets[1:], envelope.secrets[1:], strict=True):
        assert not kept.HasField("value") and not kept.salt
        assert kept.digest == full.digest and kept.audience == full.audience
    assert not seat0.command.HasField("command") and not seat0.command.salt
    assert not seat0.command.command_id and not seat0.command.HasField("actor")
    assert seat0.command.digest == envelope.command.digest

    spectator = redact(envelope, SPECTATOR)
    assert all(not s.HasField("value") and not s.salt for s in spectator.secrets)
    assert redact(envelope, AUDITOR) == envelope
    # The public part and the chain link are everyone's.
    assert spectator.event == envelope.event
    assert spectator.previous_hash == envelope.previous_hash


def test_every_copy_has_the_same_digest_form() -> None:
    envelope = envelope_with_secrets()
    forms = {
        digest_form(redact(envelope, viewer)).SerializeToString(deterministic=True)
        for viewer in (SPECTATOR, AUDITOR, Viewer.of_seat(0), Viewer.of_seat(1))
    }
    assert len(forms) == 1
    form = digest_form(envelope)
    assert all(not s.HasField("value") for s in form.secrets)
    assert [s.digest for s in form.secrets] == [s.digest for s in envelope.secrets]


def test_a_value_seen_by_a_seat_is_the_value_everyone_holds_a_digest_of() -> None:
    """A seat holding value and salt checks them against the digest in a
    spectator's copy: the server cannot show it one hand and commit to
    another."""
    envelope = envelope_with_secrets()
    mine = redact(envelope, Viewer.of_seat(1)).secrets[1]
    public = redact(envelope, SPECTATOR).secrets[1]
    assert check_opening(public.digest, mine.salt, mine.value)
    lie = seal_secret({1}, fakegame.Hand(seat=1, cards=[0, 1]))
    assert not check_opening(public.digest, lie.salt, lie.value)


def test_strip_digests_gives_the_shape_the_rules_fold() -> None:
    envelope = envelope_with_secrets()
    copy = strip_digests(redact(envelope, Viewer.of_seat(0)))
    assert len(copy.secrets) == 1
    assert not copy.HasField("command")
    event = to_event(copy)
    assert event.secrets_of(fakegame.Hand) == [fakegame.Hand(seat=0, cards=[0, 2])]
    assert strip_digests(envelope) == envelope


def test_a_public_reveal_opens_earlier_secrets_to_everyone() -> None:
    game = played_game(fakegame.GAME, reveals=fakegame.reveals)
    spectator = game.copy_for(SPECTATOR)
    openings = [(e.sequence, o) for e in spectator for o in e.openings]
    assert openings, "TrickShown opens the played cards"
    for sequence, opening in openings:
        assert opening.sequence < sequence
        # The spectator checks the reveal against the digests it was served.
        assert check_secret_opening(opening, spectator) is None
        card = fakegame.PlayedCard()
        opening.value.Unpack(card)
        shown = next(e for e in spectator if e.sequence == sequence)
        trick = fakegame.TrickShown()
        shown.event.Unpack(trick)
        assert trick.cards[card.seat] == card.card


def test_a_wrong_opening_is_refused() -> None:
    envelope = envelope_with_secrets()
    stream = [redact(envelope, SPECTATOR)]
    good = open_secret(envelope, 1)
    assert check_secret_opening(good, stream) is None
    wrong_salt = epb.SecretOpening()
    wrong_salt.CopyFrom(good)
    wrong_salt.salt = bytes(32)
    assert "do not match" in str(check_secret_opening(wrong_salt, stream))
    wrong_value = epb.SecretOpening()
    wrong_value.CopyFrom(good)
    wrong_value.value.CopyFrom(packed(fakegame.Hand(seat=1, cards=[4, 5])))
    assert check_secret_opening(wrong_value, stream) is not None
    moved = epb.SecretOpening()
    moved.CopyFrom(good)
    moved.index = 0
    assert check_secret_opening(moved, stream) is not None
    moved.index = 9
    assert "no secret 9" in str(check_secret_opening(moved, stream))
    moved.sequence = 99
    assert "not in the stream" in str(check_secret_opening(moved, stream))
    with pytest.raises(ValueError):
        open_secret(stream[0], 1)  # a redacted copy cannot open anything


def test_a_private_reveal_is_a_sealed_secret_for_its_audience() -> None:
    envelope = envelope_with_secrets()
    disclosure = disclose(envelope, 1, {0})  # seat 0 is shown seat 1's hand
    assert list(disclosure.audience.seats) == [0]
    assert check_secret(disclosure)
    later = epb.EventEnvelope(game_id="g", sequence=8)
    later.event.Pack(tpb.GameStarted())
    later.secrets.append(disclosure)
    seat0 = redact(later, Viewer.of_seat(0))
    opening = epb.SecretOpening()
    assert seat0.secrets[0].value.Unpack(opening)
    assert check_secret_opening(opening, [redact(envelope, Viewer.of_seat(0))]) is None
    assert not redact(later, Viewer.of_seat(1)).secrets[0].HasField("value")


def test_cannot_seal_what_was_redacted() -> None:
    envelope = epb.EventEnvelope(game_id="g", sequence=1)
    envelope.secrets.add(audience=epb.Audience(seats=[0]))
    with pytest.raises(ValueError):
        seal_envelope(envelope)
