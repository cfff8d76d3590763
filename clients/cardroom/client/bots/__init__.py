"""Bots that play through the API with one seat's token, and simulations
of many bot games (``cardroom bot``, ``cardroom simulate``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardroom.domain.presentation import RANDOM, Strategy, strategy
from cardroom.domain.search.ismcts import determinizer

if TYPE_CHECKING:
    from cardroom.client.bots.search import SearchBot

BOT_KINDS = ("random", "heuristic", "search")
DEFAULT_THINK_MS = 500


class NoSuchBot(ValueError):
    """A bot kind that does not exist, or that this game has no strategy for."""


def bot_kinds_for(kind: str) -> tuple[str, ...]:
    """The bots a game has, weakest first: "random" always, "heuristic"
    with the game's ``strategy.py``, "search" with its ``determinize.py``
    (what the lobby offers as levels, ``GameKind.bot_strategies``)."""
    return tuple(
        bot
        for bot in BOT_KINDS
        if bot == "random"
        or (bot == "heuristic" and strategy(kind) is not None)
        or (bot == "search" and determinizer(kind) is not None)
    )


def strategy_for(kind: str, bot: str, *, think_ms: int = DEFAULT_THINK_MS) -> Strategy | SearchBot:
    """How a bot kind ("random", "heuristic" or "search") plays a game; a
    search bot thinks ``think_ms`` a move."""
    if bot == "random":
        return RANDOM
    if bot == "heuristic":
        found = strategy(kind)
        if found is None:
            raise NoSuchBot(f"{kind} has no heuristic bot yet (cardroom.domain.<game>.strategy)")
        return found
    if bot == "search":
        from cardroom.client.bots.search import SearchBot

        if determinizer(kind) is None:
            raise NoSuchBot(f"{kind} has no search bot yet (cardroom.domain.<game>.determinize)")
        if think_ms < 1:
            raise NoSuchBot("a search bot needs --think-ms of 1 or more")
        return SearchBot(kind, think_ms)
    raise NoSuchBot(f"unknown bot {bot!r}; bots: {', '.join(BOT_KINDS)}")


def label(bot: str, *, think_ms: int = DEFAULT_THINK_MS) -> str:
    """A bot kind as its players see it: "heuristic bot", "search bot (500 ms)"."""
    return f"search bot ({think_ms} ms)" if bot == "search" else f"{bot} bot"
