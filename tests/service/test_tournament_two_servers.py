"""Two servers on one PostgreSQL store pair a tournament's round at once
(issue 32): both create and hold the same games, one RoundPaired is
stored, and no game is left behind with seats nobody will take.

The race is made, not hoped for: each server's append of RoundPaired waits
at a barrier until the other has drawn the round, created its games and
held their seats too, so both reach the append before either is stored."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from cardroom.server.games.application import Games
from cardroom.server.games.tournaments import table_game_id
from cardroom.server.storage.log import GameLog
from cardroom.trust import players, signing
from cardroom.trust import tournament_record as records
from cardroom.trust.tournament_audit import audit_tournament
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import tournament_pb2 as tnpb
from tests.conftest import OPERATOR_TOKEN

KIND = "smoke-and-mirrors"
TABLE = 3
PLAYERS = 6
CREATED = tpb.GameCreated.DESCRIPTOR.full_name
ISSUED = tpb.InvitationIssued.DESCRIPTOR.full_name
# Only if a server never reaches the pairing: the test then fails instead of hanging.
BARRIER_SECONDS = 120


def keys() -> list[Ed25519PrivateKey]:
    return [
        Ed25519PrivateKey.from_private_bytes(hashlib.sha256(f"pair race {i}".encode()).digest())
        for i in range(PLAYERS)
    ]


class Race:
    """Holds each server's append of RoundPaired until both have one to
    append; tells when a server has closed registration."""

    def __init__(self) -> None:
        self.barrier = threading.Barrier(2, timeout=BARRIER_SECONDS)
        self.closed = threading.Event()
        self.pairings: list[str] = []  # the servers that reached the append

    def hook(self, games: Games, name: str) -> None:
        append = games.log.append

        def appending(envelopes: Sequence[epb.EventEnvelope], stored: Sequence[bytes]) -> int:
            names = {e.event.TypeName() for e in envelopes}
            if tnpb.RoundPaired.DESCRIPTOR.full_name in names:
                self.barrier.wait()
                self.pairings.append(name)
            written = append(envelopes, stored)
            if tnpb.RegistrationClosed.DESCRIPTOR.full_name in names:
                self.closed.set()
            return written

        games.log.append = appending  # type: ignore[method-assign]


def at_once(*calls: Callable[[], Any]) -> None:
    with ThreadPoolExecutor(len(calls)) as pool:
        for future in [pool.submit(call) for call in calls]:
            future.result()


@pytest.fixture
def servers(postgres_database: str) -> Iterator[tuple[Games, Games]]:
    """Two servers sharing the store and, as docs/trust.md asks of them, one
    signing key; caches that may be behind, as such servers have. Their
    tournaments advance only when the test says (no follower thread)."""
    key = Ed25519PrivateKey.generate()
    both = tuple(
        Games(
            GameLog(postgres_database),
            operator_token=OPERATOR_TOKEN,
            signing_key=key,
            refresh="notified",
        )
        for _ in range(2)
    )
    for games in both:
        games.tournaments.stop()
    try:
        yield both[0], both[1]
    finally:
        for games in both:
            games.close()
            games.log.close()


def created_games(games: Games) -> set[str]:
    found = games.log.recorder.select_notifications(start=0, limit=1000, topics=(CREATED,))
    return {str(n.originator_id) for n in found}


def open_games(games: Games) -> set[str]:
    """The games the lobby lists as not finished."""
    games.game_list.catch_up()
    return {g.game_id for g in games.game_list.summaries() if not g.finished}


def holds(games: Games, game_id: str) -> list[int]:
    issued = [epb.EventEnvelope.FromString(raw) for raw in games.log.read_raw(game_id)]
    return [e.sequence for e in issued if e.event.TypeName() == ISSUED]


def check_round(
    games: Games, tournament_id: str, number: int, earlier: set[str]
) -> tnpb.RoundPaired:
    view, _ = games.tournaments.view(tournament_id)
    assert len(view.rounds) == number
    paired = view.rounds[number - 1]
    tables = [t.game_id for t in paired.tables]
    assert tables == [table_game_id(tournament_id, number, t.table) for t in paired.tables]
    # The round's games are the only ones the store gained, and the lobby's only open ones.
    assert created_games(games) == earlier | set(tables)
    assert open_games(games) == set(tables)
    for game_id in tables:
        assert games.load(game_id).table.held == frozenset(range(TABLE))
        assert len(holds(games, game_id)) == TABLE  # each seat held once, not once per server
    return paired


def play(games: Games, paired: tnpb.RoundPaired, by_key: dict[bytes, Ed25519PrivateKey]) -> None:
    """Each player takes their seat with their key (the game starts), then
    the operator removes all but one seat (T-REMOVE): the game is over."""
    for table in paired.tables:
        for seat, public in enumerate(table.seats):
            proof = players.sign_seat(by_key[public], table.game_id, seat, b"", f"P{seat}")
            games.join_with_entropy(table.game_id, seat, f"P{seat}", b"", proof)
        for seat in range(1, TABLE):
            games.remove_seat(table.game_id, OPERATOR_TOKEN, seat, f"remove {seat}")
        assert games.load(table.game_id).table.finished


@pytest.mark.postgres
def test_two_servers_pairing_a_round_at_once_leave_no_game_behind(
    servers: tuple[Games, Games],
) -> None:
    first, second = servers
    race = Race()
    race.hook(first, "first")
    race.hook(second, "second")
    entrants = keys()
    by_key = {signing.public_key_bytes(k): k for k in entrants}
    tournament_id, organizer = first.tournaments.create(
        tnpb.CreateTournament(
            kind=KIND,
            table_size=TABLE,
            rounds=2,
            format=tnpb.TournamentFormat.KIND_SWISS,
            name="race",
        )
    )
    for i, key in enumerate(entrants):
        entry = records.sign_entry(key, tournament_id, f"P{i}")
        first.tournaments.register(tournament_id, entry.player)

    def second_follows_the_start() -> None:
        assert race.closed.wait(BARRIER_SECONDS)
        second.tournaments.catch_up()  # its first follow: every open tournament

    # Round 1: the organizer starts it on the first server while the second follows.
    at_once(lambda: first.tournaments.start(tournament_id, organizer), second_follows_the_start)
    # Both servers drew the round, created and held its games, and reached the append.
    assert sorted(race.pairings) == ["first", "second"]
    round_1 = check_round(second, tournament_id, 1, set())
    # The second server seats the players in games the first may have created:
    # the codes holding them are derived from the key both share.
    play(second, round_1, by_key)
    # Round 2: both servers follow the games' finish and pair it.
    at_once(first.tournaments.catch_up, second.tournaments.catch_up)
    assert sorted(race.pairings) == ["first", "first", "second", "second"]
    round_2 = check_round(first, tournament_id, 2, {t.game_id for t in round_1.tables})
    play(first, round_2, by_key)
    first.tournaments.catch_up()
    view, _ = second.tournaments.view(tournament_id)
    assert view.finished and len(view.results) == 4
    record, game_ids = second.tournaments.export(tournament_id)
    assert created_games(first) == set(game_ids)
    # Each game's record from the server that played it (the other's cache
    # is told of nothing here: no notifications between bare facades).
    played = {t.game_id: second for t in round_1.tables}
    played |= {t.game_id: first for t in round_2.tables}
    exported = [played[game_id].export_record(game_id, OPERATOR_TOKEN) for game_id in game_ids]
    server_key = signing.public_key_bytes(first.key_ring.current)
    report = audit_tournament(record, exported, public_key=server_key)
    assert report.ok, report.render()
    assert report.games == 4


@pytest.mark.postgres
def test_a_fixed_game_id_taken_by_another_table_is_refused(
    servers: tuple[Games, Games],
) -> None:
    """The fixed id is the server's own: a game already under it that is not
    the table asked for (another seat count here) is never taken for it."""
    from cardroom.server.games.commands import GameIdTaken

    first, second = servers
    game_id = table_game_id("00000000-0000-4000-8000-000000000000", 1, 1)
    assert first.commands.create_game(KIND, None, 3, game_id=game_id) == game_id
    assert second.commands.create_game(KIND, None, 3, game_id=game_id) == game_id
    with pytest.raises(GameIdTaken, match="seat_count"):
        second.commands.create_game(KIND, None, 4, game_id=game_id)
    assert created_games(first) == {game_id}
    assert len(first.log.read_raw(game_id)) == 1


def test_a_request_never_names_the_game_id() -> None:
    """CreateGame mints version 4 ids; a table's is version 5, so no client's
    game can squat it."""
    import uuid

    table = uuid.UUID(table_game_id("00000000-0000-4000-8000-000000000000", 1, 1))
    assert table.version == 5
    assert gpb.CreateGameRequest.DESCRIPTOR.fields_by_name.get("game_id") is None
