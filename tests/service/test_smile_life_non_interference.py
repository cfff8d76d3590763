"""Nothing hidden in Smile Life leaks through the service: two games that
differ only in one card a viewer never sees (tests/smile_life/twins.py:
a card another seat holds and never lets go of, swapped for a set-aside
card) look identical to that viewer through the service's own read paths:
its redacted events, views, legal actions and refusals.

Both games are replayed through ``cardroom.server.games.application.Games`` on real SQLite
stores, with every dealer outcome as the set deal, so the service's sealing,
redaction and folding are what is tested (salts and digests are compared in
shape only, see ``comparable``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardroom.domain.kernel import SPECTATOR, Viewer
from cardroom.smile_life.v1 import smile_life_pb2 as pb
from tests.conftest import OPERATOR_TOKEN
from tests.service.test_non_interference import ServedGame, comparable
from tests.smile_life.twins import PROBES, Played, play_random, twin_shuffles


def served(folder: Path, played: Played, shuffle: pb.ShuffleDeck) -> ServedGame:
    deals = [shuffle, *(c for seat, c in played.steps[1:] if seat is None)]
    return ServedGame(folder, played.seat_count, played.options, deals, kind="smile-life")


@pytest.mark.parametrize("seed", range(10))
def test_no_viewer_can_tell_the_twins_apart_through_the_service(
    tmp_path_factory: pytest.TempPathFactory, seed: int
) -> None:
    rng = random.Random(seed)
    seats = 2 + seed % 3
    options = pb.Options(draw_pile_size=rng.randint(8, 24), river_variant=seed == 4)
    played = play_random(100 + seed, seats, options)
    who = seed % (seats + 1)
    viewer = SPECTATOR if who == seats else Viewer.of_seat(who)
    twin = next(twin_shuffles(played, viewer, rng))
    first = played.steps[0][1]
    assert isinstance(first, pb.ShuffleDeck) and twin != first
    a = served(tmp_path_factory.mktemp("a"), played, first)
    b = served(tmp_path_factory.mktemp("b"), played, twin)
    for seat, command in played.steps[1:]:
        if seat is None:
            continue  # the dealer's outcomes come from the set deals
        a.play(seat, command)
        b.play(seat, command)
        assert a.seen(viewer) == b.seen(viewer)
        assert a.view(viewer) == b.view(viewer)
        assert a.legal(viewer) == b.legal(viewer)
        if viewer.seat is not None:
            for probe in PROBES:
                assert a.refusal(viewer.seat, probe) == b.refusal(viewer.seat, probe)
    assert everything(a) != everything(b)  # the twins really differed, for auditors


def everything(game: ServedGame) -> list[bytes]:
    events, _ = game.games.events_for(game.game_id, OPERATOR_TOKEN, 0)
    return [comparable(e) for e in events]
