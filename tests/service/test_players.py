"""Players and ratings through a real server (docs/trust.md, "Players";
docs/rules/table.md, T-RATING): a signed seat is recorded and audits; a
signature that does not sign this seat of this game is refused and writes
nothing; the server's bots sign with a key per strategy; a finished game of
keyed seats is rated, and ratings rebuilt from the log equal the live ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from cardroom.cli import games as games_command
from cardroom.cli import main, parser
from cardroom.client import Client, InvalidArgument
from cardroom.domain import ratings as rules
from cardroom.server.games.ratings import Ratings
from cardroom.trust import players
from cardroom.trust.audit import audit_record
from cardroom.trust.envelopes import unpack
from cardroom.trust.ratings_audit import audit_ratings
from cardroom.trust.record import write_record
from cardroom.v1 import competition_service_pb2 as cpb
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from tests.conftest import OPERATOR_TOKEN, Served
from tests.service.helpers import bots_finish, start_unless_started

KIND = "smoke-and-mirrors"


async def _seats(client: Client, game_id: str) -> list[tpb.SeatTaken]:
    log = await client.audit(game_id, OPERATOR_TOKEN)
    found = []
    for envelope in log:
        taken = tpb.SeatTaken()
        if envelope.event.Unpack(taken):
            found.append(taken)
    return found


async def test_a_signed_seat_is_recorded_and_audits(served: Served) -> None:
    client = served.client
    key = Ed25519PrivateKey.generate()
    game_id = await client.create_game(KIND, seat_count=3)
    seat = await client.join(game_id, "Ada", player=key)
    assert seat.seat == 0
    bot = await client.add_bot(game_id, seat.token, "random")
    other_bot = await client.add_bot(game_id, seat.token, "random")
    taken = await _seats(client, game_id)
    assert taken[0].player.public_key == players.signing.public_key_bytes(key)
    assert taken[0].player.display_name == "Ada"
    # Both random bots sign with the one key of their level; not the player's.
    assert taken[1].player.public_key == taken[2].player.public_key
    assert taken[1].player.public_key != taken[0].player.public_key
    assert (bot.seat, other_bot.seat) == (1, 2)
    await start_unless_started(client, game_id, seat.token)
    await client.resign(game_id, seat.token)
    await bots_finish(client, game_id)
    report = audit_record(await client.export_record(game_id, OPERATOR_TOKEN))
    assert report.ok, report.render()
    assert report.summaries["players"].startswith("3 seat(s) signed")


async def test_a_signature_for_another_seat_or_game_is_refused_and_writes_nothing(
    served: Served,
) -> None:
    client = served.client
    key = Ed25519PrivateKey.generate()
    game_id = await client.create_game(KIND, seat_count=3)
    other_game = await client.create_game(KIND, seat_count=3)
    before = (await client.view(game_id)).version
    wrong = [
        players.sign_seat(key, game_id, 1, b"", "Ada"),  # another seat
        players.sign_seat(key, other_game, 0, b"", "Ada"),  # another game
        tpb.PlayerProof(public_key=b"\x01" * 32, signature=b"\x02" * 64),  # no signature
        tpb.PlayerProof(public_key=b"short", signature=b"\x02" * 64),
    ]
    for proof in wrong:
        request = gpb.JoinGameRequest(game_id=game_id, seat=0, player_name="Ada", player=proof)
        with pytest.raises(InvalidArgument, match="player"):
            await client._call("JoinGame", request)
    # The seat must be named: the signature covers it.
    request = gpb.JoinGameRequest(
        game_id=game_id, player_name="Ada", player=players.sign_seat(key, game_id, 0)
    )
    with pytest.raises(InvalidArgument, match="seat"):
        await client._call("JoinGame", request)
    assert (await client.view(game_id)).version == before


async def test_an_invited_player_signs_the_seat_the_invitation_holds(served: Served) -> None:
    client = served.client
    key = Ed25519PrivateKey.generate()
    game_id = await client.create_game(KIND, seat_count=3)
    invitation = await client.invite(game_id, OPERATOR_TOKEN, seat=2)
    seat = await client.accept_invitation(game_id, invitation.code, "Cy", player=key)
    assert seat.seat == 2
    taken = await _seats(client, game_id)
    assert taken[0].seat == 2 and taken[0].player.display_name == "Cy"


async def test_finished_keyed_games_are_rated_and_a_rebuild_equals_the_live_ratings(
    served: Served, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    client = served.client
    key = Ed25519PrivateKey.generate()
    games = []
    for _ in range(2):
        game_id = await client.create_game(KIND, seat_count=3)
        games.append(game_id)
        seat = await client.join(game_id, "Ada", player=key)
        await client.add_bot(game_id, seat.token, "random")
        await client.add_bot(game_id, seat.token, "heuristic")
        await start_unless_started(client, game_id, seat.token)
        await client.resign(game_id, seat.token)  # departed: ranked last (T-RATING)
        await bots_finish(client, game_id)
    anonymous = await client.create_game(KIND, seat_count=3)
    games.append(anonymous)
    host = await client.join(anonymous, "Bo")
    await client.add_bot(anonymous, host.token, "random")
    await client.add_bot(anonymous, host.token, "random")
    await start_unless_started(client, anonymous, host.token)
    await client.resign(anonymous, host.token)
    await bots_finish(client, anonymous)

    ratings = served.server.games.ratings
    live = ratings.everything()
    board, history, names = live
    mine = [r for r in board if r.public_key == players.signing.public_key_bytes(key)]
    assert len(mine) == 1 and mine[0].rating.games == 2
    assert mine[0].rating.mu < rules.Rating().mu  # ranked last twice
    assert len(history) == 6  # two rated games of three seats; the anonymous one is not
    assert {name for _, name in names} == {"Ada", "random bot", "heuristic bot"}
    rebuilt = Ratings(served.server.games.log)
    assert rebuilt.rebuild() == 3
    assert rebuilt.everything() == live

    # The same figures through CompetitionService, to anyone.
    board = await client.ratings(KIND)
    assert [r.rating for r in board] == sorted((r.rating for r in board), reverse=True)
    assert {r.display_name for r in board} == {"Ada", "random bot", "heuristic bot"}
    ada = await client.player(players.player_id(players.signing.public_key_bytes(key)))
    assert ada.display_name == "Ada" and [r.games for r in ada.ratings] == [2]
    assert [g.rank for g in ada.games] == [3, 3]
    assert ada.games[0].rating_after == ada.ratings[0]
    first = await client.player(ada.player_id, page_size=1)
    second = await client.player(ada.player_id, page_size=1, page_token=first.next_page_token)
    assert [g.game_id for g in (*first.games, *second.games)] == [g.game_id for g in ada.games]
    assert not second.next_page_token
    nobody = await client.player("0" * 32)
    assert not nobody.ratings and not nobody.games
    for bad in ({"kind": ""}, {"kind": "no-such-game"}):
        with pytest.raises(InvalidArgument):
            await client._compete("ListRatings", cpb.ListRatingsRequest(**bad))
    for wrong in (cpb.GetPlayerRequest(), cpb.GetPlayerRequest(player_id="ADA")):
        with pytest.raises(InvalidArgument):
            await client._compete("GetPlayer", wrong)

    # Each seat's key is in the table view and the game list, and the
    # players' ratings beside their names in `cardroom games`.
    ada_key = players.signing.public_key_bytes(key)
    view = await client.view(games[0])
    assert view.table.player_keys[0] == ada_key and all(view.table.player_keys)
    mine = await client.ratings(KIND, public_keys=[ada_key, bytes(32)])
    assert [r.public_key for r in mine] == [ada_key]
    capsys.readouterr()
    args = parser().parse_args(["games", "--address", served.address, "--kind", KIND])
    assert await games_command.show(args) == 0
    listed = capsys.readouterr().out
    assert f"Ada ({mine[0].rating:.1f})" in listed and "Bo," in listed

    # An auditor recomputes the same ratings from the signed records alone.
    files = []
    for game_id in games:
        path = tmp_path / f"{game_id}.cardroom"
        write_record(await client.export_record(game_id, OPERATOR_TOKEN), path)
        files.append(str(path))
    audit = audit_ratings(files)
    assert (
        audit.ok and len(audit.rated) == 2 and audit.unrated == [(anonymous, "a seat is anonymous")]
    )
    recomputed = [(k, r.mu, r.sigma, r.games) for k, r in audit.board(KIND)]
    assert recomputed == [(r.public_key, r.mu, r.sigma, r.games) for r in board]
    capsys.readouterr()
    assert main(["audit", "ratings", *files]) == 0
    assert "VERIFIED" in capsys.readouterr().out
    # And `cardroom ratings rebuild` gives the live tables again.
    assert main(["ratings", "rebuild", "--database", served.server.games.log.database]) == 0
    assert "from 3 finished game(s)" in capsys.readouterr().out
    assert rebuilt.everything() == live


async def test_ratings_read_no_secret(served: Served) -> None:
    """Non-interference: every hidden part of a rated game's log replaced
    by other bytes, the rebuilt ratings and both RPCs answer the same."""
    client = served.client
    key = Ed25519PrivateKey.generate()
    game_id = await client.create_game(KIND, seat_count=3)
    seat = await client.join(game_id, "Ada", player=key)
    await client.add_bot(game_id, seat.token, "random")
    await client.add_bot(game_id, seat.token, "heuristic")
    await start_unless_started(client, game_id, seat.token)
    await client.resign(game_id, seat.token)
    await bots_finish(client, game_id)
    ada = players.player_id(players.signing.public_key_bytes(key))
    before = (await client.ratings(KIND), await client.player(ada))
    log = served.server.games.log
    ratings = served.server.games.ratings
    live = ratings.everything()
    # The same log with every secret's value and every command record blanked.
    hidden = []
    for raw in log.read_raw(game_id):
        envelope = epb.EventEnvelope.FromString(raw)
        for secret in envelope.secrets:
            secret.value.value = b"\xff" * len(secret.value.value)
        envelope.ClearField("command")
        hidden.append(envelope.SerializeToString())
    assert hidden != log.read_raw(game_id)
    blanked = rules.result_of(
        game_id, [unpack(epb.EventEnvelope.FromString(raw).event) for raw in hidden]
    )
    stored = [unpack(epb.EventEnvelope.FromString(raw).event) for raw in log.read_raw(game_id)]
    assert blanked == rules.result_of(game_id, stored)
    # Stored in place of the real log (outside the server, as an operator
    # could), the ratings rebuilt from it are the same to the last bit.
    tables = ratings._tables
    with log.recorder.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
        for version, raw in enumerate(hidden, start=1):
            cursor.execute(
                tables._sql(
                    f"UPDATE {tables.events} SET state = ? "
                    "WHERE originator_id = ? AND originator_version = ?"
                ),
                (raw, tables._game_id_param(game_id), version),
            )
    assert log.read_raw(game_id) == hidden
    assert ratings.rebuild() == 1 and ratings.everything() == live
    assert (await client.ratings(KIND), await client.player(ada)) == before
