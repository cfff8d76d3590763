"""A command's events, folded as they are emitted (so each later decision
sees the earlier ones), and the card moves several rules share: drawing,
losing a job, discarding from a life."""

from __future__ import annotations

from collections.abc import Iterable

from google.protobuf.message import Message

from cardroom.domain.kernel import Event
from cardroom.domain.kernel import event as make_event
from cardroom.domain.smile_life.evolve import evolve
from cardroom.domain.smile_life.state import State, known
from cardroom.smile_life.v1 import smile_life_pb2 as pb


class Batch:
    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, public: Message, *secrets: tuple[Iterable[int], Message]) -> None:
        e = make_event(public, *secrets)
        self.events.append(e)
        self.state = evolve(self.state, e)


def draw(batch: Batch, seat: int, *, for_turn: bool = False) -> bool:
    """The top card of the draw pile goes to ``seat``'s hand, seen by that
    seat alone. False when the pile is empty (SL-05)."""
    pile = batch.state.pile
    if not pile:
        return False
    [drawn] = known(pile[:1])
    batch.emit(
        pb.CardDrawn(seat=seat, for_turn=for_turn), ({seat}, pb.DrawnCard(seat=seat, card=drawn))
    )
    return True


def refill(batch: Batch, seat: int) -> None:
    """Draw back to the hand size, as far as the draw pile allows (SL-05)."""
    while len(batch.state.hands[seat]) < batch.state.hand_size(seat) and draw(batch, seat):
        pass


def discard_from_life(batch: Batch, seat: int, played: str, zone: pb.Zone, index: int = 0) -> None:
    batch.emit(pb.CardDiscarded(seat=seat, card=played, zone=zone, index=index))


def lose_job(batch: Batch, seat: int) -> None:
    """The job goes to the discard pile; its excellence prize is turned
    over first (SL-17)."""
    life = batch.state.lives[seat]
    assert life.job is not None
    if life.prize_active:
        batch.emit(pb.PrizeTurnedOver(seat=seat))
    discard_from_life(batch, seat, life.job, pb.ZONE_JOB)
