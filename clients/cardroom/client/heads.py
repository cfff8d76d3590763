"""The signed heads a client was served (docs/trust.md, "Signed heads"):
kept as they arrive, one per game, sequence and chain head, and exported
as a heads file (JSON lines) for ``cardroom heads compare``. A client that
keeps its heads and compares them with someone else's catches a server
that showed the two of them different histories, with proof."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from cardroom.trust.heads import to_json_line
from cardroom.v1 import trust_pb2

# Heads kept per client at most; the oldest go first (a long session
# exports as it goes, or keeps fewer).
MAX_HEADS = 100_000


class HeadStore:
    """Signed heads in arrival order, each (game, sequence, head) once."""

    def __init__(self, max_heads: int = MAX_HEADS) -> None:
        self.max_heads = max_heads
        self._heads: dict[tuple[str, int, bytes], trust_pb2.SignedHead] = {}

    def add(self, head: trust_pb2.SignedHead | None) -> None:
        """Keep a served head (None or an empty one: nothing was signed)."""
        if head is None or not head.signature:
            return
        slot = (head.game_id, head.sequence, bytes(head.chain_head))
        if slot in self._heads:
            return
        kept = trust_pb2.SignedHead()
        kept.CopyFrom(head)
        self._heads[slot] = kept
        while len(self._heads) > self.max_heads:
            del self._heads[next(iter(self._heads))]

    def __len__(self) -> int:
        return len(self._heads)

    def heads(self, game_id: str | None = None) -> Iterator[trust_pb2.SignedHead]:
        for head in self._heads.values():
            if game_id is None or head.game_id == game_id:
                yield head

    def write(self, file: TextIO, game_id: str | None = None) -> int:
        """Write the heads (of one game, or all) as JSON lines; the count."""
        count = 0
        for head in self.heads(game_id):
            file.write(to_json_line(head) + "\n")
            count += 1
        return count

    def export(self, path: str | os.PathLike[str], game_id: str | None = None) -> int:
        """:meth:`write` to a file (replaced); the count."""
        with Path(path).open("w") as file:
            return self.write(file, game_id)
