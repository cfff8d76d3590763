"""A finished Silver Dagger game tampered with in its database (SQLite and
PostgreSQL) is caught by the audit, even when the forger recomputes every
digest and the whole hash chain: a card re-dealt, a look's result changed.
The seats' own copies disagree with the forged rows too.

The game is a recorded random game (its shuffles as a set deal) played
through a real server.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb
from cardroom.trust import chain, record
from cardroom.trust.audit import audit_record, compare_viewer_stream
from cardroom.trust.commitments import secret_digest
from cardroom.v1 import envelope_pb2 as epb
from tests.conftest import OPERATOR_TOKEN, Served
from tests.silver_dagger.play import recorded
from tests.trust.live import Rows, audit_database, envelope, failed, read_stored

KIND = "silver-dagger"


@dataclass
class Finished:
    database: str
    game_id: str
    stored: list[bytes]
    copies: list[list[epb.EventEnvelope]]  # what each seat was served
    rows: Rows

    def first(self, kind: type[pb.RoundDealt] | type[pb.CardsLooked]) -> int:
        """The 1-based position of the first event of a kind."""
        return next(
            i for i, raw in enumerate(self.stored, 1) if envelope(raw).event.Is(kind.DESCRIPTOR)
        )

    def forge(self, position: int, card_of: dict[int, int]) -> None:
        """Give secrets of event ``position`` other cards (index -> card),
        reseal them and re-link every event from there on."""
        envelopes = [envelope(raw) for raw in self.stored]
        target = envelopes[position - 1]
        for index, card in card_of.items():
            secret = target.secrets[index]
            value = pb.SlotCard()
            secret.value.Unpack(value)
            value.card = card
            secret.value.Pack(value)
            secret.digest = secret_digest(secret.salt, secret.value)
        head = chain.event_hash(self.stored[position - 2])
        for offset, raw in enumerate(chain.link(envelopes[position - 1 :], head)):
            self.rows.set_state(position + offset, raw)


@pytest.fixture
async def finished(served: Served, database: str) -> Finished:
    deals, commands = recorded(31, 2)
    c = served.client
    game_id = await c.create_game(KIND, seat_count=2, set_deal=deals, operator_token=OPERATOR_TOKEN)
    tokens = [(await c.join(game_id, name, seat)).token for seat, name in enumerate("AB")]
    await c.start(game_id, tokens[0])
    for seat, command in commands:
        await c.act(game_id, tokens[seat], command)
    signed = await c.export_record(game_id, tokens[0])
    stored = read_stored(database, game_id)
    assert record.record_body(signed).events == stored
    assert audit_record(signed).ok
    copies = [[e async for e in c.watch(game_id, token)] for token in tokens]
    return Finished(database, game_id, stored, copies, Rows(database, game_id))


def test_the_untouched_game_passes_and_agrees_with_every_seats_copy(finished: Finished) -> None:
    report = audit_database(
        finished.database, finished.game_id, head=chain.chain_head(finished.stored)
    )
    assert report.ok, report.render()
    for copy in finished.copies:
        assert compare_viewer_stream(copy, finished.stored) == []


def test_a_card_re_dealt_with_digests_and_chain_recomputed_is_caught(finished: Finished) -> None:
    k = finished.first(pb.RoundDealt)
    dealt = envelope(finished.stored[k - 1])
    cards = [pb.SlotCard.FromString(s.value.value).card for s in dealt.secrets]
    j = next(i for i, card in enumerate(cards) if card != cards[0])
    finished.forge(k, {0: cards[j], j: cards[0]})

    report = audit_database(finished.database, finished.game_id)
    assert "chain" not in failed(report)
    assert any(
        p.check == "rules" and p.event == k and "hidden parts of RoundDealt" in p.message
        for p in report.problems
    ), report.render()
    # The seats kept the digests they were served; the forged rows differ.
    assert all(compare_viewer_stream(copy, finished.rows.states()) for copy in finished.copies)


def test_a_looks_result_changed_is_caught(finished: Finished) -> None:
    k = finished.first(pb.CardsLooked)
    looked = envelope(finished.stored[k - 1])
    seen = pb.SlotCard.FromString(looked.secrets[0].value.value)
    finished.forge(k, {0: pb.CARD_FURRY if seen.card != pb.CARD_FURRY else pb.CARD_SPY})

    report = audit_database(finished.database, finished.game_id)
    assert "chain" not in failed(report)
    assert ("rules", k) in [(p.check, p.event) for p in report.problems], report.render()
    looker = pb.CardsLooked.FromString(looked.event.value).seat
    assert compare_viewer_stream(finished.copies[looker], finished.rows.states())
