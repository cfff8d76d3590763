"""The game list a lobby reads: pages, filters, newest first, each game as
its spectators may see it now; and the game kinds with their message types."""

from __future__ import annotations

import pytest
from google.protobuf import descriptor_pool

from cardroom.client import InvalidArgument
from cardroom.domain import registry
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from tests.conftest import Served
from tests.service.helpers import SM, seated_game


async def test_games_come_a_page_at_a_time_newest_first_without_gaps(served: Served) -> None:
    c = served.client
    created = [await c.create_game(SM, seat_count=2) for _ in range(7)]
    pages, token = [], ""
    for _ in range(10):
        response = await c._call("ListGames", gpb.ListGamesRequest(page_size=3, page_token=token))
        pages.append([g.game_id for g in response.games])
        token = response.next_page_token
        if not token:
            break
    assert [len(p) for p in pages] == [3, 3, 1]
    assert [g for page in pages for g in page] == created[::-1]
    assert [g.game_id for g in await c.list_games(page_size=2)] == created[::-1]


async def test_games_are_filtered_by_kind_status_and_open_seats(served: Served) -> None:
    c = served.client
    open_game = await c.create_game(SM, seat_count=2)
    full = await seated_game(c, players=2, start=False)
    running = await seated_game(c, players=2)
    other = await c.create_game("smiles-and-daggers", seat_count=3)

    async def ids(**filters: object) -> set[str]:
        return {g.game_id for g in await c.list_games(**filters)}  # type: ignore[arg-type]

    assert await ids(kind=SM) == {open_game, full.game_id, running.game_id}
    assert await ids(kind="smiles-and-daggers") == {other}
    assert await ids(status=gpb.GAME_STATUS_OPEN) == {open_game, full.game_id, other}
    assert await ids(status=gpb.GAME_STATUS_RUNNING) == {running.game_id}
    assert await ids(status=gpb.GAME_STATUS_FINISHED) == set()
    assert await ids(open_seats_only=True) == {open_game, other}
    assert await ids(kind=SM, open_seats_only=True) == {open_game}


async def test_a_page_token_or_size_the_server_never_gave_is_an_invalid_argument(
    served: Served,
) -> None:
    c = served.client
    with pytest.raises(InvalidArgument, match="page_token"):
        await c._call("ListGames", gpb.ListGamesRequest(page_token="not-a-token"))
    with pytest.raises(InvalidArgument, match="page_size"):
        await c._call("ListGames", gpb.ListGamesRequest(page_size=5000))


async def test_a_delayed_game_is_listed_as_its_spectators_see_it(served: Served) -> None:
    """Seats taken and the start show only once spectators may see them."""
    c = served.client
    delayed = tpb.SpectatorPolicy(kind=tpb.SpectatorPolicy.KIND_DELAYED, delay_events=3)
    game_id = await c.create_game(SM, seat_count=2, spectator_policy=delayed)

    async def summary() -> gpb.GameSummary:
        [found] = await c.list_games()
        return found

    first = await c.join(game_id, "Ada")
    second = await c.join(game_id, "Bo")
    listed = await summary()
    assert (listed.version, listed.seats_taken, listed.started) == (0, 0, False)
    await c.start(game_id, first.token)  # version 4 (+ the deal)
    view = await c.view(game_id)  # what spectators see now
    listed = await summary()
    assert listed.version == view.version
    assert listed.seats_taken == sum(1 for n in view.table.player_names if n)
    assert listed.started == view.table.started
    assert listed.seats_taken < 2 or not listed.started  # not everything yet
    del second


async def test_the_game_kinds_name_every_game_and_its_message_types(served: Served) -> None:
    kinds = await served.client.game_kinds()
    assert [k.kind for k in kinds] == sorted(registry.games())
    pool = descriptor_pool.Default()
    for kind in kinds:
        game = registry.game(kind.kind)
        assert kind.title == game.title and kind.rules_version == game.rules_version
        assert (kind.min_seats, kind.max_seats) == (game.min_seats, game.max_seats)
        for name in [kind.options_type, kind.view_type, *kind.command_types, *kind.chance_types]:
            assert pool.FindMessageTypeByName(name).full_name == name
        assert len(kind.command_types) == len(game.command_types)
