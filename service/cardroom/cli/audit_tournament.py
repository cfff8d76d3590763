"""``cardroom audit tournament RECORD GAME_RECORD...``: verify a signed
tournament record and its games' records offline (docs/trust.md,
"Tournaments"); ``cardroom audit tournament --address HOST:PORT
TOURNAMENT_ID``: the same for a finished tournament the server ran, its
record and its games' records fetched from the server (ExportTournament,
ExportGameRecord), every one required to be signed with the key the server
serves (or the pinned --public-key), and every rating change of its games
checked against the players' rating histories the server serves
(GetPlayer). Exit 0 verified, 1 discrepancy, 2 could not run."""

from __future__ import annotations

import argparse
import asyncio

from cardroom.cli.common import EXIT_DISCREPANCY, EXIT_OK, UsageError, connect, credential
from cardroom.client import CardroomError, Client
from cardroom.domain.ratings import Rating
from cardroom.trust import keyring, record, tournament_record
from cardroom.trust.envelopes import unpack
from cardroom.trust.rating_changes import RatedEntry
from cardroom.trust.tournament_audit import audit_tournament
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import tournament_pb2 as tnpb
from cardroom.v1 import trust_pb2 as trpb

USAGE = (
    "cardroom audit tournament RECORD GAME_RECORD... (the tournament's record, then its "
    "games'), or cardroom audit tournament --address HOST:PORT TOURNAMENT_ID"
)


def run(args: argparse.Namespace, public_key: bytes | None) -> int:
    if args.address is not None:
        if len(args.games) != 1 or args.keys is not None:
            raise UsageError(f"usage: {USAGE} (with --address: one id, no --keys)")
        return asyncio.run(_live(args, args.games[0], public_key))
    if not args.games:
        raise UsageError(f"usage: {USAGE}")
    path, *game_paths = args.games
    try:
        tournament = tournament_record.read_record(path)
    except (OSError, tournament_record.TournamentRecordError) as error:
        raise UsageError(f"{path}: {error}") from None
    games: list[trpb.GameRecord] = []
    for game_path in game_paths:
        try:
            games.append(record.read_record(game_path))
        except (OSError, record.RecordError) as error:
            raise UsageError(f"{game_path}: {error}") from None
    keys = None
    if args.keys is not None:
        try:
            keys = keyring.read_key_list(args.keys)
        except keyring.KeyListError as error:
            raise UsageError(str(error)) from None
    report = audit_tournament(tournament, games, public_key=public_key, keys=keys)
    print(report.render())
    return EXIT_OK if report.ok else EXIT_DISCREPANCY


async def _live(args: argparse.Namespace, tournament_id: str, public_key: bytes | None) -> int:
    token = credential(args)
    try:
        async with connect(args) as client:
            served = bytes((await client.server_key()).public_key)
            exported = await client.export_tournament(tournament_id)
            games = [await client.export_record(g, token) for g in exported.game_ids]
            histories = await rating_histories(client, exported.record)
    except CardroomError as error:
        raise UsageError(f"{args.address}: {error.code.name}: {error.details}") from None
    if public_key is not None and served != public_key:
        print(f"the server at {args.address} serves another key than the pinned one")
        return EXIT_DISCREPANCY
    report = audit_tournament(
        exported.record, games, public_key=public_key or served, histories=histories
    )
    print(report.render())
    return EXIT_OK if report.ok else EXIT_DISCREPANCY


async def rating_histories(
    client: Client, tournament: tnpb.TournamentRecord
) -> dict[bytes, list[RatedEntry]]:
    """Every registered player's rated games as the server serves them,
    oldest first (an unreadable record is left to the audit to name)."""
    try:
        body = tournament_record.record_body(tournament)
    except tournament_record.TournamentRecordError:
        return {}
    keys: list[bytes] = []
    for raw in body.events:
        event = unpack(epb.EventEnvelope.FromString(raw).event)
        if isinstance(event, tnpb.PlayerRegistered) and event.player.public_key not in keys:
            keys.append(bytes(event.player.public_key))
    histories: dict[bytes, list[RatedEntry]] = {}
    for key in keys:
        games = await client.rated_games(key)
        histories[key] = [  # oldest first; GetPlayer lists the newest first
            RatedEntry(
                g.game_id,
                g.kind,
                g.rank,
                Rating(g.rating_after.mu, g.rating_after.sigma, g.rating_after.games),
            )
            for g in reversed(games)
        ]
    return histories
