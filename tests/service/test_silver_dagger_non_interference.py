"""Nothing hidden leaks through the service in Silver Dagger: two games whose
deals trade two cards a viewer has not seen look identical to that viewer
through the service's own read paths (its redacted events, views, legal
actions, refusals) for as long as it does not see either card; and a card
it has seen does change what it gets.

The twins come from the pure harness (tests/silver_dagger/twins.py: the
same commands in both games, stopping before the viewer is shown a card
that differs). Here both games are replayed through ``cardroom.server.games.application.Games``
on real SQLite stores with the deals as set deals, so the service's sealing,
redaction and folding are what is tested. Salts, digests and hashes differ
between any two games by design and are compared only in shape
(``comparable``, as for the other games).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.domain.kernel import SPECTATOR, Viewer
from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb
from tests.service.test_non_interference import ServedGame
from tests.silver_dagger.twins import PROBES, dealt_twins

KIND = "silver-dagger"


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 4), seed=st.integers(0, 2**32 - 1), who=st.integers(0, 4))
def test_no_viewer_can_tell_the_twins_apart_through_the_service(
    tmp_path_factory, seats: int, seed: int, who: int
) -> None:
    viewer = Viewer.of_seat(who) if who < seats else SPECTATOR
    deals_a, deals_b, sent = dealt_twins(seed, seats, viewer, commands=25)
    a = ServedGame(tmp_path_factory.mktemp("a"), seats, pb.Options(), deals_a, KIND)
    b = ServedGame(tmp_path_factory.mktemp("b"), seats, pb.Options(), deals_b, KIND)
    assert deals_a[0] != deals_b[0] and deals_a[1:] == deals_b[1:]
    for seat, command in [(None, None), *sent]:
        if seat is not None:
            a.play(seat, command)
            b.play(seat, command)
        assert a.seen(viewer) == b.seen(viewer)
        assert a.view(viewer) == b.view(viewer)
        assert a.legal(viewer) == b.legal(viewer)
        if viewer.seat is not None:
            for probe in PROBES:
                assert a.refusal(viewer.seat, probe) == b.refusal(viewer.seat, probe)


def test_a_card_the_viewer_looked_at_changes_what_it_gets(tmp_path_factory) -> None:
    """Seat 0 looks at its first two cards; the twins trade its first card
    with a card of seat 1's village: seat 0's own copy differs at once, seat
    1's (which looked at other cards) does not."""
    [deal], _, _ = dealt_twins(1, 2, SPECTATOR, commands=0)
    order = list(deal.order)
    first_of_seat_1 = 5 + next(k for k in range(2, 5) if order[5 + k] != order[0])
    other = list(order)
    other[0], other[first_of_seat_1] = other[first_of_seat_1], other[0]
    games = []
    for cards, folder in ((order, "x"), (other, "y")):
        dealt = pb.DealRound(order=cards, start_seat=0)
        game = ServedGame(tmp_path_factory.mktemp(folder), 2, pb.Options(), [dealt], KIND)
        game.play(0, pb.LookAtCards(first=0, second=1))
        game.play(1, pb.LookAtCards(first=0, second=1))
        games.append(game)
    x, y = games
    assert x.view(Viewer.of_seat(0)) != y.view(Viewer.of_seat(0))
    assert x.seen(Viewer.of_seat(0)) != y.seen(Viewer.of_seat(0))
    assert x.view(Viewer.of_seat(1)) == y.view(Viewer.of_seat(1))
    assert x.view(SPECTATOR) == y.view(SPECTATOR)
