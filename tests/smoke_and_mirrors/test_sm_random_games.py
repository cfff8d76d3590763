"""Hundreds of complete random games keep every card accounted for, and
``legal_actions`` agrees exactly with ``decide``."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from google.protobuf.message import Message

from cardroom.domain.kernel import Actor, Event, MalformedCommand, RuleViolation
from cardroom.domain.smoke_and_mirrors import GAME
from cardroom.domain.smoke_and_mirrors.cards import CARD_KINDS
from cardroom.domain.smoke_and_mirrors.state import Phase
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as pb
from tests.bounded import steps

from .play import RandomGame, mover
from .support import ALL_CARDS, accounted_cards, act, canonical, command_universe, give, options

GAMES = 500  # every seat count over a hundred times; more games only lengthen the suite


def check_cards(game: RandomGame, _event: Event) -> None:
    """After every event: every card is somewhere, once; players own 3."""
    state = game.state
    if state.round == 0:
        return
    # Every one of the 18 cards is in exactly one place.
    assert accounted_cards(state) == ALL_CARDS
    for seat, st in enumerate(state.seats):
        if st.active:
            # Each active player owns exactly 3 cards: hand plus act; a
            # swapper owns 4 between its blind take and its give (SM-10).
            giving = state.phase is Phase.GIVE and seat == state.swapper
            assert len(st.hand) + len(st.act) == 3 + giving
        elif seat != state.eliminated:
            assert st.hand == () and st.act == ()


def check_folds(game: RandomGame) -> None:
    """After every command: each seat's fold knows its own cards exactly and
    agrees with the auditor on every public fact."""
    state = game.state
    public = (state.phase, state.turn_seat, state.last_claim, state.last_actor, state.round)
    sizes = [(len(s.hand), len(s.act), s.active, s.round_wins) for s in state.seats]
    for seat, fold in enumerate(game.folds):
        mine, truth = fold.seats[seat], state.seats[seat]
        assert mine.hand == truth.hand and mine.act == truth.act
        assert (fold.phase, fold.turn_seat, fold.last_claim, fold.last_actor, fold.round) == public
        assert [(len(s.hand), len(s.act), s.active, s.round_wins) for s in fold.seats] == sizes


def play_checked(game: RandomGame) -> RandomGame:
    while not game.over:
        assert game.commands < 20_000, "the game did not end"
        game.step(check_cards)
        check_folds(game)
    return game


@pytest.mark.slow
def test_hundreds_of_random_games_all_end_with_every_card_accounted_for() -> None:
    # Given 500 seeded games across 2 to 5 players
    rounds = Counter[int]()
    for seed in range(GAMES):
        seats = 2 + seed % 4
        # When every seat plays random legal moves from its own redacted fold
        game = play_checked(RandomGame(seats, seed, eagerness=0.4))
        # Then every game ends with a single winner of 4 rounds
        winners = GAME.winners(game.state)
        assert winners is not None and len(winners) == 1
        assert game.state.seats[winners[0]].round_wins == 4
        assert game.state.phase is Phase.OVER
        rounds[seats] += game.state.round
    assert all(rounds[n] >= 4 * GAMES // 4 for n in (2, 3, 4, 5))


@pytest.mark.parametrize(
    "opts",
    [
        options(rounds_to_win=2, turn_cap=8),
        options(rounds_to_win=2, remove_swirl5=False),
        options(rounds_to_win=1),
    ],
    ids=["turn cap 8", "Swirl 5 kept", "1 round win"],
)
def test_random_games_with_options_also_end_with_every_card_accounted_for(
    opts: pb.Options,
) -> None:
    for seed in range(100):
        game = play_checked(RandomGame(2 + seed % 4, seed, opts))
        assert GAME.winners(game.state) is not None


@pytest.mark.parametrize("eagerness", [0.0, 1.0], ids=["reluctant", "eager"])
def test_reluctant_and_eager_challengers_both_finish(eagerness: float) -> None:
    # A reluctant table only challenges impossible claims (over 20, SM-09).
    for seed in range(30):
        play_checked(RandomGame(2 + seed % 4, seed, options(rounds_to_win=2), eagerness))


# ------------------------------------------------------ legal == decide


def outcome(state: object, seat: int, command: Message) -> str | None:
    """None if ``decide`` accepts, else the refusal."""
    try:
        GAME.decide(state, Actor.of_seat(seat), command)  # type: ignore[arg-type]
    except (RuleViolation, MalformedCommand) as e:
        return f"{type(e).__name__}: {e}"
    return None


def candidates(game: RandomGame, seat: int, rng: random.Random) -> list[Message]:
    """Commands worth trying: everything built from the seat's cards and two
    others, a few odd shapes and a random sample of every possible command."""
    st = game.state.seats[seat]
    kinds = sorted({c for c in st.owned if c is not None} | set(rng.sample(CARD_KINDS, 2)))
    tries: list[Message] = [pb.Challenge(), pb.TakeBreak(), pb.DeclineSwap(), pb.TakeBlind()]
    tries += [give(c) for c in CARD_KINDS]
    tries += [act(*combo) for combo in _multisets(kinds, 3)]
    tries += [act(), act(*kinds[:2], *kinds[:2])]
    tries += rng.sample(UNIVERSE, 20)
    return tries


def _multisets(kinds: list, most: int) -> list[tuple]:
    from itertools import combinations_with_replacement

    return [c for k in range(1, most + 1) for c in combinations_with_replacement(kinds, k)]


UNIVERSE = command_universe()


def check_agreement(game: RandomGame, rng: random.Random, full: bool) -> None:
    for seat in range(game.seats):
        legal = GAME.legal_actions(game.folds[seat], seat)
        # The seat's own fold and the auditor's state list the same actions.
        assert [canonical(a) for a in legal] == [
            canonical(a) for a in GAME.legal_actions(game.state, seat)
        ]
        listed = {canonical(a) for a in legal}
        assert len(listed) == len(legal), "an action is listed twice"
        # Every listed action is accepted...
        for action in legal:
            assert outcome(game.state, seat, action) is None, action
        # ...and anything not listed is refused.
        tries = UNIVERSE if full and seat == mover(game.state) else candidates(game, seat, rng)
        for command in tries:
            if canonical(command) not in listed:
                assert outcome(game.state, seat, command) is not None, (seat, command)


def test_legal_actions_agree_exactly_with_decide() -> None:
    rng = random.Random(99)
    for seed in range(40):
        game = RandomGame(2 + seed % 4, 10_000 + seed, options(rounds_to_win=1))
        for _ in steps(20_000, "the game"):
            if game.over:
                break
            if mover(game.state) is not None:
                check_agreement(game, rng, full=game.commands % 20 == 0)
            game.step()


def test_no_seat_has_an_action_while_the_dealer_is_due() -> None:
    for seed in range(20):
        game = RandomGame(2 + seed % 4, seed)
        for _ in steps(20_000, "the game"):
            if game.over:
                break
            if GAME.chance_needed(game.state) is not None:
                assert all(GAME.legal_actions(f, s) == [] for s, f in enumerate(game.folds))
            else:
                movers = [s for s, f in enumerate(game.folds) if GAME.legal_actions(f, s)]
                assert movers == [mover(game.state)]
            game.step()
