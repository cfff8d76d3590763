"""``cardroom audit tournament RECORD GAME_RECORD...``: verify a signed
tournament record and its games' records offline (docs/trust.md,
"Tournaments"). Exit 0 verified, 1 discrepancy, 2 could not run."""

from __future__ import annotations

import argparse

from cardroom.cli.common import EXIT_DISCREPANCY, EXIT_OK, UsageError
from cardroom.trust import keyring, record, tournament_record
from cardroom.trust.tournament_audit import audit_tournament
from cardroom.v1 import trust_pb2 as trpb

USAGE = "cardroom audit tournament RECORD GAME_RECORD... (the tournament's record, then its games')"


def run(args: argparse.Namespace, public_key: bytes | None) -> int:
    if args.address is not None:
        raise UsageError("cardroom audit tournament reads files: it takes no --address")
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
