"""What a trust check reports when something does not add up."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One discrepancy. ``event`` is the 1-based position of the event in the
    stream it was found in (None when it concerns the stream as a whole);
    ``check`` names the check that failed: "signature", "record", "chain",
    "commitment", "chance" or "rules"."""

    check: str
    message: str
    event: int | None = None

    def __str__(self) -> str:
        where = f"event {self.event}: " if self.event is not None else ""
        return f"[{self.check}] {where}{self.message}"
