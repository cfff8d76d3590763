"""Twin games for redaction non-interference.

Game A and game B differ only in values one viewer cannot see: B's deal
agrees with A's on the viewer's cards and shuffles everything else, and other
players choose different cards for acts of the same count and the same
truthfulness. Both games make the same public moves. Wherever the viewer
*would* see a hidden value (a challenge it makes, a swap it is part of), the
twins are made to agree on it, or the harness picks another public move.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from google.protobuf.message import Message

from cardroom.domain.kernel import DEALER, Actor, Event, MalformedCommand, RuleViolation, Viewer
from cardroom.domain.smoke_and_mirrors import GAME
from cardroom.domain.smoke_and_mirrors.cards import (
    CARD_KINDS,
    MAX_ACHIEVABLE,
    Card,
    act_is_true,
    distinct_acts,
)
from cardroom.domain.smoke_and_mirrors.state import Phase, State
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as pb

from .play import mover
from .support import Table, act, as_cards, command_universe, give

UNIVERSE = command_universe()
FEW = [
    pb.Challenge(),
    pb.TakeBreak(),
    pb.DeclineSwap(),
    pb.TakeBlind(),
    give(CARD_KINDS[0]),
    act(CARD_KINDS[3]),
]


def wire(event: Event) -> tuple:
    """What a viewer receives: the public message and the secrets it may see."""
    return (
        type(event.public).__name__,
        event.public.SerializeToString(deterministic=True),
        tuple(
            (
                sorted(s.audience),
                type(s.value).__name__,
                s.value.SerializeToString(deterministic=True),
            )
            for s in event.secrets
        ),
    )


def outcome(state: State, seat: int, command: Message) -> str:
    try:
        GAME.decide(state, Actor.of_seat(seat), command)
    except (RuleViolation, MalformedCommand) as e:
        return f"refused: {type(e).__name__}: {e}"
    return "accepted"


def twin_deal(deal: pb.DealRound, keep: int | None, rng: random.Random) -> pb.DealRound:
    """Another deal: the same start seat and the same cards for seat ``keep``."""
    twin = pb.DealRound(start_seat=deal.start_seat)
    for name in ("stars", "swirls", "skulls"):
        cards = list(getattr(deal, name))
        movable = [i for i in range(len(cards)) if i != keep]
        shuffled = [cards[i] for i in movable]
        rng.shuffle(shuffled)
        for i, card in zip(movable, shuffled, strict=True):
            cards[i] = card
        getattr(twin, name).extend(cards)
    return twin


def known(cards: Iterable[Card | None]) -> list[Card]:
    return [c for c in cards if c is not None]


@dataclass
class Twins:
    seats: int
    viewer: Viewer
    seed: int
    opts: pb.Options = field(default_factory=pb.Options)
    eagerness: float = 0.3
    commands: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)  # public choices
        self.rng_a = random.Random(self.seed + 1)  # game A's hidden choices
        self.rng_b = random.Random(self.seed + 2)  # game B's hidden choices
        self.a = Table(self.seats, self.opts)
        self.b = Table(self.seats, self.opts)
        self.fold_a = self.a.state
        self.fold_b = self.b.state
        self.me = self.viewer.seat if self.viewer.kind == "seat" else None
        self.pending_pick: tuple[int, int] | None = None
        self.pending_give: Card | None = None  # the same card given in both games
        self.seen: set[Card] = set()  # every card the viewer saw this round

    # ------------------------------------------------------------ moves

    def send(self, actor_seat: int | None, cmd_a: Message, cmd_b: Message) -> None:
        if actor_seat is None:
            new_a, new_b = self.a.send(DEALER, cmd_a), self.b.send(DEALER, cmd_b)
        else:
            new_a, new_b = self.a.by(actor_seat, cmd_a), self.b.by(actor_seat, cmd_b)
        self.commands += 1
        self.compare_events(new_a, new_b)

    def step(self) -> None:
        a, b = self.a.state, self.b.state
        need = GAME.chance_needed(a)
        assert need is GAME.chance_needed(b)
        if need is pb.DealRound:
            deal_a = GAME.sample_chance(a, self.rng_a)
            assert isinstance(deal_a, pb.DealRound)
            self.send(None, deal_a, twin_deal(deal_a, self.me, self.rng_b))
        elif need is pb.BlindPick:
            if self.pending_pick is None:
                size = len(a.seats[a.eliminated].hand)  # type: ignore[index]
                pick = (self.rng_a.randrange(size), self.rng_b.randrange(size))
            else:
                pick, self.pending_pick = self.pending_pick, None
            self.send(None, pb.BlindPick(index=pick[0]), pb.BlindPick(index=pick[1]))
        else:
            seat = mover(a)
            assert seat is not None and seat == mover(b)
            cmd_a, cmd_b = self.choose(seat, a, b)
            self.send(seat, cmd_a, cmd_b)

    def choose(self, seat: int, a: State, b: State) -> tuple[Message, Message]:
        legal_a, legal_b = GAME.legal_actions(a, seat), GAME.legal_actions(b, seat)
        kinds = {type(x) for x in legal_a}
        assert kinds == {type(x) for x in legal_b}, "the kinds of legal moves are public"
        if a.phase is Phase.SWAP:
            return self.choose_swap(seat, a, b)
        if a.phase is Phase.GIVE:
            return self.choose_give(seat, a, b)
        eager = a.last_claim > MAX_ACHIEVABLE or self.rng.random() < self.eagerness
        if pb.Challenge in kinds and eager and self.may_challenge(seat, a, b):
            return pb.Challenge(), pb.Challenge()
        if pb.TakeBreak in kinds and self.rng.random() < 0.15:
            return pb.TakeBreak(), pb.TakeBreak()
        return self.choose_act(seat, a, b)

    def may_challenge(self, seat: int, a: State, b: State) -> bool:
        actor = a.last_actor
        assert actor is not None
        act_a, act_b = known(a.seats[actor].act), known(b.seats[actor].act)
        if seat == self.me:
            return sorted(act_a) == sorted(act_b)  # the viewer will see the act
        claim = a.last_claim
        return act_is_true(act_a, claim) == act_is_true(act_b, claim)

    def choose_act(self, seat: int, a: State, b: State) -> tuple[Message, Message]:
        sizes = [1] if a.opening else [1, 2, 3]
        k = self.rng.choice(sizes)
        own_a, own_b = known(a.seats[seat].owned), known(b.seats[seat].owned)
        options_a = distinct_acts(own_a, [k])
        if seat == self.me:
            assert sorted(own_a) == sorted(own_b), "the viewer's cards are the same"
            cards = self.rng.choice(options_a)
            return act(*cards), act(*cards)
        claim = a.last_claim + 1
        cards_a = self.rng_a.choice(options_a)
        options_b = distinct_acts(own_b, [k])
        if cards_a in options_b and self.rng_b.random() < 0.5:
            return act(*cards_a), act(*cards_a)
        truth = act_is_true(cards_a, claim)
        alike = [c for c in options_b if act_is_true(c, claim) == truth] or options_b
        return act(*cards_a), act(*self.rng_b.choice(alike))

    def choose_swap(self, seat: int, a: State, b: State) -> tuple[Message, Message]:
        """Take blind or decline alike (public); the pick, and the give the
        viewer will see, are fixed now so that the viewer sees the same cards."""
        out = a.eliminated
        assert out is not None
        decline, take = pb.DeclineSwap(), pb.TakeBlind()
        if self.rng.random() < 0.3:
            return decline, decline
        hand_a, hand_b = known(a.seats[seat].hand), known(b.seats[seat].hand)
        theirs_a, theirs_b = known(a.seats[out].hand), known(b.seats[out].hand)
        if seat == self.me:
            # The viewer swaps: it will see the card it takes.
            pick_a = self.rng_a.randrange(len(theirs_a))
            taken = theirs_a[pick_a]
            if taken not in theirs_b:
                return decline, decline
            self.pending_pick = (pick_a, theirs_b.index(taken))
            return take, take
        if out == self.me:
            # The viewer is swapped with: it sees the card it gets.
            given = self.rng_a.choice(hand_a)
            if given not in hand_b:
                return decline, decline
            pick = self.rng.randrange(len(theirs_a))
            self.pending_pick = (pick, pick)
            self.pending_give = given
        return take, take

    def choose_give(self, seat: int, a: State, b: State) -> tuple[Message, Message]:
        """SM-10: a card held before the take, the same one if the viewer
        will see it."""
        if self.pending_give is not None:
            given, self.pending_give = self.pending_give, None
            return give(given), give(given)
        legal_a, legal_b = GAME.legal_actions(a, seat), GAME.legal_actions(b, seat)
        if seat == self.me:
            choice = self.rng.choice(legal_a)
            return choice, choice
        return self.rng_a.choice(legal_a), self.rng_b.choice(legal_b)

    # ------------------------------------------------------------ checks

    def compare_events(self, new_a: list[Event], new_b: list[Event]) -> None:
        seen_a = [e.redact(self.viewer) for e in new_a]
        seen_b = [e.redact(self.viewer) for e in new_b]
        assert [wire(e) for e in seen_a] == [wire(e) for e in seen_b]
        for ea, eb in zip(seen_a, seen_b, strict=True):
            self.remember(ea)
            self.fold_a = GAME.evolve(self.fold_a, ea)
            self.fold_b = GAME.evolve(self.fold_b, eb)
        assert self.fold_a == self.fold_b

    def remember(self, e: Event) -> None:
        if isinstance(e.public, pb.RoundDealt):
            self.seen = set()
        for s in e.secrets:
            for name in ("cards", "card", "taken", "given", "give"):
                if s.value.DESCRIPTOR.fields_by_name.get(name) is None:
                    continue
                value = getattr(s.value, name)
                self.seen.update(as_cards(value if name == "cards" else [value]))

    def check_view(self) -> None:
        view_a = GAME.view(self.fold_a, self.viewer)
        view_b = GAME.view(self.fold_b, self.viewer)
        assert view_a.SerializeToString(deterministic=True) == view_b.SerializeToString(
            deterministic=True
        )
        if self.me is None:
            return
        legal_a = GAME.legal_actions(self.fold_a, self.me)
        legal_b = GAME.legal_actions(self.fold_b, self.me)
        assert [x.SerializeToString() for x in legal_a] == [x.SerializeToString() for x in legal_b]

    def check_errors(self, everything: bool) -> None:
        """Every command the viewer could try gets the same answer in both."""
        if self.me is None:
            return
        if mover(self.a.state) == self.me:
            tries = UNIVERSE if everything else self.likely_commands()
        else:
            tries = FEW
        for command in tries:
            assert outcome(self.a.state, self.me, command) == outcome(
                self.b.state, self.me, command
            ), command

    def likely_commands(self) -> list[Message]:
        assert self.me is not None
        mine = sorted(set(known(self.a.state.seats[self.me].owned)))
        foreign = self.rng.sample(CARD_KINDS, 2)
        tries = [*FEW, *[give(c) for c in CARD_KINDS]]
        tries += [act(*c) for c in distinct_acts(mine * 3 + foreign, [1, 2, 3])]
        tries += [act(), act(*mine, *foreign)]
        return tries

    def check_nothing_unseen(self) -> None:
        """The viewer's fold holds no card it was not shown."""
        fold, truth = self.fold_a, self.a.state
        assert known(fold.set_aside) == [] or self.viewer.kind == "auditor"
        if self.me is None:
            assert all(known(s.hand) == [] and known(s.act) == [] for s in fold.seats)
            assert known(fold.out) == [] and fold.swap_taken is None
            return
        everything = [*fold.out, *(c for s in fold.seats for c in s.owned), fold.swap_taken]
        assert set(known(everything)) <= self.seen
        for seat, (mine, real) in enumerate(zip(fold.seats, truth.seats, strict=True)):
            assert len(mine.hand) == len(real.hand) and len(mine.act) == len(real.act)
            if seat == self.me:
                assert mine.hand == real.hand and mine.act == real.act
                continue
            hand, rest = known(mine.hand), list(real.hand)
            for card in hand:  # partial knowledge must be true knowledge
                assert card in rest
                rest.remove(card)
            if None not in mine.act:
                assert sorted(known(mine.act)) == sorted(known(real.act))
            else:
                assert known(mine.act) == []

    def run(self, max_commands: int = 250, full_every: int = 7) -> None:
        self.check_view()
        while GAME.winners(self.a.state) is None and self.commands < max_commands:
            self.step()
            self.check_view()
            self.check_errors(everything=self.commands % full_every == 0)
            self.check_nothing_unseen()
        assert (GAME.winners(self.a.state) is None) == (GAME.winners(self.b.state) is None)
