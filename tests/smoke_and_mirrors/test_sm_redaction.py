"""Hidden information stays hidden: non-interference and pure folds."""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.domain.kernel import AUDITOR, SPECTATOR, Viewer
from cardroom.domain.smoke_and_mirrors import GAME
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as pb
from tests.bounded import steps

from .play import RandomGame
from .support import options, view_of
from .twins import Twins, wire

game_options = st.builds(
    options,
    rounds_to_win=st.sampled_from([1, 2, 4]),
    turn_cap=st.sampled_from([0, 0, 0, 9]),
    remove_swirl5=st.sampled_from([None, False]),
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 5), seed=st.integers(0, 2**32 - 1), opts=game_options)
def test_no_viewer_can_tell_apart_games_that_differ_only_in_what_it_cannot_see(
    seats: int, seed: int, opts: pb.Options
) -> None:
    # Given, for each seat and for a spectator, a twin game that differs only
    # in cards that viewer cannot see, and the same public moves in both
    for viewer in [*(Viewer.of_seat(s) for s in range(seats)), SPECTATOR]:
        twins = Twins(seats, viewer, seed, opts)
        # Then at every step the viewer's redacted events, its fold, its view,
        # its legal actions and the answer to every command it could try are
        # identical, and its fold holds no card it was not shown.
        twins.run()


def test_the_twins_really_differ_in_hidden_cards() -> None:
    # A sanity check of the harness: the auditor sees different games.
    differed = 0
    for seed in range(20):
        twins = Twins(4, Viewer.of_seat(0), seed)
        twins.run(max_commands=40)
        full_a = [wire(e) for e in twins.a.log]
        full_b = [wire(e) for e in twins.b.log]
        differed += full_a != full_b
    assert differed == 20


def test_the_viewer_sometimes_challenges_and_swaps_in_the_twins() -> None:
    # The harness must not avoid the moves that reveal cards to the viewer.
    challenged = swapped = 0
    for seed in range(40):
        twins = Twins(3, Viewer.of_seat(1), seed, options(rounds_to_win=2))
        twins.run(max_commands=200)
        for e in twins.a.log:
            if isinstance(e.public, pb.ActChallenged) and e.public.challenger == 1:
                challenged += 1
            if isinstance(e.public, pb.CardGiven) and 1 in (e.public.seat, e.public.eliminated):
                swapped += 1
    assert challenged > 5 and swapped > 5


@settings(max_examples=30, deadline=None)
@given(seats=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_evolve_never_mutates_the_state_or_the_event(seats: int, seed: int) -> None:
    game = RandomGame(seats, seed, options(rounds_to_win=1))
    viewers = [AUDITOR, SPECTATOR, *(Viewer.of_seat(s) for s in range(seats))]
    states = {v: GAME.initial_state(game.opts, seats) for v in viewers}
    for _ in steps(20_000, "the game"):
        if game.over:
            break
        before = len(game.log)
        game.step()
        for event in game.log[before:]:
            for viewer in viewers:
                seen = event.redact(viewer)
                state, snapshot = states[viewer], copy.deepcopy(states[viewer])
                sent = wire(seen)
                states[viewer] = GAME.evolve(state, seen)
                assert state == snapshot
                assert wire(seen) == sent
                assert states[viewer] is not state


def test_a_spectator_fold_holds_no_card_at_all() -> None:
    for seed in range(30):
        game = RandomGame(2 + seed % 4, seed, options(rounds_to_win=1)).play()
        state = GAME.initial_state(game.opts, game.seats)
        for event in game.log:
            state = GAME.evolve(state, event.redact(SPECTATOR))
            cards = [*state.set_aside, *state.out, state.swap_taken]
            cards += [c for s in state.seats for c in s.owned]
            assert set(cards) <= {None}
            view = view_of(state, SPECTATOR)
            assert all(not s.hand and not s.act for s in view.seats)


def test_public_messages_carry_no_cards() -> None:
    # Only secrets may hold cards; the public part of every event has none.
    game = RandomGame(4, 5).play()
    card_messages = 0
    for event in game.log:
        fields = event.public.DESCRIPTOR.fields
        assert all(f.message_type is None for f in fields), type(event.public).__name__
        card_messages += len(event.secrets)
    assert card_messages > 0


def test_a_seat_sees_its_own_cards_in_its_view_and_nobody_elses() -> None:
    rng = random.Random(4)
    for seed in range(10):
        game = RandomGame(3, seed + rng.randrange(1000))
        for _ in range(15):
            game.step()
        for seat, fold in enumerate(game.folds):
            view = view_of(fold, Viewer.of_seat(seat))
            mine = view.seats[seat]
            assert len(mine.hand) == mine.hand_count and len(mine.act) == mine.act_count
