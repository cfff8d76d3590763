"""A real server with its browser port, and plain HTTP to read what a
browser protocol puts on the wire."""

from __future__ import annotations

import asyncio
import http.client
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from tests.conftest import Served


@dataclass
class WebServed(Served):
    web_url: str  # http://127.0.0.1:PORT, no trailing slash


def _post(
    url: str, body: bytes, headers: dict[str, str], method: str
) -> tuple[int, dict[str, str], bytes]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.netloc, timeout=30)
    try:
        connection.request(method, parts.path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


async def post(
    url: str, body: bytes, headers: dict[str, str], method: str = "POST"
) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and the whole body of one request."""
    return await asyncio.to_thread(_post, url, body, headers, method)


def frames(body: bytes) -> list[tuple[int, bytes]]:
    """A streamed body's frames: (flags, payload), each after a 1-byte flag
    and a 4-byte big-endian length (Connect and gRPC-Web frame alike)."""
    found, at = [], 0
    while at < len(body):
        size = int.from_bytes(body[at + 1 : at + 5], "big")
        found.append((body[at], body[at + 5 : at + 5 + size]))
        at += 5 + size
    return found


ROOT = Path(__file__).resolve().parents[2]
CLIENTS = ROOT / "clients"
# Screenshots of the browser tests (gitignored), listed at the end of a run.
ARTIFACTS = ROOT / "test-artifacts"


def npm_test(workspace: str, env: dict[str, str], timeout: float = 900) -> str:
    """``npm test`` of a clients/ workspace (node's test runner); fails the
    calling test, with the runner's report, unless every test passed."""
    if not (CLIENTS / "node_modules").is_dir():
        raise AssertionError("clients/node_modules is missing: run `python3 dev.py test`")
    result = subprocess.run(
        ["npm", "test", "--workspace", workspace],
        cwd=CLIENTS,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    report = result.stdout + result.stderr
    assert result.returncode == 0, f"{workspace} tests failed:\n{report[-20000:]}"
    ran = re.search(r"\btests (\d+)", report)
    assert ran and int(ran.group(1)) > 0 and re.search(r"\bfail 0\b", report), report[-5000:]
    return report
