"""Tampering with a finished game's rows directly in the database (SQLite
and PostgreSQL), behind the service's back, is caught by the audit: a
flipped byte, a deleted, inserted or appended event, two events swapped, and
a hidden card re-dealt by a careful forger who recomputes digests and the
whole chain (and even the dealer's command).

Each game is played to its end through a real server; the tampered log is
then read by a fresh store (the server caches loaded games) and audited, and
what a freshly started server would sign for it is audited too: the server
signs whatever its database holds, so the signature alone proves nothing
about tampering done before the export.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from cardroom.cli import main
from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import DEALER
from cardroom.server.errors import CorruptGame
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.trust import chain, commitments, record, signing
from cardroom.trust.audit import audit_record, compare_viewer_stream
from cardroom.trust.envelopes import to_envelope, to_event
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import trust_pb2 as trpb
from tests.conftest import Served
from tests.trust.live import (
    SM,
    Rows,
    audit_database,
    envelope,
    export_fresh,
    failed,
    finished_game,
    read_stored,
)


@dataclass
class Finished:
    """A game played to its end, and what honest parties kept of it."""

    database: str
    key: Ed25519PrivateKey
    game_id: str
    record: trpb.GameRecord  # exported before any tampering
    stored: list[bytes]  # the honest rows
    seat0_copy: list[epb.EventEnvelope]  # what seat 0 was served
    rows: Rows

    @property
    def head(self) -> bytes:
        return chain.chain_head(self.stored)

    @property
    def public_key(self) -> bytes:
        return signing.public_key_bytes(self.key)

    def position(self, kind: type[sm.RoundDealt] | type[sm.ActPerformed]) -> int:
        """The 1-based position of the first event of a kind."""
        name = kind.DESCRIPTOR.full_name
        return next(
            i for i, raw in enumerate(self.stored, 1) if envelope(raw).event.TypeName() == name
        )


@pytest.fixture
async def finished(served: Served, database: str) -> Finished:
    game = await finished_game(served.client, seed=11)
    signed = await served.client.export_record(game.game_id, game.tokens[0])
    seat0 = [e async for e in served.client.watch(game.game_id, game.tokens[0])]
    stored = read_stored(database, game.game_id)
    assert record.record_body(signed).events == stored
    return Finished(
        database,
        served.server.games.signing_key,
        game.game_id,
        signed,
        stored,
        seat0,
        Rows(database, game.game_id),
    )


def audit_cli(signed: trpb.GameRecord, path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """``cardroom audit FILE`` on the record; returns its report, asserting
    it found a discrepancy (exit 1)."""
    record.write_record(signed, path)
    capsys.readouterr()
    assert main(["audit", str(path)]) == 1
    return capsys.readouterr().out


def test_the_untouched_game_passes_every_check(finished: Finished) -> None:
    assert finished.rows.states() == finished.stored
    report = audit_database(finished.database, finished.game_id, head=finished.head)
    assert report.ok, report.render()
    again = export_fresh(finished.database, finished.key, finished.game_id)
    assert record.record_body(again).events == finished.stored
    assert audit_record(again, public_key=finished.public_key).ok
    assert compare_viewer_stream(finished.seat0_copy, finished.stored) == []


def test_a_flipped_byte_in_a_stored_event_is_caught(
    finished: Finished, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    k = finished.position(sm.RoundDealt)
    raw = finished.stored[k - 1]
    at = raw.index(envelope(raw).secrets[0].salt) + 7  # a byte of a hand's salt
    finished.rows.set_state(k, raw[:at] + bytes([raw[at] ^ 0x01]) + raw[at + 1 :])

    report = audit_database(finished.database, finished.game_id)
    assert failed(report) == {"chain", "commitments"}, report.render()
    assert {(p.check, p.event) for p in report.problems} == {
        ("chain", k + 1),  # the next event's previous_hash
        ("commitments", k),  # the hand no longer opens to its digest
    }
    # A fresh server signs what its database holds; the audit still fails.
    out = audit_cli(
        export_fresh(finished.database, finished.key, finished.game_id),
        tmp_path / "flipped.record",
        capsys,
    )
    assert "[ OK ] signature" in out
    assert "[FAIL] chain" in out and "[FAIL] commitments" in out


def test_a_deleted_event_is_caught(finished: Finished) -> None:
    k = finished.position(sm.ActPerformed) + 1
    finished.rows.delete(k)
    report = audit_database(finished.database, finished.game_id, head=finished.head)
    chain_problems = {(p.event, p.message.split(" (")[0]) for p in report.problems_of("chain")}
    assert (k, f"sequence {k + 1} where {k} was due") in chain_problems
    assert (k, "previous_hash is not the hash of the event before it") in chain_problems
    # Nor will a fresh server serve or sign the broken stream.
    with pytest.raises(CorruptGame, match=r"where .* belongs"):
        export_fresh(finished.database, finished.key, finished.game_id)


def test_the_last_event_deleted_is_caught_by_a_head_kept_elsewhere(finished: Finished) -> None:
    n = len(finished.stored)
    finished.rows.delete(n)
    alone = audit_database(finished.database, finished.game_id)
    assert failed(alone) == {"rules"}  # the game no longer ends
    anchored = audit_database(finished.database, finished.game_id, head=finished.head)
    assert "chain" in failed(anchored)
    assert compare_viewer_stream(finished.seat0_copy, finished.rows.states())  # seat 0 lacks it


def test_an_inserted_event_is_caught(finished: Finished) -> None:
    k = finished.position(sm.ActPerformed)
    forged = envelope(finished.stored[k - 1])  # the act again, as event k+1
    forged.sequence = k + 1
    finished.rows.shift_up(k)
    finished.rows.insert(k + 1, forged.event.TypeName(), chain.stored_bytes(forged))
    report = audit_database(finished.database, finished.game_id, head=finished.head)
    assert {(p.check, p.event) for p in report.problems_of("chain")} >= {
        ("chain", k + 1),  # previous_hash is not event k's hash
        ("chain", k + 2),  # the old event k+1 now sits one further
    }
    with pytest.raises(CorruptGame, match=r"where .* belongs"):
        export_fresh(finished.database, finished.key, finished.game_id)


def test_a_forged_event_appended_and_linked_is_caught(
    finished: Finished, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A careful forger appends a second GameFinished naming the loser the
    winner, with the right sequence and previous_hash: the chain holds, the
    rules do not, and any head kept elsewhere (the earlier record, a
    viewer's event_hash) no longer matches."""
    n = len(finished.stored)
    forged = envelope(finished.stored[-1])
    result = tpb.GameFinished()
    assert forged.event.Unpack(result)
    losers = [s for s in range(2) if s not in result.winners]
    forged.event.Pack(tpb.GameFinished(winners=losers))
    forged.sequence = n + 1
    [raw] = chain.link([forged], finished.head)
    finished.rows.insert(n + 1, forged.event.TypeName(), raw)

    alone = audit_database(finished.database, finished.game_id)
    assert failed(alone) == {"rules"}, alone.render()
    anchored = audit_database(finished.database, finished.game_id, head=finished.head)
    assert failed(anchored) == {"chain", "rules"}
    # A fresh server folds it (and would now name the loser) and signs it.
    signed = export_fresh(finished.database, finished.key, finished.game_id)
    assert record.record_body(signed).chain_head == chain.event_hash(raw)
    out = audit_cli(signed, tmp_path / "appended.record", capsys)
    assert "[ OK ] signature" in out and "[ OK ] chain" in out and "[FAIL] rules" in out
    assert "gives 1 event(s), the record has 2" in out or "record has" in out


def test_two_swapped_events_are_caught(finished: Finished) -> None:
    k = finished.position(sm.ActPerformed)
    finished.rows.set_state(k, finished.stored[k])
    finished.rows.set_state(k + 1, finished.stored[k - 1])
    report = audit_database(finished.database, finished.game_id, head=finished.head)
    messages = [(p.event, p.message) for p in report.problems_of("chain")]
    assert any(e == k and m.startswith(f"sequence {k + 1} where {k} was due") for e, m in messages)
    assert any(e == k + 1 and "previous_hash" in m for e, m in messages)
    with pytest.raises(CorruptGame, match=r"where .* belongs"):
        export_fresh(finished.database, finished.key, finished.game_id)


# ------------------------------------------------------- a careful forger


def rewrite_from(finished: Finished, envelopes: list[epb.EventEnvelope], start: int) -> None:
    """Re-link every event from position ``start`` on and write them back:
    the chain is intact again, as a careful forger would leave it."""
    head = chain.event_hash(finished.stored[start - 2])
    for offset, raw in enumerate(chain.link(envelopes[start - 1 :], head)):
        finished.rows.set_state(start + offset, raw)


def swap_a_card(hands: list[sm.HandDealt]) -> None:
    """Move a card of seat 0's hand to seat 1 and one back, so the count of
    every card is the same and only who holds what changed."""
    mine, theirs = hands[0].cards, hands[1].cards
    i, j = next(
        (i, j)
        for i, a in enumerate(mine)
        for j, b in enumerate(theirs)
        if (a.pile, a.value) != (b.pile, b.value)
    )
    a, b = sm.Card(), sm.Card()
    a.CopyFrom(mine[i])
    b.CopyFrom(theirs[j])
    mine[i].CopyFrom(b)
    theirs[j].CopyFrom(a)


def test_a_hidden_card_re_dealt_with_digests_and_chain_recomputed_is_caught(
    finished: Finished, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    k = finished.position(sm.RoundDealt)
    envelopes = [envelope(raw) for raw in finished.stored]
    dealt = envelopes[k - 1]
    hands = []
    for secret in dealt.secrets:
        hand = sm.HandDealt()
        if secret.value.Unpack(hand):
            hands.append((secret, hand))
    hands.sort(key=lambda pair: pair[1].seat)
    swap_a_card([hand for _, hand in hands])
    for secret, hand in hands:
        secret.value.Pack(hand, deterministic=True)
        secret.digest = commitments.secret_digest(secret.salt, secret.value)
    rewrite_from(finished, envelopes, k)

    report = audit_database(finished.database, finished.game_id)
    assert "chain" not in failed(report) and "commitments" not in failed(report)
    [first, *_] = report.problems
    assert (first.check, first.event) == ("rules", k), report.render()
    assert first.message.startswith("the hidden parts of RoundDealt")
    # Signed with the server's own key (whoever writes the database can
    # usually read the key beside it), the record still fails the audit.
    out = audit_cli(
        record.export_record(finished.rows.states(), finished.key),
        tmp_path / "redealt.record",
        capsys,
    )
    assert "[ OK ] signature" in out and "[ OK ] chain" in out and "[ OK ] commitments" in out
    assert "[FAIL] rules" in out
    # The seats' own copies and the earlier record disagree with it too.
    assert compare_viewer_stream(finished.seat0_copy, finished.rows.states())
    anchored = audit_database(finished.database, finished.game_id, head=finished.head)
    assert "chain" in failed(anchored)


def test_a_re_dealt_round_with_a_matching_dealer_command_is_caught_by_the_seed(
    finished: Finished,
) -> None:
    """The forger also rewrites the dealer's DealRound, and every event of
    its batch as the rules give them for it: only the committed seed tells."""
    k = finished.position(sm.RoundDealt)
    envelopes = [envelope(raw) for raw in finished.stored]
    batch_start = envelopes[k - 1]
    assert batch_start.command.actor.kind == epb.Actor.KIND_DEALER
    original = sm.DealRound()
    assert batch_start.command.command.Unpack(original)
    deal = sm.DealRound()
    deal.CopyFrom(original)
    deal.swirls[0].CopyFrom(original.swirls[1])  # two seats' swirls trade places
    deal.swirls[1].CopyFrom(original.swirls[0])

    game = registry.game(SM)
    before = tables.replay(game, [to_event(e) for e in envelopes[: k - 1]])
    events = tables.decide(before, DEALER, deal)
    record_pb = epb.CommandRecord()
    record_pb.CopyFrom(batch_start.command)
    record_pb.command.Pack(deal)
    record_pb.ClearField("salt")
    record_pb.ClearField("digest")
    for offset, e in enumerate(events):
        old = envelopes[k - 1 + offset]
        new = to_envelope(
            old.game_id,
            old.sequence,
            old.recorded_at.ToDatetime(),
            e,
            record_pb if offset == 0 else None,
        )
        new.recorded_at.CopyFrom(old.recorded_at)
        envelopes[k - 1 + offset] = commitments.seal_envelope(new)
    assert envelopes[k - 1] != batch_start
    rewrite_from(finished, envelopes, k)

    report = audit_database(finished.database, finished.game_id)
    assert "chain" not in failed(report) and "commitments" not in failed(report)
    chance_problems = report.problems_of("chance")
    assert chance_problems and chance_problems[0].event == k, report.render()
    assert "the seed gives" in chance_problems[0].message
    # A record of it, signed with the server's own key, fails the same way.
    forged = record.export_record(finished.rows.states(), finished.key)
    assert "chance" in failed(audit_record(forged, public_key=finished.public_key))


def test_a_record_signed_by_another_key_is_not_the_servers(finished: Finished) -> None:
    impostor = Ed25519PrivateKey.generate()
    forged = record.export_record(finished.stored, impostor)
    assert audit_record(forged).ok  # intact, but whose?
    pinned = audit_record(forged, public_key=finished.public_key)
    assert failed(pinned) == {"signature"}
