"""Smile Life for a newcomer: the goal, the rules in short and the symbols
the narrator draws (cardroom.domain.presentation.Guide)."""

from __future__ import annotations

from cardroom.domain.presentation import Guide

GUIDE = Guide(
    title="Smile Life",
    goal="Have the most smiles in your life when the draw pile runs out.",
    rules=(
        "On your turn draw a card (or take the top of the discard pile and play it "
        "at once), then play one card: into your own life, a malus onto someone "
        "else's, or onto the discard pile.",
        "A life grows by studies, a job and its salaries, flirts, a marriage, "
        "children, pets, houses, trips and distinctions; every card is worth smiles.",
        "A job needs enough studies; houses and trips are paid with salaries laid "
        "in your life, which are then invested.",
        "Maluses (accident, burn-out, divorce, tax, dismissal, illness, prison, "
        "attack) undo parts of a life or make a player miss turns.",
        "Special cards open a choice (luck, casino, rainbow, barter, revenge ...); "
        "the status line says whose choice the game waits for.",
    ),
    symbols=(
        ("[Designer]", "a card, by its short name"),
        ("[Salary 3]", "a salary of level 3"),
        ("[♥ Montcuq]", "a marriage, by its town"),
        ("[Card]x3", "three copies of the same card in a row"),
        ("[Double studies]", "one card worth two levels of studies ([Studies] is worth one)"),
        ("[??]", "a card you may not see"),
        ("+N invested", "salaries spent on houses or trips (face down)"),
        ("hand N (known ...)", "how many cards a player holds, and those you saw"),
        ("1:[Card]", "a card you know in the draw pile, by position from the top"),
        ("misses N turns", "turns the player will miss"),
        ("▶", "whose move the game waits for"),
        ("⏱ 0:42", "a turn clock: the time left for this seat's move (a table with a clock)"),
    ),
)
