"""T-VARIANT (docs/rules/table.md): a game created with no options for a
seat count only a variant plays is created with that variant, recorded in
GameCreated; options given are kept as given, so the game's own rule still
refuses a seat count they do not allow."""

from __future__ import annotations

import pytest

from cardroom.client.errors import RuleBroken
from cardroom.domain import registry
from cardroom.domain.kernel import RuleViolation
from cardroom.smile_life.v1 import smile_life_pb2 as sl
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as sd
from cardroom.trust.audit import audit_record
from cardroom.v1 import table_pb2 as tpb
from tests.conftest import OPERATOR_TOKEN, Served

VARIANTS = [
    ("smiles-and-daggers", 2, sd.Options, "allow_two_players", "SD-12"),
    ("smile-life", 6, sl.Options, "allow_six_players", "DECISIONS 3.1"),
]


@pytest.mark.parametrize(("kind", "seats", "options_type", "flag", "rule"), VARIANTS)
async def test_a_seat_count_only_a_variant_plays_gets_the_variant(
    served: Served, kind: str, seats: int, options_type: type, flag: str, rule: str
) -> None:
    client = served.client
    game_id = await client.create_game(kind, seat_count=seats)
    created = tpb.GameCreated()
    assert (await client.audit(game_id, OPERATOR_TOKEN))[0].event.Unpack(created)
    options = options_type()
    assert created.options.Unpack(options)
    assert getattr(options, flag)
    # The game is the variant's, from its first event: seats fill, it starts.
    joined = [await client.join(game_id, f"P{seat}") for seat in range(seats)]
    assert await client.start(game_id, joined[0].token) > 1

    # Options given, even all default, are the creator's: the rule refuses.
    with pytest.raises(RuleBroken, match=rule):
        await client.create_game(kind, seat_count=seats, options=options_type())


def test_every_variant_a_game_declares_is_a_seat_count_it_refuses_without_it() -> None:
    """A variant is declared only where it is needed: without it the game
    refuses that seat count, with it the game plays it."""
    for kind in registry.games():
        game = registry.game(kind)
        for seats, variant in getattr(game, "seat_variants", {}).items():
            assert game.min_seats <= seats <= game.max_seats
            game.initial_state(variant, seats)
            with pytest.raises(RuleViolation):
                game.initial_state(game.options_type(), seats)


async def test_the_record_of_a_variant_game_audits(served: Served) -> None:
    client = served.client
    game_id = await client.create_game("smiles-and-daggers", seat_count=2)
    seats = [await client.join(game_id, f"P{seat}") for seat in range(2)]
    await client.start(game_id, seats[0].token)
    await client.resign(game_id, seats[0].token)  # the other seat wins
    assert audit_record(await client.export_record(game_id, OPERATOR_TOKEN)).ok


def test_cardroom_new_seats_the_fewest_players_a_game_plays_without_a_variant() -> None:
    from cardroom.cli.new import default_seats

    seats = {kind: default_seats(registry.game(kind)) for kind in registry.games()}
    assert seats == {
        "silver-dagger": 2,
        "smile-life": 2,
        "smiles-and-daggers": 3,  # 2 only with allow_two_players (SD-12)
        "smoke-and-mirrors": 2,
    }
