"""Keys that change (docs/trust.md, "Keys and their rotation"): rotation
keeps every earlier record auditable against the key list, a record naming
a key that did not sign it fails, and the single-key form of a server from
before rotation still works."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from cardroom.cli.audit import fetch_and_audit
from cardroom.client import Client
from cardroom.domain.kernel import Game
from cardroom.server.api.server import Settings, start
from cardroom.trust import keyring, record, signing
from cardroom.trust.audit import main_audit
from cardroom.trust.key_audit import audit_with_keys
from cardroom.trust.record import build_record, export_record, write_record
from tests.conftest import OPERATOR_TOKEN
from tests.trust import fakegame
from tests.trust.harness import played_game
from tests.trust.live import cardroom, finished_game

EXPORTED = datetime(2025, 1, 1, tzinfo=UTC)


def duel(kind: str) -> Game[Any]:
    assert kind == "duel"
    return fakegame.GAME


def audit(path: Path, keys: keyring.KeyList) -> list[str]:
    with record.mapped(path) as scanned:
        report = audit_with_keys(scanned, keys, resolve_game=duel)
    return [str(p) for p in report.problems]


def test_rotation_keeps_every_earlier_record_auditable(tmp_path: Path) -> None:
    stored = played_game(fakegame.GAME).stored
    key_file = tmp_path / "server.ed25519"
    ring = keyring.load_ring(key_file)
    bots = ring.bots
    files = []
    for generation in range(3):
        exported = EXPORTED + timedelta(days=generation)
        signed = export_record(stored, ring.current, exported_at=exported)
        assert record.record_body(signed).key_id == ring.current_id
        files.append(tmp_path / f"game-{generation}.record")
        write_record(signed, files[-1])
        ring = keyring.rotate(key_file, now=exported + timedelta(hours=1))
    listed = keyring.load_ring(key_file).listed
    assert [k.key_id for k in listed.keys] == [k.key_id for k in ring.listed.keys]
    assert len(listed.keys) == 4 and listed.keys[-1].valid_until is None
    assert all(k.valid_until is not None for k in listed.keys[:-1])
    # Only the current private key is kept; the bots' seats survive.
    assert signing.public_key_bytes(signing.load_or_create_key(key_file)) == (
        listed.keys[-1].public_key
    )
    assert keyring.load_ring(key_file).bots == bots
    list_file = keyring.list_path(key_file)
    for path in files:
        assert audit(path, listed) == []
        assert main_audit([str(path), "--keys", str(list_file)], resolve_game=duel) == 0


def test_a_record_naming_a_key_that_did_not_sign_it_fails(tmp_path: Path) -> None:
    stored = played_game(fakegame.GAME).stored
    signer, named = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    keys = keyring.KeyList(
        (
            keyring.ListedKey(signing.public_key_bytes(signer)),
            keyring.ListedKey(signing.public_key_bytes(named)),
        )
    )
    liar = build_record(
        stored, exported_at=EXPORTED, key_id=keyring.key_id(signing.public_key_bytes(named))
    )
    path = tmp_path / "liar.record"
    write_record(signing.sign(liar, signer), path)
    problems = audit(path, keys)
    assert problems and all(p.startswith("[signature]") for p in problems)

    # A key id the list does not hold.
    stranger = export_record(stored, Ed25519PrivateKey.generate(), exported_at=EXPORTED)
    write_record(stranger, path)
    assert any("the key list holds" in p for p in audit(path, keys))

    # A retired key's signature dated after it was retired.
    retired = keyring.KeyList(
        (
            keyring.ListedKey(
                signing.public_key_bytes(signer), valid_until=EXPORTED - timedelta(seconds=1)
            ),
        )
    )
    write_record(export_record(stored, signer, exported_at=EXPORTED), path)
    assert any("outside the validity" in p for p in audit(path, retired))
    list_file = tmp_path / "keys.json"
    list_file.write_text(retired.dumps())
    assert main_audit([str(path), "--keys", str(list_file)], resolve_game=duel) == 1


def test_the_single_key_form_still_works(tmp_path: Path) -> None:
    """A record from before rotation (no key id) audits against the key it
    carries; a key file without a list is a ring of one key valid since
    the start; a server that serves no list stands for its one key."""
    stored = played_game(fakegame.GAME).stored
    key_file = tmp_path / "old.ed25519"
    key = signing.load_or_create_key(key_file)
    old = signing.sign(build_record(stored, exported_at=EXPORTED), key)
    assert record.record_body(old).key_id == ""
    path = tmp_path / "old.record"
    write_record(old, path)
    ring = keyring.load_ring(key_file)
    assert not keyring.list_path(key_file).exists()
    (only,) = ring.listed.keys
    assert only.public_key == signing.public_key_bytes(key) and only.valid_from is None
    assert audit(path, ring.listed) == []
    served = keyring.served_keys([], signing.public_key_bytes(key))
    assert audit(path, served) == []
    assert main_audit([str(path)], resolve_game=duel) == 0
    # After a rotation the record from before it still audits.
    keyring.rotate(key_file, now=EXPORTED + timedelta(days=1))
    assert audit(path, keyring.load_ring(key_file).listed) == []


def test_a_key_list_file_round_trips_and_refuses_a_wrong_key_id(tmp_path: Path) -> None:
    keys = keyring.KeyList(
        (
            keyring.ListedKey(b"\x01" * 32, None, EXPORTED),
            keyring.ListedKey(b"\x02" * 32, EXPORTED, None),
        )
    )
    assert keyring.KeyList.loads(keys.dumps()) == keys
    assert keyring.KeyList.from_proto(keys.to_proto()) == keys
    wrong = keys.dumps().replace(keys.keys[0].key_id, "00" * 16)
    with pytest.raises(keyring.KeyListError, match="fingerprint"):
        keyring.KeyList.loads(wrong)
    with pytest.raises(keyring.KeyListError, match="format"):
        keyring.KeyList.loads("{}")


async def test_a_rotated_server_lists_both_keys_and_audits_old_and_new_records(
    database: str, tmp_path: Path
) -> None:
    """Through a real server and the command line: export, stop, `cardroom
    key rotate`, start again: GetServerKey lists the retired and the new
    key (its single-key fields name the new one), the live audit passes
    with a record signed by the new key, and the record exported before
    the rotation audits offline against `cardroom key --list`."""
    key_file = tmp_path / "server.ed25519"
    settings = Settings(
        address="127.0.0.1:0",
        database=database,
        operator_token=OPERATOR_TOKEN,
        signing_key=str(key_file),
    )
    server = await start(settings)
    try:
        address = f"127.0.0.1:{server.port}"
        async with Client.connect(address) as client:
            game = await finished_game(client, seed=5)
            before = await client.server_key()
            assert [k.key_id for k in before.keys] == [before.fingerprint]
        old_record = tmp_path / "old.record"
        code, _, err = await cardroom(
            "export", "--address", address, game.game_id, "--output", str(old_record),
            "--seat-token", game.tokens[0],
        )  # fmt: skip
        assert code == 0, err
    finally:
        await server.stop(grace=None)

    code, out, err = await cardroom("key", "rotate", "--signing-key", str(key_file))
    assert code == 0, err
    new_public = bytes.fromhex(out.strip())
    server = await start(settings)
    try:
        address = f"127.0.0.1:{server.port}"
        async with Client.connect(address) as client:
            after = await client.server_key()
            assert bytes(after.public_key) == new_public
            assert after.fingerprint == signing.fingerprint(new_public)
            assert [k.key_id for k in after.keys] == [before.fingerprint, after.fingerprint]
            assert after.keys[0].HasField("valid_until") and not after.keys[1].HasField(
                "valid_until"
            )
            live = await fetch_and_audit(client, game.game_id, token=game.tokens[0])
            assert live.ok, live.render()
        list_file = tmp_path / "keys.json"
        code, _, err = await cardroom("key", "--address", address, "--list", str(list_file))
        assert code == 0, err
    finally:
        await server.stop(grace=None)
    code, out, err = await cardroom("audit", str(old_record), "--keys", str(list_file))
    assert code == 0, out + err
    assert "VERIFIED" in out


async def test_rotation_is_refused_while_a_server_signs_with_the_key(tmp_path: Path) -> None:
    """A rotation under a running server left it signing with a key the
    list called retired: every record it exported until its restart failed
    the audit. Now `cardroom key rotate` refuses while it runs."""
    key_file = tmp_path / "server.ed25519"
    settings = Settings(
        address="127.0.0.1:0", database=str(tmp_path / "c.sqlite3"), signing_key=str(key_file)
    )
    server = await start(settings)
    try:
        before = key_file.read_bytes()
        code, _, err = await cardroom("key", "rotate", "--signing-key", str(key_file))
        assert code == 2, err
        assert "a running cardroom server signs with" in err
        assert key_file.read_bytes() == before
        assert not keyring.list_path(key_file).exists()  # nothing written
    finally:
        await server.stop(grace=None)
    code, _, err = await cardroom("key", "rotate", "--signing-key", str(key_file))
    assert code == 0, err
