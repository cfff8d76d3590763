"""Tournaments: a pure decider beside the games (docs/rules/tournaments.md).

Players register with their keys; registration closes with a committed
seed; each round's tables are drawn from that seed and the standings before
the round (:mod:`.pairing`); game results become points and tie-breaks
(:mod:`.standings`). The service holds the seed and hands it in with the
commands that need it; nothing here does I/O, reads a clock or draws at
random, so an auditor re-runs every decision from the record.
"""

from cardroom.domain.tournament.evolve import evolve, replay
from cardroom.domain.tournament.rules import decide
from cardroom.domain.tournament.state import Tournament
from cardroom.domain.tournament.view import view

__all__ = ["Tournament", "decide", "evolve", "replay", "view"]
