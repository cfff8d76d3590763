"""A real server with its browser port, and plain HTTP to read what a
browser protocol puts on the wire."""

from __future__ import annotations

import asyncio
import http.client
from dataclasses import dataclass
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
