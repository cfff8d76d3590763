"""A player leaves a tournament (TN-LEAVE) through ``WithdrawPlayer``, on
SQLite and PostgreSQL: signed with their key, or by the organizer's token;
before the start the field shrinks; mid-tournament their running game goes
on without them (T-REMOVE), they are paired no more, their standings line
is marked withdrawn, and the tournament still finishes and audits; a
forged, borrowed or replayed signature, a second withdrawal and an unknown
tournament are refused with their status and write nothing."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable
from pathlib import Path

import grpc
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from cardroom.cli import main
from cardroom.client.errors import RuleBroken
from cardroom.client.sessions import Sessions
from cardroom.trust import tournament_record as records
from cardroom.trust.envelopes import unpack
from cardroom.trust.tournament_audit import audit_tournament
from cardroom.v1 import competition_service_pb2 as cpb
from cardroom.v1 import competition_service_pb2_grpc as cpb_grpc
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import tournament_pb2 as tnpb
from tests.conftest import OPERATOR_TOKEN, Served
from tests.service.test_tournaments_served import (
    KIND,
    entered,
    finished,
    key_of,
    keys,
    notifications,
    round_paired,
)
from tests.tournament.records import forged as forged_record


async def version(served: Served, tournament_id: str) -> int:
    channel = grpc.aio.insecure_channel(served.address)
    try:
        stub = cpb_grpc.CompetitionServiceStub(channel)
        response = await stub.GetTournament(cpb.GetTournamentRequest(tournament_id=tournament_id))
        return response.version
    finally:
        await channel.close()


async def test_a_withdrawal_before_the_start_shrinks_the_field(served: Served) -> None:
    client = served.client
    entrants = keys(5, "w-early")
    tournament_id, organizer = await entered(client, entrants, rounds=1)
    assert await client.withdraw_player(tournament_id, entrants[4]) == 4
    # The organizer withdraws a no-show by key alone; so may the operator.
    no_show = key_of(entrants[3])
    assert (
        await client.withdraw_player(tournament_id, public_key=no_show, organizer_token=organizer)
        == 3
    )
    view = await client.tournament(tournament_id)
    assert set(view.withdrawn) == {key_of(entrants[4]), no_show}
    assert len(view.players) == 5  # their entries stay in the record
    with pytest.raises(RuleBroken, match="TN-LEAVE"):
        await client.register_player(tournament_id, entrants[4], "Back again")
    started = await client.start_tournament(tournament_id, organizer)
    field = {key_of(k) for k in entrants[:3]}
    assert {bytes(s.public_key) for s in started.standings} == field
    (table,) = started.rounds[0].tables
    assert set(table.seats) == field and not started.rounds[0].byes
    # The operator may withdraw a player too.
    assert (
        await client.withdraw_player(
            tournament_id, public_key=key_of(entrants[2]), organizer_token=OPERATOR_TOKEN
        )
        == 2
    )


async def test_a_withdrawal_mid_tournament_leaves_the_game_and_the_next_rounds(
    served: Served,
) -> None:
    """Six players, tables of 3, two rounds. In round 1 a seated player
    withdraws: the server removes their seat (T-REMOVE) and their game goes
    on; round 2 pairs the five others (one table, two byes); the
    tournament finishes, the standings mark the player withdrawn, and the
    export audits, its command record holding the player's signature."""
    client = served.client
    entrants = keys(6, "w-mid")
    by_key = {key_of(k): k for k in entrants}
    tournament_id, organizer = await entered(client, entrants, rounds=2)
    await client.start_tournament(tournament_id, organizer)
    view = await round_paired(client, tournament_id, 1)
    tables = view.rounds[0].tables
    seats = {
        t.game_id: [
            await client.join_tournament_game(tournament_id, t.game_id, by_key[k], "P")
            for k in t.seats
        ]
        for t in tables
    }
    leaver_table = tables[0]
    leaver = leaver_table.seats[2]
    assert await client.withdraw_player(tournament_id, by_key[leaver]) == 5
    game = await client.view(leaver_table.game_id)
    assert list(game.table.resigned_seats) == [2] and not game.table.finished
    for game_id, taken in seats.items():
        await client.resign(game_id, taken[0].token)
        if game_id != leaver_table.game_id:
            await client.resign(game_id, taken[1].token)
    view = await round_paired(client, tournament_id, 2)
    second = view.rounds[1]
    paired = [k for t in second.tables for k in t.seats]
    assert leaver not in paired and leaver not in second.byes
    assert sorted([*paired, *second.byes]) == sorted(k for k in by_key if k != leaver)
    for table in second.tables:
        taken = [
            await client.join_tournament_game(tournament_id, table.game_id, by_key[k], "P")
            for k in table.seats
        ]
        await client.resign(table.game_id, taken[0].token)
        await client.resign(table.game_id, taken[1].token)
    view = await finished(client, tournament_id)
    lines = {bytes(s.public_key): s for s in view.standings}
    assert len(lines) == 6 and lines[leaver].withdrawn
    assert [k for k, line in lines.items() if line.withdrawn] == [leaver]
    with pytest.raises(RuleBroken, match="TN-STATE"):
        await client.withdraw_player(tournament_id, entrants[0])
    exported = await client.export_tournament(tournament_id)
    games = [await client.export_record(g) for g in exported.game_ids]
    server_key = (await client.server_key()).public_key
    report = audit_tournament(exported.record, games, public_key=server_key)
    assert report.ok, report.render()
    withdrawals = []
    for raw in records.record_body(exported.record).events:
        envelope = epb.EventEnvelope.FromString(raw)
        if envelope.event.Is(tnpb.PlayerWithdrew.DESCRIPTOR):
            withdrawals.append(unpack(envelope.command.command))
    (command,) = withdrawals
    assert isinstance(command, tnpb.WithdrawPlayer) and command.public_key == leaver
    assert records.withdrawal_signed(command, tournament_id)
    assert report.summaries["entries"].endswith(
        "withdrawals: 1 signed by the player, 0 by the organizer"
    )
    # A server that invents the withdrawal (its signature is not the
    # player's), relinked and re-signed with its own key: named.
    envelopes = [
        epb.EventEnvelope.FromString(raw) for raw in records.record_body(exported.record).events
    ]
    at = next(i for i, e in enumerate(envelopes) if e.event.Is(tnpb.PlayerWithdrew.DESCRIPTOR))
    bent = tnpb.WithdrawPlayer(public_key=leaver, signature=bytes(64))
    envelopes[at].command.command.Pack(bent)
    forged = forged_record(envelopes, served.server.games.signing_key)
    caught = audit_tournament(forged, games, public_key=server_key)
    assert [p.check for p in caught.problems] == ["entries"], caught.render()
    assert "withdrawal is not signed by their key" in caught.problems[0].message


async def test_a_player_who_withdrew_takes_no_seat_and_a_seat_taken_before_leaves_at_the_start(
    served: Served,
) -> None:
    """Round 1 of two tables: one player withdraws before taking their
    seat, and may no longer take it (TN-LEAVE); another took theirs and
    withdraws while the game waits for the others: it starts without them
    (their seat removed at the start, T-REMOVE)."""
    client = served.client
    entrants = keys(6, "w-seat")
    by_key = {key_of(k): k for k in entrants}
    tournament_id, organizer = await entered(client, entrants, rounds=1)
    view = await client.start_tournament(tournament_id, organizer)
    first, second = view.rounds[0].tables
    early = first.seats[1]
    await client.join_tournament_game(tournament_id, first.game_id, by_key[early], "P")
    assert await client.withdraw_player(tournament_id, by_key[early]) == 5
    assert not (await client.view(first.game_id)).table.resigned_seats  # not started: it stays
    for key in (first.seats[0], first.seats[2]):
        await client.join_tournament_game(tournament_id, first.game_id, by_key[key], "P")
    game = (await client.view(first.game_id)).table
    assert game.started and list(game.resigned_seats) == [1]
    absent = second.seats[0]
    assert await client.withdraw_player(tournament_id, by_key[absent]) == 4
    before = (await client.view(second.game_id)).version
    with pytest.raises(RuleBroken, match="TN-LEAVE"):
        await client.join_tournament_game(tournament_id, second.game_id, by_key[absent], "P")
    assert (await client.view(second.game_id)).version == before


async def test_a_withdrawal_that_does_not_prove_the_player_is_refused_and_writes_nothing(
    served: Served,
) -> None:
    client = served.client
    channel = grpc.aio.insecure_channel(served.address)
    stub = cpb_grpc.CompetitionServiceStub(channel)
    entrants = keys(3, "w-bad")
    tournament_id, organizer = await entered(client, entrants, rounds=1)
    player, other = entrants[0], entrants[1]
    signed = records.sign_withdrawal(player, tournament_id)
    entry = records.sign_entry(player, tournament_id, "P0").player
    elsewhere = records.sign_withdrawal(player, str(uuid.uuid4()))
    stranger = records.sign_withdrawal(Ed25519PrivateKey.generate(), tournament_id)
    unknown = str(uuid.uuid4())

    def request(tid: str, public_key: bytes, signature: bytes = b"") -> cpb.WithdrawPlayerRequest:
        return cpb.WithdrawPlayerRequest(
            tournament_id=tid, public_key=public_key, signature=signature
        )

    invalid = grpc.StatusCode.INVALID_ARGUMENT
    failed = grpc.StatusCode.FAILED_PRECONDITION
    bad: list[tuple[str, cpb.WithdrawPlayerRequest, tuple[str, ...], grpc.StatusCode, str]] = [
        ("no tournament id", request("", signed.public_key, signed.signature), (), invalid, ""),
        ("not a UUID", request("x", signed.public_key, signed.signature), (), invalid, ""),
        ("a short key", request(tournament_id, b"k", signed.signature), (), invalid, ""),
        ("forged", request(tournament_id, signed.public_key, b"\x07" * 64), (), invalid, ""),
        (
            "someone else's signature over the claim",
            request(tournament_id, key_of(other), signed.signature),
            (),
            invalid,
            "",
        ),
        (
            "the registration's signature replayed",
            request(tournament_id, entry.public_key, entry.signature),
            (),
            invalid,
            "tournament-withdrawal",
        ),
        (
            "another tournament's withdrawal",
            request(tournament_id, elsewhere.public_key, elsewhere.signature),
            (),
            invalid,
            "",
        ),
        (
            "a bad signature with the organizer's token",
            request(tournament_id, signed.public_key, b"\x07" * 64),
            ("authorization", f"Bearer {organizer}"),
            invalid,
            "",
        ),
        (
            "unknown tournament",
            request(unknown, *_signed(player, unknown)),
            (),
            grpc.StatusCode.NOT_FOUND,
            "",
        ),
        (
            "a key that never registered",
            request(tournament_id, stranger.public_key, stranger.signature),
            (),
            failed,
            "TN-LEAVE",
        ),
        (
            "no signature, no token",
            request(tournament_id, key_of(player)),
            (),
            grpc.StatusCode.UNAUTHENTICATED,
            "",
        ),
        (
            "no signature, a stranger's token",
            request(tournament_id, key_of(player)),
            ("authorization", "Bearer nope"),
            grpc.StatusCode.PERMISSION_DENIED,
            "",
        ),
    ]
    try:
        before = (notifications(served), await version(served, tournament_id))
        for what, message, header, code, words in bad:
            metadata = (header,) if header else ()
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await stub.WithdrawPlayer(message, metadata=metadata)
            assert caught.value.code() == code, (what, caught.value.details())
            assert words in (caught.value.details() or ""), (what, caught.value.details())
            assert (notifications(served), await version(served, tournament_id)) == before, what
        # The real one passes once; a second is TN-LEAVE and writes nothing.
        response = await stub.WithdrawPlayer(
            request(tournament_id, signed.public_key, signed.signature)
        )
        assert response.players_left == 2
        after = (notifications(served), await version(served, tournament_id))
        assert after[1] == before[1] + 1
        for header in ((), ("authorization", f"Bearer {organizer}")):
            again = (
                request(tournament_id, signed.public_key, signed.signature)
                if not header
                else request(tournament_id, signed.public_key)
            )
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await stub.WithdrawPlayer(again, metadata=(header,) if header else ())
            assert caught.value.code() == failed and "TN-LEAVE" in (caught.value.details() or "")
        assert (notifications(served), await version(served, tournament_id)) == after
    finally:
        await channel.close()


def _signed(key: Ed25519PrivateKey, tournament_id: str) -> tuple[bytes, bytes]:
    command = records.sign_withdrawal(key, tournament_id)
    return command.public_key, command.signature


async def test_the_withdraw_command_leaves_and_lets_the_organizer_withdraw(
    served: Served, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`cardroom tournament withdraw`: a player leaves with the key of their
    state folder (the one `join` registered); the organizer withdraws
    another by name."""

    def cli(*argv: str) -> Awaitable[int]:
        return asyncio.to_thread(main, [*argv, "--address", served.address])

    created = await served.client.create_tournament(KIND, table_size=3, rounds=1)
    tournament_id = created.tournament_id
    files = [str(tmp_path / f"p{i}" / "seats.json") for i in range(4)]
    for i, file in enumerate(files):
        joined = ("tournament", "join", tournament_id, "--name", f"P{i}", "--token-file", file)
        assert await cli(*joined) == 0
    capsys.readouterr()
    assert await cli("tournament", "withdraw", tournament_id, "--token-file", files[3]) == 0
    assert "3 player(s) left" in capsys.readouterr().out
    token = created.organizer_token
    by_name = ("tournament", "withdraw", tournament_id, "--player", "P2")
    assert await cli(*by_name, "--organizer-token", token) == 0
    assert "Withdrew P2" in capsys.readouterr().out
    view = await served.client.tournament(tournament_id)
    keys_of = [key_of(Sessions.at(file).player_key()) for file in files]
    assert set(view.withdrawn) == {keys_of[3], keys_of[2]}
