"""Games longer than one gRPC message (issue 20, item 5): the record is
streamed (StreamGameRecord) and the full log paged (GetAuditLog page_size /
page_token); the unary forms refuse such a game with RESOURCE_EXHAUSTED
naming the streamed form; ``cardroom export`` and ``cardroom audit`` work
on it, and a tampered streamed record fails the audit.

The long game (over 10,000 events of Smoke & Mirrors, played to 1,000 round
wins until two seats resign) is built once with the pure rules and the trust
layer (tests/trust/harness.py, as the service would store it) and appended
to a fresh database that a real server then serves. The server's response
limit is lowered to 1 MiB for these tests, so the game's 4 MB record is
well past it, as an 18 MB one is past the 16 MiB default.
"""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest

from cardroom.cli import main
from cardroom.cli.audit import fetch_and_audit
from cardroom.client import CardroomError, Client, InvalidArgument
from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import Actor
from cardroom.server import limits
from cardroom.server.api.server import Settings, start
from cardroom.server.games import reads
from cardroom.server.storage.log import GameLog
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.trust import record
from cardroom.trust.audit import audit_scanned
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from tests.conftest import OPERATOR_TOKEN, Served
from tests.trust.harness import TrustedGame

pytestmark = pytest.mark.slow

EVENTS = 10_000
LIMIT = 1024 * 1024  # the server's response limit in these tests


@functools.cache
def long_game() -> TrustedGame:
    """A finished game of more than EVENTS events, random legal play."""
    game = TrustedGame(registry.game("smoke-and-mirrors"))
    game.create(3, sm.Options(rounds_to_win=1000))
    game.seat_everyone()
    rng = random.Random(20)
    while len(game.stored) < EVENTS:
        assert game.table is not None
        seat = next(s for s in range(3) if tables.legal_actions(game.table, s))
        action = rng.choice(tables.legal_actions(game.table, seat))
        game.execute(Actor.of_seat(seat), action, f"c{len(game.stored)}")
    game.execute(Actor.of_seat(1), tpb.Resign(), "resign-1")
    game.execute(Actor.of_seat(2), tpb.Resign(), "resign-2")
    assert game.table is not None and game.table.finished
    return game


@pytest.fixture
async def served_long(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[Served, TrustedGame]]:
    monkeypatch.setattr(limits, "MAX_RESPONSE_BYTES", LIMIT)
    monkeypatch.setattr(reads, "MAX_RESPONSE_BYTES", LIMIT)
    monkeypatch.setattr(reads, "RESPONSE_BUDGET", LIMIT - 64 * 1024)
    monkeypatch.setattr(reads, "PAGE_BYTES", 256 * 1024)
    database = str(tmp_path / "cardroom.sqlite3")
    game = long_game()
    log = GameLog(database)
    log.append(game.envelopes, game.stored)
    log.close()
    server = await start(
        Settings(address="127.0.0.1:0", database=database, operator_token=OPERATOR_TOKEN)
    )
    address = f"127.0.0.1:{server.port}"
    client = Client.connect(address)
    try:
        yield Served(server, client, address), game
    finally:
        await client.close()
        await server.stop(grace=None)


async def test_the_unary_forms_refuse_a_long_game_naming_the_paged_and_streamed_ones(
    served_long: tuple[Served, TrustedGame],
) -> None:
    served, game = served_long
    stub = served.client.stub
    auth = (("authorization", f"Bearer {OPERATOR_TOKEN}"),)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.ExportGameRecord(
            gpb.ExportGameRecordRequest(game_id=game.game_id), metadata=auth
        )
    assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "StreamGameRecord" in (refused.value.details() or "")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.GetAuditLog(gpb.GetAuditLogRequest(game_id=game.game_id), metadata=auth)
    assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "page_size" in (refused.value.details() or "")


async def test_a_long_game_is_streamed_whole_and_audits(
    served_long: tuple[Served, TrustedGame],
) -> None:
    served, game = served_long
    chunks = [c async for c in served.client.record_chunks(game.game_id, OPERATOR_TOKEN)]
    data = b"".join(chunks)
    assert len(data) > LIMIT and len(chunks) > 1
    assert max(map(len, chunks)) <= reads.record_chunk_bytes()
    signed = record.from_bytes(data)
    assert list(record.record_body(signed).events) == game.stored
    report = audit_scanned(record.scan(data))
    assert report.ok, report.render()
    assert report.event_count == len(game.stored) > EVENTS
    # The client's export_record is the same stream, gathered.
    again = await served.client.export_record(game.game_id, OPERATOR_TOKEN)
    assert list(record.record_body(again).events) == game.stored


async def test_a_tampered_streamed_record_fails_the_audit(
    served_long: tuple[Served, TrustedGame], tmp_path: Path
) -> None:
    served, game = served_long
    data = b"".join([c async for c in served.client.record_chunks(game.game_id, OPERATOR_TOKEN)])
    middle = game.stored[len(game.stored) // 2]
    at = data.index(middle) + len(middle) // 2
    tampered = data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1 :]
    report = audit_scanned(record.scan(tampered))
    assert not report.ok
    assert report.problems_of("signature") and report.problems_of("chain")
    path = tmp_path / "tampered.cardroom-record"
    path.write_bytes(tampered)
    assert await asyncio.to_thread(main, ["audit", str(path)]) == 1


async def test_paging_serves_every_event_exactly_once_in_order(
    served_long: tuple[Served, TrustedGame],
) -> None:
    served, game = served_long
    whole = served.server.games.audit_log(game.game_id, OPERATOR_TOKEN)
    for page_size in (997, reads.MAX_AUDIT_PAGE_SIZE):
        pages = 0
        token = ""
        events = []
        while True:
            response = await served.client.stub.GetAuditLog(
                gpb.GetAuditLogRequest(game_id=game.game_id, page_size=page_size, page_token=token),
                metadata=(("authorization", f"Bearer {OPERATOR_TOKEN}"),),
            )
            assert 0 < len(response.events) <= page_size
            assert response.ByteSize() <= reads.PAGE_BYTES + 64 * 1024
            events.extend(response.events)
            pages += 1
            token = response.next_page_token
            if not token:
                break
        assert [e.sequence for e in events] == list(range(1, len(game.stored) + 1))
        assert events == whole
        assert pages >= len(game.stored) // page_size
    assert [e async for e in served.client.audit_pages(game.game_id, OPERATOR_TOKEN)] == whole
    # A token is the server's own; a page larger than the maximum is refused.
    with pytest.raises(InvalidArgument):
        await served.client._call(
            "GetAuditLog",
            gpb.GetAuditLogRequest(game_id=game.game_id, page_size=5, page_token="nonsense"),
            OPERATOR_TOKEN,
        )
    with pytest.raises(InvalidArgument):
        await served.client._call(
            "GetAuditLog",
            gpb.GetAuditLogRequest(game_id=game.game_id, page_size=reads.MAX_AUDIT_PAGE_SIZE + 1),
            OPERATOR_TOKEN,
        )


async def test_the_cli_exports_and_audits_a_long_game_offline_and_live(
    served_long: tuple[Served, TrustedGame], tmp_path: Path
) -> None:
    served, game = served_long
    path = tmp_path / "long.cardroom-record"
    token = ("--operator-token", OPERATOR_TOKEN)
    code = await asyncio.to_thread(
        main, ["export", "--address", served.address, game.game_id, "-o", str(path), *token]
    )
    assert code == 0
    with record.mapped(path) as scanned:
        assert list(scanned.events()) == game.stored
    assert await asyncio.to_thread(main, ["audit", str(path)]) == 0
    audit = await fetch_and_audit(served.client, game.game_id, token=OPERATOR_TOKEN)
    assert audit.ok, audit.render()
    assert any(f"{len(game.stored)} events: agree" in note for note in audit.notes)


async def test_a_running_game_is_not_streamed(served: Served) -> None:
    game_id = await served.client.create_game("smoke-and-mirrors", seat_count=3)
    with pytest.raises(CardroomError) as refused:
        [c async for c in served.client.record_chunks(game_id, OPERATOR_TOKEN)]
    assert refused.value.code == grpc.StatusCode.FAILED_PRECONDITION
    assert "T-LOG" in refused.value.details
