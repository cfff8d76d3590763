"""A bot tournament, in process: ``python3 dev.py bench tournament``
(or ``python -m bench.tournament``).

For each game kind, a Swiss of 64 players over 5 rounds at tables of 4
(docs/rules/tournaments.md), every game a bot game (random legal moves)
recorded and signed as the server records one (sealed events, hash chain,
committed seed, signed record), the tournament recorded around them; then
the tournament audit (``cardroom.trust.tournament_audit``) over the whole.
Printed per kind:

* wall time of the tournament;
* CPU per game inside the tournament against a lone game's (the same games'
  code path, played before the tournament, outside one): a same-run ratio,
  so the tournament's own cost (pairing, standings, its record) shows;
* the tournament's own CPU (its decider and its record, games excluded);
* the audit's time per game, against the game audit's alone (same run).

It runs in one process without a server: what the server adds (gRPC, the
store) is in the other benches. CPU is the process's own (time.process_time),
steadier than wall time on a shared machine (notes/wave-4).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import random
import statistics
import sys
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from google.protobuf.message import Message

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import DEALER, GUEST, OPERATOR, Actor, Event
from cardroom.domain.tournament import Tournament, decide, evolve
from cardroom.domain.tournament.rules import draw_round
from cardroom.trust import chain, chance, commitments, record, signing
from cardroom.trust import tournament_record as records
from cardroom.trust.audit import audit_record
from cardroom.trust.envelopes import command_record, to_envelope
from cardroom.trust.tournament_audit import audit_tournament, game_ranks, seat_claim, seat_proofs
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import tournament_pb2 as tnpb
from cardroom.v1 import trust_pb2 as trpb

NOW = datetime(2026, 1, 1, tzinfo=UTC)
SERVER_KEY = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"bench server").digest())
MAX_COMMANDS = 20_000


@dataclass
class Game:
    """One bot game being recorded: the full table and its stored events."""

    kind: str
    game_id: str
    seed: bytes
    stored: list[bytes] = field(default_factory=list)
    dealt: int = 0
    picks: int = 0
    table: tables.Table | None = None

    def append(self, actor: Actor, command: Message, command_id: str = "") -> None:
        assert self.table is not None
        events = tables.decide(self.table, actor, command)
        record_pb = command_record(actor, command, command_id)
        batch = []
        for i, e in enumerate(events):
            envelope = to_envelope(
                self.game_id, len(self.stored) + i + 1, NOW, e, record_pb if i == 0 else None
            )
            batch.append(commitments.seal_envelope(envelope))
            self.table = tables.evolve(self.table, e)
        self.stored.extend(chain.link(batch, chain.chain_head(self.stored)))

    def deal(self) -> None:
        """Every chance outcome the table waits for, drawn from the seed."""
        assert self.table is not None
        while tables.chance_needed(self.table) is not None:
            outcome = chance.chance_outcome(
                self.table, self.dealt, seed=self.seed, game_id=self.game_id, picks=self.picks
            )
            self.append(DEALER, outcome)
            self.dealt += 1
            self.picks += isinstance(outcome, tpb.DealerPick)


def play_game(
    kind: str,
    game_id: str,
    seats: int,
    choices: int,
    players: Sequence[Ed25519PrivateKey] = (),
) -> tuple[trpb.GameRecord, list[int]]:
    """A bot game (random legal moves) recorded and signed; its ranks. Each
    seat is signed by its player's key where this build's seats carry player
    proofs (SeatTaken.player), as a tournament's games are."""
    rules = registry.game(kind)
    game = Game(kind, game_id, hashlib.sha256(game_id.encode()).digest())
    created = tables.create(rules, rules.options_type(), seats, set_deal=False)
    assert isinstance(created.public, tpb.GameCreated)
    first = to_envelope(game_id, 1, NOW, Event(created.public, (chance.seed_secret(game.seed),)))
    game.stored.extend(chain.link([commitments.seal_envelope(first)], chain.ZERO_HASH))
    game.table = tables.initial(rules, created.public)
    for seat in range(seats):
        token = hashlib.sha256(f"{game_id}/{seat}".encode()).digest()
        command = tpb.TakeSeat(seat=seat, player_name=f"P{seat}", token_sha256=token)
        if players and seat_proofs():
            proof: Any = getattr(command, "player")  # noqa: B009 (a field of newer builds)
            proof.public_key = signing.public_key_bytes(players[seat])
            proof.signature = players[seat].sign(seat_claim(game_id, seat, b""))
        game.append(GUEST, command)
    game.append(OPERATOR, tpb.StartGame())
    game.deal()
    rng = random.Random(choices)
    for n in range(MAX_COMMANDS):
        if game.table.finished:
            break
        seat = tables.awaited(game.table)[0]
        action = rng.choice(tables.legal_actions(game.table, seat))
        game.append(Actor.of_seat(seat), action, f"c{n}")
        game.deal()
    else:
        raise RuntimeError(f"a {kind} game did not finish in {MAX_COMMANDS} commands")
    envelopes = [epb.EventEnvelope.FromString(raw) for raw in game.stored]
    ranks = game_ranks(envelopes)
    assert ranks is not None
    return record.export_record(game.stored, SERVER_KEY, exported_at=NOW), ranks


@dataclass
class Run:
    """A finished tournament: its record, its games, and what it cost."""

    record: tnpb.TournamentRecord
    games: list[trpb.GameRecord]
    wall: float
    cpu: float
    own_cpu: float


def tournament(kind: str, players: int, rounds: int, table_size: int) -> Run:
    tournament_id = f"bench-{kind}"
    state = Tournament()
    stored: list[bytes] = []
    own = 0.0

    def do(command: Message) -> None:
        nonlocal state, own
        began = time.process_time()
        events = decide(state, command)
        for e in events:
            state = evolve(state, e)
        records.append_batch(stored, tournament_id, command, events, recorded_at=NOW)
        own += time.process_time() - began

    seed = hashlib.sha256(tournament_id.encode()).digest()
    wall, cpu = time.perf_counter(), time.process_time()
    do(
        tnpb.CreateTournament(
            tournament_id=tournament_id,
            kind=kind,
            table_size=table_size,
            format=tnpb.TournamentFormat.KIND_SWISS,
            rounds=rounds,
        )
    )
    keys = {}
    for i in range(players):
        player = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(f"p{i}".encode()).digest())
        keys[signing.public_key_bytes(player)] = player
        do(records.sign_entry(player, tournament_id, f"bot {i}"))
    do(tnpb.CloseRegistration(seed_commitment=hashlib.sha256(seed).digest()))
    games = []
    for number in range(1, rounds + 1):
        began = time.process_time()
        count = len(draw_round(state, seed)[0].tables)
        own += time.process_time() - began
        ids = [
            str(uuid.uuid5(uuid.NAMESPACE_URL, f"{tournament_id}/{number}/{t}"))
            for t in range(count)
        ]
        do(tnpb.PairRound(round=number, seed=seed, game_ids=ids))
        for table in state.rounds[-1].tables:
            seated = [keys[k] for k in table.seats]
            game, ranks = play_game(
                kind, table.game_id, table_size, number * 1000 + table.number, seated
            )
            games.append(game)
            do(
                tnpb.RecordGame(
                    round=number, table=table.number, game_id=table.game_id, ranks=ranks
                )
            )
    do(tnpb.FinishTournament(seed=seed))
    return Run(
        records.export_record(stored, SERVER_KEY, exported_at=NOW),
        games,
        time.perf_counter() - wall,
        time.process_time() - cpu,
        own,
    )


def measure(kind: str, players: int, rounds: int, table_size: int, lone: int) -> list[str]:
    play_game(kind, f"warm-{kind}", table_size, 0)  # imports and first-call caches
    alone = []
    alone_events = 0
    for i in range(lone):
        began = time.process_time()
        game, _ = play_game(kind, f"lone-{kind}-{i}", table_size, 10**6 + i)
        alone.append(time.process_time() - began)
        alone_events += len(record.record_body(game).events)
    run = tournament(kind, players, rounds, table_size)
    games = len(run.games)
    audit_wall, audit_cpu = time.perf_counter(), time.process_time()
    report = audit_tournament(run.record, run.games, public_key=run.record.public_key)
    audit_wall, audit_cpu = time.perf_counter() - audit_wall, time.process_time() - audit_cpu
    if not report.ok:
        raise RuntimeError(
            f"the audit of the bench's own {kind} tournament failed:\n{report.render()}"
        )
    game_audits = []
    for game in run.games[: max(lone, 1)]:
        began = time.process_time()
        audit_record(game, public_key=run.record.public_key)
        game_audits.append(time.process_time() - began)
    events = sum(len(record.record_body(game).events) for game in run.games)
    per_game = run.cpu / games
    lone_median = statistics.median(alone)
    audit_game = statistics.median(game_audits)
    return [
        f"{kind}: {players} players, {rounds} rounds at tables of {table_size}: {games} games",
        f"  wall time            {run.wall:8.1f} s ({run.cpu:.1f} s CPU)",
        f"  CPU per game         {per_game * 1000:8.1f} ms in the tournament, "
        f"{lone_median * 1000:.1f} ms alone (median of {lone}): {per_game / lone_median:.2f}x",
        f"  CPU per game event   {run.cpu / events * 1000:8.3f} ms in the tournament, "
        f"{sum(alone) / alone_events * 1000:.3f} ms alone: "
        f"{(run.cpu / events) / (sum(alone) / alone_events):.2f}x",
        f"  tournament's own CPU {run.own_cpu * 1000:8.1f} ms in all "
        f"({run.own_cpu / games * 1000:.2f} ms a game: decider, pairing, its record)",
        f"  audit per game       {audit_cpu / games * 1000:8.1f} ms CPU "
        f"({audit_wall / games * 1000:.1f} ms wall; a game audit alone {audit_game * 1000:.1f} "
        f"ms CPU, median of {len(game_audits)}: {audit_cpu / games / audit_game:.2f}x)",
    ]


async def _served(kind: str, players: int, rounds: int, table_size: int, lone: int) -> list[str]:
    """The same Swiss through a real server (SQLite, a temporary folder):
    players registered with their keys, each round's games created by the
    server, seats taken with the players' keys, random bots playing through
    the API one table at a time; against lone games of the same size played
    the same way on the same server first (a same-run ratio)."""
    import tempfile

    from cardroom.client import Client
    from cardroom.client.bots.runner import play_bots
    from cardroom.client.sessions import BotSeat
    from cardroom.server.api.server import Settings, start

    async def finished_round(client: Client, tid: str, number: int) -> tnpb.TournamentView:
        for _ in range(20_000):
            view = await client.tournament(tid)
            if len(view.rounds) >= number or view.finished:
                return view
            await asyncio.sleep(0.01)
        raise RuntimeError(f"round {number} was never paired")

    with tempfile.TemporaryDirectory(prefix="cardroom-bench-") as folder:
        server = await start(Settings(address="127.0.0.1:0", database=f"{folder}/bench.sqlite3"))
        client = Client.connect(f"127.0.0.1:{server.port}")
        try:
            alone = []
            for i in range(lone + 1):
                began = time.perf_counter()
                game_id = await client.create_game(kind, seat_count=table_size)
                seats = [await client.join(game_id, f"bot {s}") for s in range(table_size)]
                await client.start(game_id, seats[0].token)
                bots = [BotSeat(h.seat, h.token, "random") for h in seats]
                await play_bots(client, game_id, kind, bots, seed=i)
                if i:  # the first warms the imports and caches
                    alone.append(time.perf_counter() - began)
            keys = [
                Ed25519PrivateKey.from_private_bytes(hashlib.sha256(f"s{i}".encode()).digest())
                for i in range(players)
            ]
            by_key = {signing.public_key_bytes(k): k for k in keys}
            wall, cpu = time.perf_counter(), time.process_time()
            created = await client.create_tournament(kind, table_size=table_size, rounds=rounds)
            tid = created.tournament_id
            for i, key in enumerate(keys):
                await client.register_player(tid, key, f"bot {i}")
            await client.start_tournament(tid, created.organizer_token)
            games = 0
            for number in range(1, rounds + 1):
                view = await finished_round(client, tid, number)
                for table in view.rounds[number - 1].tables:
                    seats = [
                        await client.join_tournament_game(tid, table.game_id, by_key[k], "bot")
                        for k in table.seats
                    ]
                    bots = [BotSeat(h.seat, h.token, "random") for h in seats]
                    await play_bots(client, table.game_id, kind, bots, seed=games)
                    games += 1
            for _ in range(20_000):
                if (await client.tournament(tid)).finished:
                    break
                await asyncio.sleep(0.01)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            began = time.perf_counter()
            exported = await client.export_tournament(tid)
            records_ = [await client.export_record(g) for g in exported.game_ids]
            report = audit_tournament(
                exported.record, records_, public_key=exported.record.public_key
            )
            audit_wall = time.perf_counter() - began
            if not report.ok:
                raise RuntimeError(f"the served {kind} tournament fails its audit")
        finally:
            await client.close()
            await server.stop(grace=None)
    lone_median = statistics.median(alone)
    return [
        f"{kind}, served (SQLite): {players} players, {rounds} rounds at tables of "
        f"{table_size}: {games} games",
        f"  wall time            {wall:8.1f} s ({cpu:.1f} s CPU, server and bots in one process)",
        f"  wall per game        {wall / games * 1000:8.1f} ms in the tournament, "
        f"{lone_median * 1000:.1f} ms alone (median of {lone}): {wall / games / lone_median:.2f}x",
        f"  export + audit       {audit_wall / games * 1000:8.1f} ms a game (wall)",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 dev.py bench tournament", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--lone", type=int, default=8, help="lone games per kind, the baseline")
    parser.add_argument("--game", action="append", help="only this game kind (repeatable)")
    parser.add_argument("--quick", action="store_true", help="16 players, 2 rounds, 3 lone games")
    parser.add_argument(
        "--served",
        action="store_true",
        help="through a real server (SQLite): the server creates the games, bots play them",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.rounds, args.lone = 16, 2, 3
    if args.served:
        for kind in args.game or sorted(registry.games()):
            lines = asyncio.run(
                _served(kind, args.players, args.rounds, args.table_size, args.lone)
            )
            print("\n".join(lines))
            sys.stdout.flush()
        return 0
    for kind in args.game or sorted(registry.games()):
        print("\n".join(measure(kind, args.players, args.rounds, args.table_size, args.lone)))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
