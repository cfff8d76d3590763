"""Smiles & Daggers as a pure decider (see docs/rules/smiles-and-daggers.md).

Modules: ``cards`` (ranks, the beat cycle, challenge and bet settlement,
recovery cost), ``state`` (what a viewer knows), ``evolve`` (folding events),
``rules`` (the decider), ``view`` (the per-viewer View message).
"""

from cardroom.domain.smiles_and_daggers.rules import SmilesAndDaggers
from cardroom.domain.smiles_and_daggers.state import State

GAME = SmilesAndDaggers()

__all__ = ["GAME", "SmilesAndDaggers", "State"]
