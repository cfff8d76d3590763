"""The server's key lives beside the database; signatures prove the body."""

from __future__ import annotations

import stat
import threading
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from cardroom.trust.signing import (
    CONTEXT,
    fingerprint,
    key_path_for,
    load_or_create_key,
    public_key_bytes,
    sign,
    verify,
)
from cardroom.v1 import trust_pb2 as trpb


def test_the_key_file_sits_beside_a_sqlite_database(tmp_path: Path) -> None:
    database = str(tmp_path / "data" / "cardroom.sqlite3")
    assert key_path_for(database) == Path(database + ".ed25519")
    assert key_path_for("postgresql://u@h/db?schema=s") is None
    assert key_path_for("postgres://u@h/db") is None


def test_the_key_is_created_once_then_loaded(tmp_path: Path) -> None:
    path = tmp_path / "data" / "cardroom.sqlite3.ed25519"
    key = load_or_create_key(path)
    assert path.exists()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    again = load_or_create_key(path)
    assert public_key_bytes(again) == public_key_bytes(key)
    assert len(public_key_bytes(key)) == 32
    assert public_key_bytes(key.public_key()) == public_key_bytes(key)
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left


def test_processes_starting_together_share_one_key(tmp_path: Path) -> None:
    path = tmp_path / "cardroom.sqlite3.ed25519"
    keys: list[bytes] = []
    barrier = threading.Barrier(8)

    def start() -> None:
        barrier.wait()
        keys.append(public_key_bytes(load_or_create_key(path)))

    threads = [threading.Thread(target=start) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(keys)) == 1
    assert public_key_bytes(load_or_create_key(path)) == keys[0]


def test_a_file_that_is_not_an_ed25519_key_is_refused(tmp_path: Path) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    path = tmp_path / "k.ed25519"
    other = ec.generate_private_key(ec.SECP256R1())
    path.write_bytes(
        other.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    with pytest.raises(ValueError, match="Ed25519"):
        load_or_create_key(path)


def record() -> trpb.GameRecord:
    return trpb.GameRecord(body=trpb.GameRecordBody(game_id="g").SerializeToString())


def test_a_signed_record_verifies() -> None:
    key = Ed25519PrivateKey.generate()
    signed = sign(record(), key)
    assert signed.public_key == public_key_bytes(key)
    assert len(signed.signature) == 64
    assert verify(signed)
    assert verify(signed, public_key_bytes(key))
    # The signature is over the context string and the exact body bytes.
    key.public_key().verify(signed.signature, CONTEXT + signed.body)


def test_a_wrong_signature_is_rejected() -> None:
    key = Ed25519PrivateKey.generate()
    signed = sign(record(), key)
    bad = trpb.GameRecord()
    bad.CopyFrom(signed)
    bad.signature = bytes([signed.signature[0] ^ 1]) + signed.signature[1:]
    assert not verify(bad)
    bad.signature = b""
    assert not verify(bad)
    # A signature made without the context string does not pass.
    bad.signature = key.sign(signed.body)
    assert not verify(bad)


def test_a_changed_body_is_rejected() -> None:
    signed = sign(record(), Ed25519PrivateKey.generate())
    signed.body = trpb.GameRecordBody(game_id="h").SerializeToString()
    assert not verify(signed)


def test_another_servers_key_is_rejected_when_a_key_is_pinned() -> None:
    ours, theirs = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    forged = sign(record(), theirs)
    assert verify(forged)  # intact, says the key it names...
    assert not verify(forged, public_key_bytes(ours))  # ...but not ours
    # Claiming our key with their signature does not help either.
    forged.public_key = public_key_bytes(ours)
    assert not verify(forged)
    assert not verify(forged, public_key_bytes(ours))
    forged.public_key = b"short"
    assert not verify(forged)


def test_fingerprints_name_keys() -> None:
    a = public_key_bytes(Ed25519PrivateKey.generate())
    b = public_key_bytes(Ed25519PrivateKey.generate())
    assert fingerprint(a) != fingerprint(b)
    assert len(fingerprint(a)) == 32
