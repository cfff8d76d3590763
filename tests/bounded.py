"""Bounded loops for tests: a rules bug that keeps a game going forever must
fail the test with a message, never hang it."""

from __future__ import annotations

from collections.abc import Iterator


def steps(limit: int, what: str) -> Iterator[int]:
    """``for _ in steps(1000, "the game"): if done: break`` fails once
    ``limit`` steps pass without the loop breaking."""
    yield from range(limit)
    raise AssertionError(f"{what} did not end within {limit} steps")
