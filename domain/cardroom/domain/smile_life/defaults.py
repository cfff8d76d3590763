"""SL-37: the default choice of a seat that left the game or ran out of time
(DECISIONS G-02), for every decision point.

Read off the seat's own legal actions, its own hand and the card it drew
(all in its own fold), so the same choice comes out of the seat's fold and
the full state, and shows nothing. A default never plays to a life or as a
malus from hand; a choice that must touch another player (a malus target, a
barter partner, a revenge, a flirt to steal) is the dealer's uniform draw
(``DealersPick``).
"""

from __future__ import annotations

from collections.abc import Sequence

from google.protobuf.message import Message

from cardroom.domain.kernel import DealersPick
from cardroom.domain.smile_life.plays import TAKEN, legal_plays
from cardroom.domain.smile_life.state import State
from cardroom.domain.smile_life.steps import OPTIONAL, gift_levels
from cardroom.smile_life.v1 import smile_life_pb2 as pb

DISCARD = pb.DESTINATION_DISCARD
LIFE = pb.DESTINATION_LIFE


def default_action(
    state: State, seat: int, actions: Sequence[Message], *, departed: bool
) -> Message | DealersPick:
    top = state.top
    if top is None:
        if state.stage == pb.STAGE_START:
            return pb.MissTurn() if departed else pb.DrawCard()
        return _discard_drawn(state, seat)
    kind = top.kind
    if kind in OPTIONAL or any(isinstance(a, pb.Decline) for a in actions):
        return pb.Decline()  # optional steps are declined
    if kind == pb.STEP_BIRTHDAY_GIFT:  # the lowest level it may give
        return pb.GiveSalary(level=min(gift_levels(state, seat)))
    if kind == pb.STEP_RESEARCHER_DISCARD:  # the first card of its hand
        return _first(actions, pb.DiscardFromHand)
    if kind == pb.STEP_LUCK:  # the first card shown, named and then discarded
        shown = [c for c in state.luck if c is not None]
        rest = shown[1:]
        return pb.ChooseLuckCard(card=shown[0], top_discard=rest[-1] if rest else "")
    if kind == pb.STEP_PLAY_HELD:
        return _play_held(actions)
    if kind == pb.STEP_SHOOTING_STAR:
        return _shooting_star(state, seat, actions)
    # The barter's partner and the revenge: every option touches another player.
    return DealersPick(tuple(actions))


def _first(actions: Sequence[Message], kind: type[Message]) -> Message:
    return next(a for a in actions if isinstance(a, kind))


def _discard_drawn(state: State, seat: int) -> Message:
    """SL-37: the card it just drew goes to the discard pile, or the first
    card of its hand when that card is gone."""
    hand = [c for c in state.hands[seat] if c is not None]
    chosen = state.drawn if state.drawn in hand else hand[0]
    return pb.PlayCard(card=chosen, destination=DISCARD)


def _touches_nobody(play: pb.PlayCard) -> bool:
    return not (play.HasField("target") or play.HasField("steal_from"))


def _play_held(actions: Sequence[Message]) -> Message | DealersPick:
    """A card it must play: discarded when it may be (luck's card), else to
    its life if that is legal (without touching anyone if it can), else as a
    malus on the dealer's draw among the targets."""
    plays = [a for a in actions if isinstance(a, pb.PlayCard)]
    for play in plays:
        if play.destination == DISCARD:
            return play
    life = [p for p in plays if p.destination == LIFE]
    quiet = [p for p in life if _touches_nobody(p)]
    if quiet:
        return quiet[0]
    return DealersPick(tuple(life or plays))


def _shooting_star(state: State, seat: int, actions: Sequence[Message]) -> Message | DealersPick:
    """The shooting star must take a card: one it can place in its own
    life, if any (the first such); else the dealer's draw among them all,
    since each of those is played as a malus on someone."""
    takes = [a for a in actions if isinstance(a, pb.TakeFromDiscard)]
    for take in takes:
        if any(p.destination == LIFE for p in legal_plays(state, seat, take.card, TAKEN)):
            return take
    return DealersPick(tuple(takes)) if takes else actions[0]
