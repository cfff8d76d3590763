"""The server's side of the trust scheme, end to end: the key it serves
signs the records it exports; only finished games are exported; games of
every kind, under every spectator policy, pass the audit as played; the
chance seed stays hidden, even from the operator, until the game is over."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardroom.client import Client, RuleBroken
from cardroom.domain import registry
from cardroom.server.api.server import Settings, start
from cardroom.trust import chain, chance, record, signing
from cardroom.trust.audit import audit_record, compare_viewer_stream
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import trust_pb2 as trpb
from tests.conftest import OPERATOR_TOKEN, Served
from tests.trust.live import finished_game, new_game, play_out, read_stored, step


def kinds() -> list[str]:
    try:
        return sorted(registry.games())
    except Exception:  # a game mid-edit elsewhere must not hide the others
        return ["smoke-and-mirrors"]


async def test_the_served_key_verifies_exported_records(served: Served) -> None:
    key = await served.client.server_key()
    assert len(key.public_key) == signing.PUBLIC_KEY_BYTES
    assert key.fingerprint == signing.fingerprint(key.public_key)
    assert key.public_key == signing.public_key_bytes(served.server.games.signing_key)
    game = await finished_game(served.client)
    signed = await served.client.export_record(game.game_id, game.tokens[0])
    assert signed.public_key == key.public_key
    assert signing.verify(signed, key.public_key)
    assert audit_record(signed, public_key=key.public_key).ok


async def test_a_restarted_server_keeps_its_key(database: str) -> None:
    settings = Settings(address="127.0.0.1:0", database=database, operator_token=OPERATOR_TOKEN)
    server = await start(settings)
    try:
        async with Client.connect(f"127.0.0.1:{server.port}") as client:
            game = await finished_game(client)
            first = await client.export_record(game.game_id, game.tokens[0])
    finally:
        await server.stop(grace=None)
    again = await start(settings)  # the same database (and so the same key file)
    try:
        async with Client.connect(f"127.0.0.1:{again.port}") as client:
            assert (await client.server_key()).public_key == first.public_key
            second = await client.export_record(game.game_id, game.tokens[1])
    finally:
        await again.stop(grace=None)
    assert signing.verify(second, first.public_key)
    assert record.record_body(second).events == record.record_body(first).events


async def test_a_running_game_cannot_be_exported(served: Served) -> None:
    game = await new_game(served.client)
    with pytest.raises(RuleBroken, match="finished"):
        await served.client.export_record(game.game_id, game.tokens[0])
    with pytest.raises(RuleBroken, match="finished"):
        await served.client.export_record(game.game_id, OPERATOR_TOKEN)


@pytest.mark.parametrize("kind", kinds())
@pytest.mark.parametrize(
    "policy",
    [
        None,
        tpb.SpectatorPolicy(kind=tpb.SpectatorPolicy.KIND_DELAYED, delay_events=2),
        tpb.SpectatorPolicy(kind=tpb.SpectatorPolicy.KIND_OMNISCIENT_AFTER_END),
    ],
    ids=["public", "delayed", "omniscient"],
)
async def test_games_played_through_the_server_pass_the_audit(
    served: Served, database: str, kind: str, policy: tpb.SpectatorPolicy | None
) -> None:
    game = registry.game(kind)
    seats = max(game.min_seats, 3)
    played = await finished_game(served.client, kind=kind, seats=seats, policy=policy, seed=21)
    signed = await served.client.export_record(played.game_id, played.tokens[0])
    report = audit_record(signed, public_key=(await served.client.server_key()).public_key)
    assert report.ok, report.render()
    assert record.record_body(signed).events == read_stored(database, played.game_id)
    # What every viewer was served agrees with the record.
    stored = list(record.record_body(signed).events)
    viewers: list[str | None] = [None, OPERATOR_TOKEN, *played.tokens]
    for token in viewers:
        copies = [e async for e in served.client.watch(played.game_id, token)]
        assert len(copies) == len(stored)
        assert compare_viewer_stream(copies, stored) == []


async def test_the_seed_stays_hidden_from_everyone_until_the_end(served: Served) -> None:
    """Mid-game, nothing the server serves (to the operator included: the
    full log, its feed, replay, views) holds the seed; it is opened, equal
    to the committed digest, once the game is over."""
    c = served.client
    game = await new_game(c)
    rng = random.Random(5)
    for _ in range(10):
        await step(c, game, rng)
    served_mid_game: list[Any] = []
    for token in (OPERATOR_TOKEN, None, *game.tokens):
        version = (await c.view(game.game_id, token)).version
        feed = []
        async for envelope in c.watch(game.game_id, token):
            feed.append(envelope)
            if len(feed) == version:
                break
        served_mid_game += feed
        served_mid_game += [s.event async for s in c.replay(game.game_id, token)]
        served_mid_game.append((await c.view(game.game_id, token)).response)
    log = await c.audit(game.game_id, OPERATOR_TOKEN)
    served_mid_game += log
    first = log[0]
    index = next(i for i, s in enumerate(first.secrets) if not s.audience.seats)
    committed = first.secrets[index]
    assert committed.digest and not committed.HasField("value") and not committed.salt

    await play_out(c, game, rng)
    signed = await c.export_record(game.game_id, game.tokens[0])
    opened = record.record_envelopes(signed)[0]
    seed = chance.seed_of(opened)
    assert seed is not None and len(seed) == 32
    assert chance.seed_index(opened) == index
    assert opened.secrets[index].digest == committed.digest  # the one committed to at creation
    blob = b"".join(m.SerializeToString() for m in served_mid_game)
    assert seed not in blob and opened.secrets[index].salt not in blob
    # Over: the full log opens it to everyone, with the same digest.
    assert chance.seed_of((await c.audit(game.game_id, game.tokens[1]))[0]) == seed
    assert [o.sequence for o in record.record_body(signed).openings] == [1]
    seed_opening = trpb.ChanceSeed()
    assert record.record_body(signed).openings[0].value.Unpack(seed_opening)
    assert seed_opening.seed == seed


async def test_served_event_hashes_are_the_chain_of_the_record(served: Served) -> None:
    """Every copy carries event_hash = SHA-256 of the stored bytes, and the
    last one any viewer holds is the head the record is signed over."""
    game = await finished_game(served.client)
    spectator = [e async for e in served.client.watch(game.game_id)]
    signed = await served.client.export_record(game.game_id, game.tokens[0])
    stored = list(record.record_body(signed).events)
    assert [e.event_hash for e in spectator] == [chain.event_hash(raw) for raw in stored]
    assert [e.previous_hash for e in spectator[1:]] == [e.event_hash for e in spectator[:-1]]
    assert spectator[-1].event_hash == record.record_body(signed).chain_head
