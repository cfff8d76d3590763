"""The server's limits, so that no client can starve it or exhaust its
memory (docs/operations.md lists each with its flag).

These are operational settings, not game state: nothing here is recorded,
and a restart resets the counters.
"""

from __future__ import annotations

import ipaddress
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field


class TooBusy(Exception):
    """A limit of the server's (docs/operations.md) refuses the call."""


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
    # Of those, the slots only a game's own seats and the operator may take
    # (watching their own game), so that spectators cannot crowd them out;
    # None: a tenth of max_watchers.
    watcher_reserve: int | None = None
    # Spectators' streams one client (cardroom.server.limits.client_of) may
    # hold open; and the streams one seat of one game may hold open.
    watchers_per_client: int = 100
    watchers_per_seat: int = 8
    # Events a live stream may fall behind its game before it is ended with
    # ABORTED ("resume from your cursor"); bounds a stalled reader's memory.
    max_stream_backlog: int = 256
    # Games one client (by peer host) may create per hour; 0: no limit. The
    # operator is never limited.
    games_per_client_per_hour: int = 1000
    # Seats one client may take (JoinGame, AcceptInvitation) per hour; 0: no limit.
    joins_per_client_per_hour: int = 600
    # Invitations one client may issue (CreateInvitation) per hour; 0: no limit.
    invitations_per_client_per_hour: int = 600
    # Each new game's length limit in events (T-LENGTH; a creator may ask
    # for less), and the turn-clock timeouts in a row after which a seat
    # leaves its game (T-TIMEOUTS; a creator may ask for another number).
    # Both are recorded in the game's TableOptions; 0: none.
    max_game_events: int = 10_000
    resign_after_timeouts: int = 3
    # Seconds a running game may go with every seat still playing absent
    # and nothing recorded before it ends (T-ABSENT; recorded too); 0: never.
    end_absent_games_after: int = 3600
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
        """Whether ``client`` may make one more call now (and count it; a
        call that is then refused gives it back with ``refund``)."""
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

    def refund(self, client: str) -> None:
        """Give back what ``take`` counted: the call was refused after all
        (a refusal spends nothing of the allowance)."""
        if self.per_hour <= 0:
            return
        with self._lock:
            tokens, since = self._buckets.get(client, (float(self.per_hour), self.clock()))
            self._buckets[client] = (min(float(self.per_hour), tokens + 1), since)


class WatcherSlots:
    """Who holds the server's live streams (WatchEvents, ReplayViews).

    ``total`` streams in all; the last ``reserve`` of them only for a
    game's own seats and the operator watching (their own game). A
    spectator's stream also counts against its client's ``per_client``; a
    seat's against that seat's ``per_seat``. The operator has only the
    total. Counters live in this process; nothing is recorded.
    """

    def __init__(self, total: int, reserve: int | None, per_client: int, per_seat: int) -> None:
        self.total = total
        self.reserve = min(total // 10 if reserve is None else reserve, total)
        self.per_client = per_client
        self.per_seat = per_seat
        self.open = 0
        self._clients: Counter[str] = Counter()
        self._seats: Counter[tuple[str, int]] = Counter()
        self._lock = threading.Lock()

    def full(self) -> str | None:
        """Why no stream at all may open now (the total is reached), or None."""
        if self.open >= self.total:
            return f"the server streams to {self.total} watchers already, its limit"
        return None

    def take(self, client: str, game_id: str, seat: int | None, operator: bool) -> Slot:
        """One slot for a stream of ``client`` on ``game_id`` as ``seat``
        (None: a spectator) or the operator; raises ``TooBusy`` naming
        the limit when there is none."""
        with self._lock:
            why = self.full()
            if why is None and not operator:
                if seat is None:
                    if self.open >= self.total - self.reserve:
                        why = (
                            f"the server streams to {self.total - self.reserve} spectators "
                            "already, its limit (the rest is kept for seats watching their "
                            "own game)"
                        )
                    elif self._clients[client] >= self.per_client:
                        why = (
                            f"this client has {self.per_client} streams open already, "
                            "the limit per client"
                        )
                elif self._seats[(game_id, seat)] >= self.per_seat:
                    why = (
                        f"seat {seat} has {self.per_seat} streams open already, the limit per seat"
                    )
            if why is not None:
                raise TooBusy(why)
            self.open += 1
            key: tuple[str, int] | None = None
            if operator:
                pass
            elif seat is None:
                self._clients[client] += 1
            else:
                key = (game_id, seat)
                self._seats[key] += 1
            return Slot(self, client if seat is None and not operator else None, key)

    def _give_back(self, client: str | None, seat: tuple[str, int] | None) -> None:
        with self._lock:
            self.open -= 1
            if client is not None:
                self._clients[client] -= 1
                if not self._clients[client]:
                    del self._clients[client]
            if seat is not None:
                self._seats[seat] -= 1
                if not self._seats[seat]:
                    del self._seats[seat]


@dataclass
class Slot:
    slots: WatcherSlots
    client: str | None
    seat: tuple[str, int] | None
    released: bool = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.slots._give_back(self.client, self.seat)


def client_of(peer: str) -> str:
    """The client a limit counts (docs/trust.md, "Clients"): its address's
    host; for IPv6 its /64 network, which one subscriber usually holds
    whole (so rotating addresses within it is still one client)."""
    host = peer_host(peer)
    if host.startswith("[") and host.endswith("]"):
        try:
            network = ipaddress.IPv6Network(f"{host[1:-1]}/64", strict=False)
        except ValueError:
            return host
        return f"[{network}]"
    return host


def peer_host(peer: str) -> str:
    """The client's host from a gRPC peer string ("ipv4:1.2.3.4:5678")."""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6"):
        return rest.rsplit(":", 1)[0]
    return peer
