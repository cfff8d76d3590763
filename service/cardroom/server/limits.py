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
from typing import Any


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
    # StreamGameRecord: streams one client may hold open and streams of one
    # game's record at once, and the memory the records being streamed may
    # hold (each record once, shared; cardroom.server.games.records).
    records_per_client: int = 4
    records_per_game: int = 16
    record_memory_bytes: int = 256 * 1024 * 1024
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
            # gRPC's own wait for a ping's answer (60 s by default since
            # 1.5x) overrides the keepalive's: set it to the same.
            ("grpc.http2.ping_timeout_ms", self.keepalive_timeout_seconds * 1000),
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


# The kinds of live stream a slot is taken for: WatchEvents, ReplayViews,
# StreamGameRecord. Each counts in the same total, reserve and per-client
# share; record streams have their own caps besides (each pins a record).
STREAM_KINDS = ("watch", "replay", "record")


class WatcherSlots:
    """Who holds the server's live streams (WatchEvents, ReplayViews,
    StreamGameRecord).

    ``total`` streams in all; the last ``reserve`` of them only for a
    game's own seats watching their own game. Every stream of a client of
    every kind counts against one of its two ``per_client`` shares: its
    spectators' streams, or its seats' (so joining many games gives no
    more streams, and spectating never locks its own seats out); a seat's
    also against that seat's ``per_seat``; a record stream also
    against ``records_per_client`` and ``records_per_game``. The operator
    has a share of its own (``per_client`` streams) outside the total, so
    no client can lock it out; the server's own callers (``client`` None:
    its bots) count in the total only. Counters live in this process;
    nothing is recorded.
    """

    def __init__(
        self,
        total: int,
        reserve: int | None,
        per_client: int,
        per_seat: int,
        *,
        records_per_client: int = 4,
        records_per_game: int = 16,
    ) -> None:
        self.total = total
        self.reserve = min(total // 10 if reserve is None else reserve, total)
        self.per_client = per_client
        self.per_seat = per_seat
        self.records_per_client = records_per_client
        self.records_per_game = records_per_game
        self.open = 0  # every stream, the operator's included
        self.shared = 0  # the streams counted in the total
        self.operator = 0
        self._clients: Counter[str] = Counter()
        self._seats: Counter[tuple[str, int]] = Counter()
        self._records: Counter[str] = Counter()  # by client and by game, keys apart
        self._lock = threading.Lock()

    def full(self, operator: bool = False) -> str | None:
        """Why no stream at all may open now for the caller (the total, or
        the operator's own share, is reached), or None."""
        if operator:
            if self.operator >= self.per_client:
                return f"the operator has {self.per_client} streams open already, its share"
            return None
        if self.shared >= self.total:
            return f"the server streams to {self.total} watchers already, its limit"
        return None

    def _refusal(
        self, client: str | None, game_id: str, seat: int | None, operator: bool, kind: str
    ) -> str | None:
        why = self.full(operator)
        if why is not None or operator:
            return why
        if seat is None and self.shared >= self.total - self.reserve:
            return (
                f"the server streams to {self.total - self.reserve} spectators already, its "
                "limit (the rest is kept for seats watching their own game)"
            )
        if client is not None and self._clients[_share(client, seat)] >= self.per_client:
            whose = "this client has" if seat is None else "this client's seats have"
            return f"{whose} {self.per_client} streams open already, the limit per client"
        if seat is not None and self._seats[(game_id, seat)] >= self.per_seat:
            return f"seat {seat} has {self.per_seat} streams open already, the limit per seat"
        if kind == "record":
            if client is not None and self._records["client " + client] >= self.records_per_client:
                return (
                    f"this client streams {self.records_per_client} game records already, "
                    "the limit per client"
                )
            if self._records["game " + game_id] >= self.records_per_game:
                return (
                    f"this game's record is streamed {self.records_per_game} times already, "
                    "the limit per game"
                )
        return None

    def take(
        self,
        client: str | None,
        game_id: str,
        seat: int | None,
        operator: bool,
        kind: str = "watch",
    ) -> Slot:
        """One slot for a ``kind`` stream of ``client`` on ``game_id`` as
        ``seat`` (None: not a seat of this game) or the operator; raises
        ``TooBusy`` naming the limit when there is none."""
        assert kind in STREAM_KINDS
        with self._lock:
            why = self._refusal(client, game_id, seat, operator, kind)
            if why is not None:
                raise TooBusy(why)
            self.open += 1
            slot = Slot(self, operator=operator)
            if operator:
                self.operator += 1
                return slot
            self.shared += 1
            if client is not None:
                slot.client = _share(client, seat)
                self._clients[slot.client] += 1
            if seat is not None:
                slot.seat = (game_id, seat)
                self._seats[slot.seat] += 1
            if kind == "record":
                slot.records = ("game " + game_id,) + (
                    ("client " + client,) if client is not None else ()
                )
                self._records.update(slot.records)
            return slot

    def _give_back(self, slot: Slot) -> None:
        with self._lock:
            self.open -= 1
            if slot.operator:
                self.operator -= 1
                return
            self.shared -= 1
            if slot.client is not None:
                _decrement(self._clients, slot.client)
            if slot.seat is not None:
                _decrement(self._seats, slot.seat)
            for key in slot.records:
                _decrement(self._records, key)


def _share(client: str, seat: int | None) -> str:
    """The per-client count a stream is in: its spectators' streams, or
    its seats' (so that a client's spectating never locks its own seats
    out of their games)."""
    return ("seats of " if seat is not None else "spectator ") + client


def _decrement(counter: Counter[Any], key: Any) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


@dataclass
class Slot:
    slots: WatcherSlots
    operator: bool = False
    client: str | None = None
    seat: tuple[str, int] | None = None
    records: tuple[str, ...] = ()
    released: bool = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.slots._give_back(self)


def client_of(peer: str) -> str:
    """The client a limit counts (docs/trust.md, "Clients"): its address's
    host; for IPv6 its /64 network, which one subscriber usually holds
    whole (so rotating addresses within it is still one client). An
    IPv4-mapped address (an IPv4 browser on a ``[::]`` port) is its IPv4
    address: each IPv4 client its own."""
    return client_of_host(peer_host(peer))


def client_of_host(host: str) -> str:
    """``client_of`` for a bare host ("10.1.2.3", "::1" or "[::1]")."""
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if ":" not in bare:
        return host
    try:
        address = ipaddress.IPv6Address(bare.split("%", 1)[0])
    except ValueError:
        return host
    if address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return f"[{ipaddress.IPv6Network(f'{address}/64', strict=False)}]"


def peer_host(peer: str) -> str:
    """The client's host from a gRPC peer string ("ipv4:1.2.3.4:5678")."""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6"):
        return rest.rsplit(":", 1)[0]
    return peer
