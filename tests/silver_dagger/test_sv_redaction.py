"""Knowledge is tracked, not filtered: every hidden card travels as a secret
addressed to exactly the seats that know it, and nothing a viewer receives
depends on a card it has not seen. Twin games that differ only in two such
cards look identical to that viewer (events, views, legal actions,
refusals) until it sees one of them; and ``evolve`` never mutates its input.
"""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from cardroom.domain.kernel import AUDITOR, SPECTATOR, Viewer
from cardroom.domain.silver_dagger import GAME
from cardroom.domain.silver_dagger.view import awaiting
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

from .play import RandomGame, uniform, varied
from .support import key, should_know, viewers
from .twins import Twins, all_paths, hidden_paths, spot_by_slot, twin

# ------------------------------------------------------------ secrets


def test_every_secret_goes_to_exactly_the_seats_that_know_its_card() -> None:
    """Each SlotCard names the card that really lies in its slot right after
    the event, and its audience is that card's knowers: nobody else, and
    nobody who knows it is left out (public cards travel in the open)."""
    for seed in range(10):
        policy = uniform if seed % 4 == 0 else varied
        table = RandomGame(20_000 + seed, 2 + seed % 3, policy, check=False).play().table
        state = table.initial
        for e in table.log:
            state = GAME.evolve(state, e)
            spots = spot_by_slot(state)
            for secret in e.secrets:
                assert isinstance(secret.value, pb.SlotCard), "only cards are secret"
                spot = spots[secret.value.slot]
                assert not spot.public and spot.card == secret.value.card
                assert secret.audience == spot.knowers


def test_a_spectator_receives_no_secret_and_only_public_cards() -> None:
    game = RandomGame(7, 4, uniform).play()  # Table checks every fold after every event
    for e in game.table.log:
        assert e.redact(SPECTATOR).secrets == ()


# ------------------------------------------------------------ twins


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    seat_count=st.integers(2, 4),
    prefix=st.integers(0, 120),
    data=st.data(),
)
def test_twins_differing_in_two_unseen_cards_look_the_same_until_one_is_seen(
    seed: int, seat_count: int, prefix: int, data: st.DataObject
) -> None:
    game = RandomGame(seed, seat_count, varied, check=False)
    while not game.over and game.commands < prefix:
        game.step()
    assume(not game.over and GAME.chance_needed(game.table.state) is None)
    a = game.table
    viewer = data.draw(st.sampled_from(viewers(seat_count)), label="viewer")
    hidden = hidden_paths(a.state, viewer)
    pairs = [(x, y) for x in hidden for y in hidden if x[0] < y[0] and x[1].card != y[1].card]
    assume(pairs)
    first, second = data.draw(st.sampled_from(pairs), label="the two cards")
    twins = Twins(a, twin(a, first, second), viewer)
    seen, other = twins.sees()
    assert seen == other
    for step in range(30):
        if not twins.running():
            break
        seat = data.draw(st.sampled_from(awaiting(a.state)), label="seat")
        assert seat in awaiting(twins.b.state)
        choices = twins.choices(seat)
        if not choices:
            event("a seat's choices parted the twins")
            break
        command = data.draw(st.sampled_from(choices), label=f"step {step}")
        alike = twins.send(seat, command)
        seen, other = twins.sees()
        if not alike:
            event("the viewer saw a card that differs")
            assert seen != other
            return
        assert seen == other
    event("the twins stayed alike to the viewer")


def test_changing_a_card_the_viewer_has_seen_changes_its_view() -> None:
    game = RandomGame(11, 3, varied, check=False)
    while game.commands < 30:
        game.step()
    table = game.table
    for viewer in (Viewer.of_seat(0), Viewer.of_seat(1)):
        known = [
            (p, s) for p, s in all_paths(table.state) if should_know(viewer, s) and not s.public
        ]
        unknown = hidden_paths(table.state, viewer)
        first = known[0]
        second = next(u for u in unknown if u[1].card != first[1].card)
        b = twin(table, first, second)
        assert table.view(viewer) != b.view(viewer)


def test_evolve_never_mutates_its_input() -> None:
    for seed in range(2):
        table = RandomGame(70_000 + seed, 2 + seed % 3, varied, check=False).play().table
        states = {v: table.initial for v in [*viewers(table.seat_count), AUDITOR]}
        for e in table.log[:150]:
            public_before = key(e.public)
            for viewer, state in states.items():
                seen = e.redact(viewer)
                snapshot = copy.deepcopy(state)
                after = GAME.evolve(state, seen)
                assert state == snapshot and after is not state
                states[viewer] = after
            assert key(e.public) == public_before
