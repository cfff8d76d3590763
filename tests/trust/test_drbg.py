"""The chance generator is exactly the documented one, pinned by vectors."""

from __future__ import annotations

import hashlib
import hmac
import random
import struct

import pytest

from cardroom.trust.drbg import ChanceRandom, block, new_seed

SEED = bytes(range(32))
GAME_ID = "00000000-0000-4000-8000-000000000000"


def reference_stream(seed: bytes, game_id: str, index: int):  # type: ignore[no-untyped-def]
    """docs/trust.md's byte stream, written from the document."""
    counter = 0
    while True:
        gid = game_id.encode()
        message = (
            b"cardroom.v1.chance\x00"
            + struct.pack(">I", len(gid))
            + gid
            + struct.pack(">Q", index)
            + struct.pack(">Q", counter)
        )
        yield from hmac.new(seed, message, hashlib.sha256).digest()
        counter += 1


class Reference:
    """getrandbits, _randbelow and shuffle as docs/trust.md states them,
    without random.Random: what an auditor in another language writes."""

    def __init__(self, seed: bytes, game_id: str, index: int) -> None:
        self.stream = reference_stream(seed, game_id, index)

    def getrandbits(self, k: int) -> int:
        count = (k + 7) // 8
        value = int.from_bytes(bytes(next(self.stream) for _ in range(count)), "big")
        return value >> (8 * count - k)

    def randbelow(self, n: int) -> int:
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def shuffle(self, x: list[int]) -> None:
        for i in reversed(range(1, len(x))):
            j = self.randbelow(i + 1)
            x[i], x[j] = x[j], x[i]


def test_block_is_hmac_sha256_over_the_documented_message() -> None:
    expected = hmac.new(
        SEED,
        b"cardroom.v1.chance\x00"
        + b"\x00\x00\x00\x24"  # u32be(36), the game id's length
        + GAME_ID.encode()
        + b"\x00\x00\x00\x00\x00\x00\x00\x03"  # u64be(index 3)
        + b"\x00\x00\x00\x00\x00\x00\x00\x01",  # u64be(counter 1)
        hashlib.sha256,
    ).digest()
    assert block(SEED, GAME_ID, 3, 1) == expected
    assert block(SEED, GAME_ID, 0, 0).hex() == (
        "9a7cff16fa41162c7c769825711282c8f21569b2b8a971da1a220fd8cd6209a2"
    )


def test_test_vector() -> None:
    """Pins the generator, CPython's algorithms on top of it included: if this
    fails, a Python upgrade changed how shuffles are dealt from a seed."""
    r = ChanceRandom(SEED, GAME_ID, 0)
    assert r.getrandbits(64) == 11132052853105956396
    assert r.getrandbits(5) == 15
    assert r.getrandbits(0) == 0
    assert r.random() == 0.46325906763605496

    r = ChanceRandom(SEED, GAME_ID, 1)
    deck = list(range(52))
    r.shuffle(deck)
    assert deck == [
        16, 30, 14, 6, 47, 19, 38, 45, 39, 42, 9, 25, 20, 3, 34, 7, 24, 28, 26, 11, 2, 10,
        22, 44, 15, 32, 43, 36, 35, 41, 27, 18, 33, 48, 46, 29, 4, 37, 0, 51, 31, 40, 49,
        12, 1, 8, 23, 50, 5, 21, 17, 13,
    ]  # fmt: skip
    assert r.randrange(6) == 5
    assert r.randrange(10, 20) == 10
    assert r.choice("abcdefg") == "c"
    assert r.sample(range(100), 4) == [16, 33, 79, 91]
    assert r.randbytes(4).hex() == "f4e0c2cb"


def test_the_stream_is_the_documented_byte_stream() -> None:
    ours = ChanceRandom(SEED, GAME_ID, 5)
    theirs = Reference(SEED, GAME_ID, 5)
    for bits in (1, 7, 8, 9, 31, 32, 33, 64, 200, 3):
        assert ours.getrandbits(bits) == theirs.getrandbits(bits)
    ours_random = ChanceRandom(SEED, GAME_ID, 6)
    theirs_random = Reference(SEED, GAME_ID, 6)
    for _ in range(20):
        assert ours_random.random() == theirs_random.getrandbits(53) / 2**53


@pytest.mark.parametrize("size", [0, 1, 2, 3, 10, 52, 200])
def test_shuffle_is_the_documented_fisher_yates(size: int) -> None:
    for index in range(5):
        ours, theirs = list(range(size)), list(range(size))
        ChanceRandom(SEED, GAME_ID, index).shuffle(ours)
        Reference(SEED, GAME_ID, index).shuffle(theirs)
        assert ours == theirs


def test_same_inputs_same_outcomes_whatever_else_happens() -> None:
    first = ChanceRandom(SEED, GAME_ID, 2)
    a = [first.randrange(1000) for _ in range(50)]
    random.seed(1234)  # the global generator has nothing to do with it
    random.random()
    second = ChanceRandom(SEED, GAME_ID, 2)
    assert [second.randrange(1000) for _ in range(50)] == a


def test_seed_game_and_index_each_change_the_stream() -> None:
    def draws(seed: bytes, game_id: str, index: int) -> list[int]:
        r = ChanceRandom(seed, game_id, index)
        return [r.getrandbits(32) for _ in range(4)]

    base = draws(SEED, GAME_ID, 0)
    assert draws(SEED, GAME_ID, 1) != base
    assert draws(SEED, "00000000-0000-4000-8000-000000000001", 0) != base
    assert draws(bytes(32), GAME_ID, 0) != base


def test_it_cannot_be_reseeded_or_restored() -> None:
    r = ChanceRandom(SEED, GAME_ID, 0)
    with pytest.raises(TypeError):
        r.seed(42)
    with pytest.raises(TypeError):
        r.getstate()
    with pytest.raises(TypeError):
        r.setstate(None)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        ChanceRandom(b"short", GAME_ID, 0)
    with pytest.raises(ValueError):
        ChanceRandom(SEED, GAME_ID, -1)
    with pytest.raises(ValueError):
        ChanceRandom(SEED, GAME_ID, 0).getrandbits(-1)


def test_new_seeds_are_fresh() -> None:
    seeds = {new_seed() for _ in range(100)}
    assert len(seeds) == 100
    assert all(len(s) == 32 for s in seeds)


def test_outputs_look_uniform() -> None:
    """A coarse sanity check, not a statistical proof: every face of a die
    shows up about as often as the others."""
    r = ChanceRandom(SEED, GAME_ID, 9)
    counts = [0] * 6
    for _ in range(6000):
        counts[r.randrange(6)] += 1
    assert all(850 < c < 1150 for c in counts), counts
