"""The Silver Dagger decider: who may send what, what happens, and how turns
and rounds follow each other (SV-01..SV-05, SV-16, SV-17, SV-19, SV-21).

Checks run in a fixed order so that an error never depends on anything the
actor cannot see: the command's shape first (``MalformedCommand``), then the
phase and whose turn it is (public), then the rule, from public facts (the
villages' sizes and face-up cards, who knows what) and the actor's own held
card only. The turn's actions are in ``actions``, the abilities in
``abilities``, the arithmetic of scoring in ``scoring``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from google.protobuf.message import Message

from cardroom.domain.kernel import (
    Actor,
    DealersPick,
    Event,
    MalformedCommand,
    NotYourTurn,
    Reveal,
    RuleViolation,
    Viewer,
)
from cardroom.domain.silver_dagger import abilities, actions, defaults
from cardroom.domain.silver_dagger.batch import Batch, hidden_slots, known, slot_card
from cardroom.domain.silver_dagger.cards import DECK, DECK_SIZE, VILLAGE_CARDS
from cardroom.domain.silver_dagger.evolve import evolve
from cardroom.domain.silver_dagger.scoring import (
    VillageAtEnd,
    dagger_after_round,
    score_round,
    winner,
)
from cardroom.domain.silver_dagger.state import ROUNDS, Phase, Settings, State, Step, new_state
from cardroom.domain.silver_dagger.view import render
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

Handler = Callable[[Batch, int, Any], None]

DEFAULT_PENALTY_THRESHOLD = 3
RB_GAMEPLAY = "rulebook: Gameplay"

# The commands each decision point accepts, and what to say otherwise.
TURN_COMMANDS = (pb.DrawCard, pb.TakeDiscard, pb.CallVote, pb.GiveZombie, pb.SpyPeek, pb.TurnDagger)
HOLDING_COMMANDS = (
    pb.DiscardDrawn,
    pb.UseAbility,
    pb.Exchange,
    pb.StartMultipleExchange,
    pb.SpyPeek,
    pb.TurnDagger,
)
EXPECTED: dict[Phase | Step, tuple[tuple[type[Message], ...], str, str]] = {
    Phase.TURN: (TURN_COMMANDS, RB_GAMEPLAY, "draw, take the discard, call or give a Zombie"),
    Phase.HOLDING: (HOLDING_COMMANDS, RB_GAMEPLAY, "discard, use or exchange the card you hold"),
    Phase.SELECTING: ((pb.SelectCard, pb.ConfirmExchange), "SV-27", "finish the exchange"),
    Step.APPROXIMATOR_SELECT: ((pb.SelectCard,), "SV-09", "choose the two cards to discard"),
    Step.FLIPPER_VILLAGE: ((pb.ChooseVillage,), abilities.RB_FLIPPER, "choose a village"),
    Step.ELUSIVE_SEER_VIEW: ((pb.ChooseCard,), "SV-12", "view a face-down card"),
    Step.MYSTIC_SEER_VIEW: (
        (pb.ChooseCard, pb.StopViewing),
        abilities.RB_MYSTIC,
        "view a face-down card or stop",
    ),
    Step.MASTER_THIEF_VIEW: ((pb.ChooseCard,), "SV-11", "view a face-down card"),
    Step.MASTER_THIEF_SWITCH: ((pb.ChooseCard,), "SV-11", "choose the card to switch with"),
    Step.MAGICIAN_TARGET: ((pb.ChooseCard,), "SV-10", "choose a card in another village"),
    Step.MAGICIAN_CHOICE: ((pb.UseAbility, pb.SwitchWith), "SV-10", "use its ability or switch it"),
}

COMMAND_TYPES: tuple[type[Message], ...] = (
    pb.LookAtCards,
    *TURN_COMMANDS,
    pb.DiscardDrawn,
    pb.UseAbility,
    pb.Exchange,
    pb.StartMultipleExchange,
    pb.SelectCard,
    pb.ConfirmExchange,
    pb.ChooseVillage,
    pb.ChooseCard,
    pb.SwitchWith,
    pb.StopViewing,
)
COMMAND_SET = frozenset(COMMAND_TYPES)
FREE_ACTIONS = (pb.SpyPeek, pb.TurnDagger)  # SV-23
SEAT_FIELDS = (pb.SpyPeek, pb.ChooseVillage, pb.ChooseCard)


def settings_of(options: Message) -> Settings:
    if not isinstance(options, pb.Options):
        raise MalformedCommand(
            f"options must be {pb.Options.DESCRIPTOR.full_name}, not {options.DESCRIPTOR.full_name}"
        )
    threshold = options.mismatch_penalty_threshold or DEFAULT_PENALTY_THRESHOLD
    if threshold < 2:
        raise MalformedCommand("mismatch_penalty_threshold is 0 (the default, 3) or at least 2")
    sequential = (
        options.furry_sequential_plus50 if options.HasField("furry_sequential_plus50") else True
    )
    return Settings(penalty_threshold=threshold, furry_sequential=sequential)


class SilverDagger:
    """The Silver Dagger decider (satisfies ``cardroom.domain.kernel.Game``)."""

    kind: ClassVar[str] = "silver-dagger"
    title: ClassVar[str] = "Silver Dagger"
    # /2: SV-24, an ability that can do nothing is used without effect;
    # SV-28, the default choices; G-03, winners among the seats still playing.
    rules_version: ClassVar[str] = "silver-dagger/2"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    options_type: ClassVar[type[Message]] = pb.Options
    command_types: ClassVar[tuple[type[Message], ...]] = COMMAND_TYPES
    chance_types: ClassVar[tuple[type[Message], ...]] = (pb.DealRound,)
    view_type: ClassVar[type[Message]] = pb.View

    # ------------------------------------------------------------ setup

    def initial_state(self, options: Message, seat_count: int) -> State:
        settings = settings_of(options)
        if not self.min_seats <= seat_count <= self.max_seats:
            raise RuleViolation(
                "DECISIONS 2.1", f"Silver Dagger is for 2 to 4 players, not {seat_count}"
            )
        return new_state(settings, seat_count)

    def chance_needed(self, state: State) -> type[Message] | None:
        return pb.DealRound if state.phase is Phase.DEAL else None

    def sample_chance(self, state: State, rng: random.Random) -> Message:
        """SV-01: a shuffle of the 52 cards; round 1 starts at a random seat,
        later rounds with the dagger holder."""
        order = sorted(DECK.elements())
        rng.shuffle(order)
        if state.round == 0:
            start = rng.randrange(state.seat_count)
        else:
            assert state.dagger is not None
            start = state.dagger
        return pb.DealRound(order=order, start_seat=start)

    def _deal(self, state: State, command: Message) -> list[Event]:
        if not isinstance(command, pb.DealRound):
            raise MalformedCommand(
                f"the dealer sends only DealRound, not {command.DESCRIPTOR.full_name}"
            )
        if any(card not in DECK for card in command.order):
            raise MalformedCommand("a deal holds only known cards")
        if command.start_seat >= state.seat_count:
            raise MalformedCommand(f"start_seat must be below {state.seat_count}")
        if state.phase is not Phase.DEAL:
            raise RuleViolation("SV-01", "no deal is due now")
        if len(command.order) != DECK_SIZE or Counter(command.order) != DECK:
            raise RuleViolation("SV-01", "a deal orders exactly the 52 cards of the game")
        if state.round > 0 and command.start_seat != state.dagger:
            raise RuleViolation(
                "SV-17", f"the dagger holder, seat {state.dagger}, starts the round"
            )
        first = state.next_slot
        order = list(command.order)
        dealt = pb.RoundDealt(
            round=state.round + 1,
            start_seat=command.start_seat,
            first_slot=first,
            discard=order[VILLAGE_CARDS],
        )
        hidden = [
            slot_card((), first + k, card) for k, card in enumerate(order) if k != VILLAGE_CARDS
        ]
        batch = Batch(state)
        batch.emit(dealt, *hidden)
        return batch.events

    # ----------------------------------------------------------- decide

    def decide(self, state: State, actor: Actor, command: Message) -> list[Event]:
        if actor.kind == "dealer":
            return self._deal(state, command)
        seat = actor.seat
        if actor.kind != "seat" or seat is None or not 0 <= seat < state.seat_count:
            raise MalformedCommand(f"{actor.kind} cannot play Silver Dagger")
        if type(command) not in COMMAND_SET:
            raise MalformedCommand(f"{command.DESCRIPTOR.full_name} is not a Silver Dagger command")
        _check_shape(state, command)
        state = state.begun()
        _check_turn(state, seat, command)
        batch = Batch(state)
        _handler(state, command)(batch, seat, command)
        reason = batch.state.round_end()
        if reason is not None:
            _end_round(batch, reason)
        return batch.events

    # ------------------------------------------------------------ evolve

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    # ----------------------------------------------------- legal actions

    def legal_actions(self, state: State, seat: int) -> list[Message]:
        if state.round_end() is not None:
            return []
        state = state.begun()
        phase = state.phase
        if phase is Phase.LOOK:
            return [] if seat in state.looked else actions.look_choices()
        if seat != state.current:
            return []
        if phase is Phase.TURN:
            return actions.turn_choices(state, seat)
        if phase is Phase.HOLDING:
            return actions.holding_choices(state, seat)
        if phase is Phase.SELECTING:
            choices = actions.selecting_choices(state, seat)
            return [*choices, pb.ConfirmExchange()] if len(state.selection) >= 2 else choices
        if phase is Phase.ABILITY:
            return abilities.ability_choices(state, seat)
        return []

    def default_action(self, state: State, seat: int, *, departed: bool) -> Message | DealersPick:
        """SV-28 (G-02): see ``defaults``."""
        actions = self.legal_actions(state, seat)
        return defaults.default_action(state, seat, actions, departed=departed)

    # -------------------------------------------------------- rendering

    def view(self, state: State, viewer: Viewer) -> Message:
        return render(state, viewer)

    def winners(self, state: State) -> Sequence[int] | None:
        return state.winners

    def leaders(self, state: State) -> Sequence[int]:
        """SV-19 on the totals so far among the seats still playing (G-03):
        the winner if the table ends the game now (T-LENGTH)."""
        playing = [s for s in range(state.seat_count) if s not in state.departed]
        holder = state.dagger if state.dagger is not None else 0
        return [winner(state.totals, holder, playing)]

    def reveals(self, event: Event) -> list[Reveal]:
        """Cards an event makes public open their last secret for everyone;
        a card a seat looks at, views or draws opens its last secret to that
        seat, to check against the digest it saw when the card was dealt."""
        public = event.public
        found = [Reveal(pb.SlotCard, _in_slot(slot)) for slot in _revealed_slots(public)]
        if isinstance(public, pb.CardsLooked | pb.CardViewed):
            to = frozenset({public.seat})
            found += [
                Reveal(pb.SlotCard, _in_slot(s.slot), to) for s in event.secrets_of(pb.SlotCard)
            ]
        elif isinstance(public, pb.CardDrawn | pb.PrivateDeckGrown) and not getattr(
            public, "private_deck", False
        ):
            found.append(Reveal(pb.SlotCard, _in_slot(public.from_slot), frozenset({public.seat})))
        return found


def _revealed_slots(public: Message) -> Sequence[int]:
    if "revealed_slots" not in public.DESCRIPTOR.fields_by_name:
        return ()
    slots: Sequence[int] = public.revealed_slots  # type: ignore[attr-defined]
    return slots


def _in_slot(slot: int) -> Callable[[Message], bool]:
    return lambda secret: isinstance(secret, pb.SlotCard) and secret.slot == slot


# ------------------------------------------------------------- checks


def _check_shape(state: State, command: Message) -> None:
    """Well-formedness that no state can change: seats in range, a look at
    two distinct positions given in order."""
    if isinstance(command, SEAT_FIELDS) and command.seat >= state.seat_count:
        raise MalformedCommand(f"seat must be below {state.seat_count}")
    if isinstance(command, pb.LookAtCards) and command.first >= command.second:
        raise MalformedCommand("look at two different cards, the lower position first")


def _check_turn(state: State, seat: int, command: Message) -> None:
    """Public checks: the phase, whose move it is, which commands fit now."""
    phase = state.phase
    if phase is Phase.OVER:
        raise RuleViolation("SV-21", "the game is over")
    if phase in (Phase.DEAL, Phase.ROUND_OVER):
        raise NotYourTurn("waiting for the deal")
    if phase is Phase.LOOK:
        if seat in state.looked:
            raise NotYourTurn("waiting for the other players to look at their cards")
        if not isinstance(command, pb.LookAtCards):
            raise RuleViolation("SV-01", "look at two of your cards first")
        return
    if seat != state.current:
        raise NotYourTurn(f"it is seat {state.current}'s turn")
    key: Phase | Step = phase
    if phase is Phase.ABILITY:
        assert state.ability is not None and state.ability.step is not None
        key = state.ability.step
    accepted, rule, what = EXPECTED[key]
    if isinstance(command, FREE_ACTIONS) and not isinstance(command, accepted):
        raise RuleViolation(
            "SV-23",
            "Spy peeks and the dagger come at the start of the turn or while you hold the card, "
            f"before the action resolves: now {what}",
        )
    if not isinstance(command, accepted):
        raise RuleViolation(rule, f"{what} first")


def _handler(state: State, command: Message) -> Handler:
    if isinstance(command, pb.UseAbility):
        return abilities.use_drawn if state.phase is Phase.HOLDING else abilities.use_targeted
    if isinstance(command, pb.SelectCard):
        if state.phase is Phase.ABILITY:
            return abilities.approximator_select
        return lambda batch, seat, cmd: actions.select(batch, seat, cmd, "SV-06")
    return HANDLERS[type(command)]


HANDLERS: dict[type[Message], Handler] = {
    pb.LookAtCards: actions.look,
    pb.DrawCard: actions.draw,
    pb.TakeDiscard: actions.take,
    pb.CallVote: actions.call,
    pb.GiveZombie: actions.give_zombie,
    pb.SpyPeek: actions.peek,
    pb.TurnDagger: actions.turn_dagger,
    pb.DiscardDrawn: actions.discard_drawn,
    pb.Exchange: actions.exchange,
    pb.StartMultipleExchange: actions.start_multiple,
    pb.ConfirmExchange: actions.confirm,
    pb.ChooseVillage: abilities.choose_village,
    pb.ChooseCard: abilities.choose_card,
    pb.SwitchWith: abilities.magician_switch,
    pb.StopViewing: abilities.stop_viewing,
}


# ------------------------------------------------------ turns and rounds


def _end_round(batch: Batch, reason: pb.RoundEndReason) -> None:
    state = batch.state
    batch.emit(pb.RoundEnded(round=state.round, reason=reason))
    shown = pb.VillagesRevealed(
        villages=[
            pb.VillageCards(
                seat=s, cards=[known(spot.card) for spot in v], face_up=[spot.up for spot in v]
            )
            for s, v in enumerate(state.villages)
        ],
        revealed_slots=[slot for v in state.villages for slot in hidden_slots(v)],
    )
    batch.emit(shown)
    _score(batch, reason)


def _score(batch: Batch, reason: pb.RoundEndReason) -> None:
    """SV-16, then SV-17; after the fourth round SV-19."""
    state = batch.state
    n = state.seat_count
    holder, caller, start = state.dagger, state.caller, state.start_seat
    assert holder is not None and start is not None
    villages = [
        VillageAtEnd(tuple(known(s.card) for s in v), tuple(s.up for s in v))
        for v in state.villages
    ]
    order = [(holder + k * state.direction) % n for k in range(n)]
    results, succeeded = score_round(
        villages, furry_order=order, caller=caller, sequential=state.settings.furry_sequential
    )
    scored = pb.RoundScored(round=state.round, call_succeeded=succeeded, reason=reason)
    if caller is not None:
        scored.caller = caller
    for seat, result in enumerate(results):
        scored.scores.add(
            seat=seat,
            base=result.base,
            after_debt_collectors=result.after_debt_collectors,
            after_halflings=result.after_halflings,
            jackpot=result.jackpot,
            sum=result.sum,
            points=result.points,
            total=state.totals[seat] + result.points,
        )
    batch.emit(scored)
    points = [r.points for r in results]
    seat, usable = dagger_after_round(
        points, caller=caller, succeeded=succeeded, holder=holder, start_seat=start
    )
    batch.emit(pb.DaggerPassed(seat=seat, usable=usable))
    if state.round >= ROUNDS:
        totals = batch.state.totals
        playing = [s for s in range(n) if s not in state.departed]  # G-03
        batch.emit(pb.GameEnded(winners=[winner(totals, seat, playing)], totals=totals))
