"""The server's limits, so that no client can starve it or exhaust its
memory (docs/operations.md lists each with its flag).

These are operational settings, not game state: nothing here is recorded,
and a restart resets the counters.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

# The largest request a legal call needs is a CreateGame carrying an
# operator's set deal (the longest, Smile Life's 200-card order, is well
# under 4 KiB); commands, names and ids are far smaller.
DEFAULT_MAX_REQUEST_BYTES = 64 * 1024
# Responses: a whole finished game's log or record (well under 1 MiB for
# the longest games the rules allow; see docs/operations.md).
MAX_RESPONSE_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class Limits:
    max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES
    # Concurrent streams (calls) one connection may have open.
    max_streams_per_connection: int = 100
    # Open WatchEvents + ReplayViews streams in the whole server.
    max_watchers: int = 10_000
    # Events a live stream may fall behind its game before it is ended with
    # ABORTED ("resume from your cursor"); bounds a stalled reader's memory.
    max_stream_backlog: int = 256
    # Games one client (by peer host) may create per hour; 0: no limit. The
    # operator is never limited.
    games_per_client_per_hour: int = 1000
    # Games kept in memory; the least recently used beyond are forgotten and
    # reloaded (from their newest checkpoint) when next used.
    cache_games: int = 2000
    # Dead peers: ping an idle connection every keepalive_seconds, drop it
    # when a ping is not answered within keepalive_timeout_seconds; close
    # connections with no call for idle_seconds.
    keepalive_seconds: int = 60
    keepalive_timeout_seconds: int = 20
    idle_seconds: int = 30 * 60

    def server_options(self) -> list[tuple[str, int]]:
        return [
            # A second server on a port another holds must fail, not share it.
            ("grpc.so_reuseport", 0),
            ("grpc.max_receive_message_length", self.max_request_bytes),
            ("grpc.max_send_message_length", MAX_RESPONSE_BYTES),
            ("grpc.max_concurrent_streams", self.max_streams_per_connection),
            ("grpc.keepalive_time_ms", self.keepalive_seconds * 1000),
            ("grpc.keepalive_timeout_ms", self.keepalive_timeout_seconds * 1000),
            ("grpc.keepalive_permit_without_calls", 1),
            ("grpc.http2.max_pings_without_data", 0),
            ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
            ("grpc.max_connection_idle_ms", self.idle_seconds * 1000),
        ]


@dataclass
class CreationLimiter:
    """A token bucket per client: ``per_hour`` games, refilled evenly."""

    per_hour: int
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, client: str) -> bool:
        """Whether ``client`` may create one more game now (and count it)."""
        if self.per_hour <= 0:
            return True
        now = self.clock()
        rate = self.per_hour / 3600.0
        with self._lock:
            tokens, since = self._buckets.get(client, (float(self.per_hour), now))
            tokens = min(float(self.per_hour), tokens + (now - since) * rate)
            if tokens < 1:
                self._buckets[client] = (tokens, now)
                return False
            self._buckets[client] = (tokens - 1, now)
            if len(self._buckets) > 100_000:  # forget full buckets: they hold nothing
                self._buckets = {k: v for k, v in self._buckets.items() if v[0] < self.per_hour - 1}
            return True


def peer_host(peer: str) -> str:
    """The client's host from a gRPC peer string ("ipv4:1.2.3.4:5678")."""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6"):
        return rest.rsplit(":", 1)[0]
    return peer
