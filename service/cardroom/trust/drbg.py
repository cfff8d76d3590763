"""The deterministic generator every chance outcome is drawn with
(docs/trust.md, "Chance outcomes").

The k-th chance outcome of a game (k = 0, 1, 2, ... counting the dealer's
commands in stream order) is ``game.sample_chance(state, ChanceRandom(seed,
game_id, k))``. ``ChanceRandom`` reads a byte stream made of 32-byte blocks

    block(c) = HMAC-SHA256(key=seed,
                           msg=b"cardroom.v1.chance" || 0x00
                               || u32be(len(game_id)) || game_id (UTF-8)
                               || u64be(k) || u64be(c))          c = 0, 1, 2, ...

consumed front to back and never reused:

* ``getrandbits(n)`` takes the next ceil(n/8) bytes, reads them as a
  big-endian unsigned integer and keeps its top n bits (shifts right by
  8*ceil(n/8) - n); n = 0 takes no byte and returns 0;
* ``random()`` is ``getrandbits(53) / 2**53``.

Everything else (``shuffle``, ``randrange``, ``randint``, ``choice``,
``sample``...) is CPython's own ``random.Random`` code on top of these two:
``random.Random`` documents that a subclass supplying ``random()`` and
``getrandbits()`` gets its integers from ``getrandbits``, and CPython 3.11
does that with ``_randbelow(n)``: k = n.bit_length(), draw getrandbits(k)
until it is below n; ``shuffle(x)`` swaps x[i] with x[_randbelow(i + 1)] for
i from len(x) - 1 down to 1. An auditor in another language reimplements
those few lines; ``tests/trust/test_drbg.py`` pins the whole thing with a
test vector, so a Python that changed them would fail the tests rather than
silently deal differently.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
import struct
from typing import Any, NoReturn

SEED_BYTES = 32
DOMAIN = b"cardroom.v1.chance\x00"


def new_seed() -> bytes:
    """A fresh chance seed from the operating system's secure source."""
    return secrets.token_bytes(SEED_BYTES)


def block(seed: bytes, game_id: str, index: int, counter: int) -> bytes:
    """Block ``counter`` of the byte stream of chance ``index``."""
    gid = game_id.encode()
    message = DOMAIN + struct.pack(">I", len(gid)) + gid + struct.pack(">QQ", index, counter)
    return hmac.new(seed, message, hashlib.sha256).digest()


class ChanceRandom(random.Random):
    """A ``random.Random`` whose every output comes from the HMAC-SHA256
    stream of one chance outcome of one game. Not reseedable."""

    def __init__(self, seed: bytes, game_id: str, index: int) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a chance seed is {SEED_BYTES} bytes")
        if index < 0:
            raise ValueError("the chance index is not negative")
        self._key = bytes(seed)
        self._game_id = game_id
        self._index = index
        self._counter = 0
        self._buffer = b""
        self._ready = False
        super().__init__()
        self._ready = True

    def seed(self, a: Any = None, version: int = 2) -> None:
        # random.Random.__init__ calls this once; the stream is fixed by the key.
        if getattr(self, "_ready", True):
            raise TypeError("a ChanceRandom cannot be reseeded")
        self.gauss_next = None

    def getstate(self) -> NoReturn:
        raise TypeError("a ChanceRandom has no state to save")

    def setstate(self, state: Any) -> NoReturn:
        raise TypeError("a ChanceRandom has no state to restore")

    def _take(self, count: int) -> bytes:
        while len(self._buffer) < count:
            self._buffer += block(self._key, self._game_id, self._index, self._counter)
            self._counter += 1
        taken, self._buffer = self._buffer[:count], self._buffer[count:]
        return taken

    def getrandbits(self, k: int, /) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        count = (k + 7) // 8
        return int.from_bytes(self._take(count), "big") >> (8 * count - k)

    def random(self) -> float:
        return self.getrandbits(53) * (2.0**-53)
