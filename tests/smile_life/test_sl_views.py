"""Every version of every view accounts for all 200 cards: a client that
renders a view at any version (GetView at a version, ReplayViews) finds
each card somewhere, counted where it may not see it. The casino's second
bet, between the CasinoBetPlaced that places it and the CasinoResolved that
settles it in the same batch, was the one place a card went missing."""

from __future__ import annotations

import pytest

from cardroom.domain.kernel import AUDITOR, SPECTATOR, Viewer
from cardroom.domain.smile_life import GAME
from cardroom.domain.smile_life.narrate import NARRATOR
from cardroom.smile_life.v1 import smile_life_pb2 as pb

from .play import RandomGame, cards_in_view
from .scenarios import CASINO
from .support import Table, viewers

GAMES = 80


def views_after_every_event(table: Table, opts: pb.Options, viewer: Viewer) -> list[pb.View]:
    """``viewer``'s view at every version, folded from its redacted stream."""
    state = GAME.initial_state(opts, table.seat_count)
    found = []
    for e in table.log:
        state = GAME.evolve(state, e.redact(viewer))
        view = GAME.view(state, viewer)
        assert isinstance(view, pb.View)
        found.append(view)
    return found


def test_every_version_of_every_view_accounts_for_all_200_cards() -> None:
    second_bets = 0
    for seed in range(GAMES):
        game = RandomGame(70_000 + seed, folds=False).play()
        for viewer in [*viewers(game.table.seat_count), AUDITOR]:
            for view in views_after_every_event(game.table, game.options, viewer):
                assert cards_in_view(view) == 200, (seed, viewer, view)
                second_bets += view.casino.has_second_bet
    assert second_bets > 0, "no game reached a casino's second bet"


def casino_table() -> Table:
    table = Table(CASINO.seat_count, CASINO.options, deal=CASINO.chance)
    for stage in CASINO.stages[:1]:
        table.play(*stage.steps)
    return table


@pytest.mark.parametrize("viewer", [*viewers(3), AUDITOR], ids=str)
def test_the_second_bet_is_in_the_view_until_the_casino_is_settled(viewer: Viewer) -> None:
    # Given P0 has bet a salary 2 on its casino
    table = casino_table()
    before = len(table.log)
    # When P1 bets its salary 2 (the same level: P1 takes both)
    table.play(
        (1, pb.DrawCard()), (1, pb.PlayCard(card="salary_2", destination=pb.DESTINATION_CASINO))
    )
    # Then at the version of P1's CasinoBetPlaced, before the CasinoResolved
    events = [type(e.public) for e in table.log[before:]]
    placed = before + events.index(pb.CasinoBetPlaced)
    assert type(table.log[placed + 1].public) is pb.CasinoResolved
    view = views_after_every_event(table, CASINO.options, viewer)[placed]
    casino = view.casino
    assert (casino.has_bet, casino.bettor, casino.has_second_bet, casino.second_bettor) == (
        True,
        0,
        True,
        1,
    )
    # each bet is shown to its bettor only (and the auditor)
    assert casino.bet_card == ("salary_2" if viewer in (Viewer.of_seat(0), AUDITOR) else "")
    assert casino.second_bet_card == ("salary_2" if viewer in (Viewer.of_seat(1), AUDITOR) else "")
    assert cards_in_view(view) == 200
    # and the table line tells both bets
    scene = NARRATOR.scene(view, ["Ada", "Bo", "Cy"], viewer.seat)
    [line] = [line for line in scene.table if line.startswith("Casino")]
    assert "Ada bet" in line and "Bo bet" in line
    assert ("[??]" in line) == (viewer not in (AUDITOR,))
    # and once settled, no bet is left on the table
    settled = views_after_every_event(table, CASINO.options, viewer)[placed + 1]
    assert not settled.casino.has_bet and not settled.casino.has_second_bet
    assert cards_in_view(settled) == 200


def test_a_spectator_never_sees_a_bet() -> None:
    table = casino_table()
    table.play(
        (1, pb.DrawCard()), (1, pb.PlayCard(card="salary_2", destination=pb.DESTINATION_CASINO))
    )
    for view in views_after_every_event(table, CASINO.options, SPECTATOR):
        assert not view.casino.bet_card and not view.casino.second_bet_card
