"""Signed heads (docs/trust.md, "Signed heads"): the byte format pinned by
a test vector; two heads that disagree are a proof `cardroom heads compare`
accepts; a head by an unknown key or with a bad signature proves nothing."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given
from hypothesis import strategies as st

from cardroom.cli import main
from cardroom.trust import heads, keyring, signing
from cardroom.v1 import trust_pb2 as trpb

# The test vector of docs/trust.md, "Signed heads".
VECTOR_KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
VECTOR_GAME = "5d9bc0a4-6c1e-4a52-9a34-0c6f4b1f2e77"
VECTOR_HEAD = hashlib.sha256(b"cardroom").digest()
VECTOR_PUBLIC = "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8"
VECTOR_KEY_ID = "56475aa75463474c0285df5dbf2bcab7"
VECTOR_MESSAGE = (
    "63617264726f6f6d2e76312e5369676e65644865616400"  # "cardroom.v1.SignedHead" 0x00
    "00000024"  # u32be(36)
    "35643962633061342d366331652d346135322d396133342d306336663462316632653737"  # game id
    "0000000000000007"  # u64be(7)
    "81373d901a61deedf6cc93ab6a51115f834df45986817fbd9bac87add2bf1a08"  # chain head
    "00000020"  # u32be(32)
    "3536343735616137353436333437346330323835646635646266326263616237"  # key id
)
VECTOR_SIGNATURE = (
    "c6378de57974dd9bc429992c6b672d088fde568ca9bfdd286204e860a24cc90e"
    "39572e13a60bcc55e0f59091bb4eeefff442ad13dd299d24f8ebe3a1dd200f0b"
)

SERVER = Ed25519PrivateKey.generate()
SERVER_PUBLIC = signing.public_key_bytes(SERVER)


def test_the_signed_bytes_and_signature_match_the_documented_vector() -> None:
    assert signing.public_key_bytes(VECTOR_KEY).hex() == VECTOR_PUBLIC
    head = heads.sign_head(VECTOR_KEY, VECTOR_GAME, 7, VECTOR_HEAD)
    assert head.key_id == VECTOR_KEY_ID == keyring.key_id(bytes.fromhex(VECTOR_PUBLIC))
    message = heads.signed_bytes(head.game_id, head.sequence, head.chain_head, head.key_id)
    assert message.hex() == VECTOR_MESSAGE
    assert head.signature.hex() == VECTOR_SIGNATURE
    assert heads.verify_head(head, bytes.fromhex(VECTOR_PUBLIC))


def test_a_head_verifies_only_as_signed() -> None:
    head = heads.sign_head(SERVER, VECTOR_GAME, 3, VECTOR_HEAD)
    assert heads.verify_head(head, SERVER_PUBLIC)
    for change in (
        {"sequence": 4},
        {"game_id": VECTOR_GAME.replace("5", "6")},
        {"chain_head": bytes(32)},
        {"signature": bytes(64)},
    ):
        changed = trpb.SignedHead()
        changed.CopyFrom(head)
        for name, value in change.items():
            setattr(changed, name, value)
        assert not heads.verify_head(changed, SERVER_PUBLIC), change
    other = signing.public_key_bytes(Ed25519PrivateKey.generate())
    assert not heads.verify_head(head, other)  # another key (and another key id)


@given(
    sequence=st.integers(1, 2**64 - 1),
    chain_head=st.binary(min_size=32, max_size=32),
    game_id=st.text(min_size=1, max_size=40),
)
def test_saved_heads_round_trip(sequence: int, chain_head: bytes, game_id: str) -> None:
    head = heads.sign_head(SERVER, game_id, sequence, chain_head)
    saved = heads.from_json_line(heads.to_json_line(head, SERVER_PUBLIC))
    assert saved.head == head and saved.public_key == SERVER_PUBLIC
    assert heads.verify_head(saved.head, SERVER_PUBLIC)


def write(path: Path, *lines: str) -> str:
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


async def compare(*argv: str) -> int:
    return await asyncio.to_thread(main, ["heads", "compare", *argv])


async def test_two_viewers_served_different_histories_hold_a_proof(tmp_path: Path, capsys) -> None:
    """A lying server signs two heads for sequence 5: the viewers' heads
    files, compared, prove it (exit 1, both heads printed); each file on
    its own, or heads that agree, prove nothing (exit 0)."""
    honest = [
        heads.sign_head(SERVER, VECTOR_GAME, n, hashlib.sha256(b"%d" % n).digest())
        for n in range(1, 5)
    ]
    told_a = heads.sign_head(SERVER, VECTOR_GAME, 5, hashlib.sha256(b"history A").digest())
    told_b = heads.sign_head(SERVER, VECTOR_GAME, 5, hashlib.sha256(b"history B").digest())
    a = write(tmp_path / "a.jsonl", *(heads.to_json_line(h) for h in [*honest, told_a]))
    b = write(tmp_path / "b.jsonl", *(heads.to_json_line(h) for h in [*honest[:2], told_b]))
    keys = tmp_path / "keys.json"
    keys.write_text(keyring.KeyList((keyring.ListedKey(SERVER_PUBLIC),)).dumps())

    assert await compare(a, a, "--keys", str(keys)) == 0
    assert "no equivocation found" in capsys.readouterr().out
    assert await compare(a, b, "--keys", str(keys)) == 1
    out = capsys.readouterr().out
    assert "EQUIVOCATION" in out
    proof = [heads.from_json_line(line) for line in out.splitlines() if line.startswith("{")]
    assert [p.head for p in proof] == [told_a, told_b]
    # The printed proof is itself a heads file that carries its key: it
    # proves the equivocation on its own, to anyone holding the key list.
    alone = write(
        tmp_path / "proof.jsonl", *(line for line in out.splitlines() if line.startswith("{"))
    )
    assert await compare(alone, "--keys", str(keys)) == 1


async def test_a_head_by_an_unknown_key_or_with_a_bad_signature_is_no_proof(
    tmp_path: Path, capsys
) -> None:
    stranger = Ed25519PrivateKey.generate()
    real = heads.sign_head(SERVER, VECTOR_GAME, 5, hashlib.sha256(b"real").digest())
    forged = heads.sign_head(stranger, VECTOR_GAME, 5, hashlib.sha256(b"forged").digest())
    tampered = trpb.SignedHead()
    tampered.CopyFrom(real)
    tampered.chain_head = hashlib.sha256(b"tampered").digest()
    keys = tmp_path / "keys.json"
    keys.write_text(keyring.KeyList((keyring.ListedKey(SERVER_PUBLIC),)).dumps())
    mine = write(tmp_path / "mine.jsonl", heads.to_json_line(real))
    for name, lie in (("forged", forged), ("tampered", tampered)):
        theirs = write(tmp_path / f"{name}.jsonl", heads.to_json_line(lie, SERVER_PUBLIC))
        assert await compare(mine, theirs, "--keys", str(keys)) == 0, name
        captured = capsys.readouterr()
        assert "no equivocation found" in captured.out
        assert "rejected (proves nothing)" in captured.err
    # A line that carries the stranger's own key still names a key the
    # server's list does not hold.
    theirs = write(
        tmp_path / "carried.jsonl", heads.to_json_line(forged, signing.public_key_bytes(stranger))
    )
    assert await compare(mine, theirs, "--keys", str(keys)) == 0
    capsys.readouterr()


async def test_heads_signed_by_a_key_their_own_lines_carry_prove_nothing(
    tmp_path: Path, capsys
) -> None:
    """A forger signs two different heads with a key of its own and puts
    that key in the lines: that was reported as EQUIVOCATION. Only the
    server's keys count, so without them compare says in one line what it
    needs (exit 2), and against them nothing verifies (exit 2)."""
    stranger = Ed25519PrivateKey.generate()
    carried = signing.public_key_bytes(stranger)
    a = write(
        tmp_path / "a.jsonl",
        heads.to_json_line(heads.sign_head(stranger, VECTOR_GAME, 5, bytes(32)), carried),
    )
    b = write(
        tmp_path / "b.jsonl",
        heads.to_json_line(heads.sign_head(stranger, VECTOR_GAME, 5, bytes([1]) * 32), carried),
    )
    assert await compare(a, b) == 2
    captured = capsys.readouterr()
    assert "EQUIVOCATION" not in captured.out
    assert captured.err.count("\n") == 1
    assert "needs the server's keys" in captured.err and "--address" in captured.err
    keys = tmp_path / "keys.json"
    keys.write_text(keyring.KeyList((keyring.ListedKey(SERVER_PUBLIC),)).dumps())
    assert await compare(a, b, "--keys", str(keys)) == 2
    captured = capsys.readouterr()
    assert "EQUIVOCATION" not in captured.out
    assert "nothing verified: none of the 2 heads" in captured.err


async def test_a_flood_of_unverifiable_heads_is_summed_up(tmp_path: Path, capsys) -> None:
    """170 lines of "key is not known", then exit 0: now five, a count and
    a non-zero exit."""
    stranger = Ed25519PrivateKey.generate()
    lines = [
        heads.to_json_line(heads.sign_head(stranger, VECTOR_GAME, n, bytes(32)))
        for n in range(1, 171)
    ]
    keys = tmp_path / "keys.json"
    keys.write_text(keyring.KeyList((keyring.ListedKey(SERVER_PUBLIC),)).dumps())
    source = write(tmp_path / "many.jsonl", *lines)
    assert await compare(source, source, "--keys", str(keys)) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 7
    assert "335 more heads" in err


async def test_unreadable_sources_exit_2(tmp_path: Path) -> None:
    bad = write(tmp_path / "bad.jsonl", "{not json")
    assert await compare(bad, bad) == 2
    assert await compare(str(tmp_path / "missing.jsonl")) == 2
    assert await asyncio.to_thread(main, ["heads", "compare"]) == 2
