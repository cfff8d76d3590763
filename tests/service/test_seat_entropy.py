"""Seat entropy through the service (T-ENTROPY), on an injected clock: the
table awaits the seats that committed to their own entropy under the turn
clock; a seat that never reveals is timed out of the game by the table's
rules, never given entropy by the server; the game then deals without it and
audits."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cardroom.domain import table as tables
from cardroom.server.games.application import Games
from cardroom.trust.audit import audit_record
from cardroom.trust.entropy import chance_key
from cardroom.v1 import table_pb2 as tpb
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN
from tests.service.test_clocks import SECONDS, Now, new_games, packed

MINE, THEIRS = bytes([1]) * 32, bytes([2]) * 32


@pytest.fixture
def now() -> Now:
    return Now()


@pytest.fixture
def games(tmp_path: Path, now: Now) -> Iterator[Games]:
    games = new_games(str(tmp_path / "cardroom.sqlite3"), now)
    yield games
    games.close()
    games.log.close()


def committed_game(games: Games) -> tuple[str, list[str]]:
    """Three seats: 0 and 1 commit to their own entropy, 2 lets the server draw."""
    game_id = games.create_game(
        "smoke-and-mirrors", None, 3, table_options=tpb.TableOptions(seconds_per_decision=SECONDS)
    )
    tokens = [
        games.join_with_entropy(game_id, 0, "Ada", tables.entropy_commitment(MINE))[1],
        games.join_with_entropy(game_id, 1, "Bo", tables.entropy_commitment(THEIRS))[1],
        games.join_with_entropy(game_id, 2, "Cy", b"")[1],
    ]
    games.start(game_id, tokens[2])
    return game_id, tokens


def test_the_clock_awaits_the_reveals_and_times_out_a_seat_that_never_reveals(
    games: Games, now: Now
) -> None:
    game_id, tokens = committed_game(games)
    table = games.load(game_id).table
    assert tables.awaited(table) == [0, 1] and games.load(game_id).indexes.dealt == 0
    assert [c.seat for c in games.view(game_id, None, None).table.clocks] == [0, 1]
    games.submit(game_id, tokens[0], packed(tpb.RevealEntropy(entropy=MINE)), "e0", None)
    assert tables.awaited(games.load(game_id).table) == [1]
    for _ in steps(10, "seat 1's clock"):
        if games.load(game_id).indexes.dealt:
            break
        now.advance(SECONDS)
        games.clocks.fire_due()
    loaded = games.load(game_id)
    assert loaded.table.resigned == {1}  # left the game: nobody chose its entropy
    assert loaded.table.revealed_entropies()[0] == (0, MINE)
    assert [seat for seat, _ in loaded.table.revealed_entropies()] == [0, 2]
    seed, _ = loaded.chance()
    assert chance_key(seed, game_id, loaded.table.revealed_entropies()) != seed
    games.submit(game_id, tokens[0], packed(tpb.Resign()), "r0", None)  # ends it
    report = audit_record(games.export_record(game_id, OPERATOR_TOKEN))
    assert report.ok, report.render()
    assert "3 seat commitment(s), 1 drawn by the server" in report.summaries["entropy"]
