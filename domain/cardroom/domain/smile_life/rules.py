"""The Smile Life decider: who may send what now, and what happens.

Checks run in a fixed order so that an error never depends on anything the
actor cannot see: the command's shape first (``MalformedCommand``), then
whose decision the game waits for and which commands fit it (public), then
the actor's own cards, then the rules, which read only public facts and the
actor's own hand. The modules beside this one do the work: ``turns`` (the
turn around the play), ``plays`` (what may go where), ``playing`` (what a
played card does), ``maluses``, ``steps`` (choices a card opens) and
``dealing`` (the dealer's outcomes).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
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
from cardroom.domain.smile_life import dealing, defaults, steps, turns
from cardroom.domain.smile_life.batch import Batch, refill
from cardroom.domain.smile_life.cards import (
    ACQUISITIONS,
    DECK,
    FLIRT,
    GRAND_PROF,
    HAND_SIZE,
    HOUSE,
    MALUS,
    RIVER_SIZE,
    TERRORIST_ATTACK,
    card,
    is_card,
)
from cardroom.domain.smile_life.evolve import evolve
from cardroom.domain.smile_life.playing import play
from cardroom.domain.smile_life.plays import (
    CASINO_ONLY,
    FROM_HAND,
    FROM_LUCK,
    PISTON_JOB,
    TAKEN,
    Context,
    legal_plays,
    problem,
)
from cardroom.domain.smile_life.state import Settings, State, known
from cardroom.domain.smile_life.view import render
from cardroom.smile_life.v1 import smile_life_pb2 as pb

COMMAND_TYPES: tuple[type[Message], ...] = (
    pb.DrawCard,
    pb.TakeDiscard,
    pb.TakeRiverCard,
    pb.PlayCard,
    pb.Resign,
    pb.Divorce,
    pb.StopAdultery,
    pb.Decline,
    pb.ChooseLuckCard,
    pb.TakeFromDiscard,
    pb.ChooseBarterPartner,
    pb.TakeRevenge,
    pb.GiveSalary,
    pb.DiscardFromHand,
    pb.Announce,
    pb.MissTurn,
)
CHANCE_TYPES: tuple[type[Message], ...] = (pb.ShuffleDeck, pb.RedealHands, pb.PickBarterCards)
START_COMMANDS = (
    pb.MissTurn,
    pb.DrawCard,
    pb.TakeDiscard,
    pb.TakeRiverCard,
    pb.Resign,
    pb.Divorce,
    pb.StopAdultery,
)
PLAY_COMMANDS = (pb.PlayCard, pb.Resign, pb.StopAdultery)
# What each step waits for, and the rule it names when refusing another command.
STEP_COMMANDS: dict[int, tuple[str, tuple[type[Message], ...]]] = {
    pb.STEP_PLAY_HELD: ("SL-03", (pb.PlayCard,)),
    pb.STEP_RAINBOW: ("SL-16", (pb.PlayCard, pb.Decline)),
    pb.STEP_CASINO_BET: ("SL-16", (pb.PlayCard, pb.Decline)),
    pb.STEP_LUCK: ("SL-16", (pb.ChooseLuckCard,)),
    pb.STEP_SHOOTING_STAR: ("SL-16", (pb.TakeFromDiscard,)),
    pb.STEP_ASTRONAUT: ("CR-SL-14", (pb.TakeFromDiscard, pb.Decline)),
    pb.STEP_PISTON: ("SL-14", (pb.PlayCard, pb.Decline)),
    pb.STEP_BARTER: ("SL-16", (pb.ChooseBarterPartner,)),
    pb.STEP_MANAGER_BARTER: ("CR-SL-14", (pb.ChooseBarterPartner, pb.Decline)),
    pb.STEP_REVENGE: ("SL-16", (pb.TakeRevenge,)),
    pb.STEP_BIRTHDAY_GIFT: ("SL-16", (pb.GiveSalary,)),
    pb.STEP_RESEARCHER_DISCARD: ("SL-10", (pb.DiscardFromHand,)),
    pb.STEP_JOURNALIST: ("SL-35", (pb.Announce, pb.Decline)),
}
DEALER_STEPS = frozenset({pb.STEP_BARTER_DRAW, pb.STEP_TSUNAMI})
SIX = "DECISIONS 3.1"


def settings_of(options: Message, seat_count: int) -> Settings:
    if not isinstance(options, pb.Options):
        raise MalformedCommand(
            f"options must be {pb.Options.DESCRIPTOR.full_name}, not {options.DESCRIPTOR.full_name}"
        )
    if not 2 <= seat_count <= 6:
        raise RuleViolation(
            SIX, f"Smile Life is for 2 to 5 players (6 with the option), not {seat_count}"
        )
    if seat_count == 6 and not options.allow_six_players:
        raise RuleViolation(SIX, "a sixth player needs allow_six_players")
    if options.start_tiebreak not in (
        pb.START_TIEBREAK_UNSPECIFIED,
        pb.START_TIEBREAK_LOWEST_SEAT,
    ):
        raise MalformedCommand(f"unknown start_tiebreak {options.start_tiebreak}")
    architect = options.architect_free_houses if options.HasField("architect_free_houses") else 1
    houses = sum(card(c).family == HOUSE for c in DECK)
    if architect > houses:
        raise RuleViolation("SL-15", f"there are only {houses} houses")
    printed = card(GRAND_PROF)
    caps = (printed.salary_max, printed.printed_salary_max)
    grand_prof = (
        options.grand_prof_salary_max
        if options.HasField("grand_prof_salary_max")
        else printed.salary_max
    )
    if grand_prof not in caps:
        raise RuleViolation(
            "SL-01",
            f"the grand prof's salary cap is {caps[0]} (the rulebook) or {caps[1]} (the card)",
        )
    size = options.draw_pile_size if options.HasField("draw_pile_size") else None
    most = len(DECK) - HAND_SIZE * seat_count - (RIVER_SIZE if options.river_variant else 0)
    if size is not None and not 1 <= size <= most:
        raise RuleViolation("SL-36", f"the draw pile holds 1 to {most} cards with {seat_count}")
    return Settings(
        allow_six_players=options.allow_six_players,
        river=options.river_variant,
        architect_free_houses=architect,
        grand_prof_salary_max=grand_prof,
        draw_pile_size=size,
    )


# ------------------------------------------------------------ the shape


def _card_field(value: str, name: str, *, required: bool = True) -> None:
    if not value:
        if required:
            raise MalformedCommand(f"{name} is required")
        return
    if not is_card(value):
        raise MalformedCommand(f"{name}: unknown card {value!r}")


def _seat_field(state: State, value: int, name: str) -> None:
    if value >= state.seat_count:
        raise MalformedCommand(f"{name} must be below {state.seat_count}")


def _check_play_shape(state: State, command: pb.PlayCard) -> None:
    _card_field(command.card, "card")
    destination = command.destination
    if destination not in pb.Destination.values() or destination == pb.DESTINATION_UNSPECIFIED:
        raise MalformedCommand("destination must be LIFE, MALUS, DISCARD or CASINO")
    kind = card(command.card).family
    to_life = destination == pb.DESTINATION_LIFE
    if command.HasField("target"):
        _seat_field(state, command.target, "target")
        if destination != pb.DESTINATION_MALUS:
            raise MalformedCommand("only a malus on a player names a target")
    elif destination == pb.DESTINATION_MALUS and kind == MALUS and command.card != TERRORIST_ATTACK:
        raise MalformedCommand("a malus names its target")
    if command.HasField("payment") != (to_life and kind in ACQUISITIONS):
        raise MalformedCommand("a trip or a house played to your life, and only that, is paid")
    levels = list(command.payment.salary_levels)
    if any(not 1 <= level <= 4 for level in levels) or levels != sorted(levels):
        raise MalformedCommand("salary_levels are levels 1 to 4, ascending")
    if command.HasField("steal_from"):
        _seat_field(state, command.steal_from, "steal_from")
        if not (to_life and kind == FLIRT):
            raise MalformedCommand("only a flirt played to your life steals a flirt")


def _check_shape(state: State, command: Message) -> None:
    """Well-formedness: known cards, seats in range, fields that belong."""
    if isinstance(command, pb.PlayCard):
        _check_play_shape(state, command)
    elif isinstance(command, (pb.TakeRiverCard, pb.TakeFromDiscard, pb.DiscardFromHand)):
        _card_field(command.card, "card")
    elif isinstance(command, pb.Resign):
        _card_field(command.discard, "discard", required=False)
    elif isinstance(command, pb.ChooseLuckCard):
        _card_field(command.card, "card")
        _card_field(command.top_discard, "top_discard", required=False)
    elif isinstance(command, pb.ChooseBarterPartner):
        _seat_field(state, command.partner, "partner")
        _card_field(command.protect, "protect", required=False)
    elif isinstance(command, pb.TakeRevenge):
        _card_field(command.malus, "malus")
        _seat_field(state, command.target, "target")
    elif isinstance(command, pb.GiveSalary) and not 1 <= command.level <= 4:
        raise MalformedCommand("level must be 1 to 4")
    elif isinstance(command, pb.Announce):
        _seat_field(state, command.seat, "seat")
        _card_field(command.card, "card")


# ------------------------------------------------------------- the turn


def _check_turn(state: State, seat: int, command: Message) -> None:
    """Public: is the game waiting for this seat, and for this command?"""
    if state.phase == pb.PHASE_OVER:
        raise RuleViolation("SL-05", "the game is over")
    if state.phase == pb.PHASE_SETUP:
        raise NotYourTurn("waiting for the shuffle")
    top = state.top
    journalist = top is not None and top.kind == pb.STEP_JOURNALIST and seat == top.seat
    if isinstance(command, pb.Announce) and not journalist:
        raise RuleViolation("SL-35", "only a journalist announces, in the turn the job is placed")
    if top is None:
        if seat != state.current:
            raise NotYourTurn(f"it is seat {state.current}'s turn")
        if state.stage == pb.STAGE_START and not isinstance(command, START_COMMANDS):
            raise RuleViolation("SL-03", "draw first (or take the top discard)")
        if state.stage == pb.STAGE_PLAY and not isinstance(command, PLAY_COMMANDS):
            raise RuleViolation("SL-03", "play a card from your hand")
        return
    if top.kind in DEALER_STEPS:
        raise NotYourTurn("waiting for the dealer")
    if seat != top.seat:
        raise NotYourTurn(f"waiting for seat {top.seat}")
    rule, allowed = STEP_COMMANDS[top.kind]
    if not isinstance(command, allowed):
        names = " or ".join(kind.DESCRIPTOR.name for kind in allowed)
        raise RuleViolation(rule, f"now: {names} ({pb.Step.Name(top.kind).lower()})")


def play_context(state: State) -> Context:
    top = state.top
    if top is None or top.kind == pb.STEP_RAINBOW:
        return FROM_HAND
    if top.kind == pb.STEP_PLAY_HELD:
        return FROM_LUCK if top.may_discard else TAKEN
    return CASINO_ONLY if top.kind == pb.STEP_CASINO_BET else PISTON_JOB


def _raise(found: RuleViolation | None) -> None:
    if found is not None:
        raise found


def _own_card(state: State, seat: int, wanted: str, rule: str) -> None:
    if wanted not in state.hands[seat]:
        raise RuleViolation(rule, f"you hold no {wanted}")


def _play(batch: Batch, seat: int, command: pb.PlayCard) -> None:
    state = batch.state
    ctx = play_context(state)
    if ctx.source == pb.SOURCE_HAND:
        _own_card(state, seat, command.card, "SL-03")
    elif command.card != state.held:
        raise RuleViolation(ctx.rule, f"play the {state.held} you took")
    _raise(problem(state, seat, command, ctx))
    top = state.top
    if top is not None and top.kind != pb.STEP_RAINBOW:
        steps.close_step(batch)
    play(batch, seat, command, ctx)
    if ctx is CASINO_ONLY:
        refill(batch, seat)  # SL-16: a bet at once draws back to five


def _draw(batch: Batch, seat: int, command: Message) -> None:
    turns.draw_card(batch, seat)


def _take_discard(batch: Batch, seat: int, command: Message) -> None:
    _raise(turns.take_discard_problem(batch.state, seat))
    turns.take_discard(batch, seat)


def _take_river(batch: Batch, seat: int, command: pb.TakeRiverCard) -> None:
    _raise(turns.river_problem(batch.state, seat, command.card))
    turns.take_river_card(batch, seat, command.card)


def _resign(batch: Batch, seat: int, command: pb.Resign) -> None:
    _raise(turns.resign_problem(batch.state, seat, command))
    turns.resign(batch, seat, command)


def _divorce(batch: Batch, seat: int, command: Message) -> None:
    _raise(turns.divorce_problem(batch.state, seat))
    turns.divorce(batch, seat)


def _stop_adultery(batch: Batch, seat: int, command: Message) -> None:
    _raise(turns.stop_adultery_problem(batch.state, seat))
    turns.stop_adultery(batch, seat)


def _miss_turn(batch: Batch, seat: int, command: Message) -> None:
    _raise(turns.miss_turn_problem(batch.state, seat))
    turns.end_turn(batch)


def _decline(batch: Batch, seat: int, command: Message) -> None:
    steps.decline(batch, seat)


def _luck(batch: Batch, seat: int, command: pb.ChooseLuckCard) -> None:
    _raise(steps.luck_problem(batch.state, command))
    steps.choose_luck_card(batch, seat, command)


def _take_from_discard(batch: Batch, seat: int, command: pb.TakeFromDiscard) -> None:
    _raise(steps.take_from_discard_problem(batch.state, seat, command.card))
    steps.take_from_discard(batch, seat, command.card)


def _partner(batch: Batch, seat: int, command: pb.ChooseBarterPartner) -> None:
    top = batch.state.top
    manager = top is not None and top.kind == pb.STEP_MANAGER_BARTER
    _raise(steps.barter_problem(batch.state, seat, command, manager))
    steps.choose_partner(batch, seat, command)


def _revenge(batch: Batch, seat: int, command: pb.TakeRevenge) -> None:
    _raise(steps.revenge_problem(batch.state, seat, command))
    steps.take_revenge(batch, seat, command)


def _gift(batch: Batch, seat: int, command: pb.GiveSalary) -> None:
    _raise(steps.gift_problem(batch.state, seat, command.level))
    steps.give_salary(batch, seat, command.level)


def _discard_from_hand(batch: Batch, seat: int, command: pb.DiscardFromHand) -> None:
    _own_card(batch.state, seat, command.card, "SL-10")
    steps.discard_from_hand(batch, seat, command.card)


def _announce(batch: Batch, seat: int, command: pb.Announce) -> None:
    """SL-35: public and unchecked; it may be false."""
    if command.seat == seat:
        raise RuleViolation("SL-35", "announce what another player holds")
    batch.emit(
        pb.JournalistAnnounced(
            seat=seat, about=command.seat, card=command.card, holds=command.holds
        )
    )


HANDLERS: dict[type[Message], Callable[[Batch, int, Any], None]] = {
    pb.DrawCard: _draw,
    pb.TakeDiscard: _take_discard,
    pb.TakeRiverCard: _take_river,
    pb.PlayCard: _play,
    pb.Resign: _resign,
    pb.Divorce: _divorce,
    pb.StopAdultery: _stop_adultery,
    pb.Decline: _decline,
    pb.ChooseLuckCard: _luck,
    pb.TakeFromDiscard: _take_from_discard,
    pb.ChooseBarterPartner: _partner,
    pb.TakeRevenge: _revenge,
    pb.GiveSalary: _gift,
    pb.DiscardFromHand: _discard_from_hand,
    pb.Announce: _announce,
    pb.MissTurn: _miss_turn,
}


# ------------------------------------------------------------ legal actions


def _hand_plays(state: State, seat: int, ctx: Context) -> list[Message]:
    found: list[Message] = []
    for held in sorted(set(known(state.hands[seat]))):
        found.extend(legal_plays(state, seat, held, ctx))
    return found


def _step_actions(state: State, seat: int, kind: int) -> list[Message]:
    if kind == pb.STEP_PLAY_HELD:
        assert state.held is not None
        return list(legal_plays(state, seat, state.held, play_context(state)))
    if kind in (pb.STEP_RAINBOW, pb.STEP_CASINO_BET, pb.STEP_PISTON):
        return _hand_plays(state, seat, play_context(state)) + steps.decline_actions(state, seat)
    if kind == pb.STEP_LUCK:
        return list(steps.luck_options(state, seat))
    if kind in (pb.STEP_SHOOTING_STAR, pb.STEP_ASTRONAUT):
        taking: list[Message] = [
            pb.TakeFromDiscard(card=c) for c in steps.discard_choices(state, seat)
        ]
        return taking + steps.decline_actions(state, seat)
    if kind in (pb.STEP_BARTER, pb.STEP_MANAGER_BARTER):
        manager = kind == pb.STEP_MANAGER_BARTER
        options: list[Message] = list(steps.barter_options(state, seat, manager))
        return options + steps.decline_actions(state, seat)
    if kind == pb.STEP_REVENGE:
        return list(steps.revenge_options(state, seat))
    if kind == pb.STEP_BIRTHDAY_GIFT:
        return [pb.GiveSalary(level=level) for level in steps.gift_levels(state, seat)]
    if kind == pb.STEP_JOURNALIST:
        # SL-35: Announce is accepted too, but not listed (seats x types x 2).
        return steps.decline_actions(state, seat)
    assert kind == pb.STEP_RESEARCHER_DISCARD
    return [pb.DiscardFromHand(card=c) for c in sorted(set(known(state.hands[seat])))]


# -------------------------------------------------------------- the game


class SmileLife:
    kind: ClassVar[str] = "smile-life"
    title: ClassVar[str] = "Smile Life"
    # /2: SL-23 (the attack may name a target), SL-24 (one prize per job for
    # the game), SL-35 (the journalist's announcements), SL-37 (the default
    # choices), G-03 (winners among the seats still playing).
    rules_version: ClassVar[str] = "smile-life/2"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 6  # only with allow_six_players (section 3.1)
    options_type: ClassVar[type[Message]] = pb.Options
    # T-VARIANT: a table of 6 created with no options plays the variant.
    seat_variants: ClassVar[Mapping[int, Message]] = {6: pb.Options(allow_six_players=True)}
    command_types: ClassVar[tuple[type[Message], ...]] = COMMAND_TYPES
    chance_types: ClassVar[tuple[type[Message], ...]] = CHANCE_TYPES
    view_type: ClassVar[type[Message]] = pb.View

    def initial_state(self, options: Message, seat_count: int) -> State:
        return State(settings=settings_of(options, seat_count), seat_count=seat_count)

    def chance_needed(self, state: State) -> type[Message] | None:
        return dealing.needed(state)

    def sample_chance(self, state: State, rng: random.Random) -> Message:
        return dealing.sample(state, rng)

    def decide(self, state: State, actor: Actor, command: Message) -> list[Event]:
        batch = Batch(state)
        if actor.kind == "dealer":
            dealing.apply(batch, command)
        else:
            seat = actor.seat
            if actor.kind != "seat" or seat is None or not 0 <= seat < state.seat_count:
                raise MalformedCommand(f"{actor.kind} cannot play Smile Life")
            handler = HANDLERS.get(type(command))
            if handler is None:
                raise MalformedCommand(
                    f"{command.DESCRIPTOR.full_name} is not a Smile Life command"
                )
            _check_shape(state, command)
            _check_turn(state, seat, command)
            handler(batch, seat, command)
        turns.settle(batch)
        return batch.events

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    def legal_actions(self, state: State, seat: int) -> list[Message]:
        if state.phase != pb.PHASE_TURN:
            return []
        top = state.top
        if top is None:
            if seat != state.current:
                return []
            if state.stage == pb.STAGE_START and seat in state.departed:
                return [pb.MissTurn()]  # SL-37
            if state.stage == pb.STAGE_START:
                return turns.start_actions(state, seat)
            return _hand_plays(state, seat, FROM_HAND) + turns.free_actions(state, seat)
        if top.kind in DEALER_STEPS or top.seat != seat:
            return []
        return _step_actions(state, seat, top.kind)

    def default_action(self, state: State, seat: int, *, departed: bool) -> Message | DealersPick:
        """SL-37 (G-02): see ``defaults``."""
        actions = self.legal_actions(state, seat)
        return defaults.default_action(state, seat, actions, departed=departed)

    def view(self, state: State, viewer: Viewer) -> Message:
        return render(state, viewer)

    def winners(self, state: State) -> Sequence[int] | None:
        return state.winners

    def leaders(self, state: State) -> Sequence[int]:
        """The seats still playing with the most smiles (G-03): the winners
        if the table ends the game now (T-LENGTH)."""
        smiles = state.smiles()
        best = max(smiles[s] for s in state.playing)
        return [s for s in state.playing if smiles[s] == best]

    def reveals(self, event: Event) -> list[Reveal]:
        """Face-down cards turned face up open the secrets that hid them: the
        casino's bets, and luck's cards (CR-SL-02 explains why a card played
        from hand does not)."""
        public = event.public
        if isinstance(public, pb.CasinoResolved):
            return [_bet_of(public.first_seat), _bet_of(public.second_seat)]
        if isinstance(public, pb.CasinoBetReturned):
            return [_bet_of(public.seat)]
        if isinstance(public, pb.LuckCardChosen):
            seat = public.seat
            return [Reveal(pb.LuckCards, lambda s: isinstance(s, pb.LuckCards) and s.seat == seat)]
        return []


def _bet_of(seat: int) -> Reveal:
    return Reveal(pb.CasinoBet, lambda s: isinstance(s, pb.CasinoBet) and s.seat == seat)
