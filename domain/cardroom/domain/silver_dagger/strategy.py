"""A sensible Silver Dagger player (cardroom.domain.presentation, ``Strategy``).

It knows what its view shows: the cards of its village it has seen, the
public ones everywhere, the cards its Spies and seers showed it, the discard
pile. A card it has not seen is worth the average of the cards it has not
seen anywhere. From that it keeps its low cards, swaps known high ones (and
unknown ones) for lower ones, takes a low card or an active Debt Collector
or Halfling from the discard pile, exchanges known matching cards together,
gives a face-up Zombie away at once, uses an ability when it gains more than
an exchange would (seers on its own unknown cards, the Magician and the
Master Thief to take a known low card, the Approximator on its two worst
cards) and calls when its estimated score is clearly the lowest.

Every multi-step choice (a multiple exchange, the Approximator's two cards,
an ability's steps) is recomputed from the view alone, so the steps agree
without the strategy keeping anything between calls.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from google.protobuf.message import Message

from cardroom.domain.silver_dagger.cards import DECK, value
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

DC, HALFLING, ZOMBIE, SENTINEL = (
    pb.CARD_DEBT_COLLECTOR,
    pb.CARD_HALFLING,
    pb.CARD_ZOMBIE,
    pb.CARD_SENTINEL,
)
UNKNOWN = 0
NEVER = -1e9


def v(card: int) -> int:
    return value(card)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Knowledge:
    """What one seat's view says, in the terms the strategy weighs."""

    view: pb.View
    seat: int
    unseen: float  # the average worth of a card this seat has not seen
    others_cards: int  # cards in the other villages (a face-up Debt Collector's worth)

    @classmethod
    def of(cls, view: pb.View, seat: int) -> Knowledge:
        left = Counter(DECK)
        seen: list[int] = list(view.discard_pile)
        for s in view.seats:
            seen += [c.card for c in s.village if c.card]
        if 0 <= seat < len(view.seats):
            seen += [c for c in view.seats[seat].private_deck if c]
        if view.holding and view.held:
            seen.append(view.held)
        for card in seen:
            if left[card] > 0:  # type: ignore[index]
                left[card] -= 1  # type: ignore[index]
        count = sum(left.values())
        unseen = sum(v(c) * k for c, k in left.items()) / count if count else 6.0
        others = sum(len(s.village) for s in view.seats if s.seat != seat)
        return cls(view, seat, unseen, others)

    @property
    def village(self) -> Sequence[pb.CardView]:
        return self.view.seats[self.seat].village

    def worth(self, card: int, up: bool) -> float:
        """What a card adds to its owner's score where it lies."""
        if not card:
            return self.unseen
        if card == DC:
            return -float(self.others_cards) if up else 0.0
        if card == HALFLING:
            return -5.0 if up else 2.0
        return float(v(card))

    def at(self, seat: int, position: int) -> float:
        village = self.view.seats[seat].village
        if not 0 <= position < len(village):
            return self.unseen
        c = village[position]
        return self.worth(c.card, c.face_up)

    def placed(self, card: int, up: bool) -> float:
        """What a card will add in this seat's village (a face-up Zombie
        will be given away, unless the seat before is closed to it)."""
        if card == ZOMBIE and up and not self.protected(self.predecessor()):
            return 1.0
        return self.worth(card, up)

    def predecessor(self) -> int:
        n = len(self.view.seats)
        if n == 2:
            return 1 - self.seat
        return (self.seat - (1 if self.view.clockwise else -1)) % n

    def protected(self, seat: int) -> bool:
        if seat == self.seat or not 0 <= seat < len(self.view.seats):
            return False
        return any(c.face_up and c.card == SENTINEL for c in self.view.seats[seat].village)

    def score(self, seat: int, flipped: bool = False) -> float:
        """A village's expected score (SV-16 without the Furry), as this seat knows it."""
        village = self.view.seats[seat].village
        others = sum(len(s.village) for s in self.view.seats if s.seat != seat)
        total, debts, halves = 0.0, 0, 0
        for c in village:
            up = c.face_up != flipped
            if c.card == DC:
                debts += up
            elif c.card == HALFLING and up:
                halves += 1
            else:
                total += v(c.card) if c.card else self.unseen
        total -= others * debts
        for _ in range(halves):
            total = total / 2
        return total

    def unknown_mine(self) -> int:
        return sum(1 for c in self.village if not c.card)

    def worst(self, exclude_zombies: bool = True) -> tuple[float, int]:
        """The seat's own card worth most, and its position."""
        best = (NEVER, -1)
        for p, c in enumerate(self.village):
            if exclude_zombies and c.card == ZOMBIE:
                continue
            best = max(best, (self.worth(c.card, c.face_up), -p))
        return best[0], -best[1]


def matching_group(k: Knowledge) -> tuple[float, tuple[int, ...]]:
    """The seat's known equal cards (two or more, no Zombies) worth most together."""
    groups: dict[int, list[int]] = {}
    for p, c in enumerate(k.village):
        if c.card and c.card != ZOMBIE:
            groups.setdefault(c.card, []).append(p)
    best: tuple[float, tuple[int, ...]] = (NEVER, ())
    for positions in groups.values():
        if len(positions) >= 2:
            worth = sum(k.at(k.seat, p) for p in positions) + len(positions) - 1
            best = max(best, (worth, tuple(positions)))
    return best


def approximator_pair(k: Knowledge) -> tuple[float, tuple[int, int]]:
    """The two cards (no Zombies) the Approximator removes to most gain."""
    best: tuple[float, tuple[int, int]] = (NEVER, (0, 1))
    size = len(k.village)
    for i in range(size):
        for j in range(i + 1, size):
            if ZOMBIE in (k.village[i].card, k.village[j].card):
                continue
            best = max(best, (k.at(k.seat, i) + k.at(k.seat, j), (i, j)))
    return best


def switch_gain(k: Knowledge, a: tuple[int, int], b: tuple[int, int]) -> float:
    """What trading the cards at ``a`` and ``b`` is worth to this seat."""
    me = k.seat
    views = k.view.seats

    def card(place: tuple[int, int]) -> pb.CardView:
        return views[place[0]].village[place[1]]

    if a[0] == me and b[0] != me:
        theirs = card(b)
        return k.at(*a) - k.worth(theirs.card, theirs.face_up)
    if b[0] == me and a[0] != me:
        theirs = card(a)
        return k.at(*b) - k.worth(theirs.card, theirs.face_up)
    return 0.0


@dataclass(frozen=True)
class SilverDaggerStrategy:
    # Call when the estimated score beats every other seat's by this much.
    call_margin: float = 6.0
    # How much a little noise may change a close decision.
    noise: float = 0.3

    def choose(
        self, view: Message, legal: Sequence[Message], seat: int, rng: random.Random
    ) -> Message:
        assert isinstance(view, pb.View)
        kinds = {type(a) for a in legal}
        if pb.LookAtCards in kinds:
            return rng.choice(list(legal))
        k = Knowledge.of(view, seat)
        if view.phase == pb.PHASE_TURN:
            return self._turn(k, legal, rng)
        if view.phase == pb.PHASE_HOLDING:
            return self._holding(k, legal, rng)
        if view.phase == pb.PHASE_SELECTING:
            return self._selecting(k, legal)
        if view.phase == pb.PHASE_ABILITY:
            return self._ability(k, legal, rng)
        return rng.choice(list(legal))

    # --------------------------------------------------------------- turn

    def _turn(self, k: Knowledge, legal: Sequence[Message], rng: random.Random) -> Message:
        view = k.view
        by_type: dict[type, list[Message]] = {}
        for a in legal:
            by_type.setdefault(type(a), []).append(a)
        if pb.GiveZombie in by_type:
            return by_type[pb.GiveZombie][0]
        if pb.CallVote in by_type and self._should_call(k):
            return by_type[pb.CallVote][0]
        peeks = [a for a in by_type.get(pb.SpyPeek, []) if isinstance(a, pb.SpyPeek)]
        unknown_peeks = [a for a in peeks if not view.seats[a.seat].village[a.position].card]
        if unknown_peeks:
            return rng.choice(unknown_peeks)
        if pb.TakeDiscard in by_type and view.discard_pile:
            top = view.discard_pile[-1]
            gain = k.worst()[0] - k.placed(top, True)
            if gain >= 4 or (top in (DC, HALFLING) and gain > 0):
                return by_type[pb.TakeDiscard][0]
        draws = [a for a in by_type.get(pb.DrawCard, []) if isinstance(a, pb.DrawCard)]
        private = [a for a in draws if a.private_deck]
        pile = view.seats[k.seat].private_deck
        if private and pile and pile[-1] and k.worth(pile[-1], False) <= 3:
            return private[0]
        deck = [a for a in draws if not a.private_deck]
        if deck:
            return deck[0]
        if draws:
            return draws[0]
        if pb.TakeDiscard in by_type:
            return by_type[pb.TakeDiscard][0]
        if pb.CallVote in by_type:
            return by_type[pb.CallVote][0]
        others = [a for a in legal if not isinstance(a, pb.TurnDagger | pb.SpyPeek)]
        return rng.choice(others or list(legal))

    def _should_call(self, k: Knowledge) -> bool:
        mine = k.score(k.seat) + 2.0 * k.unknown_mine()
        others = [k.score(s.seat) for s in k.view.seats if s.seat != k.seat]
        return mine <= 12 and mine + self.call_margin <= min(others, default=0)

    # ------------------------------------------------------------ holding

    def _holding(self, k: Knowledge, legal: Sequence[Message], rng: random.Random) -> Message:
        view = k.view
        held, up = view.held, view.held_from_discard
        placed = k.placed(held, up) if held else k.unseen
        scored: list[tuple[float, int, Message]] = []
        for i, a in enumerate(legal):
            if isinstance(a, pb.DiscardDrawn):
                score = 0.0
            elif isinstance(a, pb.Exchange):
                c = k.village[a.position]
                if c.card == ZOMBIE:
                    # Refused (SV-08 Z1): the held card goes instead; a
                    # Zombie held stays too (Z2).
                    score = NEVER if held == ZOMBIE or up else -0.5
                else:
                    score = k.at(k.seat, a.position) - placed
            elif isinstance(a, pb.StartMultipleExchange):
                worth, group = matching_group(k)
                score = worth - placed if group else NEVER
            elif isinstance(a, pb.UseAbility):
                score = self._ability_worth(k, held)
            else:  # peeks and the dagger: not while holding
                continue
            scored.append((score + rng.random() * self.noise, -i, a))
        if not scored:
            return rng.choice(list(legal))
        return max(scored, key=lambda t: (t[0], t[1]))[2]

    def _ability_worth(self, k: Knowledge, card: int) -> float:
        view = k.view
        if card == pb.CARD_APPROXIMATOR:
            worth, _ = approximator_pair(k)
            return worth - k.worth(card, True) + 1
        if card == pb.CARD_FLIPPER:
            return max(self._flip_gain(k, s.seat) for s in view.seats)
        if card in (pb.CARD_ELUSIVE_SEER, pb.CARD_MYSTIC_SEER):
            known_low = any(not c.face_up and c.card in (DC, HALFLING, ZOMBIE) for c in k.village)
            if card == pb.CARD_ELUSIVE_SEER and known_low:
                return 4.0
            return 1.5 * min(2, k.unknown_mine())
        if card == pb.CARD_MAGICIAN:
            return max((g for g, _ in self._magician_targets(k)), default=0.0) - 1.0
        if card == pb.CARD_MASTER_THIEF:
            known = [g for g, _ in self._thief_targets(k)]
            return max(known, default=0.0) * 0.6
        if card == pb.CARD_RENFIELD:
            return 0.3
        if card == pb.CARD_REVERSER:
            return 1.0 if len(view.seats) == 2 else -0.1
        return 0.0

    def _flip_gain(self, k: Knowledge, seat: int) -> float:
        if not k.view.seats[seat].village:
            return NEVER
        change = k.score(seat, flipped=True) - k.score(seat)
        return -change if seat == k.seat else 0.3 * change

    def _magician_targets(self, k: Knowledge) -> list[tuple[float, tuple[int, int]]]:
        """Cards of other villages to turn up and take, with what taking them gains."""
        worst, _ = k.worst(exclude_zombies=False)
        return [
            (worst - (k.worth(c.card, True) if c.card else k.unseen + 1.5), where)
            for where, c in _reachable(k)
        ]

    def _thief_targets(self, k: Knowledge) -> list[tuple[float, tuple[int, int]]]:
        """Face-down cards of other villages to view (and take if low)."""
        worst, _ = k.worst(exclude_zombies=False)
        return [
            (worst - (k.worth(c.card, False) if c.card else k.unseen), where)
            for where, c in _reachable(k)
            if not c.face_up
        ]

    # ---------------------------------------------------------- selecting

    def _selecting(self, k: Knowledge, legal: Sequence[Message]) -> Message:
        _, group = matching_group(k)
        chosen = set(k.view.selected)
        for a in legal:
            if isinstance(a, pb.SelectCard) and a.position in group and a.position not in chosen:
                return a
        for a in legal:
            if isinstance(a, pb.ConfirmExchange):
                return a
        return legal[0]

    # ---------------------------------------------------------- abilities

    def _ability(self, k: Knowledge, legal: Sequence[Message], rng: random.Random) -> Message:
        step = k.view.ability.step
        if step == pb.ABILITY_STEP_APPROXIMATOR_SELECT:
            _, pair = approximator_pair(k)
            want = pair[1] if k.view.selected else pair[0]
            for a in legal:
                if isinstance(a, pb.SelectCard) and a.position == want:
                    return a
            return max(
                (a for a in legal if isinstance(a, pb.SelectCard)),
                key=lambda a: k.at(k.seat, a.position),
                default=legal[0],
            )
        if step == pb.ABILITY_STEP_FLIPPER_VILLAGE:
            return max(
                legal,
                key=lambda a: (
                    self._flip_gain(k, a.seat) if isinstance(a, pb.ChooseVillage) else NEVER
                ),
            )
        if step in (pb.ABILITY_STEP_ELUSIVE_SEER_VIEW, pb.ABILITY_STEP_MYSTIC_SEER_VIEW):
            return self._view_card(k, legal, step, rng)
        if step == pb.ABILITY_STEP_MASTER_THIEF_VIEW:
            targets = dict((place, g) for g, place in self._thief_targets(k))
            return max(
                legal,
                key=lambda a: (
                    targets.get((a.seat, a.position), -5.0) + rng.random() * self.noise
                    if isinstance(a, pb.ChooseCard)
                    else NEVER
                ),
            )
        if step in (pb.ABILITY_STEP_MASTER_THIEF_SWITCH,):
            home = (k.view.ability.target_seat, k.view.ability.target_position)
            return max(
                legal,
                key=lambda a: (
                    switch_gain(k, home, (a.seat, a.position))
                    if isinstance(a, pb.ChooseCard)
                    else NEVER
                ),
            )
        if step == pb.ABILITY_STEP_MAGICIAN_TARGET:
            targets = dict((place, g) for g, place in self._magician_targets(k))
            return max(
                legal,
                key=lambda a: (
                    targets.get((a.seat, a.position), -5.0) + rng.random() * self.noise
                    if isinstance(a, pb.ChooseCard)
                    else NEVER
                ),
            )
        if step == pb.ABILITY_STEP_MAGICIAN_CHOICE:
            return self._magician_choice(k, legal)
        return rng.choice(list(legal))

    def _view_card(
        self, k: Knowledge, legal: Sequence[Message], step: int, rng: random.Random
    ) -> Message:
        """Seers look at the seat's own cards first: for the Elusive Seer a
        known low card to turn up (an active Debt Collector or Halfling, a
        Zombie to give away), else unknown ones."""

        def rank(a: Message) -> float:
            if isinstance(a, pb.StopViewing):
                return 0.5
            if not isinstance(a, pb.ChooseCard):
                return NEVER
            c = k.view.seats[a.seat].village[a.position]
            noise = rng.random() * 0.1
            if a.seat == k.seat:
                if step == pb.ABILITY_STEP_ELUSIVE_SEER_VIEW and c.card in (DC, HALFLING, ZOMBIE):
                    return 5.0 + noise
                return (3.0 if not c.card else -1.0) + noise
            if step == pb.ABILITY_STEP_ELUSIVE_SEER_VIEW and c.card and v(c.card) <= 4:
                return -3.0 + noise  # it would turn their low card face up
            return (1.0 if not c.card else -2.0) + noise

        return max(legal, key=rank)

    def _magician_choice(self, k: Knowledge, legal: Sequence[Message]) -> Message:
        ability = k.view.ability
        target = (ability.target_seat, ability.target_position)
        switches = [a for a in legal if isinstance(a, pb.SwitchWith)]
        best = max(
            switches, key=lambda a: switch_gain(k, target, (k.seat, a.position)), default=None
        )
        gain = switch_gain(k, target, (k.seat, best.position)) if best is not None else NEVER
        use = next((a for a in legal if isinstance(a, pb.UseAbility)), None)
        if use is not None and (gain <= 0 or best is None):
            return use
        return best if best is not None else legal[0]


STRATEGY = SilverDaggerStrategy()


def _reachable(k: Knowledge) -> Iterator[tuple[tuple[int, int], pb.CardView]]:
    """((seat, position), card) of every card in another seat's village that
    is not protected: what the Magician and the Master Thief may reach."""
    for s in k.view.seats:
        if s.seat == k.seat or k.protected(s.seat):
            continue
        for p, c in enumerate(s.village):
            yield (s.seat, p), c
