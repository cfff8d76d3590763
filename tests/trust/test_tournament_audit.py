"""The tournament audit re-derives a tournament from its signed record and
its games' records, and names the first thing that does not match: a
changed table, a changed or invented result, a game that is not the
tournament's, a registration not signed by its player, rounds out of order,
standings that do not follow (docs/trust.md, "Tournaments")."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from cardroom.cli import main
from cardroom.trust import keyring, record, signing
from cardroom.trust import tournament_record as records
from cardroom.trust.tournament_audit import TournamentReport, audit_tournament, seat_proofs
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import tournament_pb2 as tnpb
from tests.tournament.records import (
    CLOCK,
    SERVER_KEY,
    Played,
    events_of,
    forged,
    play_game,
    played_tournament,
    player_key,
)


@pytest.fixture(scope="module")
def played() -> Played:
    return played_tournament()


def first(report: TournamentReport) -> tuple[str, str]:
    assert report.problems, report.render()
    problem = report.problems[0]
    return problem.check, str(problem).split("] ", 1)[1]  # "event N: ..." where it has one


def rewrite(envelope: epb.EventEnvelope, message: tnpb.RoundPaired | object) -> None:
    envelope.event.Pack(message)  # type: ignore[arg-type]


def unpacked(envelope: epb.EventEnvelope, kind: type) -> object:
    message = kind()
    assert envelope.event.Unpack(message)
    return message


def test_an_honest_tournament_verifies(played: Played) -> None:
    report = audit_tournament(played.record(), played.games.values())
    assert report.ok, report.render()
    assert report.games == 4
    assert "VERIFIED" in report.render()


def test_a_changed_table_assignment_is_named(played: Played) -> None:
    envelopes = played.envelopes()
    at = events_of(envelopes, tnpb.RoundPaired)[1]
    paired = unpacked(envelopes[at], tnpb.RoundPaired)
    assert isinstance(paired, tnpb.RoundPaired)
    a, b = paired.tables[0], paired.tables[1]
    a.seats[0], b.seats[0] = b.seats[0], a.seats[0]
    rewrite(envelopes[at], paired)
    check, message = first(audit_tournament(forged(envelopes), played.games.values()))
    assert check == "pairing"
    assert message.startswith(f"event {at + 1}: round 2, table 1: the seed and the standings seat")


def test_a_changed_result_is_caught_against_the_games_own_events() -> None:
    # The server records other ranks for round 1's first table, consistently
    # through the standings: only the game's own events tell.
    def lie(round_number: int, table: int, given: list[int]) -> list[int]:
        if (round_number, table) != (1, 1):
            return given
        return [1, 2, 3] if given != [1, 2, 3] else [3, 2, 1]

    lied = played_tournament(ranks=lie)
    check, message = first(audit_tournament(lied.record(), lied.games.values()))
    assert check == "results"
    assert message.startswith("round 1, table 1: the tournament records ranks")


def test_an_invented_result_without_its_game_is_caught(played: Played) -> None:
    games = [
        g for gid, g in played.games.items() if gid != played.state.rounds[0].tables[0].game_id
    ]
    check, message = first(audit_tournament(played.record(), games))
    assert (check, message.split(":")[0]) == ("games", "round 1, table 1")
    assert "no record of its game" in message


def test_a_game_that_is_not_the_tournaments_is_caught(played: Played) -> None:
    stranger, _ = play_game("smiles-and-daggers", "someone-elses-game", 3, 1)
    check, message = first(audit_tournament(played.record(), [*played.games.values(), stranger]))
    assert (check, message) == ("games", "game someone-elses-game is not a game of this tournament")


def test_a_game_played_under_the_tables_id_but_signed_by_another_key_is_caught(
    played: Played,
) -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    table = played.state.rounds[0].tables[0]
    other = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"other").digest())
    swapped, _ = play_game("smiles-and-daggers", table.game_id, 3, 101, key=other)
    games = {**played.games, table.game_id: swapped}
    check, message = first(audit_tournament(played.record(), games.values()))
    assert check == "games" and "another key than the pinned one" in message


def test_a_game_played_without_the_tournaments_turn_clock_is_caught(played: Played) -> None:
    """TN-CLOCK: the record says every game has a 30-second clock; the
    games were created without one."""
    envelopes = played.envelopes()
    (at,) = events_of(envelopes, tnpb.TournamentCreated)
    created = unpacked(envelopes[at], tnpb.TournamentCreated)
    assert isinstance(created, tnpb.TournamentCreated)
    created.table_options.seconds_per_decision = 30
    rewrite(envelopes[at], created)
    check, message = first(audit_tournament(forged(envelopes), played.games.values()))
    assert check == "games"
    assert message.endswith(
        "is played with seconds_per_decision 0, not the tournament's 30 (TN-CLOCK)"
    ), message


def test_a_registration_not_signed_by_its_player_is_caught(played: Played) -> None:
    envelopes = played.envelopes()
    at = events_of(envelopes, tnpb.PlayerRegistered)[2]
    registered = unpacked(envelopes[at], tnpb.PlayerRegistered)
    assert isinstance(registered, tnpb.PlayerRegistered)
    registered.player.signature = records.sign_entry(SERVER_KEY, "t-0001", "").player.signature
    rewrite(envelopes[at], registered)
    check, message = first(audit_tournament(forged(envelopes), played.games.values()))
    assert (check, message) == (
        "entries",
        f"event {at + 1}: player 2's registration is not signed by their key for this tournament",
    )


def test_reordered_rounds_are_caught(played: Played) -> None:
    envelopes = played.envelopes()
    one, two = events_of(envelopes, tnpb.RoundPaired)
    end = events_of(envelopes, tnpb.TournamentFinished)[0]
    swapped = [*envelopes[:one], *envelopes[two:end], *envelopes[one:two], *envelopes[end:]]
    check, message = first(audit_tournament(forged(swapped), played.games.values()))
    assert check == "pairing"
    assert f"event {one + 1}: the rules refuse RoundPaired" in message
    assert "TN-ROUND: the next round is 1, not 2" in message


def test_standings_that_do_not_follow_are_caught(played: Played) -> None:
    envelopes = played.envelopes()
    at = events_of(envelopes, tnpb.TournamentFinished)[0]
    finished = unpacked(envelopes[at], tnpb.TournamentFinished)
    assert isinstance(finished, tnpb.TournamentFinished)
    top, second = finished.standings[0].public_key, finished.standings[1].public_key
    finished.standings[0].public_key, finished.standings[1].public_key = second, top
    rewrite(envelopes[at], finished)
    check, message = first(audit_tournament(forged(envelopes), played.games.values()))
    assert check == "standings"
    assert message.startswith(f"event {at + 1}: place 1: the results give")


def test_a_record_changed_after_signing_fails_its_signature(played: Played) -> None:
    record = played.record()
    body = tnpb.TournamentRecordBody.FromString(record.body)
    body.kind = "smoke-and-mirrors"
    record.body = body.SerializeToString(deterministic=True)
    report = audit_tournament(record, played.games.values())
    assert first(report) == ("signature", "the signature does not match the record body")
    pinned = audit_tournament(played.record(), played.games.values(), public_key=bytes(32))
    assert first(pinned)[0] == "signature"


def test_game_ranks_are_the_ratings_ranks_winners_first_departed_seats_last() -> None:
    from cardroom.trust.tournament_audit import game_ranks
    from cardroom.v1 import table_pb2 as tpb

    def envelope(message: object) -> epb.EventEnvelope:
        e = epb.EventEnvelope()
        e.event.Pack(message)  # type: ignore[arg-type]
        return e

    stream = [
        envelope(tpb.GameCreated(kind="x", seat_count=4)),
        *(envelope(tpb.SeatTaken(seat=seat, player_name=f"P{seat}")) for seat in range(4)),
        envelope(tpb.SeatResigned(seat=3)),
        envelope(tpb.GameFinished(winners=[1])),
    ]
    assert game_ranks(stream) == [2, 1, 2, 3]
    assert game_ranks(stream[:2]) is None


def test_the_command_audits_the_files_and_exits_by_what_it_found(
    played: Played, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tournament = tmp_path / "tournament.rec"
    records.write_record(played.record(), tournament)
    games = []
    for game_id, game in played.games.items():
        path = tmp_path / f"{game_id}.rec"
        record.write_record(game, path)
        games.append(str(path))
    key = signing.public_key_bytes(SERVER_KEY).hex()
    assert main(["audit", "tournament", str(tournament), *games, "--public-key", key]) == 0
    assert "VERIFIED" in capsys.readouterr().out
    listing = tmp_path / "keys.json"
    listing.write_text(keyring.KeyList((keyring.ListedKey(bytes.fromhex(key)),)).dumps())
    assert main(["audit", "tournament", str(tournament), *games, "--keys", str(listing)]) == 0
    capsys.readouterr()
    assert main(["audit", "tournament", str(tournament), *games[1:]]) == 1
    assert "no record of its game" in capsys.readouterr().out
    assert main(["audit", "tournament", games[0], *games]) == 2
    assert main(["audit", "tournament"]) == 2
    assert "usage: cardroom audit tournament RECORD" in capsys.readouterr().err
    assert main(["audit", games[0], games[1]]) == 2


@pytest.mark.skipif(not seat_proofs(), reason="this build's seats carry no player proofs yet")
def test_a_game_whose_seats_other_keys_signed_is_caught(played: Played) -> None:
    """The table's game, played under its id and signed by the server, but
    seated by other players (each seat validly signed by its own key)."""
    table = played.state.rounds[0].tables[0]
    strangers = [player_key(100 + seat) for seat in range(3)]
    swapped, _ = play_game("smiles-and-daggers", table.game_id, 3, 101, players=strangers)
    games = {**played.games, table.game_id: swapped}
    check, message = first(audit_tournament(played.record(), games.values()))
    assert check == "games"
    assert f"round 1, table 1: seat 0 of game {table.game_id} is not taken by" in message


def test_an_unfinished_tournament_cannot_be_re_drawn(played: Played) -> None:
    envelopes = played.envelopes()
    end = events_of(envelopes, tnpb.TournamentFinished)[0]
    with pytest.raises(ValueError, match="only a finished tournament is exported"):
        records.export_record(played.stored[:end], SERVER_KEY)
    report = audit_tournament(forged(envelopes[:end]), played.games.values())
    assert first(report) == (
        "rules",
        "the tournament is not finished: its seed is not revealed (TN-SEED)",
    )


def test_a_tournament_spanning_a_key_rotation_audits_with_the_key_list(played: Played) -> None:
    """Round 1's games signed by the key before a rotation, the rest and
    the tournament by the key after it: the key list names both."""
    old = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"old server key").digest())
    games = dict(played.games)
    keys_of = {signing.public_key_bytes(player_key(i)): player_key(i) for i in range(6)}
    for table in played.state.rounds[0].tables:
        seated = [keys_of[k] for k in table.seats]
        games[table.game_id], _ = play_game(
            "smiles-and-daggers", table.game_id, 3, 100 + table.number, key=old, players=seated
        )
    rotated = CLOCK  # both keys sign at the records' export time, CLOCK
    listing = keyring.KeyList(
        (
            keyring.ListedKey(signing.public_key_bytes(old), None, rotated + timedelta(seconds=1)),
            keyring.ListedKey(signing.public_key_bytes(SERVER_KEY), rotated, None),
        )
    )
    report = audit_tournament(played.record(), games.values(), keys=listing)
    assert report.ok, report.render()
    assert not audit_tournament(played.record(), games.values()).ok  # one key: round 1 fails
    alone = keyring.KeyList(listing.keys[1:])
    check, message = first(audit_tournament(played.record(), games.values(), keys=alone))
    assert (
        check == "games"
        and f"names key {signing.fingerprint(listing.keys[0].public_key)}" in message
    )
