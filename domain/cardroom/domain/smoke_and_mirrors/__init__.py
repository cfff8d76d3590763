"""Smoke & Mirrors: a bluffing game of ever bigger magic tricks.

``GAME`` is the pure decider the service discovers (``cardroom.domain.kernel.Game``).
Rules as implemented: ``docs/rules/smoke-and-mirrors.md``.
"""

from __future__ import annotations

from cardroom.domain.kernel import Game
from cardroom.domain.smoke_and_mirrors.cards import (
    MAX_ACHIEVABLE,
    Card,
    achievable_totals,
    act_is_true,
)
from cardroom.domain.smoke_and_mirrors.rules import SmokeAndMirrors
from cardroom.domain.smoke_and_mirrors.state import GameState, Phase, SeatState, Settings

GAME: Game[GameState] = SmokeAndMirrors()

__all__ = [
    "GAME",
    "MAX_ACHIEVABLE",
    "Card",
    "GameState",
    "Phase",
    "SeatState",
    "Settings",
    "SmokeAndMirrors",
    "achievable_totals",
    "act_is_true",
]
