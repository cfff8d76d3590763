"""Knowledge is tracked, not filtered: every hidden card travels as a secret
addressed to exactly the seats that know it, and nothing a viewer receives
depends on a card it has not seen. Twin games that differ only in two such
cards look identical to that viewer (events, views, legal actions,
refusals) until it sees one of them; and ``evolve`` never mutates its input.
"""

from __future__ import annotations

import copy
from typing import Any

from google.protobuf.message import Message
from hypothesis import HealthCheck, Phase, assume, event, given, settings
from hypothesis import strategies as st

from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb
from domain.kernel import AUDITOR, SPECTATOR, Event, Viewer
from domain.silver_dagger import GAME
from domain.silver_dagger.state import Spot, State, derive, put
from domain.silver_dagger.view import awaiting

from tests.silver_dagger.play import RandomGame, uniform, varied
from tests.silver_dagger.support import Table, event_key, forget, key, outcome, should_know, viewers

Path = tuple[Any, ...]
PROBES: list[Message] = [
    pb.DrawCard(),
    pb.DrawCard(private_deck=True),
    pb.TakeDiscard(),
    pb.CallVote(),
    pb.DiscardDrawn(),
    pb.UseAbility(),
    pb.Exchange(position=0),
    pb.StartMultipleExchange(),
    pb.SelectCard(position=1),
    pb.ConfirmExchange(),
    pb.GiveZombie(position=0),
    pb.SpyPeek(seat=1, position=0),
    pb.TurnDagger(),
    pb.ChooseVillage(seat=0),
    pb.ChooseCard(seat=1, position=0),
    pb.SwitchWith(position=0),
    pb.StopViewing(),
]


# ------------------------------------------------------------ secrets


def spot_by_slot(state: State) -> dict[int, Spot]:
    found = {s.slot: s for row in (*state.villages, *state.private) for s in row}
    found.update({s.slot: s for s in (*state.deck, *state.out)})
    if state.held is not None:
        found[state.held.slot] = state.held
    return found


def test_every_secret_goes_to_exactly_the_seats_that_know_its_card() -> None:
    """Each SlotCard names the card that really lies in its slot right after
    the event, and its audience is that card's knowers: nobody else, and
    nobody who knows it is left out (public cards travel in the open)."""
    for seed in range(40):
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


def hidden_paths(state: State, viewer: Viewer) -> list[tuple[Path, Spot]]:
    """Every card ``viewer`` does not know, by where it lies."""
    return [(path, spot) for path, spot in all_paths(state) if not should_know(viewer, spot)]


def all_paths(state: State) -> list[tuple[Path, Spot]]:
    found: list[tuple[Path, Spot]] = []
    for seat, row in enumerate(state.villages):
        found += [(("villages", seat, i), s) for i, s in enumerate(row)]
    for seat, row in enumerate(state.private):
        found += [(("private", seat, i), s) for i, s in enumerate(row)]
    found += [(("deck", i), s) for i, s in enumerate(state.deck)]
    found += [(("out", i), s) for i, s in enumerate(state.out)]
    if state.held is not None:
        found.append((("held",), state.held))
    return found


def with_card(state: State, path: Path, card: int) -> State:
    def changed(spot: Spot) -> Spot:
        return Spot(spot.slot, card, spot.up, spot.knowers, spot.public)

    if path[0] == "held":
        assert state.held is not None
        return derive(state, held=changed(state.held))
    if path[0] in ("villages", "private"):
        rows = getattr(state, path[0])
        row = rows[path[1]]
        return derive(
            state, **{path[0]: put(rows, path[1], put(row, path[2], changed(row[path[2]])))}
        )
    row = getattr(state, path[0])
    return derive(state, **{path[0]: put(row, path[1], changed(row[path[1]]))})


def twin(table: Table, first: tuple[Path, Spot], second: tuple[Path, Spot]) -> Table:
    """The same game with two cards trading places."""
    b = table.copy()
    assert first[1].card is not None and second[1].card is not None
    state = with_card(table.state, first[0], second[1].card)
    b.state = with_card(state, second[0], first[1].card)
    b.folds = {v: forget(b.state, v) for v in b.folds}
    return b


def differing(a: State, b: State) -> set[int]:
    """Slots whose card differs between the twins (or that only one has)."""
    here, there = spot_by_slot(a), spot_by_slot(b)
    return {
        slot
        for slot in here.keys() | there.keys()
        if slot not in here or slot not in there or here[slot].card != there[slot].card
    }


def shown(events: list[Event], viewer: Viewer) -> set[int]:
    """Slots whose card these events show ``viewer``: made public, or sent
    to it as a secret."""
    found: set[int] = set()
    for e in events:
        if "revealed_slots" in e.public.DESCRIPTOR.fields_by_name:
            found.update(e.public.revealed_slots)  # type: ignore[attr-defined]
        found.update(s.value.slot for s in e.redact(viewer).secrets)
    return found


def seen_by(viewer: Viewer, a: Table, b: Table, since: int, watched: set[int]) -> bool:
    """Whether ``viewer`` was shown, in either twin, a card that differs or
    did (say an Elusive Seer stopped at it in one twin and turned it face up,
    or an exchange was refused for it in one twin and made in the other)."""
    if a.state.discard != b.state.discard:
        return True
    if watched & (shown(a.log[since:], viewer) | shown(b.log[since:], viewer)):
        return True
    return any(
        spot.slot in watched and should_know(viewer, spot)
        for state in (a.state, b.state)
        for spot in spot_by_slot(state).values()
    )


def answers(table: Table, viewer: Viewer) -> list[Any]:
    """Whether each probe would be accepted, and every refusal word for word
    (an accepted command may show the viewer a card: that is its effect)."""
    if viewer.seat is None:
        return []
    return [outcome(table.state, viewer.seat, probe)[:3:2] for probe in PROBES]


def what_viewer_sees(table: Table, viewer: Viewer, since: int) -> dict[str, Any]:
    return {
        "events": [event_key(e.redact(viewer)) for e in table.log[since:]],
        "view": table.view(viewer).SerializeToString(deterministic=True),
        "legal": [key(a) for a in table.legal(viewer.seat)] if viewer.seat is not None else [],
        "answers": answers(table, viewer),
    }


@settings(
    phases=[Phase.generate],
    max_examples=1500,
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
    b = twin(a, first, second)
    since = len(a.log)
    watched = differing(a.state, b.state)
    assert what_viewer_sees(a, viewer, since) == what_viewer_sees(b, viewer, since)
    for step in range(30):
        if GAME.winners(a.state) is not None or GAME.chance_needed(a.state) is not None:
            break
        seat = data.draw(st.sampled_from(awaiting(a.state)), label="seat")
        assert seat in awaiting(b.state)
        legal_b = {key(c) for c in b.legal(seat)}
        both = [c for c in a.legal(seat) if key(c) in legal_b]
        if not both:
            event("a seat's choices parted the twins")
            break
        command = data.draw(st.sampled_from(both), label=f"step {step}")
        a.send(seat, command)
        b.send(seat, command)
        watched |= differing(a.state, b.state)
        if seen_by(viewer, a, b, since, watched):
            event("the viewer saw a card that differs")
            assert what_viewer_sees(a, viewer, since) != what_viewer_sees(b, viewer, since)
            return
        assert what_viewer_sees(a, viewer, since) == what_viewer_sees(b, viewer, since)
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
    for seed in range(10):
        table = RandomGame(70_000 + seed, 2 + seed % 3, varied, check=False).play().table
        states = {v: table.initial for v in [*viewers(table.seat_count), AUDITOR]}
        for e in table.log[:400]:
            public_before = key(e.public)
            for viewer, state in states.items():
                seen = e.redact(viewer)
                snapshot = copy.deepcopy(state)
                after = GAME.evolve(state, seen)
                assert state == snapshot and after is not state
                states[viewer] = after
            assert key(e.public) == public_before
