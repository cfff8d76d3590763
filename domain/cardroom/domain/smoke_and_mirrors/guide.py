"""Smoke & Mirrors for a newcomer: the goal, the rules in short, the symbols
the narrator draws, and a warning before a challenge already known to fail
(cardroom.domain.presentation.Guide)."""

from __future__ import annotations

from collections.abc import Sequence

from google.protobuf.message import Message

from cardroom.domain.presentation import Guide, Names, name
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as pb


def caution(
    command: Message, view: Message, names: Names, seat: int, seen: Sequence[Message]
) -> str:
    """A challenge of the act a challenge this round already showed true:
    it is still true, so the challenger leaves the round."""
    if not isinstance(command, pb.Challenge) or not isinstance(view, pb.View):
        return ""
    if not view.HasField("last_actor"):
        return ""
    claim = view.next_claim - 1
    for event in reversed(seen):
        if isinstance(event, pb.RoundDealt):
            break
        if (
            isinstance(event, pb.ActChallenged)
            and event.act_was_true
            and event.actor == view.last_actor
            and event.claim == claim
        ):
            return (
                f"This act of {claim} was already shown true when "
                f"{name(names, event.challenger)} challenged it: "
                "challenge it and you leave the round."
            )
    return ""


GUIDE = Guide(
    title="Smoke & Mirrors",
    goal="Be the last one in a round; the first to win 4 rounds (◆◆◆◆) wins.",
    rules=(
        "Everyone holds three cards, one from each pile: Stars, Swirls and Skulls.",
        "On your turn you may first challenge the act that set the current number, "
        "then you perform an act (1 to 3 of your cards face down, claiming exactly "
        "one more than the last claim) or take your one Break of the round.",
        "Your act's cards stay face down on the table until your next act: you then "
        "pick them back up first, so you may play them again.",
        "The first act of a round is one card claiming 1: no challenge, no Break.",
        "An act is true when its cards can make its claim. A mirror copies a card "
        "beside it (alone it counts 0): {a, M} makes 2a, {a, b, M} makes 2a+b, a+2b "
        "or 2a+2b.",
        "A challenge reveals the act to the challenger: a true act puts the "
        "challenger out of the round, a bluff puts the actor out. The one who stays "
        "may swap: take one of the leaver's cards blind, then give one back.",
        "The last player in wins the round; everyone is dealt in again.",
    ),
    symbols=(
        ("[★1]", "a Star card, value 1 (Stars: five 1s and a mirror)"),
        ("[@3]", "a Swirl card, value 3 (Swirls: 1, 2, 3, 4, 5 and a mirror)"),
        ("[☠5]", "a Skull card, value 5 (Skulls: five 5s and a mirror)"),
        ("M", "a mirror ([★M], [@M], [☠M]): it copies another card of the act"),
        ("[??]", "a card you have not seen"),
        ("◆", "one round won"),
        ("claiming N", "the number an act says its cards make"),
        ("true / a bluff", "whether your own act's cards can make its claim"),
        ("Break used", "the seat has taken its one Break this round"),
        ("▶", "whose move the game waits for"),
        ("⏱ 0:42", "a turn clock: the time left for this seat's move (a table with a clock)"),
    ),
    caution=caution,
)
