"""A throwaway server for the commands that can run without one (`cardroom
simulate`, `cardroom play --local`): ``cardroom serve`` in a child process on
a free loopback port, with a database and signing key in a temporary folder
and a random operator token, stopped and removed on exit. A child process
lets the server use a core of its own."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from cardroom.cli.common import UsageError


@dataclass(frozen=True)
class Temporary:
    address: str
    operator_token: str


@contextmanager
def temporary_server() -> Iterator[Temporary]:
    token = secrets.token_urlsafe(24)
    with tempfile.TemporaryDirectory(prefix="cardroom-") as folder:
        command = [
            sys.executable,
            "-m",
            "cardroom.cli",
            "serve",
            "--address",
            "127.0.0.1:0",
            "--database",
            str(Path(folder) / "cardroom.sqlite3"),
            "--signing-key",
            str(Path(folder) / "signing-key.pem"),
            "--games-per-client-per-hour",
            "0",
        ]
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "CARDROOM_OPERATOR_TOKEN": token},
        )
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            found = re.search(r"listening on (\S+)", line)
            if found is None:
                raise UsageError(f"the temporary server did not start: {line.strip()!r}")
            yield Temporary(found.group(1), token)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:  # pragma: no cover - a stuck server
                process.kill()
                process.wait()
