"""Every game's view names the seats it awaits (``View.awaiting``), and they
are exactly the seats with legal actions (the table's Resign aside; in any order), after
every command of random games, in every viewer's view: a frontend that
shows whose turn it is from the view never disagrees with the moves the
seats are offered (Smiles & Daggers' betting once emptied it)."""

from __future__ import annotations

import pytest

from cardroom.domain import registry
from cardroom.domain.kernel import SPECTATOR
from tests.contract.cases import KINDS, options_for, seat_counts
from tests.contract.play import Played


def test_every_games_view_names_the_seats_it_awaits() -> None:
    for kind, game in registry.games().items():
        seats = seat_counts(kind)[-1]
        state = game.initial_state(options_for(kind, seats, 0) or game.options_type(), seats)
        view = game.view(state, SPECTATOR)
        field = view.DESCRIPTOR.fields_by_name.get("awaiting")
        assert field is not None, f"{kind}: its View has no `awaiting`"
        assert field.type == field.TYPE_UINT32 and not field.has_presence, kind


def check_awaiting(played: Played) -> None:
    game, state = played.game, played.state
    movers = [s for s in range(played.seats) if game.legal_actions(state, s)]
    for viewer, fold in played.folds.items():
        shown = sorted(game.view(fold, viewer).awaiting)
        assert shown == movers, (
            f"{played.kind} after command {played.commands}: {viewer} is shown awaiting "
            f"{shown}, the seats with legal actions are {movers}"
        )


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [0])
def test_every_view_awaits_exactly_the_seats_with_legal_actions(kind: str, seed: int) -> None:
    for seats in seat_counts(kind):
        options = options_for(kind, seats, seed)
        if options is None:
            continue
        Played(kind, seats, seed, options).play(check_awaiting)
