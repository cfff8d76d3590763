"""Silver Dagger for a newcomer: the goal, the rules in short, the symbols
the narrator draws, and a warning before a call the seat can see may fail
(cardroom.domain.presentation.Guide)."""

from __future__ import annotations

from collections.abc import Sequence

from google.protobuf.message import Message

from cardroom.domain.presentation import Guide, Names, name
from cardroom.domain.silver_dagger.cards import value
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb


def caution(
    command: Message, view: Message, names: Names, seat: int, seen: Sequence[Message]
) -> str:
    """A call with cards of one's own unknown, or while a village the seat
    knows whole adds up to less than its own known cards: a call that is not
    the lowest scores 10 points more."""
    if not isinstance(command, pb.CallVote) or not isinstance(view, pb.View):
        return ""
    if not 0 <= seat < len(view.seats):
        return ""
    mine = [c.card for c in view.seats[seat].village]
    known = sum(value(c) for c in mine if c)  # type: ignore[arg-type]
    unknown = sum(not c for c in mine)
    reasons = []
    if unknown:
        reasons.append(f"you do not know {unknown} of your cards (known {known})")
    for other in view.seats:
        cards = [c.card for c in other.village]
        if other.seat == seat or not all(cards):
            continue
        total = sum(value(c) for c in cards)  # type: ignore[arg-type]
        if total < known:
            reasons.append(
                f"{name(names, other.seat)}'s village, all known to you, adds up to {total}"
            )
    if not reasons:
        return ""
    return "A call that is not the lowest scores +10: " + "; ".join(reasons) + "."


GUIDE = Guide(
    title="Silver Dagger",
    goal="Have the fewest points after four rounds.",
    rules=(
        "Each village is a row of five cards face down; at the start of a round you "
        "look at two of yours. A card's number is its points (its werewolves).",
        "On your turn draw from the deck (or your private deck), or take the top "
        "discard, then exchange it for one of your cards (or several matching ones), "
        "or discard it and use its ability (cards 5 to 12).",
        "With four cards or fewer in your village you may call instead: everyone "
        "else has one more turn, then every village is revealed and scored.",
        "A caller who is lowest (or tied) scores 0 for the round; otherwise the "
        "caller scores their cards plus 10.",
        "Abilities, once, of a card drawn from the deck and discarded: 5 Approximator "
        "(it goes face up into your village, two others are discarded), 6 Flipper (a "
        "village turns over), 7 Elusive Seer (view until a 4 or lower, which turns up), "
        "8 Magician (turn up another village's card: use it or switch it), 9 Mystic Seer "
        "(view two), 10 Renfield (the deck's top card to your private deck), 11 Reverser "
        "(play reverses), 12 Master Thief (view a card, switch it). Face up in your "
        "village: 1 Spy peeks, 3 Sentinel guards it, 4 Zombie may be given away.",
        "Debt Collectors (0) take away the other villages' cards; Halflings (÷2) "
        "halve their village; a village at exactly 50 with a Furry (13) scores 0 "
        "and gives everyone else 50.",
        "The seat with the silver dagger after a successful call may turn it once a "
        "round: play then goes the other way round.",
    ),
    symbols=(
        ("[4 Zombie]", "a card: its points, then its name"),
        ("[4]", "a card on a seat's line, by its points only"),
        ("÷2", "a Halfling: halves its village's score (counts 2 where a number is needed)"),
        ("↑", "the card lies face up ([↑4]); without it, face down"),
        ("[??]", "a card you do not know"),
        ("known 4 + 3 unknown", "your village: the cards you know add up to 4, 3 you do not know"),
        ("private deck N", "cards on a seat's own private deck (Renfield)"),
        ("silver dagger", 'who holds the dagger ("may turn it": it can reverse play)'),
        ("called", "this seat has called for a vote this round"),
        ("N points (a, b)", "the total so far and each round's points"),
        ("▶", "whose move the game waits for"),
        ("⏱ 0:42", "a turn clock: the time left for this seat's move (a table with a clock)"),
    ),
    caution=caution,
)
