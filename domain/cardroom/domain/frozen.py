"""A fast ``replace`` for the frozen dataclasses that folds rebuild.

``dataclasses.replace`` runs ``__init__`` again, reading every field with a
``getattr``; the table, of 27 fields, is replaced once or twice for every
event of every viewer's fold and of every command. Copying the instance's
``__dict__`` gives the same object for a plain frozen dataclass (no
``__post_init__``, no ``__slots__``, no cached properties) in an eighth of
the time (0.9 µs against 6.9 µs for the table, 2026-12-04).
"""

from __future__ import annotations

from typing import Any, Self


class Record:
    """Mixed into a frozen dataclass of plain fields: ``replace`` as above."""

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes``; ``self`` is left as it was."""
        fields_now = self.__dict__
        if not fields_now.keys() >= changes.keys():
            raise TypeError(f"no such field: {sorted(changes.keys() - fields_now.keys())}")
        new = object.__new__(self.__class__)
        state = new.__dict__
        state.update(fields_now)
        state.update(changes)
        return new
