"""Shared fixtures: storage backends and a real gRPC server on a free port.

PostgreSQL tests use a fresh schema in the database named by
CARDROOM_TEST_POSTGRES (default postgresql://postgres@127.0.0.1:5432/test).
When PostgreSQL is unreachable they skip locally, but fail when CI=true, so a
missing service can never pass CI silently.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from hypothesis import settings

from cardroom.client import Client
from cardroom.server.api.server import RunningServer, Settings, start

# Hypothesis: the suite is the same on every run and every machine (no luck,
# no local example database); `HYPOTHESIS_PROFILE=explore` searches afresh.
settings.register_profile("repeatable", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

POSTGRES_URL = os.environ.get("CARDROOM_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
OPERATOR_TOKEN = "operator-secret-for-tests"
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(autouse=True)
def _work_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs in its own folder, so nothing it writes (a server's
    default signing key, say) lands in the checkout."""
    monkeypatch.chdir(tmp_path)


def _postgres_or_skip() -> None:
    try:
        psycopg.connect(POSTGRES_URL, connect_timeout=3).close()
    except psycopg.OperationalError as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and PostgreSQL is unreachable at {POSTGRES_URL}: {error}")
        pytest.skip(f"PostgreSQL unreachable at {POSTGRES_URL}")


@pytest.fixture
def postgres_database() -> Iterator[str]:
    """A postgresql:// URL whose tables live in a fresh schema, dropped after."""
    _postgres_or_skip()
    schema = f"cardroom_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{POSTGRES_URL}?schema={schema}"
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each test using this runs once on SQLite and once on PostgreSQL."""
    if request.param == "sqlite":
        return str(tmp_path / "cardroom.sqlite3")
    return str(request.getfixturevalue("postgres_database"))


@dataclass
class Served:
    server: RunningServer
    client: Client
    address: str


@pytest.fixture
async def served(database: str) -> AsyncIterator[Served]:
    """A real grpc.aio server on a free port, and a client connected to it."""
    server = await start(
        Settings(address="127.0.0.1:0", database=database, operator_token=OPERATOR_TOKEN)
    )
    address = f"127.0.0.1:{server.port}"
    client = Client.connect(address)
    try:
        yield Served(server, client, address)
    finally:
        await client.close()
        await server.stop(grace=None)
