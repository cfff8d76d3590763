"""Signed heads through a real server: every served event is covered by a
signed head that is a function of public data alone (the same bytes for
every viewer, never past a viewer's horizon), and two honest viewers of
one game never hold a proof of equivocation."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from cardroom.cli import main
from cardroom.client import Client
from cardroom.server.api.server import Settings, start
from cardroom.trust import heads, signing
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import trust_pb2 as trpb
from tests.conftest import OPERATOR_TOKEN
from tests.trust.live import new_game, play_out, step


def by_sequence(client: Client, game_id: str) -> dict[int, trpb.SignedHead]:
    found: dict[int, trpb.SignedHead] = {}
    for head in client.heads.heads(game_id):
        assert head.sequence not in found, "two heads for one sequence from one server"
        found[head.sequence] = head
    return found


async def test_every_viewer_is_served_the_same_signed_heads_of_public_data(
    database: str, tmp_path: Path
) -> None:
    key_file = tmp_path / "server.ed25519"
    server = await start(
        Settings(
            address="127.0.0.1:0",
            database=database,
            operator_token=OPERATOR_TOKEN,
            signing_key=str(key_file),
        )
    )
    key = signing.load_or_create_key(key_file)
    address = f"127.0.0.1:{server.port}"
    try:
        async with (
            Client.connect(address) as player,
            Client.connect(address) as spectator,
            Client.connect(address) as seat,
            Client.connect(address) as operator,
        ):
            game = await new_game(player, seats=2)
            await play_out(player, game, random.Random(11))
            copies = {
                "spectator": [e async for e in spectator.watch(game.game_id, as_spectator=True)],
                "seat 1": [e async for e in seat.watch(game.game_id, game.tokens[1])],
                "operator": await operator.audit(game.game_id, OPERATOR_TOKEN),
            }
            replayed = [s async for s in operator.replay(game.game_id, OPERATOR_TOKEN)]
            # What the players were answered: one head per SubmitCommand,
            # the head of its batch's last event.
            answered = by_sequence(player, game.game_id)
            assert answered
            watched = {name: by_sequence(c, game.game_id) for name, c in
                       (("spectator", spectator), ("seat 1", seat))}  # fmt: skip
            for name in ("spectator", "seat 1"):
                events = copies[name]
                # Every event watched is covered by its own signed head ...
                assert sorted(watched[name]) == [e.sequence for e in events]
                for event in events:
                    head = watched[name][event.sequence]
                    # ... a function of (game id, sequence, served event hash)
                    # and the key alone: nothing else is in it.
                    assert head == heads.sign_head(
                        key, game.game_id, event.sequence, event.event_hash
                    )
            # The same bytes for every viewer of an event.
            assert watched["spectator"] == watched["seat 1"]
            for sequence, head in answered.items():
                assert watched["spectator"][sequence] == head
            operator_heads = by_sequence(operator, game.game_id)
            # The audit log's page head is its last event's; each replay
            # step's head is its event's.
            last = copies["operator"][-1].sequence
            assert operator_heads[last] == watched["spectator"][last]
            assert [s.event.sequence for s in replayed] == sorted(operator_heads)
            assert operator_heads == watched["spectator"]

            # Two honest viewers' heads files: no proof, sequences in common.
            a, b = tmp_path / "spectator.jsonl", tmp_path / "seat.jsonl"
            assert spectator.heads.export(a) == len(copies["spectator"])
            assert seat.heads.export(b, game.game_id) == len(copies["seat 1"])
            code = await asyncio.to_thread(
                main, ["heads", "compare", str(a), str(b), "--address", address]
            )
            assert code == 0
            code = await asyncio.to_thread(
                main,
                ["heads", "compare", str(a), "--live", address, "--game", game.game_id],
            )
            assert code == 0
            # `cardroom watch --plain --save-heads` keeps them too.
            c = tmp_path / "watched.jsonl"
            watch = ["watch", game.game_id, "--plain", "--address", address]
            assert await asyncio.to_thread(main, [*watch, "--save-heads", str(c)]) == 0
            assert c.read_text() == a.read_text()
    finally:
        await server.stop(grace=None)


async def test_a_delayed_spectator_gets_no_head_past_its_horizon(
    database: str, tmp_path: Path
) -> None:
    server = await start(
        Settings(address="127.0.0.1:0", database=database, operator_token=OPERATOR_TOKEN)
    )
    address = f"127.0.0.1:{server.port}"
    delay = 3
    try:
        async with Client.connect(address) as player, Client.connect(address) as spectator:
            policy = tpb.SpectatorPolicy(kind=tpb.SpectatorPolicy.KIND_DELAYED, delay_events=delay)
            game = await new_game(player, seats=2, policy=policy)
            rng = random.Random(2)
            for _ in range(4):
                assert await step(player, game, rng)
            version = (await player.view(game.game_id, game.tokens[0])).version
            steps = [s async for s in spectator.replay(game.game_id, as_spectator=True)]
            assert steps[-1].event.sequence == version - delay
            assert max(by_sequence(spectator, game.game_id)) == version - delay
    finally:
        await server.stop(grace=None)


async def test_a_view_carries_the_signed_head_of_the_version_it_shows(
    database: str, tmp_path: Path
) -> None:
    """GetView names what it shows: the head of its version, the same
    bytes as the watched event's, kept by the client like every head; a
    delayed spectator's is of its own horizon."""
    key_file = tmp_path / "server.ed25519"
    server = await start(
        Settings(address="127.0.0.1:0", database=database, signing_key=str(key_file))
    )
    key = signing.load_or_create_key(key_file)
    address = f"127.0.0.1:{server.port}"
    try:
        async with Client.connect(address) as player, Client.connect(address) as viewer:
            policy = tpb.SpectatorPolicy(kind=tpb.SpectatorPolicy.KIND_DELAYED, delay_events=2)
            game = await new_game(player, seats=2, policy=policy)
            rng = random.Random(3)
            for _ in range(3):
                assert await step(player, game, rng)
            version = (await player.view(game.game_id, game.tokens[0])).version
            hashes = {}
            async for event in viewer.watch(game.game_id, game.tokens[1]):
                hashes[event.sequence] = event.event_hash
                if event.sequence >= version:
                    break
            viewer.heads = type(viewer.heads)()  # only what GetView serves from here
            latest = await viewer.view(game.game_id, game.tokens[1])
            past = await viewer.view(game.game_id, game.tokens[1], version=3)
            behind = await viewer.view(game.game_id, as_spectator=True)
            assert behind.version == latest.version - 2
            kept = by_sequence(viewer, game.game_id)
            assert sorted(kept) == [3, behind.version, latest.version]
            for sequence, head in kept.items():
                assert head == heads.sign_head(key, game.game_id, sequence, hashes[sequence])
            assert past.version == 3
    finally:
        await server.stop(grace=None)
