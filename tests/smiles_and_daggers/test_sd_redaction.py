"""Hidden information: a committed card (rank and orientation, SD-10) reaches
nobody but its owner before the reveal, and nothing a viewer receives
depends on it: twin games that differ only there look identical to every
other viewer. And ``evolve`` never mutates its input."""

from __future__ import annotations

import copy
from typing import Any

from google.protobuf.message import Message
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from cardroom.domain.kernel import AUDITOR, SPECTATOR, Actor, Viewer
from cardroom.domain.smiles_and_daggers import GAME
from cardroom.domain.smiles_and_daggers.cards import RANKS
from cardroom.domain.smiles_and_daggers.state import Phase
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb
from tests.bounded import steps

from .play import RandomGame
from .support import (
    DAGGER,
    SMILE,
    Table,
    command_universe,
    commit,
    event_key,
    key,
    outcome,
    viewers,
)


def challenges(table: Table) -> int:
    return len(table.events_of(pb.OpponentChallenged))


def play_until_a_challenge(seed: int, seat_count: int, earlier: int) -> Table | None:
    """A random game stopped right after its challenge number ``earlier``+1
    is issued (both cards still to come), or None if it ended first."""
    game = RandomGame(seed, seat_count)
    for _ in steps(5000, "the game"):
        if game.over:
            break
        game.step()
        if game.table.state.phase is Phase.COMMIT and challenges(game.table) > earlier:
            return game.table
    return None


def answers(table: Table, viewer: Viewer) -> list[Any]:
    """What ``viewer`` gets for every command it could send now: refusals
    verbatim, and for accepted commands the events as it would see them
    (only "ok" when they include the reveal, which is public anyway)."""
    if viewer.seat is None:
        return []
    result = []
    for command in command_universe(table.seat_count):
        answer = outcome(table.state, viewer.seat, command)
        if answer[0] == "ok":
            events = answer[1]
            if any(isinstance(e.public, pb.CardsRevealed) for e in events):
                answer = ("ok", "reveals")
            else:
                answer = ("ok", [event_key(e.redact(viewer)) for e in events])
        result.append(answer)
    return result


def what_viewer_sees(table: Table, viewer: Viewer) -> dict[str, Any]:
    return {
        "stream": [event_key(e.redact(viewer)) for e in table.log],
        "fold": table.folds[viewer],
        "view": table.view(viewer).SerializeToString(deterministic=True),
        "legal": [key(a) for a in table.legal(viewer.seat)] if viewer.seat is not None else [],
        "answers": answers(table, viewer),
    }


def reveals(table: Table, seat: int, command: Message) -> bool:
    events = GAME.decide(table.state, Actor.of_seat(seat), command)
    return any(isinstance(e.public, pb.CardsRevealed) for e in events)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    seat_count=st.integers(2, 6),
    earlier=st.integers(0, 8),
    data=st.data(),
)
def test_twins_differing_only_in_one_unrevealed_card_look_identical_to_everyone_else(
    seed: int, seat_count: int, earlier: int, data: st.DataObject
) -> None:
    table = play_until_a_challenge(seed, seat_count, earlier)
    assume(table is not None)
    assert table is not None
    challenge = table.state.challenge
    assert challenge is not None
    hidden = data.draw(st.sampled_from(challenge.seats), label="the seat whose card differs")
    other = challenge.seats[1 - challenge.seats.index(hidden)]
    hidden_first = data.draw(st.booleans(), label="it commits first")

    choices = table.legal(hidden)
    card_a = data.draw(st.sampled_from(choices), label="its card in twin A")
    card_b = data.draw(
        st.sampled_from([c for c in choices if key(c) != key(card_a)]), label="in twin B"
    )
    a, b = table, table.copy()
    start = len(a.log)
    others = [v for v in viewers(seat_count) if v.seat != hidden]

    def compare() -> None:
        event(f"compared with {len(a.log) - start} events after the challenge")
        assert [key(e.public) for e in a.log] == [key(e.public) for e in b.log]
        for viewer in others:
            assert what_viewer_sees(a, viewer) == what_viewer_sees(b, viewer), viewer
        # The owner does know the difference.
        assert a.folds[Viewer.of_seat(hidden)] != b.folds[Viewer.of_seat(hidden)]

    # The commands both twins receive, up to (not including) the reveal.
    if not hidden_first:
        move = data.draw(st.sampled_from(a.legal(other)), label="the other card")
        assert not reveals(a, other, move)  # one card down cannot reveal
        a.send(other, move)
        b.send(other, move)
    if reveals(a, hidden, card_a) or reveals(b, hidden, card_b):
        event("committed last with nobody to bet: revealed at once")
        return
    a.send(hidden, card_a)
    b.send(hidden, card_b)
    compare()
    for _ in steps(5000, "the twin games"):
        awaiting = [s for s in range(seat_count) if a.legal(s)]
        assert awaiting == [s for s in range(seat_count) if b.legal(s)]
        [seat] = awaiting
        move = data.draw(st.sampled_from(a.legal(seat)), label=f"seat {seat} acts")
        if reveals(a, seat, move):
            assert reveals(b, seat, move)
            return
        a.send(seat, move)
        b.send(seat, move)
        compare()


class TestCommitmentsStaySecret:
    def test_every_commitment_looks_the_same_to_everyone_but_its_owner(self) -> None:
        # Seat 1 commits each of its six possible cards in turn; seat 0 has
        # already committed, seats 2 and 3 are to bet.
        base = Table(4)
        base.send(0, pb.ChallengeOpponent(target=1))
        base.send(0, commit(RANKS[0], SMILE))
        seen: dict[Viewer, set[Any]] = {v: set() for v in viewers(4)}
        publics = set()
        for rank in RANKS:
            for orientation in (SMILE, DAGGER):
                twin = base.copy()
                events = twin.send(1, commit(rank, orientation))
                publics.add(tuple(key(e.public) for e in events))
                for viewer in seen:
                    seen[viewer].add(
                        (
                            tuple(event_key(e.redact(viewer)) for e in events),
                            twin.view(viewer).SerializeToString(deterministic=True),
                        )
                    )
        assert len(publics) == 1
        for viewer, distinct in seen.items():
            assert len(distinct) == (6 if viewer.seat == 1 else 1), viewer

    def test_in_random_games_a_commitment_reaches_only_its_owner_until_the_reveal(self) -> None:
        for seed in range(150):
            game = RandomGame(50_000 + seed)
            table = game.table
            for _ in steps(5000, "the game"):
                if game.over:
                    break
                start = len(table.log)
                game.step()
                for e in table.log[start:]:
                    for secret in e.secrets:
                        assert isinstance(secret.value, pb.CommittedCard)
                        assert isinstance(e.public, pb.CardCommitted)
                        assert secret.audience == frozenset({e.public.seat})
                        assert secret.value.seat == e.public.seat
                    if isinstance(e.public, pb.CardCommitted):
                        # The public part says who, and nothing else.
                        assert e.public == pb.CardCommitted(seat=e.public.seat)
                        assert len(e.secrets) == 1
                        for viewer in viewers(table.seat_count):
                            if viewer.seat != e.public.seat:
                                assert e.redact(viewer).secrets == ()
                self.check_views(table)

    @staticmethod
    def check_views(table: Table) -> None:
        challenge = table.state.challenge
        if challenge is None or challenge.revealed:
            return
        for viewer in viewers(table.seat_count):
            view = table.view(viewer)
            for commitment in (view.challenge.current, view.challenge.opponent):
                if viewer.seat != commitment.seat:
                    assert commitment.rank == pb.RANK_UNSPECIFIED
                    assert commitment.orientation == pb.ORIENTATION_UNSPECIFIED
            for seat in view.seats:
                assert seat.hand_visible == (seat.seat == viewer.seat)
            fold = table.folds[viewer]
            for role, seat in enumerate(challenge.seats):
                if viewer.seat != seat:
                    assert fold.challenge is not None and fold.challenge.cards[role] is None
                    assert fold.hand(seat) is None or not fold.challenge.committed[role]

    def test_the_view_guards_unrevealed_cards_even_when_given_the_full_state(self) -> None:
        table = Table(3)
        table.send(0, pb.ChallengeOpponent(target=1))
        table.send(0, commit(RANKS[1], DAGGER))
        for viewer in (SPECTATOR, Viewer.of_seat(1), Viewer.of_seat(2)):
            view = GAME.view(table.state, viewer)
            assert isinstance(view, pb.View)
            assert view.challenge.current.rank == pb.RANK_UNSPECIFIED
            assert view.challenge.current.orientation == pb.ORIENTATION_UNSPECIFIED
            assert view.challenge.current.committed
            assert sum(s.hand_visible for s in view.seats) == (viewer.seat is not None)
        audited = GAME.view(table.state, AUDITOR)
        assert isinstance(audited, pb.View)
        assert audited.challenge.current.orientation == DAGGER


def test_evolve_never_mutates_its_input() -> None:
    for seed in range(40):
        table = RandomGame(70_000 + seed).play().table
        states = {v: table.initial for v in [*viewers(table.seat_count), AUDITOR]}
        for e in table.log:
            public_before = key(e.public)
            for viewer, state in states.items():
                seen = e.redact(viewer)
                snapshot = copy.deepcopy(state)
                after = GAME.evolve(state, seen)
                assert state == snapshot
                assert after is not state
                states[viewer] = after
            assert key(e.public) == public_before
        assert states[AUDITOR] == table.state
