"""Finds the games: every package under ``cardroom.domain`` that exposes ``GAME``,
and the optional parts that live beside a game's rules (``part``: its
narrator, its heuristic strategy).

Adding a game means adding its package; nothing here or in the service
changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from types import ModuleType
from typing import Any

import cardroom.domain
from cardroom.domain.kernel import Game, quote


@cache
def _packages() -> dict[str, tuple[str, Game[Any]]]:
    """Every game by kind, with the package that holds it."""
    found: dict[str, tuple[str, Game[Any]]] = {}
    for module in pkgutil.iter_modules(cardroom.domain.__path__):
        if not module.ispkg:
            continue
        package = f"cardroom.domain.{module.name}"
        game = getattr(importlib.import_module(package), "GAME", None)
        if game is not None:
            found[game.kind] = (package, game)
    return dict(sorted(found.items()))


@cache
def games() -> dict[str, Game[Any]]:
    return {kind: game for kind, (_, game) in _packages().items()}


@cache
def part(kind: str, name: str) -> ModuleType | None:
    """The module ``domain.<package>.<name>`` of the game of this kind (say
    ``part("smoke-and-mirrors", "narrate")``), or None when the game has no
    such module. KeyError for an unknown kind, as :func:`game`."""
    game(kind)
    package, _ = _packages()[kind]
    qualified = f"{package}.{name}"
    try:
        return importlib.import_module(qualified)
    except ModuleNotFoundError as error:
        if error.name != qualified:
            raise  # the part exists but imports something missing: a real error
        return None


def game(kind: str) -> Game[Any]:
    """The game of this kind; KeyError names the kinds there are."""
    try:
        return games()[kind]
    except KeyError:
        raise KeyError(
            f"unknown game kind {quote(kind)}; known kinds: {', '.join(games()) or 'none'}"
        ) from None
