"""Serving safely, as an operator meets it: every user error of the
``cardroom`` command is one line and an exit code, never a traceback; a port
in use or a bad address fails; ``--database`` is validated and its password
never printed; TLS and mutual TLS; ``--version``, ``--help`` for every flag,
``cardroom key`` and ``cardroom health``."""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

from cardroom.cli import parser as cli_parser
from cardroom.client import Client
from cardroom.server.api.server import ServeError, Settings, start
from cardroom.trust import signing
from tests.conftest import OPERATOR_TOKEN, POSTGRES_URL, Served
from tests.service.certs import make_certificates
from tests.service.helpers import SM, server_process


def cardroom(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m cardroom.cli ARGS`` to completion."""
    return subprocess.run(
        [sys.executable, "-m", "cardroom.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def one_line_error(result: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert result.returncode == code, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


# ---------------------------------------------------------------- address


async def test_a_port_another_cardroom_holds_refuses_to_start(tmp_path: Path) -> None:
    first = await start(Settings(address="127.0.0.1:0", database=str(tmp_path / "a.sqlite3")))
    try:
        result = await asyncio.to_thread(
            cardroom,
            "serve",
            "--address",
            f"127.0.0.1:{first.port}",
            "--database",
            str(tmp_path / "b.sqlite3"),
        )
        line = one_line_error(result)
        assert f"cannot listen on 127.0.0.1:{first.port}" in line
    finally:
        await first.stop(grace=None)
    with pytest.raises(ServeError, match="in use"):
        taken = await start(Settings(address="127.0.0.1:0", database=str(tmp_path / "c.db")))
        try:
            await start(
                Settings(address=f"127.0.0.1:{taken.port}", database=str(tmp_path / "d.db"))
            )
        finally:
            await taken.stop(grace=None)


@pytest.mark.parametrize("address", [":99999", "nonsense", "127.0.0.1:", "[::1]:65536"])
def test_a_bad_address_is_one_line(address: str, tmp_path: Path) -> None:
    result = cardroom("serve", "--address", address, "--database", str(tmp_path / "x.db"))
    assert "HOST:PORT" in one_line_error(result)


@pytest.mark.parametrize("think_ms", ["0", "-5", "60001"])
def test_a_search_bot_think_time_out_of_range_is_one_line(think_ms: str, tmp_path: Path) -> None:
    result = cardroom("serve", "--bot-think-ms", think_ms, "--database", str(tmp_path / "x.db"))
    assert "--bot-think-ms must be 1 to 60000" in one_line_error(result)


@pytest.mark.parametrize(
    ("flag", "value", "why"),
    [
        ("--bot-move-ms", "-1", "must be 0 to 60000"),
        ("--bot-turns", "0", "must be 1 to 1000"),
        ("--bot-lease-seconds", "0", "must be 1 to 3600"),
    ],
)
def test_a_server_bot_setting_out_of_range_is_one_line(
    flag: str, value: str, why: str, tmp_path: Path
) -> None:
    result = cardroom("serve", flag, value, "--database", str(tmp_path / "x.db"))
    assert f"{flag} {why}" in one_line_error(result)


def test_abandoning_before_a_seat_shows_as_absent_is_one_line(tmp_path: Path) -> None:
    db = str(tmp_path / "x.db")
    result = cardroom("serve", "--absent-after", "300", "--abandon-after", "60", "--database", db)
    assert "--abandon-after (60 s) must be at least --absent-after (300 s)" in one_line_error(
        result
    )


# --------------------------------------------------------------- database


@pytest.mark.parametrize("database", ["mysql://u:pw@host/db", "", "redis://x"])
def test_a_database_that_is_neither_sqlite_nor_postgresql_is_refused(database: str) -> None:
    line = one_line_error(cardroom("serve", "--database", database))
    assert "SQLite file path" in line and "postgresql://" in line
    assert "pw" not in line


def test_an_unreachable_postgresql_is_one_line_without_its_password() -> None:
    url = "postgresql://cardroom:hunter2@127.0.0.1:1/games"
    line = one_line_error(cardroom("serve", "--database", url, "--address", "127.0.0.1:0"))
    assert "PostgreSQL cardroom@127.0.0.1:1/games" in line
    assert "hunter2" not in line


@pytest.mark.postgres
def test_the_start_line_never_shows_the_password(postgres_database: str) -> None:
    with_password = postgres_database.replace("postgres@", "postgres:hunter2@", 1)
    assert "hunter2" in with_password
    process = subprocess.Popen(
        [sys.executable, "-m", "cardroom.cli", "serve", "--address", "127.0.0.1:0",
         "--database", with_password],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "listening on" in line and "PostgreSQL postgres@127.0.0.1:5432/test" in line
    finally:
        process.terminate()
        _, err = process.communicate(timeout=20)
    assert "hunter2" not in line + err


# --------------------------------------------------------------------- TLS


async def test_tls_and_mutual_tls(tmp_path: Path) -> None:
    certs = make_certificates(tmp_path)
    ca = grpc.ssl_channel_credentials(root_certificates=certs.ca.read_bytes())
    server = await start(
        Settings(
            address="127.0.0.1:0",
            database=str(tmp_path / "tls.sqlite3"),
            tls_cert=str(certs.server_cert),
            tls_key=str(certs.server_key),
        )
    )
    try:
        address = f"127.0.0.1:{server.port}"
        async with Client.connect(address, credentials=ca) as client:
            assert await client.create_game(SM, seat_count=2)
        async with Client.connect(address) as plain:  # plaintext to a TLS port
            with pytest.raises(Exception):  # noqa: B017 - UNAVAILABLE, how is grpc's business
                await asyncio.wait_for(plain.list_games(), 10)
        result = await asyncio.to_thread(
            cardroom, "key", "--address", address, "--tls-ca", str(certs.ca)
        )
        assert result.returncode == 0, result.stderr
    finally:
        await server.stop(grace=None)

    mutual = await start(
        Settings(
            address="127.0.0.1:0",
            database=str(tmp_path / "mtls.sqlite3"),
            tls_cert=str(certs.server_cert),
            tls_key=str(certs.server_key),
            tls_client_ca=str(certs.ca),
        )
    )
    try:
        address = f"127.0.0.1:{mutual.port}"
        async with Client.connect(address, credentials=ca) as anonymous:
            with pytest.raises(Exception):  # noqa: B017 - the handshake fails
                await asyncio.wait_for(anonymous.list_games(), 10)
        with_cert = grpc.ssl_channel_credentials(
            root_certificates=certs.ca.read_bytes(),
            private_key=certs.client_key.read_bytes(),
            certificate_chain=certs.client_cert.read_bytes(),
        )
        async with Client.connect(address, credentials=with_cert) as client:
            assert await client.list_games() == []
        result = await asyncio.to_thread(
            cardroom, "demo", "--address", address, "--quiet", "--seed", "3",
            "--tls-ca", str(certs.ca), "--tls-client-cert", str(certs.client_cert),
            "--tls-client-key", str(certs.client_key),
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        assert "game id:" in result.stdout
    finally:
        await mutual.stop(grace=None)


def test_tls_settings_that_cannot_work_are_one_line(tmp_path: Path) -> None:
    line = one_line_error(cardroom("serve", "--tls-cert", str(tmp_path / "missing.pem")))
    assert "--tls-key" in line
    missing = str(tmp_path / "missing.pem")
    line = one_line_error(cardroom("serve", "--tls-cert", missing, "--tls-key", missing))
    assert "missing.pem" in line
    line = one_line_error(cardroom("key", "--tls-ca", missing))
    assert "--tls-ca" in line


# ----------------------------------------------------------------- the CLI


def test_version() -> None:
    result = cardroom("--version")
    assert result.returncode == 0
    assert re.fullmatch(r"cardroom \d+\.\d+\.\d+\S*\n", result.stdout)


def subcommands(top: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


def test_every_flag_of_every_command_is_described() -> None:
    commands = subcommands(cli_parser())
    assert {"serve", "demo", "export", "audit", "key", "health"} <= set(commands)
    for name, command in commands.items():
        assert command.description, name
        for action in command._actions:
            if action.option_strings and action.dest != "help":
                assert action.help, f"cardroom {name} {action.option_strings[0]} has no help"


def test_an_unreachable_server_is_one_line_for_every_client_command(tmp_path: Path) -> None:
    nowhere = ("--address", "127.0.0.1:1")
    game = "00000000-0000-4000-8000-000000000000"
    for args in (
        ("export", *nowhere, game, "-o", str(tmp_path / "x.record")),
        ("audit", *nowhere, game),
        ("key", *nowhere),
        ("health", *nowhere, "--timeout", "2"),
        ("demo", *nowhere, "--quiet"),
    ):
        line = one_line_error(cardroom(*args))
        assert "UNAVAILABLE" in line, args


async def test_key_prints_the_full_public_key_audit_takes(served: Served) -> None:
    result = await asyncio.to_thread(cardroom, "key", "--address", served.address)
    assert result.returncode == 0, result.stderr
    public = (await served.client.server_key()).public_key
    assert result.stdout.strip() == public.hex()
    assert signing.fingerprint(public) in result.stderr


async def test_health_reports_serving(served: Served) -> None:
    result = await asyncio.to_thread(cardroom, "health", "--address", served.address)
    assert (result.returncode, result.stdout.strip()) == (0, "SERVING")


def test_a_served_process_answers_health(tmp_path: Path) -> None:
    with server_process(str(tmp_path / "h.sqlite3"), "--operator-token", OPERATOR_TOKEN) as at:
        result = cardroom("health", "--address", at)
        assert (result.returncode, result.stdout.strip()) == (0, "SERVING")


def test_the_postgres_url_of_the_tests_has_no_password_to_leak() -> None:
    assert ":" not in POSTGRES_URL.split("@")[0].removeprefix("postgresql://")
