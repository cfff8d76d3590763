"""Smile Life as a pure decider (see docs/rules/smile-life.md).

Modules: ``cards`` (the 200 cards, read from ``cards.yaml``), ``state``
(what a viewer knows), ``evolve`` (folding events), ``rules`` (the decider's
entry point: shapes, whose turn, dispatch, legal actions), ``turns`` (the
turn around the play), ``plays`` (what may be played where), ``playing``
(what a played card does), ``maluses``, ``steps`` (choices a card opens),
``dealing`` (the dealer's outcomes), ``batch`` (events as they are
emitted) and ``view`` (the per-viewer View message).
"""

from cardroom.domain.smile_life.rules import SmileLife
from cardroom.domain.smile_life.state import State

GAME = SmileLife()

__all__ = ["GAME", "SmileLife", "State"]
