"""Tournaments served by a real server (docs/rules/tournaments.md, "How the
server runs one"), on SQLite and PostgreSQL: a bot tournament end to end
(players seated by their keys, games played by client bots, rounds paired
as games finish, the export audited, a tampered export refused); reserved
seats; bad input to every new RPC refused and nothing written; nothing
about a tournament depends on a hidden card."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable
from dataclasses import replace
from pathlib import Path

import grpc
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from cardroom.cli import main
from cardroom.cli.audit_tournament import rating_histories
from cardroom.client import Client
from cardroom.client.bots.runner import play_bots
from cardroom.client.errors import CardroomError, GameNotFound, RuleBroken
from cardroom.client.sessions import BotSeat, Sessions
from cardroom.server.api.server import Settings, start
from cardroom.server.limits import Limits
from cardroom.trust import signing
from cardroom.trust import tournament_record as records
from cardroom.trust.tournament_audit import audit_tournament
from cardroom.v1 import competition_service_pb2 as cpb
from cardroom.v1 import competition_service_pb2_grpc as cpb_grpc
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import tournament_pb2 as tnpb
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN, Served

KIND = "smoke-and-mirrors"
# The quickest game for bots to play out (docs/benchmarks.md, "A bot tournament").
FAST = "smiles-and-daggers"
SWISS = tnpb.TournamentFormat.KIND_SWISS


def keys(count: int, salt: str = "") -> list[Ed25519PrivateKey]:
    return [
        Ed25519PrivateKey.from_private_bytes(hashlib.sha256(f"player {salt}{i}".encode()).digest())
        for i in range(count)
    ]


def key_of(key: Ed25519PrivateKey) -> bytes:
    return signing.public_key_bytes(key)


def notifications(served: Served) -> int:
    return served.server.games.log.recorder.max_notification_id() or 0


async def entered(
    client: Client,
    entrants: list[Ed25519PrivateKey],
    *,
    rounds: int = 2,
    table_size: int = 3,
    kind: str = KIND,
) -> tuple[str, str]:
    created = await client.create_tournament(
        kind, table_size=table_size, rounds=rounds, name="Friday"
    )
    for i, key in enumerate(entrants):
        await client.register_player(created.tournament_id, key, f"P{i}")
    return created.tournament_id, created.organizer_token


async def round_paired(client: Client, tournament_id: str, number: int) -> tnpb.TournamentView:
    for _ in steps(600, f"round {number} to be paired"):
        view = await client.tournament(tournament_id)
        if len(view.rounds) >= number or view.finished:
            return view
        await asyncio.sleep(0.05)
    raise AssertionError


async def finished(client: Client, tournament_id: str) -> tnpb.TournamentView:
    for _ in steps(600, "the tournament to finish"):
        view = await client.tournament(tournament_id)
        if view.finished:
            return view
        await asyncio.sleep(0.05)
    raise AssertionError


async def seat_round(
    client: Client,
    tournament_id: str,
    paired: tnpb.RoundPaired,
    by_key: dict[bytes, Ed25519PrivateKey],
) -> list[tuple[str, list[BotSeat]]]:
    tables = []
    for table in paired.tables:
        seated = []
        for seat, public in enumerate(table.seats):
            handle = await client.join_tournament_game(
                tournament_id, table.game_id, by_key[public], f"bot {seat}"
            )
            assert handle.seat == seat
            seated.append(BotSeat(handle.seat, handle.token, "random"))
        tables.append((table.game_id, seated))
    return tables


async def test_a_bot_tournament_end_to_end_audits(served: Served) -> None:
    client = served.client
    entrants = keys(6)
    by_key = {key_of(k): k for k in entrants}
    tournament_id, organizer = await entered(client, entrants, kind=FAST)
    started = await client.start_tournament(tournament_id, organizer)
    assert not started.registration_open and len(started.seed_commitment) == 32
    assert not started.seed  # TN-SEED: secret until the end
    for number in (1, 2):
        view = await round_paired(client, tournament_id, number)
        paired = view.rounds[number - 1]
        assert len(paired.tables) == 2 and not paired.byes
        assert sorted(k for t in paired.tables for k in t.seats) == sorted(by_key)
        tables = await seat_round(client, tournament_id, paired, by_key)
        await asyncio.gather(
            *(play_bots(client, game_id, FAST, seats, seed=7) for game_id, seats in tables)
        )
    view = await finished(client, tournament_id)
    assert len(view.results) == 4 and len(view.standings) == 6
    assert hashlib.sha256(view.seed).digest() == view.seed_commitment
    exported = await client.export_tournament(tournament_id)
    assert exported.game_ids == [t.game_id for r in view.rounds for t in r.tables]
    games = [await client.export_record(g) for g in exported.game_ids]
    server_key = (await client.server_key()).public_key
    report = audit_tournament(exported.record, games, public_key=server_key)
    assert report.ok, report.render()
    assert report.games == 4
    assert "ratings" in report.skipped  # offline: no rating histories
    # With the histories the server serves, every rating change is re-derived;
    # one rating bent by a server is named.
    histories = await rating_histories(client, exported.record)
    assert sorted(histories) == sorted(by_key) and all(len(h) == 2 for h in histories.values())
    rated = audit_tournament(exported.record, games, public_key=server_key, histories=histories)
    assert rated.ok and rated.summaries["ratings"].startswith("4 rated game(s)"), rated.render()
    key = next(iter(histories))
    last = histories[key][-1]
    histories[key][-1] = replace(last, after=replace(last.after, mu=last.after.mu + 0.01))
    bent = audit_tournament(exported.record, games, public_key=server_key, histories=histories)
    assert [p.check for p in bent.problems] == ["ratings"]
    assert f"game {last.game_id}: " in bent.problems[0].message
    # A result changed in the export: refused unsigned, signed by another
    # key, and even signed by the server's own key (the games say otherwise).
    body = records.record_body(exported.record)
    for i, raw in enumerate(body.events):
        envelope = epb.EventEnvelope.FromString(raw)
        recorded = tnpb.GameRecorded()
        if envelope.event.Unpack(recorded):
            changed = [1] + [2] * (len(recorded.ranks) - 1)
            if list(recorded.ranks) == changed:
                changed = [2, 1] + [2] * (len(recorded.ranks) - 2)
            recorded.ranks[:] = changed
            envelope.event.Pack(recorded)
            body.events[i] = envelope.SerializeToString()
            break
    tampered = body.SerializeToString(deterministic=True)
    assert tampered != exported.record.body
    unsigned = tnpb.TournamentRecord(
        body=tampered,
        public_key=exported.record.public_key,
        signature=exported.record.signature,
    )
    assert "signature" in {p.check for p in audit_tournament(unsigned, games).problems}
    forged = records.sign(tnpb.TournamentRecord(body=tampered), Ed25519PrivateKey.generate())
    pinned = audit_tournament(forged, games, public_key=server_key)
    assert "signature" in {p.check for p in pinned.problems}
    resigned = records.sign(tnpb.TournamentRecord(body=tampered), served.server.games.signing_key)
    caught = audit_tournament(resigned, games, public_key=server_key)
    assert not caught.ok and "signature" not in {p.check for p in caught.problems}
    # Every game's seats are the tournament's players, signed (T-PLAYER).
    assert report.summaries["games"].startswith("4 game records pass")


async def test_every_game_of_a_tournament_has_its_turn_clock(served: Served) -> None:
    """TN-CLOCK: the tournament's table options are recorded and every game
    it creates has them (the server filling in its limits)."""
    client = served.client
    entrants = keys(3, "clock")
    created = await client.create_tournament(
        FAST,
        table_size=3,
        rounds=1,
        table_options=tpb.TableOptions(seconds_per_decision=45, resign_after_timeouts=2),
    )
    for i, key in enumerate(entrants):
        await client.register_player(created.tournament_id, key, f"C{i}")
    await client.start_tournament(created.tournament_id, created.organizer_token)
    view = await round_paired(client, created.tournament_id, 1)
    assert view.created.table_options.seconds_per_decision == 45
    (table,) = view.rounds[0].tables
    first = (await client.audit(table.game_id, OPERATOR_TOKEN))[0]
    game = tpb.GameCreated()
    assert first.event.Unpack(game)
    assert game.table_options.seconds_per_decision == 45
    assert game.table_options.resign_after_timeouts == 2
    assert game.table_options.max_events > 0  # the server's limit, filled in


async def test_a_reserved_seat_takes_only_its_players_key(served: Served) -> None:
    client = served.client
    entrants = keys(3, "r")
    tournament_id, organizer = await entered(client, entrants, rounds=1)
    view = await client.start_tournament(tournament_id, organizer)
    table = view.rounds[0].tables[0]
    game_id = table.game_id
    before = (await client.view(game_id)).version
    stranger = Ed25519PrivateKey.generate()
    someone_else = next(k for k in entrants if key_of(k) != table.seats[0])
    with pytest.raises(RuleBroken, match="TN-SEAT"):
        await client.join(game_id, "Mallory", 0, player=stranger)
    with pytest.raises(RuleBroken, match="TN-SEAT"):
        await client.join(game_id, "Mallory", 0, player=someone_else)
    with pytest.raises(RuleBroken, match="TN-SEAT"):
        await client.join(game_id, "Anonymous", 0)
    with pytest.raises(RuleBroken, match="TN-SEAT"):
        await client.invite(game_id, OPERATOR_TOKEN, seat=0)
    with pytest.raises(CardroomError):
        await client.add_bot(game_id, OPERATOR_TOKEN, "random")
    assert (await client.view(game_id)).version == before
    by_key = {key_of(k): k for k in entrants}
    for seat, public in enumerate(table.seats):
        handle = await client.join_tournament_game(tournament_id, game_id, by_key[public], "P")
        assert handle.seat == seat
    assert (await client.view(game_id)).table.started  # the server starts a full table


async def test_bad_input_to_every_tournament_rpc_is_refused_and_writes_nothing(
    served: Served,
) -> None:
    client = served.client
    channel = grpc.aio.insecure_channel(served.address)
    stub = cpb_grpc.CompetitionServiceStub(channel)
    entrants = keys(3, "b")
    tournament_id, organizer = await entered(client, entrants, rounds=1)
    key = Ed25519PrivateKey.generate()
    good = records.sign_entry(key, tournament_id, "Eve").player
    invalid = grpc.StatusCode.INVALID_ARGUMENT
    failed = grpc.StatusCode.FAILED_PRECONDITION
    bad: list[tuple[str, object, grpc.StatusCode, str]] = [
        (
            "CreateTournament",
            cpb.CreateTournamentRequest(kind="", table_size=3, rounds=1),
            invalid,
            "",
        ),
        (
            "CreateTournament",
            cpb.CreateTournamentRequest(kind="nope", table_size=3, rounds=1),
            invalid,
            "",
        ),
        (
            "CreateTournament",
            cpb.CreateTournamentRequest(kind=KIND, table_size=3, rounds=1),
            invalid,
            "",
        ),
        (
            "CreateTournament",
            cpb.CreateTournamentRequest(kind=KIND, table_size=99, rounds=1, format=SWISS),
            failed,
            "TN-TABLE",
        ),
        (
            "CreateTournament",
            cpb.CreateTournamentRequest(kind=KIND, table_size=3, rounds=0, format=SWISS),
            failed,
            "TN-ROUNDS",
        ),
        (  # TN-CLOCK: refused as CreateGame refuses it, before anything is written
            "CreateTournament",
            cpb.CreateTournamentRequest(
                kind=KIND,
                table_size=3,
                rounds=1,
                format=SWISS,
                table_options=tpb.TableOptions(seconds_per_decision=10**7),
            ),
            invalid,
            "seconds_per_decision must be at most",
        ),
        (
            "CreateTournament",
            cpb.CreateTournamentRequest(
                kind=KIND,
                table_size=3,
                rounds=1,
                format=SWISS,
                table_options=tpb.TableOptions(max_events=10**9),
            ),
            invalid,
            "the server's limit",
        ),
        (
            "CreateTournament",
            cpb.CreateTournamentRequest(
                kind=KIND, table_size=3, rounds=1, format=SWISS, name="n" * 65
            ),
            invalid,
            "",
        ),
        (
            "CreateTournament",
            cpb.CreateTournamentRequest(
                kind=KIND, table_size=3, rounds=1, format=SWISS, bye_half_points=5
            ),
            invalid,
            "",
        ),
        ("RegisterPlayer", cpb.RegisterPlayerRequest(tournament_id="x", player=good), invalid, ""),
        ("RegisterPlayer", cpb.RegisterPlayerRequest(tournament_id=tournament_id), invalid, ""),
        (
            "RegisterPlayer",
            cpb.RegisterPlayerRequest(
                tournament_id=tournament_id,
                player=tpb.PlayerProof(public_key=b"k", signature=good.signature),
            ),
            invalid,
            "",
        ),
        (
            "RegisterPlayer",
            cpb.RegisterPlayerRequest(
                tournament_id=tournament_id,
                player=tpb.PlayerProof(public_key=good.public_key, signature=b"\x00" * 64),
            ),
            invalid,
            "",
        ),
        (
            "RegisterPlayer",
            cpb.RegisterPlayerRequest(
                tournament_id=tournament_id, player=records.sign_entry(key, "another", "Eve").player
            ),
            invalid,
            "",
        ),
        (
            "RegisterPlayer",
            cpb.RegisterPlayerRequest(
                tournament_id=tournament_id,
                player=records.sign_entry(entrants[0], tournament_id, "P0").player,
            ),
            failed,
            "TN-REGISTER",
        ),
        (
            "RegisterPlayer",
            cpb.RegisterPlayerRequest(
                tournament_id=tournament_id,
                player=records.sign_entry(key, tournament_id, "n" * 65).player,
            ),
            invalid,
            "",
        ),
        ("StartTournament", cpb.StartTournamentRequest(tournament_id=""), invalid, ""),
        ("GetTournament", cpb.GetTournamentRequest(tournament_id="not-a-uuid"), invalid, ""),
        ("ExportTournament", cpb.ExportTournamentRequest(tournament_id="not-a-uuid"), invalid, ""),
        (
            "ExportTournament",
            cpb.ExportTournamentRequest(tournament_id=tournament_id),
            failed,
            "TN-SEED",
        ),
    ]
    before = notifications(served)
    try:
        for method, request, code, rule in bad:
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await getattr(stub, method)(request)
            assert caught.value.code() == code, (method, request, caught.value.details())
            assert rule in (caught.value.details() or ""), (method, caught.value.details())
        # Starting needs the organizer's token; a stranger's is refused.
        start = cpb.StartTournamentRequest(tournament_id=tournament_id)
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.StartTournament(start)
        assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.StartTournament(start, metadata=(("authorization", "Bearer nope"),))
        assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            async for _ in stub.WatchTournament(cpb.WatchTournamentRequest(tournament_id="x")):
                pass
        assert caught.value.code() == invalid
        # A game's id is no tournament's.
        game_id = await client.create_game(KIND, seat_count=3)
        after_game = notifications(served)
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.GetTournament(cpb.GetTournamentRequest(tournament_id=game_id))
        assert caught.value.code() == grpc.StatusCode.NOT_FOUND
        # ... and a tournament's id is no game's.
        with pytest.raises(GameNotFound, match="tournament"):
            await client.view(tournament_id)
        with pytest.raises(GameNotFound):
            await client.audit(tournament_id, OPERATOR_TOKEN)
        assert notifications(served) == after_game == before + 1
        # Too few players to fill a table: TN-FIELD, and nothing written.
        lone, token = await entered(client, keys(2, "lone"), rounds=1)
        written = notifications(served)
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.StartTournament(
                cpb.StartTournamentRequest(tournament_id=lone),
                metadata=(("authorization", f"Bearer {token}"),),
            )
        assert caught.value.code() == failed and "TN-FIELD" in (caught.value.details() or "")
        assert notifications(served) == written
        # Started once: a second start is TN-STATE.
        await client.start_tournament(tournament_id, organizer)
        written = notifications(served)
        with pytest.raises(RuleBroken, match="TN-STATE"):
            await client.start_tournament(tournament_id, organizer)
        with pytest.raises(RuleBroken, match="TN-REGISTER"):
            await client.register_player(tournament_id, key, "Late")
        assert notifications(served) == written
    finally:
        await channel.close()


def public_only(view: tnpb.TournamentView) -> tnpb.TournamentView:
    """The view without what differs between two tournaments by id alone:
    their ids, the entries' signatures over them, their games' ids."""
    out = tnpb.TournamentView()
    out.CopyFrom(view)
    out.created.tournament_id = ""
    for player in out.players:
        player.signature = b""
    for paired in out.rounds:
        for table in paired.tables:
            table.game_id = ""
    for result in out.results:
        result.game_id = ""
    return out


async def resigned_tournament(
    served: Served, entrants: list[Ed25519PrivateKey], game_seed: bytes
) -> tuple[list[bytes], list[bytes]]:
    """A tournament whose every game ends by resignations (seat 0, then
    seat 1), whatever the deal; each game dealt from ``game_seed``. Every
    GetTournament and WatchTournament response, serialized, and the secrets
    it must not show."""
    client = served.client
    games = served.server.games
    games.commands.new_seed = lambda: game_seed
    tournament_seed = hashlib.sha256(b"the tournament's seed").digest()
    games.tournaments._new_seed = lambda: tournament_seed
    by_key = {key_of(k): k for k in entrants}
    tournament_id, organizer = await entered(client, entrants)
    await client.start_tournament(tournament_id, organizer)
    seen: list[bytes] = []
    for number in (1, 2):
        view = await round_paired(client, tournament_id, number)
        assert tournament_seed not in view.SerializeToString()  # TN-SEED: not before the end
        seen.append(public_only(view).SerializeToString(deterministic=True))
        for table in view.rounds[number - 1].tables:
            seats = [
                await client.join_tournament_game(tournament_id, table.game_id, by_key[k], "P")
                for k in table.seats
            ]
            await client.resign(table.game_id, seats[0].token)
            await client.resign(table.game_id, seats[1].token)
    view = await finished(client, tournament_id)
    seen.append(public_only(view).SerializeToString(deterministic=True))
    async for response in client.watch_tournament(tournament_id):
        seen.append(public_only(response.tournament).SerializeToString(deterministic=True))
    return seen, [game_seed]


async def test_nothing_about_a_tournament_depends_on_a_hidden_card(served: Served) -> None:
    entrants = keys(6, "n")
    one, hidden_one = await resigned_tournament(served, entrants, b"\x01" * 32)
    two, hidden_two = await resigned_tournament(served, entrants, b"\x02" * 32)
    assert one == two
    for response in one + two:
        for secret in hidden_one + hidden_two:
            assert secret not in response


async def test_the_tournament_commands_run_one_and_audit_it_live(
    served: Served, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`cardroom tournament new/join/start/standings/watch` and `cardroom
    audit tournament --address`: three players (each their own state
    folder, so their own key) join, start, take their seats, play (two
    resign), and the finished tournament audits live."""

    def cli(*argv: str) -> Awaitable[int]:
        return asyncio.to_thread(main, [*argv[:2], *argv[2:], "--address", served.address])

    capsys.readouterr()
    new = ("tournament", "new", KIND, "--table-size", "3", "--rounds", "1")
    assert await cli(*new, "--seconds-per-decision", "600") == 0
    out = capsys.readouterr().out.splitlines()
    tournament_id = out[-1]
    view = await served.client.tournament(tournament_id)
    assert view.created.table_options.seconds_per_decision == 600  # TN-CLOCK
    token = out[0].removeprefix("organizer token: ")
    files = [str(tmp_path / f"p{i}" / "seats.json") for i in range(3)]
    for i, file in enumerate(files):
        joined = ("tournament", "join", tournament_id, "--name", f"P{i}", "--token-file", file)
        assert await cli(*joined) == 0
    assert "3 player(s) so far" in capsys.readouterr().out
    assert await cli("tournament", "start", tournament_id, "--organizer-token", token) == 0
    assert "Round 1:" in capsys.readouterr().out
    seats = []
    for i, file in enumerate(files):
        joined = ("tournament", "join", tournament_id, "--name", f"P{i}", "--token-file", file)
        assert await cli(*joined) == 0
        (record,) = Sessions.at(file).load().values()
        assert len(bytes.fromhex(record.entropy)) == 32  # its own, for `cardroom play` to reveal
        seats.append(record)
    assert "cardroom play --game-id" in capsys.readouterr().out
    by_seat = sorted(seats, key=lambda r: r.seat)
    await served.client.resign(by_seat[0].game_id, by_seat[0].token)
    await served.client.resign(by_seat[1].game_id, by_seat[1].token)
    await finished(served.client, tournament_id)
    assert await cli("tournament", "standings", tournament_id) == 0
    standings = capsys.readouterr().out
    winner = by_seat[2].name  # the one seat that did not resign
    first = next(line for line in standings.splitlines() if line.lstrip().startswith("1. "))
    assert "finished" in standings and winner in first
    assert max(map(len, standings.splitlines())) <= 80  # an 80x24 terminal
    assert await cli("tournament", "watch", tournament_id) == 0
    watched = capsys.readouterr().out.splitlines()
    assert f"finished; winner {winner}" in watched[-1]
    assert await cli("audit", "tournament", tournament_id) == 0
    audited = capsys.readouterr().out
    assert "VERIFIED: the tournament and every game check out." in audited
    assert "[ OK ] ratings      1 rated game(s)" in audited


async def test_a_restarted_server_runs_on_from_the_tournaments_events(database: str) -> None:
    """Nothing but the events: after a restart the seed (RegistrationClosed's
    secret), the seats' reservations and the organizer token are found
    again, and a round played after it is recorded and the tournament
    finished."""
    settings = Settings(address="127.0.0.1:0", database=database, operator_token=OPERATOR_TOKEN)
    entrants = keys(3, "restart")
    by_key = {key_of(k): k for k in entrants}
    server = await start(settings)
    client = Client.connect(f"127.0.0.1:{server.port}")
    try:
        tournament_id, organizer = await entered(client, entrants, rounds=2)
        view = await client.start_tournament(tournament_id, organizer)
        commitment = view.seed_commitment
    finally:
        await client.close()
        await server.stop(grace=None)
    server = await start(settings)
    client = Client.connect(f"127.0.0.1:{server.port}")
    try:
        for number in (1, 2):
            view = await round_paired(client, tournament_id, number)
            table = view.rounds[number - 1].tables[0]
            stranger = Ed25519PrivateKey.generate()
            with pytest.raises(RuleBroken, match="TN-SEAT"):
                await client.join(table.game_id, "Mallory", 0, player=stranger)
            seats = [
                await client.join_tournament_game(tournament_id, table.game_id, by_key[k], "P")
                for k in table.seats
            ]
            await client.resign(table.game_id, seats[0].token)
            await client.resign(table.game_id, seats[1].token)
        view = await finished(client, tournament_id)
        assert hashlib.sha256(view.seed).digest() == commitment
        with pytest.raises(RuleBroken, match="TN-STATE"):
            await client.start_tournament(tournament_id, organizer)  # the token still works
        exported = await client.export_tournament(tournament_id)
        games = [await client.export_record(g) for g in exported.game_ids]
        report = audit_tournament(exported.record, games, public_key=exported.record.public_key)
        assert report.ok, report.render()
    finally:
        await client.close()
        await server.stop(grace=None)


async def test_a_tournament_counts_against_the_clients_hourly_creations(tmp_path: Path) -> None:
    settings = Settings(
        address="127.0.0.1:0",
        database=str(tmp_path / "limits.sqlite3"),
        limits=Limits(games_per_client_per_hour=1),
    )
    server = await start(settings)
    client = Client.connect(f"127.0.0.1:{server.port}")
    try:
        await client.create_tournament(KIND, table_size=3, rounds=1)
        written = server.games.log.recorder.max_notification_id()
        with pytest.raises(CardroomError, match="limit") as caught:
            await client.create_tournament(KIND, table_size=3, rounds=1)
        assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert server.games.log.recorder.max_notification_id() == written
    finally:
        await client.close()
        await server.stop(grace=None)


def test_a_table_nobody_starts_is_a_forfeit_and_the_tournament_goes_on(tmp_path) -> None:
    """TN-FORFEIT, on an injected clock: one player never takes their seat;
    T-ABSENT ends the unstarted game after its seconds, the tournament
    records the players who came ahead of the one who did not, finishes,
    and its export audits with the same ranks."""
    from datetime import UTC, datetime, timedelta

    from cardroom.server.games.application import Games
    from cardroom.server.storage.log import GameLog
    from cardroom.trust import players
    from cardroom.trust.audit import audit_record

    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    games = Games(
        GameLog(str(tmp_path / "cardroom.sqlite3")),
        operator_token=OPERATOR_TOKEN,
        clock=lambda: now[0],
        absent_after=120,
    )
    games.commands.end_when_absent_seconds = 600
    try:
        entrants = keys(3, "forfeit")
        tournament_id, organizer = games.tournaments.create(
            tnpb.CreateTournament(kind=KIND, table_size=3, rounds=1, format=SWISS, name="no-show")
        )
        for i, key in enumerate(entrants):
            games.tournaments.register(
                tournament_id, records.sign_entry(key, tournament_id, f"P{i}").player
            )
        games.tournaments.start(tournament_id, organizer)
        view, _ = games.tournaments.view(tournament_id)
        (table,) = view.rounds[0].tables
        by_key = {key_of(k): k for k in entrants}
        absent = table.seats[2]
        for seat, public in enumerate(table.seats[:2]):
            proof = players.sign_seat(by_key[public], table.game_id, seat, b"", f"P{seat}")
            games.join_with_entropy(table.game_id, seat, f"P{seat}", b"", proof)
        now[0] += timedelta(seconds=600)
        assert games.clocks.fire_due() == 1  # NeverStarted: nobody may start it without seat 3
        assert games.load(table.game_id).table.finished
        games.tournaments.catch_up()
        view, _ = games.tournaments.view(tournament_id)
        assert view.finished and [list(r.ranks) for r in view.results] == [[1, 1, 2]]
        points = {bytes(s.public_key): s.half_points for s in view.standings}
        assert points[absent] == 0 and sorted(points.values()) == [0, 3, 3]  # 1.5 each
        record, game_ids = games.tournaments.export(tournament_id)
        game = games.export_record(game_ids[0], OPERATOR_TOKEN)
        assert audit_record(game).ok
        server_key = signing.public_key_bytes(games.key_ring.current)
        report = audit_tournament(record, [game], public_key=server_key)
        assert report.ok, report.render()
    finally:
        games.close()
        games.log.close()
