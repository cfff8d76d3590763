"""``cardroom export`` and ``cardroom audit``: a file, offline; a live
server; wrong signatures, wrong keys and unreadable input.

Exit codes: 0 verified, 1 discrepancy, 2 could not run.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from cardroom.cli import main
from cardroom.cli.audit import fetch_and_audit
from cardroom.client import Client
from cardroom.server.api.server import Settings, start
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.trust import record, signing
from cardroom.trust.audit import audit_record
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import trust_pb2 as trpb
from tests.conftest import OPERATOR_TOKEN, Served
from tests.service.helpers import server_process
from tests.trust.live import cardroom, finished_game, new_game


async def run(*argv: str) -> int:
    """The CLI in-process, off the event loop the served server runs on."""
    return await asyncio.to_thread(main, list(argv))


def flipped(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1 :]


# ------------------------------------------------------------------ offline


async def test_an_exported_file_is_audited_offline_in_a_separate_process(
    database: str, tmp_path: Path
) -> None:
    """Export through the CLI from a running server, stop the server, then
    audit the file in a separate process: a good file passes, a flipped
    signature byte and another key are refused."""
    server = await start(
        Settings(
            address="127.0.0.1:0",
            database=database,
            operator_token=OPERATOR_TOKEN,
            signing_key=str(tmp_path / "server-key.pem"),
        )
    )
    try:
        address = f"127.0.0.1:{server.port}"
        async with Client.connect(address) as client:
            game = await finished_game(client, seed=3)
            served_key = bytes((await client.server_key()).public_key)
        path = tmp_path / "game.cardroom-record"
        code, out, err = await cardroom(
            "export", "--address", address, game.game_id, "--output", str(path),
            "--seat-token", game.tokens[0],
        )  # fmt: skip
        assert code == 0, err
        assert signing.fingerprint(served_key) in out and game.game_id in out
    finally:
        await server.stop(grace=None)

    # No server runs from here on.
    code, out, err = await cardroom("audit", str(path))
    assert code == 0, out + err
    assert "VERIFIED" in out and "[ OK ] rules" in out and "not pinned" in out
    code, out, _ = await cardroom("audit", str(path), "--public-key", served_key.hex())
    assert code == 0 and "(pinned)" in out

    signed = record.read_record(path)
    bad_signature = tmp_path / "bad-signature.record"
    bad_signature.write_bytes(
        record.to_bytes(
            type(signed)(
                body=signed.body,
                public_key=signed.public_key,
                signature=flipped(signed.signature, 10),
            )
        )
    )
    code, out, _ = await cardroom("audit", str(bad_signature))
    assert code == 1
    assert "[FAIL] signature" in out and "does not match the record body" in out
    assert "[ OK ] chain" in out  # only the signature is wrong

    impostor = Ed25519PrivateKey.generate()
    resigned = tmp_path / "impostor.record"
    record.write_record(signing.sign(record.read_record(path), impostor), resigned)
    assert await run("audit", str(resigned)) == 0  # intact, but nobody's in particular
    assert await run("audit", str(resigned), "--public-key", served_key.hex()) == 1

    # A body that still decodes but is not what was signed fails the audit;
    # one that no longer decodes is refused as unreadable, with the reason.
    body_changed = tmp_path / "body.record"
    body = trpb.GameRecordBody.FromString(signed.body)
    body.game_id = body.game_id.upper()
    signed.body = body.SerializeToString()
    body_changed.write_bytes(record.to_bytes(signed))
    assert await run("audit", str(body_changed), "--public-key", served_key.hex()) == 1
    unreadable = tmp_path / "unreadable.record"
    signed.body = bytes([0x0B]) + signed.body[1:]  # field 1 of wire type 3: not protobuf 3
    unreadable.write_bytes(record.to_bytes(signed))
    code, out, err = await cardroom("audit", str(unreadable))
    assert code == 2 and "does not decode" in err and "Traceback" not in err, out + err


async def test_the_audit_refuses_what_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    garbage = tmp_path / "garbage"
    garbage.write_bytes(b"\xff\xfe not a record")
    assert main(["audit", str(garbage)]) == 2
    assert main(["audit", str(tmp_path / "missing")]) == 2
    assert main(["audit", str(garbage), "--operator-token", "x"]) == 2  # needs --address
    assert main(["audit", str(garbage), "--public-key", "zz"]) == 2
    assert main(["audit", "--address", "127.0.0.1:1", "g", "--public-key", "ab"]) == 2
    with pytest.raises(SystemExit) as exited:
        main(["audit"])
    assert exited.value.code == 2
    with pytest.raises(SystemExit) as exited:
        main(["export", "--address", "127.0.0.1:1", "g"])  # no --output
    assert exited.value.code == 2
    assert "cardroom audit" in capsys.readouterr().err


# --------------------------------------------------------------------- live


async def test_audit_against_a_live_server(
    served: Served, capsys: pytest.CaptureFixture[str]
) -> None:
    game = await finished_game(served.client, seed=5)
    key = bytes((await served.client.server_key()).public_key)
    seat = ("--seat-token", game.tokens[1])
    assert await run("audit", "--address", served.address, game.game_id) == 2
    assert "seats and the operator" in capsys.readouterr().err
    assert await run("audit", "--address", served.address, game.game_id, *seat) == 0
    out = capsys.readouterr().out
    assert f"server key:  {signing.fingerprint(key)}" in out
    assert "(pinned)" in out and "VERIFIED" in out
    assert "full log (GetAuditLog)" in out and "spectators' feed" in out
    assert out.count("agree with the record") == 2
    pinned = ("--public-key", key.hex(), *seat)
    assert await run("audit", "--address", served.address, game.game_id, *pinned) == 0
    other = signing.public_key_bytes(Ed25519PrivateKey.generate()).hex()
    assert (
        await run("audit", "--address", served.address, game.game_id, *seat, "--public-key", other)
        == 1
    )
    assert "not the pinned key" in capsys.readouterr().out
    with_token = ("--operator-token", OPERATOR_TOKEN)
    assert await run("audit", "--address", served.address, game.game_id, *with_token) == 0


async def test_export_to_standard_output(
    served: Served, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    game = await finished_game(served.client, seed=7)
    seat = ("--seat-token", game.tokens[0])
    assert await run("export", "--address", served.address, game.game_id, "-o", "-", *seat) == 0
    captured = capsysbinary.readouterr()
    written = record.from_bytes(captured.out)
    assert signing.verify(written, (await served.client.server_key()).public_key)
    assert b"exported game" in captured.err
    assert audit_record(written).ok


async def test_live_audit_of_what_cannot_be_audited_exits_2(
    served: Served, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    running = await new_game(served.client)
    assert await run("audit", "--address", served.address, running.game_id) == 2
    assert "finished" in capsys.readouterr().err
    out = tmp_path / "running.record"
    assert await run("export", "--address", served.address, running.game_id, "-o", str(out)) == 2
    assert not out.exists()
    unknown = "00000000-0000-4000-8000-000000000000"
    assert await run("audit", "--address", served.address, unknown) == 2
    assert "NOT_FOUND" in capsys.readouterr().err
    assert await run("audit", "--address", served.address, "not-a-game") == 2
    assert await run("audit", "--address", "127.0.0.1:1", unknown) == 2
    assert "UNAVAILABLE" in capsys.readouterr().err


async def test_a_record_not_signed_with_the_served_key_fails_the_live_audit(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await finished_game(served.client, seed=6)
    other = signing.public_key_bytes(Ed25519PrivateKey.generate())
    monkeypatch.setattr(
        served.server.games,
        "server_key",
        lambda: gpb.GetServerKeyResponse(public_key=other, fingerprint=signing.fingerprint(other)),
    )
    audit = await fetch_and_audit(served.client, game.game_id, token=game.tokens[0])
    assert not audit.ok
    messages = [p.message for p in audit.report.problems_of("signature")]
    assert any("the server serves" in m for m in messages), audit.render()
    seat = ("--seat-token", game.tokens[0])
    assert await run("audit", "--address", served.address, game.game_id, *seat) == 1


async def test_the_live_audit_compares_what_the_server_serves_with_the_record(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server whose full log differs from the record it signs (here: one
    event's public part changed, one event left out) is caught."""
    game = await finished_game(served.client, seed=8)
    honest = served.server.games.audit_log

    def equivocating(
        game_id: str, token: str | None, page_size: int = 0, page_token: str = ""
    ) -> gpb.GetAuditLogResponse:
        copies = honest(game_id, token)
        changed = epb.EventEnvelope()
        changed.CopyFrom(copies[5])
        changed.event.Pack(sm.BreakTaken(seat=1))
        return gpb.GetAuditLogResponse(events=[*copies[:5], changed, *copies[7:]])

    monkeypatch.setattr(served.server.games, "audit_log_page", equivocating)
    audit = await fetch_and_audit(served.client, game.game_id, token=game.tokens[0])
    problems = [(p.check, p.event, p.message) for p in audit.report.problems]
    assert (
        "chain",
        6,
        "full log (GetAuditLog): the record's event differs from the copy served",
    ) in problems
    count = len(honest(game.game_id, game.tokens[0]))
    assert (
        "chain",
        None,
        f"full log (GetAuditLog): the server serves {count - 1} events, not the record's "
        f"{count} in order",
    ) in problems
    assert not any("spectators' feed" in m for _, _, m in problems)  # that one is honest
    assert audit.report.problems_of("signature") == []


async def test_a_server_process_exports_and_a_cli_process_audits_it(
    database: str, tmp_path: Path
) -> None:
    """All through processes: ``cardroom serve --signing-key``, play,
    ``cardroom export``, ``cardroom audit FILE``, ``cardroom audit --address``."""
    key_path = tmp_path / "keys" / "cardroom.pem"
    with server_process(
        database, "--operator-token", OPERATOR_TOKEN, "--signing-key", str(key_path)
    ) as address:
        async with Client.connect(address) as client:
            game = await finished_game(client, seed=9)
            served_key = bytes((await client.server_key()).public_key)
        assert key_path.exists()
        assert signing.public_key_bytes(signing.load_or_create_key(key_path)) == served_key
        path = tmp_path / "game.record"
        seat = ("--seat-token", game.tokens[0])
        code, _, err = await cardroom(
            "export", "--address", address, game.game_id, "--output", str(path), *seat
        )
        assert code == 0, err
        code, out, err = await cardroom("audit", "--address", address, game.game_id, *seat)
        assert code == 0, out + err
        assert "VERIFIED" in out
    code, out, err = await cardroom("audit", str(path), "--public-key", served_key.hex())
    assert code == 0, out + err


async def test_the_signing_key_can_come_from_the_environment(tmp_path: Path) -> None:
    key_path = tmp_path / "from-env.pem"
    database = str(tmp_path / "cardroom.sqlite3")
    with server_process(database, env={"CARDROOM_SIGNING_KEY": str(key_path)}) as address:
        async with Client.connect(address) as client:
            served_key = bytes((await client.server_key()).public_key)
    assert signing.public_key_bytes(signing.load_or_create_key(key_path)) == served_key
    assert not Path(database + signing.KEY_SUFFIX).exists()
