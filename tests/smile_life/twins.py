"""Twin games for non-interference: game B is game A with one card the
viewer never sees swapped for another.

A is played to its end with random legal moves. The swapped card is one
that another seat S held (from the deal, or drawn) and never let go of, and
its replacement comes from the set-aside part of the deck, which nobody
ever sees; both are worth the same smiles when the card was dealt (the start
player, SL-02, is public). The swap is refused when the viewer might have
seen the card: a journalist's look by the viewer, a barter involving S, a
tsunami, a medium's look by the viewer at the card's place in the pile. B
replays A's commands; everything the viewer receives must be the same.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from google.protobuf.message import Message

from cardroom.domain.kernel import DEALER, Actor, Event, Viewer
from cardroom.domain.smile_life import GAME
from cardroom.domain.smile_life.cards import HAND_SIZE, smiles
from cardroom.smile_life.v1 import smile_life_pb2 as pb

from .support import key

COMMAND_CAP = 3000
# Commands a viewer's seat tries in both twins: the refusals must match.
PROBES: list[Message] = [
    pb.DrawCard(),
    pb.TakeDiscard(),
    pb.Decline(),
    pb.PlayCard(card="salary_4", destination=pb.DESTINATION_LIFE),
    pb.PlayCard(card="malus_dismissal", destination=pb.DESTINATION_MALUS, target=0),
    pb.ChooseBarterPartner(partner=0),
    pb.GiveSalary(level=2),
]
Step = tuple[int | None, Message]  # None: the dealer


@dataclass
class Played:
    """One game: its options, seat count, every command and the log."""

    seat_count: int
    options: pb.Options
    steps: list[Step] = field(default_factory=list)
    log: list[list[Event]] = field(default_factory=list)


def play_random(seed: int, seat_count: int, options: pb.Options) -> Played:
    rng = random.Random(seed)
    played = Played(seat_count, options)
    state = GAME.initial_state(options, seat_count)
    for _ in range(COMMAND_CAP):
        if GAME.winners(state) is not None:
            return played
        step: Step
        if GAME.chance_needed(state) is not None:
            step = (None, GAME.sample_chance(state, rng))
        else:
            [(seat, actions)] = [
                (s, a) for s in range(seat_count) if (a := GAME.legal_actions(state, s))
            ]
            step = (seat, rng.choice(actions))
        events = decide(state, step)
        played.steps.append(step)
        played.log.append(events)
        for e in events:
            state = GAME.evolve(state, e)
    raise AssertionError("the game did not end")


def decide(state: object, step: Step) -> list[Event]:
    seat, command = step
    actor = DEALER if seat is None else Actor.of_seat(seat)
    return GAME.decide(state, actor, command)


def _owners(played: Played) -> dict[int, int]:
    """Deck position -> the seat whose hand it went to (deal and draws)."""
    owners = {p: p // HAND_SIZE for p in range(HAND_SIZE * played.seat_count)}
    position = HAND_SIZE * played.seat_count
    for events in played.log:
        for e in events:
            m = e.public
            if isinstance(m, pb.CardDrawn):
                owners[position] = m.seat
                position += 1
            elif isinstance(m, (pb.RiverCardDealt,)):
                position += 1
            elif isinstance(m, pb.LuckCardsDrawn):
                position += m.count
    return owners


def _peeked(played: Played, viewer: Viewer) -> set[int]:
    """Deck positions a medium viewer looked at."""
    seen: set[int] = set()
    position = HAND_SIZE * played.seat_count
    for events in played.log:
        for e in events:
            m = e.public
            if isinstance(m, (pb.CardDrawn, pb.RiverCardDealt)):
                position += 1
            elif isinstance(m, pb.LuckCardsDrawn):
                position += m.count
            elif isinstance(m, pb.PileShown) and viewer.seat == m.seat:
                seen.update(range(position, position + m.count))
    return seen


def _let_go(played: Played, seat: int) -> set[str]:
    """Card types that left ``seat``'s hand, or that the seat bet."""
    gone: set[str] = set()
    for events in played.log:
        for e in events:
            m = e.public
            played_from_hand = isinstance(m, pb.CardPlayed) and m.source == pb.SOURCE_HAND
            discarded = isinstance(m, pb.CardDiscarded) and m.zone == pb.ZONE_HAND
            if (played_from_hand or discarded) and m.seat == seat:  # type: ignore[attr-defined]
                gone.add(m.card)  # type: ignore[attr-defined]
            for bet in e.secrets_of(pb.CasinoBet):
                if bet.seat == seat:
                    gone.add(bet.card)
    return gone


def _excluded(played: Played, viewer: Viewer, seat: int) -> bool:
    for events in played.log:
        for e in events:
            m = e.public
            if isinstance(m, pb.HandsRedealt):
                return True
            if isinstance(m, pb.HandsShown) and m.seat == viewer.seat:
                return True
            if isinstance(m, (pb.CardsBartered, pb.BarterStarted)) and seat in (m.seat, m.partner):
                return True
    return False


def twin_shuffles(played: Played, viewer: Viewer, rng: random.Random) -> Iterator[pb.ShuffleDeck]:
    """Shuffles for B, each swapping one card the viewer never sees."""
    seat0, shuffle = played.steps[0]
    assert seat0 is None and isinstance(shuffle, pb.ShuffleDeck)
    cards = list(shuffle.cards)
    aside = [p for p in range(len(cards)) if p >= len(cards) - _set_aside(played)]
    peeked = _peeked(played, viewer)
    owners = _owners(played)
    candidates = sorted(owners.items())
    rng.shuffle(candidates)
    for position, seat in candidates:
        if seat == viewer.seat or position in peeked or _excluded(played, viewer, seat):
            continue
        gone = _let_go(played, seat)
        for other in aside:
            x, y = cards[position], cards[other]
            if x == y or x in gone or y in gone:
                continue
            if position < HAND_SIZE * played.seat_count and smiles(x) != smiles(y):
                continue
            twin = list(cards)
            twin[position], twin[other] = y, x
            yield pb.ShuffleDeck(cards=twin)
            break


def _set_aside(played: Played) -> int:
    dealt = played.log[0][0].public
    assert isinstance(dealt, pb.CardsDealt)
    return dealt.set_aside_count


def received(events: list[Event], viewer: Viewer) -> list[tuple[object, ...]]:
    """What a viewer receives of events: the public part, every secret's
    audience, and the values it may see."""
    return [
        (
            key(e.public),
            tuple(
                (tuple(sorted(s.audience)), key(s.value) if viewer.may_see(s.audience) else None)
                for s in e.secrets
            ),
        )
        for e in events
    ]
