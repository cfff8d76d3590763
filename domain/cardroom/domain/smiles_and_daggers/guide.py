"""Smiles & Daggers for a newcomer: the goal, the rules in short and the
symbols the narrator draws (cardroom.domain.presentation.Guide)."""

from __future__ import annotations

from cardroom.domain.presentation import Guide

GUIDE = Guide(
    title="Smiles & Daggers",
    goal="Reach 9 coins or more, and more than anyone else, at the end of a turn.",
    rules=(
        "Each player owns a family of six cards: 1 Lord, 2 Ladies and 3 Knights.",
        "Lord beats Lady, Lady beats Knight, Knight beats Lord.",
        "Whoever holds the tile challenges an opponent who still holds a card. "
        "Both play one card face down, smiling (☺) or with the dagger (†).",
        "A dagger takes out the card it beats. A smiling card that survives pays "
        "coins: Lord 2, Lady 1, Knight 0.",
        "Before the reveal, the others may bet one Knight on how the two cards are "
        "played: a right bet pays 1 coin per side predicted, a wrong one loses the "
        "Knight for good.",
        "After the turn, the cards on the table go back to their owners and the tile "
        "moves on. If nobody can reach 9 any more, the most coins wins.",
    ),
    symbols=(
        ("[♔ Lord]", "a Lord (beats a Lady; pays 2 coins smiling)"),
        ("[♕ Lady]", "a Lady (beats a Knight; pays 1 coin smiling)"),
        ("[♘ Knight]", "a Knight (beats a Lord; pays nothing smiling; used to bet)"),
        ("☺", "played smiling: earns coins if it survives"),
        ("†", "played with the dagger: takes out the card it beats"),
        ("[??]", "a card you may not see"),
        ("out", "cards eliminated or lost on a bet, out of the game"),
        ("▶", "whose move the game waits for"),
        ("⏱ 0:42", "a turn clock: the time left for this seat's move (a table with a clock)"),
    ),
)
