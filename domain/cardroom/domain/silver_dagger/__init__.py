"""Silver Dagger as a pure decider (see docs/rules/silver-dagger.md).

Modules: ``cards`` (values, the deck, which cards have abilities),
``state`` (what a viewer knows: every card's spot, slot and knowers),
``evolve`` (folding events), ``batch`` (a command's events and how a card
travels in them), ``actions`` (a turn's own actions), ``abilities`` (cards
5..12), ``scoring`` (SV-16, SV-17, SV-19), ``rules`` (the decider, turns and
rounds), ``view`` (the per-viewer View message).
"""

from cardroom.domain.silver_dagger.rules import SilverDagger
from cardroom.domain.silver_dagger.state import State

GAME = SilverDagger()

__all__ = ["GAME", "SilverDagger", "State"]
