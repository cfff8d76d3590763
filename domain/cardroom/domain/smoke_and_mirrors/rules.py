"""Smoke & Mirrors as a pure decider: rulebook plus rulings SM-01..SM-11.

``decide`` runs on the auditor's (full) state and returns events whose public
parts hold only public facts; cards travel in secrets addressed to the seats
allowed to see them. ``evolve`` folds full and redacted events alike: a card
missing from a redacted event becomes ``None`` in the viewer's state.

Checks run in a fixed order so that an error never depends on anything the
actor cannot see: command shape, then game over / turn / phase (public), then
the rule (public), and only then the actor's own cards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, ClassVar

from google.protobuf.message import Message

from cardroom.domain.kernel import (
    Actor,
    Event,
    MalformedCommand,
    NotYourTurn,
    Reveal,
    RuleViolation,
    Viewer,
    event,
)
from cardroom.domain.smoke_and_mirrors.cards import (
    MAX_ACHIEVABLE,
    PILE_NAMES,
    PILES,
    Card,
    act_is_true,
    card_from_pb,
    card_to_pb,
    cards_to_pb,
    distinct_acts,
    is_submultiset,
    piles_for,
    removed_cards,
)
from cardroom.domain.smoke_and_mirrors.evolve import evolve
from cardroom.domain.smoke_and_mirrors.state import (
    Phase,
    SeatState,
    Settings,
    State,
    normalized,
    removing,
)
from cardroom.domain.smoke_and_mirrors.view import render
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as pb

DEFAULT_ROUNDS_TO_WIN = 4

SeatHandler = Callable[[State, int, Any], list[Event]]
ChanceHandler = Callable[[State, Any], list[Event]]


class SmokeAndMirrors:
    """The Smoke & Mirrors decider (satisfies ``cardroom.domain.kernel.Game``)."""

    kind: ClassVar[str] = "smoke-and-mirrors"
    title: ClassVar[str] = "Smoke & Mirrors"
    # /2: SM-10, the swap takes blind before it gives (TakeBlind, GiveCard);
    # SM-11, the default choices (LeaveRound).
    rules_version: ClassVar[str] = "smoke-and-mirrors/2"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 5
    options_type: ClassVar[type[Message]] = pb.Options
    command_types: ClassVar[tuple[type[Message], ...]] = (
        pb.Challenge,
        pb.PerformAct,
        pb.TakeBreak,
        pb.TakeBlind,
        pb.GiveCard,
        pb.DeclineSwap,
        pb.LeaveRound,
    )
    chance_types: ClassVar[tuple[type[Message], ...]] = (pb.DealRound, pb.BlindPick)
    view_type: ClassVar[type[Message]] = pb.View
    max_achievable: ClassVar[int] = MAX_ACHIEVABLE

    def __init__(self) -> None:
        self._seat_handlers: dict[type[Message], SeatHandler] = {
            pb.Challenge: self._challenge,
            pb.PerformAct: self._perform_act,
            pb.TakeBreak: self._take_break,
            pb.TakeBlind: self._take_blind,
            pb.GiveCard: self._give_card,
            pb.DeclineSwap: self._decline_swap,
            pb.LeaveRound: self._leave_round,
        }
        self._chance_handlers: dict[type[Message], ChanceHandler] = {
            pb.DealRound: self._deal_round,
            pb.BlindPick: self._blind_pick,
        }

    # ------------------------------------------------------------ setup

    def initial_state(self, options: Message, seat_count: int) -> State:
        if not isinstance(options, pb.Options):
            raise MalformedCommand(
                f"expected Smoke & Mirrors Options, got {type(options).__name__}"
            )
        if not self.min_seats <= seat_count <= self.max_seats:
            raise RuleViolation("4.1", f"Smoke & Mirrors takes 2 to 5 players, not {seat_count}")
        remove = (
            options.two_player_remove_swirl5
            if options.HasField("two_player_remove_swirl5")
            else True
        )
        settings = Settings(
            seat_count=seat_count,
            rounds_to_win=options.rounds_to_win or DEFAULT_ROUNDS_TO_WIN,
            turn_cap=options.turn_cap,
            remove_swirl5=remove,
        )
        return State(settings, tuple(SeatState() for _ in range(seat_count)))

    # ----------------------------------------------------------- decide

    def decide(self, state: State, actor: Actor, command: Message) -> list[Event]:
        if actor.kind == "dealer":
            chance = self._chance_handlers.get(type(command))
            if chance is None:
                raise MalformedCommand(f"the dealer cannot send {type(command).__name__}")
            return chance(state, command)
        seat = actor.seat
        if actor.kind != "seat" or seat is None or not 0 <= seat < len(state.seats):
            raise NotYourTurn("only a seated player sends Smoke & Mirrors commands")
        handler = self._seat_handlers.get(type(command))
        if isinstance(command, pb.Swap):
            raise MalformedCommand(
                "Swap is no longer accepted: SM-10 takes first (TakeBlind), then gives (GiveCard)"
            )
        if handler is None:
            raise MalformedCommand(f"{type(command).__name__} is not a Smoke & Mirrors command")
        return handler(state, seat, command)

    # Seat commands.

    def _challenge(self, s: State, seat: int, _cmd: pb.Challenge) -> list[Event]:
        self._require_turn(s, seat)
        if (problem := _challenge_problem(s, seat)) is not None:
            raise problem
        actor = s.last_actor
        assert actor is not None
        act = _known(s.seats[actor].act)
        claim = s.seats[actor].act_claim
        true = act_is_true(act, claim)
        eliminated = seat if true else actor
        challenged = event(
            pb.ActChallenged(
                challenger=seat,
                actor=actor,
                claim=claim,
                act_was_true=true,
                eliminated=eliminated,
            ),
            ({seat, actor}, pb.ActRevealed(actor=actor, cards=cards_to_pb(act))),
        )
        return self._settle(s, [challenged])

    def _perform_act(self, s: State, seat: int, cmd: pb.PerformAct) -> list[Event]:
        cards = tuple(sorted(card_from_pb(c) for c in cmd.cards))
        self._require_turn(s, seat)
        if not 1 <= len(cards) <= 3:
            raise RuleViolation("SM-04", "an act is 1 to 3 cards")
        if s.opening and len(cards) != 1:
            raise RuleViolation("SM-03", "the opening act is exactly one card, claiming 1")
        if not is_submultiset(cards, s.seats[seat].owned):
            raise RuleViolation(
                "SM-04", "you can only play cards from your hand and your previous act"
            )
        claim = s.last_claim + 1
        performed = event(
            pb.ActPerformed(seat=seat, claim=claim, card_count=len(cards)),
            ({seat}, pb.ActCards(seat=seat, cards=cards_to_pb(cards))),
        )
        if 0 < s.settings.turn_cap <= s.acts_this_round + 1:
            return self._settle(s, [performed])  # SM-09: the round ends
        return [performed]

    def _take_break(self, s: State, seat: int, _cmd: pb.TakeBreak) -> list[Event]:
        self._require_turn(s, seat)
        if (problem := _break_problem(s, seat)) is not None:
            raise problem
        return [event(pb.BreakTaken(seat=seat))]

    def _take_blind(self, s: State, seat: int, _cmd: pb.TakeBlind) -> list[Event]:
        self._require_swapper(s, seat)
        assert s.eliminated is not None
        return [event(pb.SwapStarted(seat=seat, eliminated=s.eliminated))]

    def _give_card(self, s: State, seat: int, cmd: pb.GiveCard) -> list[Event]:
        if not cmd.HasField("card"):
            raise MalformedCommand("GiveCard needs the card to give")
        give = card_from_pb(cmd.card)
        self._require_giver(s, seat)
        if give not in _held_before_take(s):
            raise RuleViolation(
                "SM-10",
                f"give a card you held before the take, from your hand (not your act): {give}",
            )
        assert s.eliminated is not None
        given = event(
            pb.CardGiven(seat=seat, eliminated=s.eliminated),
            ({seat, s.eliminated}, pb.GivenCard(seat=seat, card=card_to_pb(give))),
        )
        return self._settle(s, [given])

    def _decline_swap(self, s: State, seat: int, _cmd: pb.DeclineSwap) -> list[Event]:
        self._require_swapper(s, seat)
        return self._settle(s, [event(pb.SwapDeclined(seat=seat))])

    def _leave_round(self, s: State, seat: int, _cmd: pb.LeaveRound) -> list[Event]:
        """SM-11: a seat that left the game leaves the round at its next
        decision, as if eliminated but without a challenge or a swap."""
        if s.phase is Phase.OVER:
            raise RuleViolation("SM-08", "the game is over")
        if seat not in s.departed:
            raise RuleViolation("SM-11", "only a seat that left the game leaves the round")
        if not _awaits(s, seat):
            raise NotYourTurn(_whose_move(s))
        st = s.seats[seat]
        left = event(pb.PlayerLeftRound(seat=seat, cards_removed=len(st.hand) + len(st.act)))
        return self._settle(s, [left])

    def _require_turn(self, s: State, seat: int) -> None:
        """Public checks: may ``seat`` challenge, act or break right now?"""
        if s.phase is Phase.OVER:
            raise RuleViolation("SM-08", "the game is over")
        if s.phase is Phase.SWAP and seat == s.swapper:
            raise RuleViolation("SM-06", "first take a card blind or decline the swap")
        if s.phase is Phase.GIVE and seat == s.swapper:
            raise RuleViolation("SM-10", "first give a card back")
        if s.phase is not Phase.TURN or seat != s.turn_seat:
            raise NotYourTurn(_whose_move(s))

    def _require_swapper(self, s: State, seat: int) -> None:
        """May ``seat`` take blind or decline the swap now (SM-06)?"""
        if s.phase is Phase.OVER:
            raise RuleViolation("SM-08", "the game is over")
        if s.phase is Phase.TURN and seat == s.turn_seat:
            raise RuleViolation("SM-06", "there is no swap to decide")
        if s.phase is Phase.GIVE and seat == s.swapper:
            raise RuleViolation("SM-10", "the card is taken: give one back")
        if s.phase is not Phase.SWAP or seat != s.swapper:
            raise NotYourTurn(_whose_move(s))

    def _require_giver(self, s: State, seat: int) -> None:
        """May ``seat`` give a card back now (SM-10)?"""
        if s.phase is Phase.OVER:
            raise RuleViolation("SM-08", "the game is over")
        if s.phase is Phase.TURN and seat == s.turn_seat:
            raise RuleViolation("SM-10", "there is no swap to complete")
        if s.phase is Phase.SWAP and seat == s.swapper:
            raise RuleViolation("SM-10", "take a card blind first (TakeBlind), then give one")
        if s.phase is not Phase.GIVE or seat != s.swapper:
            raise NotYourTurn(_whose_move(s))

    # Chance outcomes.

    def _deal_round(self, s: State, cmd: pb.DealRound) -> list[Event]:
        dealt = {
            pile: tuple(card_from_pb(c) for c in cards)
            for pile, cards in zip(PILES, (cmd.stars, cmd.swirls, cmd.skulls), strict=True)
        }
        if s.phase is Phase.OVER:
            raise RuleViolation("SM-08", "the game is over")
        if s.phase is not Phase.DEALING:
            raise RuleViolation("rulebook: Setup", "no deal is due now")
        opts = s.settings
        dealt_in = s.dealt_in
        k = len(dealt_in)
        for pile, expected in piles_for(k, opts.remove_swirl5).items():
            if Counter(dealt[pile]) != Counter(expected):
                shown = ", ".join(str(c) for c in sorted(expected))
                raise RuleViolation(
                    "rulebook: Setup", f"the {PILE_NAMES[pile]} pile must be exactly {shown}"
                )
        start = cmd.start_seat
        expected_start = s.next_start()
        if expected_start is None:
            if start >= opts.seat_count:
                raise RuleViolation("SM-08", f"there is no seat {start}")
        elif start != expected_start:
            raise RuleViolation(
                "SM-08",
                f"round {s.round + 1} starts left of seat {s.start_seat}, at seat {expected_start}",
            )
        hands = {seat: tuple(sorted(dealt[p][i] for p in PILES)) for i, seat in enumerate(dealt_in)}
        aside = sorted(
            [c for p in PILES for c in dealt[p][k:]] + list(removed_cards(k, opts.remove_swirl5))
        )
        round_dealt = event(
            pb.RoundDealt(
                round=s.round + 1, start_seat=start, seats=dealt_in, set_aside_count=len(aside)
            ),
            *[({seat}, pb.HandDealt(seat=seat, cards=cards_to_pb(h))) for seat, h in hands.items()],
            ((), pb.CardsSetAside(cards=cards_to_pb(aside))),
        )
        return [round_dealt]

    def _blind_pick(self, s: State, cmd: pb.BlindPick) -> list[Event]:
        if s.phase is not Phase.BLIND_PICK:
            raise RuleViolation("SM-06", "no blind pick is due now")
        assert s.eliminated is not None and s.swapper is not None
        hand = s.seats[s.eliminated].hand
        if cmd.index >= len(hand):
            raise RuleViolation(
                "SM-06", f"the eliminated player's hand has only {len(hand)} card(s)"
            )
        taken = _known(hand)[cmd.index]
        return [
            event(
                pb.BlindCardTaken(seat=s.swapper, eliminated=s.eliminated),
                ({s.swapper, s.eliminated}, pb.TakenCard(seat=s.swapper, card=card_to_pb(taken))),
            )
        ]

    def _settle(self, state: State, events: list[Event]) -> list[Event]:
        """Fold ``events`` and add what follows without a decision: the
        eliminated player's cards leaving, the round being won."""
        for e in events:
            state = self.evolve(state, e)
        while True:
            if state.phase is Phase.ELIMINATING:
                seat = state.eliminated
                assert seat is not None
                st = state.seats[seat]
                follow = event(
                    pb.PlayerEliminated(seat=seat, cards_removed=len(st.hand) + len(st.act))
                )
            elif state.phase is Phase.ROUND_OVER:
                remaining = state.active_seats
                won = pb.RoundWon(round=state.round)
                if len(remaining) == 1:
                    won.seat = remaining[0]
                follow = event(won)  # no seat: SM-09 turn cap
            else:
                return events
            events.append(follow)
            state = self.evolve(state, follow)

    # ----------------------------------------------------------- evolve

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    # ----------------------------------------------------------- chance

    def chance_needed(self, state: State) -> type[Message] | None:
        if state.phase is Phase.DEALING:
            return pb.DealRound
        if state.phase is Phase.BLIND_PICK:
            return pb.BlindPick
        return None

    def sample_chance(self, state: State, rng: random.Random) -> Message:
        if state.phase is Phase.DEALING:
            piles = piles_for(len(state.dealt_in), state.settings.remove_swirl5)
            shuffled = {}
            for pile in PILES:
                cards = list(piles[pile])
                rng.shuffle(cards)
                shuffled[pile] = cards
            start = state.next_start()
            if start is None:
                start = rng.randrange(state.settings.seat_count)
            return pb.DealRound(
                start_seat=start,
                stars=cards_to_pb(shuffled[PILES[0]]),
                swirls=cards_to_pb(shuffled[PILES[1]]),
                skulls=cards_to_pb(shuffled[PILES[2]]),
            )
        if state.phase is Phase.BLIND_PICK:
            assert state.eliminated is not None
            return pb.BlindPick(index=rng.randrange(len(state.seats[state.eliminated].hand)))
        raise RuleViolation("T-CHANCE", "no chance outcome is due now")

    # ------------------------------------------------------ legal moves

    def legal_actions(self, state: State, seat: int) -> list[Message]:
        s = state
        actions: list[Message] = []
        if seat in s.departed:
            return [pb.LeaveRound()] if _awaits(s, seat) else []  # SM-11
        if s.phase is Phase.TURN and seat == s.turn_seat:
            if _challenge_problem(s, seat) is None:
                actions.append(pb.Challenge())
            owned = s.seats[seat].owned
            if None not in owned:
                sizes = (1,) if s.opening else (1, 2, 3)
                payloads = _act_payloads(normalized(owned), sizes)
                actions.extend(map(pb.PerformAct.FromString, payloads))
            if _break_problem(s, seat) is None:
                actions.append(pb.TakeBreak())
        elif s.phase is Phase.SWAP and seat == s.swapper:
            actions += [pb.TakeBlind(), pb.DeclineSwap()]
        elif s.phase is Phase.GIVE and seat == s.swapper:
            for card in sorted(set(_known(_held_before_take(s)))):
                actions.append(pb.GiveCard(card=card_to_pb(card)))
        return actions

    def default_action(self, state: State, seat: int, *, departed: bool) -> Message:
        """SM-11 (G-02), read off the seat's own legal actions and cards and
        the public claim, so it shows nothing the seat may not see. A
        departed seat leaves the round at its next decision. A timed-out
        seat declines a swap (having taken blind, it gives back its lowest
        card held before the take, SM-10); on its turn it challenges a claim
        above ``max_achievable`` (no act can make it, SM-09), else takes its
        Break, else makes the smallest true act it can, else plays its
        lowest card alone."""
        actions = self.legal_actions(state, seat)
        if departed:
            return pb.LeaveRound()
        if state.phase is Phase.SWAP:
            return pb.DeclineSwap()
        if state.phase is Phase.GIVE:
            cards = [(card_from_pb(a.card),) for a in actions if isinstance(a, pb.GiveCard)]
            lowest: tuple[Card, ...] = min(cards, key=_smallness)
            return pb.GiveCard(card=card_to_pb(lowest[0]))
        kinds = {type(a) for a in actions}
        if pb.Challenge in kinds and state.last_claim > self.max_achievable:
            return pb.Challenge()
        if pb.TakeBreak in kinds:
            return pb.TakeBreak()
        claim = state.last_claim + 1
        acts: list[tuple[Card, ...]] = [
            tuple(card_from_pb(c) for c in a.cards) for a in actions if isinstance(a, pb.PerformAct)
        ]
        true = [act for act in acts if act_is_true(act, claim)]
        single = [act for act in acts if len(act) == 1]
        chosen: tuple[Card, ...] = min(true or single, key=_smallness)
        return pb.PerformAct(cards=cards_to_pb(chosen))

    # ------------------------------------------------------ view, result

    def view(self, state: State, viewer: Viewer) -> pb.View:
        return render(state, viewer)

    def winners(self, state: State) -> Sequence[int] | None:
        """SM-08 among the seats still in the game (G-03): a seat that left
        is dealt no later round, so it wins none."""
        if state.phase is not Phase.OVER:
            return None
        need = state.settings.rounds_to_win
        return [
            i
            for i, st in enumerate(state.seats)
            if st.round_wins >= need and i not in state.departed
        ]

    def leaders(self, state: State) -> Sequence[int]:
        """The seats still in the game with the most rounds won (SM-08,
        G-03): the winners if the table ends the game now (T-LENGTH)."""
        playing = state.dealt_in or list(range(len(state.seats)))
        best = max(state.seats[i].round_wins for i in playing)
        return [i for i in playing if state.seats[i].round_wins == best]

    def reveals(self, event: Event) -> list[Reveal]:
        """A challenge shows the challenged act's cards to the challenger: the
        service attaches the opening of the act's ActCards secret, which the
        challenger can check against the digest it saw when the act was made."""
        public = event.public
        if isinstance(public, pb.ActChallenged):
            actor = public.actor
            return [
                Reveal(
                    pb.ActCards,
                    lambda cards: isinstance(cards, pb.ActCards) and cards.seat == actor,
                    frozenset({public.challenger}),
                )
            ]
        return []


# ---------------------------------------------------------------- rules


def _challenge_problem(s: State, seat: int) -> RuleViolation | None:
    """Why the turn seat may not challenge now (public facts only), or None."""
    if s.opening:
        return RuleViolation("SM-03", "there is no act to challenge on the opening turn")
    if s.challenged:
        return RuleViolation("SM-06", "you have already challenged this turn")
    actor = s.last_actor
    if actor == seat:
        return RuleViolation("SM-05", "the most recent act is your own")
    if actor is None or not s.seats[actor].active:
        return RuleViolation(
            "SM-05", "the most recent act was made by a player who is out of the round"
        )
    if actor in s.departed:
        return RuleViolation("SM-11", "the most recent act was made by a player who left the game")
    return None


def _break_problem(s: State, seat: int) -> RuleViolation | None:
    if s.opening:
        return RuleViolation("SM-07", "no Break on the opening turn")
    if s.seats[seat].break_used:
        return RuleViolation("SM-07", "you have already taken your Break this round")
    return None


def _whose_move(s: State) -> str:
    if s.phase is Phase.DEALING:
        return "waiting for the deal"
    if s.phase is Phase.BLIND_PICK:
        return "waiting for the blind pick"
    if s.phase is Phase.SWAP:
        return f"waiting for seat {s.swapper} to decide on the swap"
    if s.phase is Phase.GIVE:
        return f"waiting for seat {s.swapper} to give a card back"
    return f"it is seat {s.turn_seat}'s turn"


def _awaits(s: State, seat: int) -> bool:
    """Whether the game waits for a decision of ``seat`` (its turn, or a
    swap it decides on)."""
    if s.phase is Phase.TURN:
        return seat == s.turn_seat
    return s.phase in (Phase.SWAP, Phase.GIVE) and seat == s.swapper


def _smallness(act: tuple[Card, ...]) -> tuple[int, tuple[tuple[int, int], ...]]:
    """SM-11's order of acts: fewer cards first, then lower cards (a mirror
    counts 0)."""
    return len(act), tuple(sorted((c.value, c.pile) for c in act))


def _held_before_take(s: State) -> tuple[Card | None, ...]:
    """SM-10: the swapper's hand without the card it just took blind (the
    swapper's own fold knows both)."""
    assert s.swapper is not None and s.swap_taken is not None
    return removing(s.seats[s.swapper].hand, [s.swap_taken])


@lru_cache(maxsize=1024)
def _act_payloads(owned: tuple[Card | None, ...], sizes: tuple[int, ...]) -> tuple[bytes, ...]:
    """Every distinct act out of ``owned``, serialized (parsing a cached
    message is several times faster than building it)."""
    acts = distinct_acts(_known(owned), sizes)
    return tuple(pb.PerformAct(cards=cards_to_pb(a)).SerializeToString() for a in acts)


def _known(cards: tuple[Card | None, ...]) -> tuple[Card, ...]:
    if None in cards:
        raise ValueError("decide needs the full (auditor's) state")
    return cards  # type: ignore[return-value]
