"""``cardroom tournament simulate KIND``: a bot tournament from start to
audit, on a temporary server of its own unless ``--address``: bot players
with keys of their own register, the server pairs each round and creates
its games, the bots take their reserved seats (TN-SEAT) and play them out,
and the finished tournament is exported and audited as an auditor would
(``cardroom audit tournament``). What an organizer rehearses before a real
event, and a bot league: the standings rank the bot levels."""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import statistics
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from cardroom.cli.audit_tournament import rating_histories
from cardroom.cli.common import EXIT_OK, UsageError, connect, unreachable
from cardroom.cli.temporary import temporary_server
from cardroom.client import CardroomError, Client
from cardroom.client.bots import NoSuchBot, strategy_for
from cardroom.client.bots.runner import play_bots
from cardroom.client.follow import transient
from cardroom.client.sessions import BotSeat
from cardroom.domain import registry
from cardroom.trust import signing
from cardroom.trust.envelopes import unpack
from cardroom.trust.tournament_audit import TournamentReport, audit_tournament
from cardroom.v1 import tournament_pb2 as tnpb

EXIT_AUDIT_FAILED = 1


@dataclass(frozen=True)
class Entrant:
    key: Ed25519PrivateKey
    name: str
    bot: str

    @property
    def public_key(self) -> bytes:
        return signing.public_key_bytes(self.key)


def entrants(count: int, bots: list[str], seed: int) -> list[Entrant]:
    """``count`` bot players, the levels dealt in turn; their keys drawn
    from ``seed``, so a run can be repeated."""
    out = []
    for i in range(count):
        secret = hashlib.sha256(f"cardroom tournament simulate {seed} {i}".encode()).digest()
        bot = bots[i % len(bots)]
        out.append(Entrant(Ed25519PrivateKey.from_private_bytes(secret), f"{bot} {i + 1}", bot))
    return out


def check(args: argparse.Namespace) -> list[str]:
    """The bot levels, or UsageError naming what is wrong."""
    if args.kind not in registry.games():
        raise UsageError(f"unknown game {args.kind!r}; known: {', '.join(registry.games())}")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not bots:
        raise UsageError("--bots names no bot")
    for bot in bots:
        try:
            strategy_for(args.kind, bot)
        except NoSuchBot as error:
            raise UsageError(str(error)) from None
    if args.players < 2 or args.table_size < 1 or args.rounds < 0:
        raise UsageError("--players must be 2 or more, --table-size 1 or more, --rounds 0 or more")
    return bots


def run(args: argparse.Namespace) -> int:
    bots = check(args)
    if args.address is None:
        with temporary_server() as server:
            print(f"started a temporary server on {server.address}")
            return asyncio.run(_simulate(args, bots, server.address))
    return asyncio.run(_simulate(args, bots, args.address))


async def _simulate(args: argparse.Namespace, bots: list[str], address: str) -> int:
    try:
        async with connect(args, address) as client:
            view, report = await simulate(
                client,
                args.kind,
                entrants(args.players, bots, args.seed),
                table_size=args.table_size,
                rounds=args.rounds,
                swiss=not args.round_robin,
                seed=args.seed,
            )
    except CardroomError as error:
        if transient(error):
            raise unreachable(address, error.details) from None
        raise
    from cardroom.cli.tournament import standings_lines

    print("\n".join(standings_lines(view)))
    print("\n".join(level_lines(view, entrants(args.players, bots, args.seed))))
    print(report.render())
    return EXIT_OK if report.ok else EXIT_AUDIT_FAILED


async def simulate(
    client: Client,
    kind: str,
    players: list[Entrant],
    *,
    table_size: int,
    rounds: int,
    swiss: bool = True,
    seed: int = 0,
) -> tuple[tnpb.TournamentView, TournamentReport]:
    """Run one tournament of ``players`` to its end through ``client``'s
    server, then export and audit it: the finished view and the report."""
    created = await client.create_tournament(
        kind, table_size=table_size, rounds=rounds, swiss=swiss, name=f"simulated {kind}"
    )
    tournament_id = created.tournament_id
    for player in players:
        await client.register_player(tournament_id, player.key, player.name)
    await client.start_tournament(tournament_id, created.organizer_token)
    by_key = {p.public_key: p for p in players}
    playing: list[asyncio.Task[None]] = []
    view = tnpb.TournamentView()
    # Each round is played as soon as its pairing arrives on the feed; the
    # feed ends once the tournament is finished.
    async for response in client.watch_tournament(tournament_id):
        view = response.tournament
        event = unpack(response.event)
        if isinstance(event, tnpb.RoundPaired):
            playing.append(
                asyncio.create_task(_play_round(client, tournament_id, kind, event, by_key, seed))
            )
        elif isinstance(event, tnpb.RoundCompleted):
            total = view.created.rounds or "?"
            print(f"round {event.round} of {total}: {len(view.rounds[-1].tables)} table(s) played")
    await asyncio.gather(*playing)
    exported = await client.export_tournament(tournament_id)
    games = [await client.export_record(game_id) for game_id in exported.game_ids]
    server_key = (await client.server_key()).public_key
    histories = await rating_histories(client, exported.record)
    report = audit_tournament(exported.record, games, public_key=server_key, histories=histories)
    return view, report


async def _play_round(
    client: Client,
    tournament_id: str,
    kind: str,
    paired: tnpb.RoundPaired,
    by_key: dict[bytes, Entrant],
    seed: int,
) -> None:
    tables = []
    for table in paired.tables:
        seats = []
        for public in table.seats:
            player = by_key[bytes(public)]
            handle = await client.join_tournament_game(
                tournament_id, table.game_id, player.key, player.name
            )
            seats.append(BotSeat(handle.seat, handle.token, player.bot))
        tables.append((table.game_id, seats))
    await asyncio.gather(
        *(play_bots(client, game_id, kind, seats, seed=seed) for game_id, seats in tables)
    )


def level_lines(view: tnpb.TournamentView, players: list[Entrant]) -> list[str]:
    """Each bot level's mean points a game (the standings by level)."""
    level = {p.public_key: p.bot for p in players}
    points: dict[str, list[float]] = {}
    for standing in view.standings:
        if standing.games:
            share = standing.half_points / 2 / (standing.games + standing.byes)
            points.setdefault(level.get(bytes(standing.public_key), "?"), []).append(share)
    return [
        f"{bot}: {statistics.fmean(shares):.2f} points a round over {len(shares)} player(s)"
        for bot, shares in sorted(points.items(), key=lambda item: -statistics.fmean(item[1]))
    ]
