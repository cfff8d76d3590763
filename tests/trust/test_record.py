"""Game record files: built from stored bytes, written, read back, signed."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from cardroom.trust import chance, signing
from cardroom.trust.chain import chain_head
from cardroom.trust.commitments import check_secret_opening
from cardroom.trust.record import (
    FORMAT,
    RecordError,
    build_record,
    export_record,
    from_bytes,
    read_record,
    record_body,
    record_envelopes,
    to_bytes,
    write_record,
)
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import trust_pb2 as trpb
from tests.trust import fakegame
from tests.trust.harness import played_game


def test_a_record_holds_the_exact_stored_bytes_and_the_head() -> None:
    game = played_game(fakegame.GAME)
    when = datetime(2025, 2, 3, 4, 5, 6, tzinfo=UTC)
    body = record_body(build_record(game.stored, exported_at=when))
    assert body.format == FORMAT
    assert body.game_id == game.game_id
    assert (body.kind, body.rules_version) == ("duel", "duel-1")
    assert list(body.events) == game.stored
    assert body.chain_head == chain_head(game.stored)
    assert body.exported_at.ToDatetime(tzinfo=UTC) == when
    # Envelopes give the same record as their stored bytes.
    assert record_body(build_record(game.envelopes, exported_at=when)) == body


def test_the_record_opens_the_seed_commitment() -> None:
    game = played_game(fakegame.GAME)
    body = record_body(build_record(game.stored))
    (opening,) = body.openings
    assert (opening.sequence, opening.index) == (1, chance.seed_index(game.envelopes[0]))
    seed = trpb.ChanceSeed()
    assert opening.value.Unpack(seed)
    assert seed.seed == game.seed
    assert check_secret_opening(opening, game.envelopes) is None


def test_a_set_deal_record_opens_the_script_too() -> None:
    deal = fakegame.Deal(order=[5, 4, 3, 2, 1, 0])
    game = played_game(fakegame.GAME, set_deal=[deal])
    body = record_body(build_record(game.stored))
    kinds = {o.value.TypeName() for o in body.openings}
    assert kinds == {"cardroom.v1.ChanceSeed", "cardroom.v1.SetDeal"}
    script = chance.set_deal_of(game.envelopes[0])
    assert script is not None and len(script.outcomes) == 1


def test_write_then_read_gives_the_same_signed_record(tmp_path: Path) -> None:
    game = played_game(fakegame.GAME)
    key = Ed25519PrivateKey.generate()
    signed = export_record(game.stored, key)
    path = tmp_path / "game.cardroom-record"
    write_record(signed, path)
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    loaded = read_record(path)
    assert loaded == signed
    assert path.read_bytes() == to_bytes(signed)
    assert signing.verify(loaded, signing.public_key_bytes(key))
    assert [e.sequence for e in record_envelopes(loaded)] == list(range(1, len(game.stored) + 1))


def test_what_is_not_a_record_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RecordError):
        from_bytes(b"\xff\xfe not protobuf")
    with pytest.raises(RecordError):
        from_bytes(b"")
    with pytest.raises(RecordError, match="format"):
        record_body(trpb.GameRecord(body=trpb.GameRecordBody(format="other").SerializeToString()))
    with pytest.raises(RecordError):
        record_body(trpb.GameRecord(body=b"\xff\xff"))
    with pytest.raises(ValueError):
        build_record([])
    not_created = epb.EventEnvelope(game_id="g", sequence=1)
    not_created.event.Pack(tpb.GameStarted())
    with pytest.raises(ValueError, match="GameCreated"):
        build_record([not_created])
