"""The dealer's chance outcomes: the shuffle and deal (rulebook setup,
SL-02, CR-SL-01), the tsunami's redeal (SL-16) and the barter's random
picks (SL-16). Each is checked against the full state, applied, and drawn
by ``sample`` from the generator the service gives."""

from __future__ import annotations

import random
from collections import Counter

from google.protobuf.message import Message

from cardroom.domain.kernel import MalformedCommand, RuleViolation
from cardroom.domain.smile_life.batch import Batch
from cardroom.domain.smile_life.cards import (
    DECK,
    DECK_COUNTS,
    HAND_SIZE,
    RIVER_SIZE,
    is_card,
    smiles,
)
from cardroom.domain.smile_life.state import State, known
from cardroom.domain.smile_life.steps import close_step
from cardroom.domain.smile_life.turns import deal_river
from cardroom.smile_life.v1 import smile_life_pb2 as pb

SETUP = "rulebook: setup"


def needed(state: State) -> type[Message] | None:
    if state.phase == pb.PHASE_SETUP:
        return pb.ShuffleDeck
    top = state.top
    if top is not None and top.kind == pb.STEP_BARTER_DRAW:
        return pb.PickBarterCards
    if top is not None and top.kind == pb.STEP_TSUNAMI:
        return pb.RedealHands
    return None


def start_seat(hands: list[list[str]]) -> int:
    """SL-02: the most smiles in hand; a tie goes to the lowest seat."""
    totals = [sum(smiles(c) for c in hand) for hand in hands]
    return totals.index(max(totals))


def deal(batch: Batch, command: pb.ShuffleDeck) -> None:
    state = batch.state
    cards = list(command.cards)
    if Counter(cards) != DECK_COUNTS:
        raise RuleViolation(SETUP, "the shuffle must hold exactly the 200 cards of the deck")
    n = state.seat_count
    hands = [cards[HAND_SIZE * s : HAND_SIZE * (s + 1)] for s in range(n)]
    rest = cards[HAND_SIZE * n :]
    size = state.settings.draw_pile_size
    river = RIVER_SIZE if state.settings.river else 0
    pile = rest if size is None else rest[: size + river]
    aside = rest[len(pile) :]
    secrets: list[tuple[frozenset[int], Message]] = [
        (frozenset({s}), pb.DealtCards(seat=s, cards=hand)) for s, hand in enumerate(hands)
    ]
    secrets.append((frozenset(), pb.DrawPile(cards=pile)))
    if aside:
        secrets.append((frozenset(), pb.SetAside(cards=aside)))
    batch.emit(
        pb.CardsDealt(hand_size=HAND_SIZE, draw_pile_count=len(pile), set_aside_count=len(aside)),
        *secrets,
    )
    if river:
        deal_river(batch)
    batch.emit(pb.TurnStarted(seat=start_seat(hands), turn=1))


def _eligible(state: State) -> tuple[list[str], list[str]]:
    """The cards each side of the barter may lose: the initiator's less the
    protected one, and the partner's whole hand."""
    barter = state.barter
    assert barter is not None
    mine = known(state.hands[barter.seat])
    if barter.protected_card is not None:
        mine.remove(barter.protected_card)
    return mine, known(state.hands[barter.partner])


def _pick_problem(picked: str, hand: list[str], whose: str) -> RuleViolation | None:
    if hand and picked not in hand:
        return RuleViolation("SL-16", f"{picked} is not a card the {whose} may lose")
    if not hand and picked:
        return RuleViolation("SL-16", f"the {whose} has no card to lose")
    return None


def barter(batch: Batch, command: pb.PickBarterCards) -> None:
    state = batch.state
    barter = state.barter
    assert barter is not None
    mine, theirs = _eligible(state)
    for picked, hand, whose in (
        (command.from_initiator, mine, "initiator"),
        (command.from_partner, theirs, "partner"),
    ):
        problem = _pick_problem(picked, hand, whose)
        if problem is not None:
            raise problem
    close_step(batch)
    batch.emit(
        pb.CardsBartered(seat=barter.seat, partner=barter.partner),
        (
            {barter.seat, barter.partner},
            pb.BarteredCards(
                seat=barter.seat,
                partner=barter.partner,
                to_seat=command.from_partner,
                to_partner=command.from_initiator,
            ),
        ),
    )


def redeal(batch: Batch, command: pb.RedealHands) -> None:
    state = batch.state
    n = state.seat_count
    if [h.seat for h in command.hands] != list(range(n)):
        raise MalformedCommand(f"RedealHands lists seats 0 to {n - 1}, in order")
    counts = [len(hand) for hand in state.hands]
    gathered = Counter(c for hand in state.hands for c in known(hand))
    if [len(h.cards) for h in command.hands] != counts or gathered != Counter(
        c for h in command.hands for c in h.cards
    ):
        raise RuleViolation("SL-16", "a tsunami deals back the gathered cards, as many each")
    close_step(batch)
    batch.emit(
        pb.HandsRedealt(counts=counts),
        *[
            (frozenset({h.seat}), pb.RedealtCards(seat=h.seat, cards=h.cards))
            for h in command.hands
        ],
    )


def check_cards(cards: list[str]) -> None:
    for c in cards:
        if c and not is_card(c):
            raise MalformedCommand(f"unknown card {c!r}")


def apply(batch: Batch, command: Message) -> None:
    """A dealer's outcome: well formed, due now, then applied."""
    if isinstance(command, pb.ShuffleDeck):
        check_cards(list(command.cards))
    elif isinstance(command, pb.PickBarterCards):
        check_cards([command.from_initiator, command.from_partner])
    elif isinstance(command, pb.RedealHands):
        for hand in command.hands:
            check_cards(list(hand.cards))
    else:
        raise MalformedCommand(f"the dealer cannot send {command.DESCRIPTOR.full_name}")
    kind = needed(batch.state)
    if kind is None or not isinstance(command, kind):
        due = "nothing" if kind is None else kind.DESCRIPTOR.name
        raise RuleViolation(SETUP, f"the dealer cannot send {command.DESCRIPTOR.name} now ({due})")
    if isinstance(command, pb.ShuffleDeck):
        deal(batch, command)
    elif isinstance(command, pb.PickBarterCards):
        barter(batch, command)
    else:
        assert isinstance(command, pb.RedealHands)
        redeal(batch, command)


def sample(state: State, rng: random.Random) -> Message:
    kind = needed(state)
    if kind is pb.ShuffleDeck:
        deck = list(DECK)
        rng.shuffle(deck)
        return pb.ShuffleDeck(cards=deck)
    if kind is pb.PickBarterCards:
        mine, theirs = _eligible(state)
        return pb.PickBarterCards(
            from_initiator=rng.choice(mine) if mine else "",
            from_partner=rng.choice(theirs) if theirs else "",
        )
    if kind is pb.RedealHands:
        cards = [c for hand in state.hands for c in known(hand)]
        rng.shuffle(cards)
        hands, start = [], 0
        for seat, hand in enumerate(state.hands):
            hands.append(pb.HandCards(seat=seat, cards=cards[start : start + len(hand)]))
            start += len(hand)
        return pb.RedealHands(hands=hands)
    raise RuleViolation(SETUP, "no chance outcome is due now")
