"""The commands worth asking ``decide`` about in a position: every command
built from the cards and seats in play, well formed or not, with payments
and targets right and wrong, so that ``legal_actions`` can be compared with
what ``decide`` accepts."""

from __future__ import annotations

from google.protobuf.message import Message

from cardroom.domain.smile_life.cards import ACQUISITIONS, FLIRT, card
from cardroom.domain.smile_life.plays import payments
from cardroom.domain.smile_life.state import State
from cardroom.smile_life.v1 import smile_life_pb2 as pb

from .support import CASINO, DISCARD, LIFE, MALUS

ODD_PAYMENTS = [
    pb.Payment(free=True),
    pb.Payment(inheritance=True),
    pb.Payment(salary_levels=[4]),
    pb.Payment(salary_levels=[1, 2]),
    pb.Payment(salary_levels=[3, 4, 4]),
    pb.Payment(salary_levels=[1, 1, 1, 1, 2, 4]),
    pb.Payment(),
]


def _plays(state: State, seat: int, played: str) -> list[Message]:
    n = state.seat_count
    kind = card(played).family
    found: list[Message] = []
    if kind in ACQUISITIONS:
        for payment in [*payments(state, seat, played), *ODD_PAYMENTS]:
            found.append(pb.PlayCard(card=played, destination=LIFE, payment=payment))
    found.append(pb.PlayCard(card=played, destination=LIFE))
    if kind == FLIRT:
        found.extend(pb.PlayCard(card=played, destination=LIFE, steal_from=s) for s in range(n))
    found.append(pb.PlayCard(card=played, destination=MALUS))
    found.extend(pb.PlayCard(card=played, destination=MALUS, target=s) for s in range(n))
    found.append(pb.PlayCard(card=played, destination=DISCARD))
    found.append(pb.PlayCard(card=played, destination=CASINO))
    return found


def universe(state: State, seat: int) -> list[Message]:
    n = state.seat_count
    life = state.lives[seat]
    hand = sorted({c for c in state.hands[seat] if c is not None})
    cards = set(hand) | {c for c, _ in state.discard} | set(state.river) | set(life.maluses)
    cards |= {c for c in state.luck if c is not None}
    if state.held is not None:
        cards.add(state.held)
    cards |= {"salary_4", "flirt_bar", "malus_accident", "house_villa"}
    found: list[Message] = [
        pb.DrawCard(),
        pb.TakeDiscard(),
        pb.Divorce(),
        pb.StopAdultery(),
        pb.Decline(),
        pb.Resign(),
        *(pb.Resign(discard=c) for c in hand),
        *(pb.TakeRiverCard(card=c) for c in sorted(set(state.river) | {"pet_cat"})),
        *(pb.TakeFromDiscard(card=c) for c in sorted({c for c, _ in state.discard})),
        *(pb.GiveSalary(level=level) for level in range(1, 5)),
        *(pb.DiscardFromHand(card=c) for c in hand),
        *(pb.TakeRevenge(malus=m, target=t) for m in sorted(set(life.maluses)) for t in range(n)),
    ]
    for partner in range(n):
        found.append(pb.ChooseBarterPartner(partner=partner))
        found.extend(pb.ChooseBarterPartner(partner=partner, protect=c) for c in hand)
    luck = sorted({c for c in state.luck if c is not None})
    found.extend(pb.ChooseLuckCard(card=c, top_discard=top) for c in luck for top in ["", *luck])
    for played in sorted(cards):
        found.extend(_plays(state, seat, played))
    return found
