"""Finds the games: every package under ``domain`` that exposes ``GAME``.

Adding a game means adding its package; nothing here or in the service
changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

import domain
from domain.kernel import Game, quote


@cache
def games() -> dict[str, Game[Any]]:
    found: dict[str, Game[Any]] = {}
    for module in pkgutil.iter_modules(domain.__path__):
        if not module.ispkg:
            continue
        game = getattr(importlib.import_module(f"domain.{module.name}"), "GAME", None)
        if game is not None:
            found[game.kind] = game
    return dict(sorted(found.items()))


def game(kind: str) -> Game[Any]:
    """The game of this kind; KeyError names the kinds there are."""
    try:
        return games()[kind]
    except KeyError:
        raise KeyError(
            f"unknown game kind {quote(kind)}; known kinds: {', '.join(games()) or 'none'}"
        ) from None
