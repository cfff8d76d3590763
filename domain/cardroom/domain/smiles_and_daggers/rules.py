"""The Smiles & Daggers decider: who may send what, and what happens.

Checks run in a fixed order so that an error never depends on anything the
actor cannot see: the command's own shape first, then the phase and whose
turn it is (public), then the actor's own cards and coins, and public facts
about the others (hand counts, coins, eliminated piles).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from google.protobuf.message import Message

from cardroom.domain.kernel import (
    DEALER,
    Actor,
    DealersPick,
    Event,
    MalformedCommand,
    NotYourTurn,
    Reveal,
    RuleViolation,
    Viewer,
)
from cardroom.domain.kernel import event as make_event
from cardroom.domain.smiles_and_daggers.cards import (
    BET_SHAPES,
    FAMILIES,
    KNIGHT,
    LADY,
    LORD,
    ORIENTATIONS,
    RANKS,
    BetShape,
    Card,
    Family,
    Orientation,
    Rank,
    count,
    label,
    recovery_cost,
    settle_bet,
    settle_challenge,
)
from cardroom.domain.smiles_and_daggers.evolve import evolve
from cardroom.domain.smiles_and_daggers.state import (
    TARGET_COINS,
    Phase,
    Settings,
    State,
    new_state,
)
from cardroom.domain.smiles_and_daggers.view import render
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb

COMMAND_TYPES: tuple[type[Message], ...] = (
    pb.ChooseFamily,
    pb.RecoverCard,
    pb.SkipTurn,
    pb.ChallengeOpponent,
    pb.CommitCard,
    pb.PlaceBet,
    pb.PassBet,
)
TURN_COMMANDS = (pb.RecoverCard, pb.SkipTurn, pb.ChallengeOpponent)
BET_COMMANDS = (pb.PlaceBet, pb.PassBet)

RB_CHALLENGE = "rulebook: challenge"


def _check_enum(kind: Any, value: int, field: str) -> None:
    if value == 0 or value not in kind.values():
        choices = ", ".join(kind.keys()[1:])
        raise MalformedCommand(f"{field} must be one of {choices}, not {value}")


def settings_of(options: Message) -> Settings:
    if not isinstance(options, pb.Options):
        raise MalformedCommand(
            f"options must be {pb.Options.DESCRIPTOR.full_name}, not {options.DESCRIPTOR.full_name}"
        )
    return Settings(
        allow_two_players=options.allow_two_players,
        come_back=options.optional_come_back,
        recover_lost_bet_knights=(
            options.recover_lost_bet_knights
            if options.HasField("recover_lost_bet_knights")
            else True
        ),
        overtime_turns=options.overtime_turns if options.HasField("overtime_turns") else None,
        turn_cap=options.turn_cap,
    )


# ---------------------------------------------------------------- batches


class _Batch:
    """Events of one command, folded as they are emitted so that later
    decisions (bets, win check, next turn) see the earlier ones."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, public: Message, *secrets: tuple[frozenset[int], Message]) -> None:
        e = make_event(public, *secrets)
        self.events.append(e)
        self.state = evolve(self.state, e)


def _end_turn(batch: _Batch) -> None:
    """SD-09 win check among the seats still playing (G-03), then the tile
    passes to the next seat that can act (SD-05, SD-16). The game ends
    instead, most coins winning (SD-15(c)), when none can (SD-05(c)(d)),
    when no coin can ever change hands again (CR-SD-04), when the tile would
    return to a seat that skipped since the last challenge (CR-SD-03), when
    2 x (seats still playing) turns in a row changed nothing (SD-15(a)),
    when overtime is over (SD-15(b)) or at the turn cap (SD-15(d))."""
    state = batch.state
    leaders = state.most_coins()
    if len(leaders) == 1 and state.coins[leaders[0]] >= TARGET_COINS:
        batch.emit(pb.GameEnded(winners=leaders, reason=pb.GAME_END_REASON_NINE_COINS))
        return
    assert state.current is not None
    n = state.seat_count
    following = ((state.current + k) % n for k in range(1, n + 1))
    nxt = next((seat for seat in following if state.can_act(seat)), None)
    cap = state.settings.turn_cap
    if nxt is None:
        reason = pb.GAME_END_REASON_NO_CHALLENGE_POSSIBLE
    elif not state.coins_can_change():
        reason = pb.GAME_END_REASON_NO_COINS_POSSIBLE
    elif nxt in state.skipped:
        reason = pb.GAME_END_REASON_ALL_SKIPPED
    elif state.quiet_turns >= 2 * len(state.playing):
        reason = pb.GAME_END_REASON_STALEMATE
    elif state.overtime_left() == 0:
        reason = pb.GAME_END_REASON_OVERTIME
    elif cap and state.turn >= cap:
        reason = pb.GAME_END_REASON_TURN_CAP
    else:
        batch.emit(pb.TurnStarted(seat=nxt, turn=state.turn + 1))
        return
    batch.emit(pb.GameEnded(winners=leaders, reason=reason))


def _open_betting(batch: _Batch) -> None:
    """SD-06: clockwise from the current player's left, skipping both
    challengers, anyone without a Knight in hand (SD-05(a), rulebook) and
    anyone who left the game (SD-16)."""
    state = batch.state
    challenge = state.challenge
    assert challenge is not None
    current = challenge.seats[0]
    n = state.seat_count
    bettors = []
    for k in range(1, n):
        seat = (current + k) % n
        if seat in challenge.seats or seat in state.departed:
            continue
        hand = state.hand(seat)
        if hand is not None and count(hand, KNIGHT) > 0:
            bettors.append(seat)
    batch.emit(pb.BettingOpened(bettors=bettors))
    if not bettors:
        _resolve(batch)


def _resolve(batch: _Batch) -> None:
    """Reveal, then bets (SD-07), eliminations (SD-01), coins (SD-02), in the
    order of SD-08; cards return to hand and the turn ends."""
    challenge = batch.state.challenge
    assert challenge is not None
    current_card, opponent_card = challenge.cards
    if current_card is None or opponent_card is None:
        raise ValueError("resolving a challenge needs the full state, not a redacted one")
    seats, cards = challenge.seats, (current_card, opponent_card)
    current, opponent = (
        pb.Play(seat=seat, rank=card.rank, orientation=card.orientation)
        for seat, card in zip(seats, cards, strict=True)
    )
    batch.emit(pb.CardsRevealed(current=current, opponent=opponent))
    for bet in challenge.bets:
        if bet.shape is None:
            continue
        won = settle_bet(bet.shape, current_card.orientation, opponent_card.orientation)
        batch.emit(
            pb.BetSettled(seat=bet.seat, shape=bet.shape, correct=won is not None, coins=won or 0)
        )
    outcome = settle_challenge(current_card, opponent_card)
    for seat, card, gone in zip(seats, cards, outcome.eliminated, strict=True):
        if gone:
            batch.emit(pb.CardEliminated(seat=seat, rank=card.rank))
    for seat, coins in zip(seats, outcome.coins, strict=True):
        if coins:
            batch.emit(pb.CoinsPaid(seat=seat, amount=coins))
    batch.emit(pb.TurnEnded(seat=seats[0]))
    _end_turn(batch)


# ------------------------------------------------------------- the game


class SmilesAndDaggers:
    kind: ClassVar[str] = "smiles-and-daggers"
    title: ClassVar[str] = "Smiles & Daggers"
    rules_version: ClassVar[str] = "smiles-and-daggers/2"
    min_seats: ClassVar[int] = 2  # only with allow_two_players (SD-12)
    max_seats: ClassVar[int] = 6
    options_type: ClassVar[type[Message]] = pb.Options
    # T-VARIANT: a table of 2 created with no options plays the variant.
    seat_variants: ClassVar[Mapping[int, Message]] = {2: pb.Options(allow_two_players=True)}
    command_types: ClassVar[tuple[type[Message], ...]] = COMMAND_TYPES
    chance_types: ClassVar[tuple[type[Message], ...]] = (pb.ChooseStartSeat,)
    view_type: ClassVar[type[Message]] = pb.View

    # ------------------------------------------------------------ setup

    def initial_state(self, options: Message, seat_count: int) -> State:
        settings = settings_of(options)
        if seat_count == 2 and not settings.allow_two_players:
            raise RuleViolation(
                "SD-12", "Smiles & Daggers is for 3 to 6 players; 2 needs allow_two_players"
            )
        if not self.min_seats <= seat_count <= self.max_seats:
            raise RuleViolation(
                "DECISIONS 1.1", f"Smiles & Daggers is for 3 to 6 players, not {seat_count}"
            )
        return new_state(settings, seat_count)

    def chance_needed(self, state: State) -> type[Message] | None:
        return pb.ChooseStartSeat if state.phase is Phase.START else None

    def sample_chance(self, state: State, rng: random.Random) -> Message:
        """SD-14: a random start seat."""
        return pb.ChooseStartSeat(seat=rng.randrange(state.seat_count))

    # ----------------------------------------------------------- decide

    def decide(self, state: State, actor: Actor, command: Message) -> list[Event]:
        if actor.kind == DEALER.kind:
            return self._dealer(state, command)
        if actor.kind != "seat" or actor.seat is None or not 0 <= actor.seat < state.seat_count:
            raise MalformedCommand(f"{actor.kind} cannot play Smiles & Daggers")
        if not isinstance(command, COMMAND_TYPES):
            raise MalformedCommand(
                f"{command.DESCRIPTOR.full_name} is not a Smiles & Daggers command"
            )
        seat = actor.seat
        self._check_fields(state, command)
        self._check_turn(state, seat, command)
        batch = _Batch(state)
        if isinstance(command, pb.ChooseFamily):
            self._choose_family(batch, seat, command.family)
        elif isinstance(command, pb.RecoverCard):
            self._recover(batch, seat, command.rank)
        elif isinstance(command, pb.SkipTurn):
            self._skip(batch, seat)
        elif isinstance(command, pb.ChallengeOpponent):
            self._challenge(batch, seat, command.target)
        elif isinstance(command, pb.CommitCard):
            self._commit(batch, seat, Card(command.rank, command.orientation))
        elif isinstance(command, pb.PlaceBet):
            self._place_bet(batch, seat, command.shape)
        else:
            batch.emit(pb.BetPassed(seat=seat))
            self._after_bet(batch)
        return batch.events

    def _dealer(self, state: State, command: Message) -> list[Event]:
        if not isinstance(command, pb.ChooseStartSeat):
            raise MalformedCommand(
                f"the dealer sends only ChooseStartSeat, not {command.DESCRIPTOR.full_name}"
            )
        if command.seat >= state.seat_count:
            raise MalformedCommand(f"seat must be below {state.seat_count}")
        if state.phase is not Phase.START:
            raise RuleViolation("SD-14", "the start seat is already chosen")
        return [make_event(pb.StartSeatChosen(seat=command.seat))]

    @staticmethod
    def _check_fields(state: State, command: Message) -> None:
        """Well-formedness: known enum values, seats in range."""
        if isinstance(command, pb.ChooseFamily):
            _check_enum(Family, command.family, "family")
        elif isinstance(command, pb.RecoverCard):
            _check_enum(Rank, command.rank, "rank")
        elif isinstance(command, pb.ChallengeOpponent):
            if command.target >= state.seat_count:
                raise MalformedCommand(f"target must be below {state.seat_count}")
        elif isinstance(command, pb.CommitCard):
            _check_enum(Rank, command.rank, "rank")
            _check_enum(Orientation, command.orientation, "orientation")
        elif isinstance(command, pb.PlaceBet):
            _check_enum(BetShape, command.shape, "shape")

    @staticmethod
    def _check_turn(state: State, seat: int, command: Message) -> None:
        """Public checks: the phase, whose turn it is, which command fits."""
        phase = state.phase
        if phase is Phase.OVER:
            raise RuleViolation("rulebook: end of the game", "the game is over")
        if phase is Phase.START:
            raise NotYourTurn("the start player has not been chosen yet")
        if phase is Phase.FAMILIES:
            chooser = state.family_chooser
            if seat != chooser:
                raise NotYourTurn(f"seat {chooser} chooses a family now")
            if not isinstance(command, pb.ChooseFamily):
                raise RuleViolation("SD-14", "choose your family first")
        elif phase is Phase.TURN:
            if seat != state.current:
                raise NotYourTurn(f"seat {state.current} has the tile")
            if not isinstance(command, TURN_COMMANDS):
                raise RuleViolation("SD-13", "challenge an opponent first")
        elif phase is Phase.COMMIT:
            challenge = state.challenge
            assert challenge is not None
            role = challenge.role_of(seat)
            if role is None:
                raise NotYourTurn("only the two challengers play a card now")
            if challenge.committed[role]:
                raise NotYourTurn("you have played your card; the other challenger has not")
            if isinstance(command, pb.RecoverCard):
                raise RuleViolation("SD-11", "a card may be recovered only before challenging")
            if not isinstance(command, pb.CommitCard):
                raise RuleViolation(RB_CHALLENGE, "play a card face down first")
        else:  # betting
            challenge = state.challenge
            assert challenge is not None
            bettor = challenge.next_bettor
            if seat != bettor:
                raise NotYourTurn(f"seat {bettor} bets now")
            if not isinstance(command, BET_COMMANDS):
                raise RuleViolation("SD-06", "place a bet or pass")

    def _choose_family(self, batch: _Batch, seat: int, family: Family) -> None:
        state = batch.state
        if family in state.families:
            raise RuleViolation("SD-14", f"house {label(family, Family)} is already taken")
        batch.emit(pb.FamilyChosen(seat=seat, family=family))
        if all(f is not None for f in batch.state.families):
            assert state.start_seat is not None
            batch.emit(pb.TurnStarted(seat=state.start_seat, turn=1))

    def _recover(self, batch: _Batch, seat: int, rank: Rank) -> None:
        state = batch.state
        if not state.settings.come_back:
            raise RuleViolation("SD-11", "the optional rule Sometimes They Come Back is off")
        if state.recovered:
            raise RuleViolation("SD-11", "only one card may be recovered per turn")
        if count(state.eliminated[seat], rank) == 0:
            if count(state.lost[seat], rank) > 0:
                raise RuleViolation("SD-04", "lost bet Knights cannot be recovered in this game")
            raise RuleViolation("SD-11", f"you have no eliminated {label(rank, Rank)} to recover")
        hand_size = state.hand_count(seat)
        cost = recovery_cost(hand_size)
        if state.coins[seat] < cost:
            raise RuleViolation(
                "SD-11",
                f"recovering with {hand_size} cards in hand costs {cost} coins; "
                f"you have {state.coins[seat]}",
            )
        batch.emit(pb.CardRecovered(seat=seat, rank=rank, cost=cost))

    def _skip(self, batch: _Batch, seat: int) -> None:
        if batch.state.holds_cards(seat):  # a departed seat's turn passes (SD-16)
            raise RuleViolation("SD-13", "you hold cards, so you must challenge an opponent")
        batch.emit(pb.TurnSkipped(seat=seat))
        _end_turn(batch)

    def _challenge(self, batch: _Batch, seat: int, target: int) -> None:
        state = batch.state
        if target == seat:
            raise RuleViolation("SD-13", "challenge another player, not yourself")
        if state.hand_count(seat) == 0:
            raise RuleViolation("SD-05", "you hold no cards: recover one first or skip your turn")
        if target in state.departed:
            raise RuleViolation("SD-16", f"seat {target} has left the game: it is never challenged")
        if state.hand_count(target) == 0:
            raise RuleViolation("SD-05", f"seat {target} holds no cards and cannot be challenged")
        batch.emit(pb.OpponentChallenged(current_seat=seat, opponent_seat=target))

    def _commit(self, batch: _Batch, seat: int, card: Card) -> None:
        hand = batch.state.hand(seat)
        assert hand is not None  # the full state, or this seat's own fold
        if count(hand, card.rank) == 0:
            raise RuleViolation(RB_CHALLENGE, f"you hold no {label(card.rank, Rank)}")
        batch.emit(
            pb.CardCommitted(seat=seat),
            (
                frozenset({seat}),
                pb.CommittedCard(seat=seat, rank=card.rank, orientation=card.orientation),
            ),
        )
        challenge = batch.state.challenge
        assert challenge is not None
        if all(challenge.committed):
            _open_betting(batch)

    def _place_bet(self, batch: _Batch, seat: int, shape: BetShape) -> None:
        hand = batch.state.hand(seat)
        assert hand is not None
        if count(hand, KNIGHT) == 0:
            raise RuleViolation("SD-06", "a bet is one Knight from your hand; you hold none")
        batch.emit(pb.BetPlaced(seat=seat, shape=shape))
        self._after_bet(batch)

    @staticmethod
    def _after_bet(batch: _Batch) -> None:
        challenge = batch.state.challenge
        assert challenge is not None
        if challenge.next_bettor is None:
            _resolve(batch)

    # ------------------------------------------------------------ evolve

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    # ----------------------------------------------------- legal actions

    def default_action(self, state: State, seat: int, *, departed: bool) -> Message | DealersPick:
        """SD-16 (G-02), from the seat's own legal actions and public facts,
        so it shows nothing the seat may not see. Either way: the first free
        family, a passed bet. A departed seat's turn passes and a challenge
        already waiting for its card gets its lowest rank, smiling. A
        timed-out seat recovers nothing and challenges the dealer's uniform
        draw among its targets (SkipTurn with no cards), and its
        commitment is the dealer's draw among its (rank, orientation)
        pairs."""
        actions = self.legal_actions(state, seat)
        if state.phase is Phase.FAMILIES or state.phase is Phase.BETTING:
            passing = [a for a in actions if isinstance(a, pb.PassBet)]
            return (passing or actions)[0]
        if state.phase is Phase.TURN:
            skip = [a for a in actions if isinstance(a, pb.SkipTurn)]
            if departed or skip:
                return pb.SkipTurn()
            return DealersPick(tuple(a for a in actions if isinstance(a, pb.ChallengeOpponent)))
        if departed:
            held = {a.rank for a in actions if isinstance(a, pb.CommitCard)}
            lowest = next(rank for rank in (KNIGHT, LADY, LORD) if rank in held)
            return pb.CommitCard(rank=lowest, orientation=pb.ORIENTATION_SMILE)
        return DealersPick(tuple(actions))

    def legal_actions(self, state: State, seat: int) -> list[Message]:
        phase = state.phase
        if phase is Phase.FAMILIES:
            if seat != state.family_chooser:
                return []
            return [pb.ChooseFamily(family=f) for f in FAMILIES if f not in state.families]
        if phase is Phase.TURN:
            return self._turn_actions(state, seat) if seat == state.current else []
        challenge = state.challenge
        if phase is Phase.COMMIT:
            assert challenge is not None
            role = challenge.role_of(seat)
            if role is None or challenge.committed[role]:
                return []
            hand = state.hand(seat)
            assert hand is not None
            return [
                pb.CommitCard(rank=rank, orientation=orientation)
                for rank in RANKS
                if count(hand, rank) > 0
                for orientation in ORIENTATIONS
            ]
        if phase is Phase.BETTING:
            assert challenge is not None
            if seat != challenge.next_bettor:
                return []
            hand = state.hand(seat)
            actions: list[Message] = []
            if hand is not None and count(hand, KNIGHT) > 0:
                actions.extend(pb.PlaceBet(shape=shape) for shape in BET_SHAPES)
            actions.append(pb.PassBet())
            return actions
        return []

    @staticmethod
    def _turn_actions(state: State, seat: int) -> list[Message]:
        if seat in state.departed:
            return [pb.SkipTurn()]  # SD-16: its turn passes
        actions: list[Message] = []
        hand_size = state.hand_count(seat)
        if (
            state.settings.come_back
            and not state.recovered
            and state.coins[seat] >= recovery_cost(hand_size)
        ):
            actions.extend(
                pb.RecoverCard(rank=rank) for rank in RANKS if count(state.eliminated[seat], rank)
            )
        if hand_size == 0:
            actions.append(pb.SkipTurn())
        else:
            actions.extend(
                pb.ChallengeOpponent(target=q)
                for q in range(state.seat_count)
                if q != seat and state.holds_cards(q)
            )
        return actions

    # -------------------------------------------------------- rendering

    def view(self, state: State, viewer: Viewer) -> Message:
        return render(state, viewer)

    def winners(self, state: State) -> Sequence[int] | None:
        return state.winners

    def leaders(self, state: State) -> Sequence[int]:
        """The seats still playing with the most coins (SD-15(c), G-03):
        the winners if the table ends the game now (T-LENGTH)."""
        return state.most_coins()

    def reveals(self, event: Event) -> list[Reveal]:
        """The reveal shows both committed cards to everyone: the service
        attaches the openings of the two CommittedCard secrets, so every
        viewer can check them against the digests it saw at commit time."""
        if not isinstance(event.public, pb.CardsRevealed):
            return []
        return [
            Reveal(pb.CommittedCard, _committed_by(play.seat))
            for play in (event.public.current, event.public.opponent)
        ]


def _committed_by(seat: int) -> Callable[[Message], bool]:
    return lambda secret: isinstance(secret, pb.CommittedCard) and secret.seat == seat
