"""The offline auditor on Silver Dagger: finished games pass, with every
card shown opening the digest committed when it was dealt or moved; a card
re-dealt, a look's result changed, a shuffle that is not the committed
seed's and a false reveal are each caught.

Games run through the trust harness (tests/trust/harness.py): sealed
secrets, the committed seed, the hash chain and reveals as the service
makes them, here with the set deal and commands of a recorded random game.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from google.protobuf.message import Message

from cardroom.domain import table as tables
from cardroom.domain.kernel import DEALER, Actor, Event
from cardroom.domain.silver_dagger import GAME
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb
from cardroom.trust import chain, commitments
from cardroom.trust.audit import Report, audit_record
from cardroom.trust.commitments import holds, secret_digest
from cardroom.trust.envelopes import to_envelope, to_event, unpack
from cardroom.trust.record import export_record
from cardroom.trust.signing import public_key_bytes
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import trust_pb2 as trpb
from tests.silver_dagger.play import recorded
from tests.trust.harness import TrustedGame

KEY = Ed25519PrivateKey.generate()


def reveals(history: Sequence[epb.EventEnvelope], public: Message) -> list[tuple[int, int]]:
    """What the service opens for everyone when an event shows cards: the
    latest earlier SlotCard secret of each revealed slot (kernel.Reveal)."""
    found = []
    for reveal in GAME.reveals(Event(public)):
        if reveal.audience is not None:
            continue  # a disclosure to one seat: not in this harness
        for envelope in reversed(history):
            hits = [
                i
                for i, s in enumerate(envelope.secrets)
                if holds(s.value, pb.SlotCard) and reveal.match(unpack(s.value))
            ]
            if hits:
                found.append((envelope.sequence, hits[0]))
                break
    return found


def played(seats: int, seed: int) -> TrustedGame:
    deals, commands = recorded(seed, seats)
    game = TrustedGame(GAME, reveals)
    game.create(seats, pb.Options(), deals)
    game.seat_everyone()
    for n, (seat, command) in enumerate(commands):
        game.execute(Actor.of_seat(seat), command, f"c{n}")
    assert game.table is not None and game.table.finished
    return game


@pytest.fixture(scope="module")
def game() -> TrustedGame:
    return played(3, 8)


def failed(report: Report) -> set[str]:
    return {p.check for p in report.problems}


def envelopes_of(game: TrustedGame) -> list[epb.EventEnvelope]:
    return [epb.EventEnvelope.FromString(raw) for raw in game.stored]


def first(envelopes: list[epb.EventEnvelope], kind: type[Message]) -> epb.EventEnvelope:
    return next(e for e in envelopes if e.event.Is(kind.DESCRIPTOR))


def signed(envelopes: list[epb.EventEnvelope]) -> trpb.GameRecord:
    """A forger holding the server's key re-chains and re-signs everything."""
    return export_record(chain.link(envelopes, chain.ZERO_HASH), KEY)


def reseal(secret: epb.Secret, card: int) -> None:
    value = pb.SlotCard()
    secret.value.Unpack(value)
    value.card = card
    secret.value.Pack(value)
    secret.digest = secret_digest(secret.salt, secret.value)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_finished_games_pass_the_audit_with_their_reveals(seats: int) -> None:
    game = played(seats, 100 + seats)
    report = audit_record(game.export(KEY), public_key=public_key_bytes(KEY))
    assert report.ok, report.render()
    opened = sum(len(e.openings) for e in game.envelopes)
    assert opened > 10
    assert f"{opened} reveal(s) match earlier digests" in report.summaries["commitments"]
    assert "4 dealer outcome(s) reproduced from the set deal" in report.summaries["chance"]


def test_a_card_re_dealt_after_the_fact_is_caught(game: TrustedGame) -> None:
    """Two dealt cards trade places in the sealed deal: every digest is
    recomputed and the chain rebuilt, yet the rules re-run gives other
    hidden parts (and later reveals no longer open those digests)."""
    envelopes = envelopes_of(game)
    dealt = first(envelopes, pb.RoundDealt)
    cards = [pb.SlotCard.FromString(s.value.value) for s in dealt.secrets]
    i = 0
    j = next(k for k, c in enumerate(cards) if c.card != cards[i].card)
    reseal(dealt.secrets[i], cards[j].card)
    reseal(dealt.secrets[j], cards[i].card)
    report = audit_record(signed(envelopes))
    assert "rules" in failed(report)
    assert any(
        p.event == dealt.sequence and "hidden parts of RoundDealt" in p.message
        for p in report.problems
    ), report.render()


def test_a_looks_result_changed_after_the_fact_is_caught(game: TrustedGame) -> None:
    envelopes = envelopes_of(game)
    looked = first(envelopes, pb.CardsLooked)
    seen = pb.SlotCard.FromString(looked.secrets[0].value.value)
    reseal(looked.secrets[0], pb.CARD_FURRY if seen.card != pb.CARD_FURRY else pb.CARD_SPY)
    report = audit_record(signed(envelopes))
    assert ("rules", looked.sequence) in [(p.check, p.event) for p in report.problems]
    assert "hidden parts of CardsLooked" in report.render()
    # When that card is shown later, its opening no longer matches either.
    assert all(p.check in ("rules", "commitments") for p in report.problems)


def test_a_shuffle_that_is_not_the_committed_ones_is_caught(game: TrustedGame) -> None:
    """The forger changes a round's shuffle and re-makes every event of its
    batch as the rules give them: only the set deal and seed tell."""
    envelopes = envelopes_of(game)
    index = next(
        i
        for i, e in enumerate(envelopes)
        if e.HasField("command") and e.command.command.Is(pb.DealRound.DESCRIPTOR)
    )
    batch_start = envelopes[index]
    deal = pb.DealRound()
    batch_start.command.command.Unpack(deal)
    order = list(deal.order)
    k = next(k for k in range(21, 52) if order[k] != order[0])
    order[0], order[k] = order[k], order[0]
    forged = pb.DealRound(order=order, start_seat=deal.start_seat)
    before = tables.replay(GAME, [to_event(e) for e in envelopes[:index]])
    [event] = tables.decide(before, DEALER, forged)
    record = epb.CommandRecord()
    record.CopyFrom(batch_start.command)
    record.command.Pack(forged)
    record.ClearField("salt")
    record.ClearField("digest")
    new = to_envelope(
        batch_start.game_id,
        batch_start.sequence,
        batch_start.recorded_at.ToDatetime(),
        event,
        record,
    )
    new.recorded_at.CopyFrom(batch_start.recorded_at)
    envelopes[index] = commitments.seal_envelope(new)
    report = audit_record(signed(envelopes))
    chance = [p for p in report.problems if p.check == "chance"]
    assert chance and chance[0].event == batch_start.sequence, report.render()


def test_a_false_reveal_is_caught(game: TrustedGame) -> None:
    envelopes = envelopes_of(game)
    shown = next(e for e in envelopes if e.openings)
    card = pb.SlotCard()
    shown.openings[0].value.Unpack(card)
    card.card = pb.CARD_FURRY if card.card != pb.CARD_FURRY else pb.CARD_SPY
    shown.openings[0].value.Pack(card)
    report = audit_record(signed(envelopes))
    assert failed(report) == {"commitments"}
    assert "reveal does not match" in report.render()
