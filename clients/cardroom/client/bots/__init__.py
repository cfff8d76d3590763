"""Bots that play through the API with one seat's token, and simulations
of many bot games (``cardroom bot``, ``cardroom simulate``)."""

from __future__ import annotations

from cardroom.domain.presentation import RANDOM, Strategy, strategy

BOT_KINDS = ("random", "heuristic")


class NoSuchBot(ValueError):
    """A bot kind that does not exist, or that this game has no strategy for."""


def strategy_for(kind: str, bot: str) -> Strategy:
    """The strategy of a bot kind ("random" or "heuristic") for a game."""
    if bot == "random":
        return RANDOM
    if bot == "heuristic":
        found = strategy(kind)
        if found is None:
            raise NoSuchBot(f"{kind} has no heuristic bot yet (cardroom.domain.<game>.strategy)")
        return found
    raise NoSuchBot(f"unknown bot {bot!r}; bots: {', '.join(BOT_KINDS)}")
