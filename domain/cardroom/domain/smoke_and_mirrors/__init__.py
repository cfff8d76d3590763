"""Smoke & Mirrors as a pure decider (see docs/rules/smoke-and-mirrors.md).

Modules: ``cards`` (the 18 cards, what an act can total), ``state`` (what a
viewer knows), ``evolve`` (folding events), ``rules`` (the decider),
``view`` (the per-viewer View message).
"""

from cardroom.domain.smoke_and_mirrors.rules import SmokeAndMirrors
from cardroom.domain.smoke_and_mirrors.state import State

GAME = SmokeAndMirrors()

__all__ = ["GAME", "SmokeAndMirrors", "State"]
