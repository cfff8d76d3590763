"""Twin games for non-interference: two games that differ only in cards one
viewer has not seen, played in lockstep with the same commands, until that
viewer is shown (in either twin) a card that differs or did.

A card is followed by its slot: ``differing`` lists the slots whose card
differs between the twins, and once a slot has differed it stays watched,
so that a card shown and discarded in one step (an exchange, the
Approximator) or refused in one twin and moved in the other still counts as
seen.
"""

from __future__ import annotations

import random
from typing import Any

from google.protobuf.message import Message

from cardroom.domain.kernel import Event, Viewer
from cardroom.domain.silver_dagger import GAME
from cardroom.domain.silver_dagger.state import Spot, State, derive, put
from cardroom.domain.silver_dagger.view import awaiting
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

from .play import Policy, varied
from .support import Table, event_key, forget, key, outcome, should_know

Path = tuple[Any, ...]
PROBES: list[Message] = [
    pb.DrawCard(),
    pb.DrawCard(private_deck=True),
    pb.TakeDiscard(),
    pb.CallVote(),
    pb.DiscardDrawn(),
    pb.UseAbility(),
    pb.Exchange(position=0),
    pb.StartMultipleExchange(),
    pb.SelectCard(position=1),
    pb.ConfirmExchange(),
    pb.GiveZombie(position=0),
    pb.SpyPeek(seat=1, position=0),
    pb.TurnDagger(),
    pb.ChooseVillage(seat=0),
    pb.ChooseCard(seat=1, position=0),
    pb.SwitchWith(position=0),
    pb.StopViewing(),
]


def spot_by_slot(state: State) -> dict[int, Spot]:
    found = {s.slot: s for row in (*state.villages, *state.private) for s in row}
    found.update({s.slot: s for s in (*state.deck, *state.out)})
    if state.held is not None:
        found[state.held.slot] = state.held
    return found


def hidden_paths(state: State, viewer: Viewer) -> list[tuple[Path, Spot]]:
    """Every card ``viewer`` does not know, by where it lies."""
    return [(path, spot) for path, spot in all_paths(state) if not should_know(viewer, spot)]


def all_paths(state: State) -> list[tuple[Path, Spot]]:
    found: list[tuple[Path, Spot]] = []
    for seat, row in enumerate(state.villages):
        found += [(("villages", seat, i), s) for i, s in enumerate(row)]
    for seat, row in enumerate(state.private):
        found += [(("private", seat, i), s) for i, s in enumerate(row)]
    found += [(("deck", i), s) for i, s in enumerate(state.deck)]
    found += [(("out", i), s) for i, s in enumerate(state.out)]
    if state.held is not None:
        found.append((("held",), state.held))
    return found


def with_card(state: State, path: Path, card: int) -> State:
    def changed(spot: Spot) -> Spot:
        return Spot(spot.slot, card, spot.up, spot.knowers, spot.public)

    if path[0] == "held":
        assert state.held is not None
        return derive(state, held=changed(state.held))
    if path[0] in ("villages", "private"):
        rows = getattr(state, path[0])
        row = rows[path[1]]
        return derive(
            state, **{path[0]: put(rows, path[1], put(row, path[2], changed(row[path[2]])))}
        )
    row = getattr(state, path[0])
    return derive(state, **{path[0]: put(row, path[1], changed(row[path[1]]))})


def twin(table: Table, first: tuple[Path, Spot], second: tuple[Path, Spot]) -> Table:
    """The same game with two cards trading places."""
    b = table.copy()
    assert first[1].card is not None and second[1].card is not None
    state = with_card(table.state, first[0], second[1].card)
    b.state = with_card(state, second[0], first[1].card)
    b.folds = {v: forget(b.state, v) for v in b.folds}
    return b


def differing(a: State, b: State) -> set[int]:
    """Slots whose card differs between the twins (or that only one has)."""
    here, there = spot_by_slot(a), spot_by_slot(b)
    return {
        slot
        for slot in here.keys() | there.keys()
        if slot not in here or slot not in there or here[slot].card != there[slot].card
    }


def shown(events: list[Event], viewer: Viewer) -> set[int]:
    """Slots whose card these events show ``viewer``: made public, or sent
    to it as a secret."""
    found: set[int] = set()
    for e in events:
        if "revealed_slots" in e.public.DESCRIPTOR.fields_by_name:
            found.update(e.public.revealed_slots)  # type: ignore[attr-defined]
        found.update(s.value.slot for s in e.redact(viewer).secrets)
    return found


def seen_by(viewer: Viewer, a: Table, b: Table, since: int, watched: set[int]) -> bool:
    """Whether ``viewer`` was shown, in either twin, a card that differs or
    did (say an Elusive Seer stopped at it in one twin and turned it face up,
    or an exchange was refused for it in one twin and made in the other)."""
    if a.state.discard != b.state.discard:
        return True
    if watched & (shown(a.log[since:], viewer) | shown(b.log[since:], viewer)):
        return True
    return any(
        spot.slot in watched and should_know(viewer, spot)
        for state in (a.state, b.state)
        for spot in spot_by_slot(state).values()
    )


def answers(table: Table, viewer: Viewer) -> list[Any]:
    """Whether each probe would be accepted, and every refusal word for word
    (an accepted command may show the viewer a card: that is its effect)."""
    if viewer.seat is None:
        return []
    return [outcome(table.state, viewer.seat, probe)[:3:2] for probe in PROBES]


def what_viewer_sees(table: Table, viewer: Viewer, since: int) -> dict[str, Any]:
    return {
        "events": [event_key(e.redact(viewer)) for e in table.log[since:]],
        "view": table.view(viewer).SerializeToString(deterministic=True),
        "legal": [key(a) for a in table.legal(viewer.seat)] if viewer.seat is not None else [],
        "answers": answers(table, viewer),
    }


class Twins:
    """Two tables in lockstep, compared through one viewer's eyes."""

    def __init__(self, a: Table, b: Table, viewer: Viewer) -> None:
        self.a, self.b, self.viewer = a, b, viewer
        self.since = len(a.log)
        self.watched = differing(a.state, b.state)

    def sees(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return (
            what_viewer_sees(self.a, self.viewer, self.since),
            what_viewer_sees(self.b, self.viewer, self.since),
        )

    def choices(self, seat: int) -> list[Message]:
        """The seat's commands that both twins accept."""
        theirs = {key(c) for c in self.b.legal(seat)}
        return [c for c in self.a.legal(seat) if key(c) in theirs]

    def send(self, seat: int, command: Message) -> bool:
        """Both twins take ``command``; False once the viewer has been shown
        a card that differs."""
        self.a.send(seat, command)
        self.b.send(seat, command)
        self.watched |= differing(self.a.state, self.b.state)
        return not seen_by(self.viewer, self.a, self.b, self.since, self.watched)

    def running(self) -> bool:
        state = self.a.state
        return GAME.winners(state) is None and GAME.chance_needed(state) is None


def dealt_twins(
    seed: int, seat_count: int, viewer: Viewer, *, commands: int = 30, policy: Policy = varied
) -> tuple[list[pb.DealRound], list[pb.DealRound], list[tuple[int, Message]]]:
    """Set deals for two games whose first shuffles trade two cards outside
    the viewer's village (a later round, if reached, is dealt alike), and the
    commands both games take (chosen at random by ``policy``) until the
    viewer would be shown one of the two cards."""
    rng = random.Random(seed)
    state = GAME.initial_state(pb.Options(), seat_count)
    deal = GAME.sample_chance(state, rng)
    assert isinstance(deal, pb.DealRound)
    order = list(deal.order)
    mine = set()
    if viewer.seat is not None:
        j = (viewer.seat - deal.start_seat) % seat_count
        mine = set(range(5 * j, 5 * j + 5))
    places = [k for k in range(52) if k not in mine and k != 20]
    first = rng.choice(places)
    second = rng.choice([k for k in places if order[k] != order[first]])
    order[first], order[second] = order[second], order[first]
    other = pb.DealRound(order=order, start_seat=deal.start_seat)
    deals_a, deals_b = [deal], [other]
    twins = Twins(Table(seat_count, deals=deals_a), Table(seat_count, deals=deals_b), viewer)
    twins.a.deal_next()
    twins.b.deal_next()
    sent: list[tuple[int, Message]] = []
    while len(sent) < commands and GAME.winners(twins.a.state) is None:
        if GAME.chance_needed(twins.a.state) is not None:
            again = GAME.sample_chance(twins.a.state, rng)
            assert isinstance(again, pb.DealRound)
            for table, deals in ((twins.a, deals_a), (twins.b, deals_b)):
                deals.append(again)
                table.deals.append(again)
                table.deal_next()
            continue
        seat = rng.choice(awaiting(twins.a.state))
        choices = twins.choices(seat)
        if not choices:
            break
        command = policy(rng, twins.a.state, seat, choices)
        if not twins.send(seat, command):
            break
        sent.append((seat, command))
    return deals_a, deals_b, sent
