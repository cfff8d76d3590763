"""``cardroom serve``: run the gRPC server (docs/operations.md). Settings
come from flags, else environment variables, else the defaults."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from cardroom.cli import logs
from cardroom.cli.common import EXIT_OK, UsageError, env, int_env
from cardroom.server.limits import Limits

if TYPE_CHECKING:  # the server's modules need `pip install 'cardroom-games[server]'`
    from cardroom.server.api.server import Settings

NAME = "serve"
HELP = "run the gRPC server (and, with --web-address, the browser port)"


_int = int_env


def add_arguments(parser: argparse.ArgumentParser) -> None:
    defaults = Limits()
    parser.add_argument(
        "--address",
        default=env("CARDROOM_ADDRESS", "127.0.0.1:50051"),
        metavar="HOST:PORT",
        help="where to listen (env CARDROOM_ADDRESS; default %(default)s; port 0 picks one)",
    )
    parser.add_argument(
        "--database",
        default=env("CARDROOM_DATABASE", "cardroom.sqlite3"),
        metavar="PATH_OR_URL",
        help="a SQLite file path (default ./cardroom.sqlite3) or a "
        "postgresql://user:password@host:port/dbname[?schema=name] URL (env CARDROOM_DATABASE)",
    )
    parser.add_argument(
        "--operator-token",
        metavar="SECRET",
        default=env("CARDROOM_OPERATOR_TOKEN"),
        help="secret granting the operator's powers: read any game's full log, set deals, "
        "no creation limit (env CARDROOM_OPERATOR_TOKEN; default: no operator)",
    )
    parser.add_argument(
        "--signing-key",
        metavar="PATH",
        default=env("CARDROOM_SIGNING_KEY"),
        help="the Ed25519 key file that signs exported records, created if missing (env "
        "CARDROOM_SIGNING_KEY; default <database>.ed25519 beside a SQLite file, else "
        "./cardroom-signing-key.pem)",
    )
    parser.add_argument(
        "--signed-heads",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="sign the chain head of every served event, so a server showing two histories "
        "can be proved to (default on; --no-signed-heads only to measure what it costs)",
    )
    parser.add_argument(
        "--tls-cert",
        metavar="PEM",
        default=env("CARDROOM_TLS_CERT"),
        help="serve TLS with this certificate chain (env CARDROOM_TLS_CERT; needs --tls-key)",
    )
    parser.add_argument(
        "--tls-key",
        metavar="PEM",
        default=env("CARDROOM_TLS_KEY"),
        help="the private key of --tls-cert (env CARDROOM_TLS_KEY)",
    )
    parser.add_argument(
        "--tls-client-ca",
        metavar="PEM",
        default=env("CARDROOM_TLS_CLIENT_CA"),
        help="require mutual TLS: clients must present a certificate signed by this CA "
        "(env CARDROOM_TLS_CLIENT_CA)",
    )
    parser.add_argument(
        "--metrics-address",
        metavar="HOST:PORT",
        default=env("CARDROOM_METRICS_ADDRESS"),
        help="serve Prometheus metrics at http://HOST:PORT/metrics "
        "(env CARDROOM_METRICS_ADDRESS; default: none)",
    )
    logs.add_access_log_flag(parser, "CARDROOM_ACCESS_LOG")
    parser.add_argument(
        "--web-address",
        metavar="HOST:PORT",
        default=env("CARDROOM_WEB_ADDRESS"),
        help="also serve browsers here: the Connect protocol and gRPC-Web (JSON and binary) "
        "for the same GameService, and the reference web table at / (env "
        "CARDROOM_WEB_ADDRESS; default: none; docs/typescript.md)",
    )
    parser.add_argument(
        "--web-origins",
        metavar="ORIGIN[,ORIGIN]",
        default=env("CARDROOM_WEB_ORIGINS", ""),
        help="pages from these origins (e.g. https://cards.example) may call the web port "
        "cross-origin (CORS); * allows any (env CARDROOM_WEB_ORIGINS; default: same origin only)",
    )
    parser.add_argument(
        "--web-root",
        metavar="DIR",
        default=env("CARDROOM_WEB_ROOT"),
        help="serve this folder's files at / on the web port instead of the reference web "
        "table (env CARDROOM_WEB_ROOT)",
    )
    parser.add_argument(
        "--broker",
        metavar="NATS_URL",
        default=env("CARDROOM_BROKER"),
        help="nats://HOST:PORT of a NATS server with JetStream: publish each event's redacted "
        "copies there for `cardroom relay` processes, and share presence with them (env "
        "CARDROOM_BROKER; default: none; docs/scaling.md)",
    )
    parser.add_argument(
        "--max-request-bytes",
        type=int,
        metavar="N",
        default=_int("CARDROOM_MAX_REQUEST_BYTES", defaults.max_request_bytes),
        help="refuse larger requests (RESOURCE_EXHAUSTED); default %(default)s",
    )
    parser.add_argument(
        "--max-watchers",
        type=int,
        metavar="N",
        default=_int("CARDROOM_MAX_WATCHERS", defaults.max_watchers),
        help="open WatchEvents/ReplayViews/StreamGameRecord streams the server allows (the "
        "operator's are apart); more are refused with "
        "RESOURCE_EXHAUSTED (env CARDROOM_MAX_WATCHERS; default %(default)s)",
    )
    parser.add_argument(
        "--watchers-per-client",
        type=int,
        metavar="N",
        default=_int("CARDROOM_WATCHERS_PER_CLIENT", defaults.watchers_per_client),
        help="streams one client (by address) may hold open as a spectator, and again as "
        "seats (env CARDROOM_WATCHERS_PER_CLIENT; default %(default)s)",
    )
    parser.add_argument(
        "--watcher-reserve",
        type=int,
        metavar="N",
        default=_int("CARDROOM_WATCHER_RESERVE", -1),
        help="of --max-watchers, the streams only a game's seats and the operator may open "
        "on their own game (env CARDROOM_WATCHER_RESERVE; default: a tenth of --max-watchers)",
    )
    parser.add_argument(
        "--watchers-per-seat",
        type=int,
        metavar="N",
        default=_int("CARDROOM_WATCHERS_PER_SEAT", defaults.watchers_per_seat),
        help="streams one seat of one game may hold open (env CARDROOM_WATCHERS_PER_SEAT; "
        "default %(default)s)",
    )
    parser.add_argument(
        "--records-per-client",
        type=int,
        metavar="N",
        default=_int("CARDROOM_RECORDS_PER_CLIENT", defaults.records_per_client),
        help="StreamGameRecord streams one client may hold open (env "
        "CARDROOM_RECORDS_PER_CLIENT; default %(default)s)",
    )
    parser.add_argument(
        "--records-per-game",
        type=int,
        metavar="N",
        default=_int("CARDROOM_RECORDS_PER_GAME", defaults.records_per_game),
        help="StreamGameRecord streams of one game's record at once (env "
        "CARDROOM_RECORDS_PER_GAME; default %(default)s)",
    )
    parser.add_argument(
        "--record-memory-mib",
        type=int,
        metavar="MIB",
        default=_int("CARDROOM_RECORD_MEMORY_MIB", defaults.record_memory_bytes // (1 << 20)),
        help="memory the records being streamed may hold, each record once and a chunk per "
        "stream (env CARDROOM_RECORD_MEMORY_MIB; default %(default)s)",
    )
    parser.add_argument(
        "--max-streams-per-connection",
        type=int,
        metavar="N",
        default=_int("CARDROOM_MAX_STREAMS_PER_CONNECTION", defaults.max_streams_per_connection),
        help="concurrent calls one connection may have open (default %(default)s)",
    )
    parser.add_argument(
        "--cache-games",
        type=int,
        metavar="N",
        default=_int("CARDROOM_CACHE_GAMES", defaults.cache_games),
        help="games kept in memory; the least recently used beyond are reloaded from their "
        "newest checkpoint when next used (env CARDROOM_CACHE_GAMES; default %(default)s)",
    )
    parser.add_argument(
        "--games-per-client-per-hour",
        type=int,
        metavar="N",
        default=_int("CARDROOM_GAMES_PER_CLIENT_PER_HOUR", defaults.games_per_client_per_hour),
        help="games one client (by address) may create per hour, 0 for no limit; the "
        "operator is never limited (env CARDROOM_GAMES_PER_CLIENT_PER_HOUR; "
        "default %(default)s)",
    )
    parser.add_argument(
        "--joins-per-client-per-hour",
        type=int,
        metavar="N",
        default=_int("CARDROOM_JOINS_PER_CLIENT_PER_HOUR", defaults.joins_per_client_per_hour),
        help="seats one client (by address) may take per hour (JoinGame, AcceptInvitation), 0 "
        "for no limit; refused joins count nothing (env CARDROOM_JOINS_PER_CLIENT_PER_HOUR; "
        "default %(default)s)",
    )
    parser.add_argument(
        "--invitations-per-client-per-hour",
        type=int,
        metavar="N",
        default=_int(
            "CARDROOM_INVITATIONS_PER_CLIENT_PER_HOUR", defaults.invitations_per_client_per_hour
        ),
        help="invitations one client (by address) may issue per hour, 0 for no limit; refused "
        "ones count nothing (env CARDROOM_INVITATIONS_PER_CLIENT_PER_HOUR; default %(default)s)",
    )
    parser.add_argument(
        "--max-game-events",
        type=int,
        metavar="N",
        default=_int("CARDROOM_MAX_GAME_EVENTS", defaults.max_game_events),
        help="each new game's length limit in events (T-LENGTH): the table ends a game that "
        "reaches it; creators may ask for less; 0 for none (env CARDROOM_MAX_GAME_EVENTS; "
        "default %(default)s)",
    )
    parser.add_argument(
        "--resign-after-timeouts",
        type=int,
        metavar="N",
        default=_int("CARDROOM_RESIGN_AFTER_TIMEOUTS", defaults.resign_after_timeouts),
        help="in a new clocked game, a seat whose clock runs out N times in a row leaves it "
        "(T-TIMEOUTS) unless its creator asks for another N; 0: never (env "
        "CARDROOM_RESIGN_AFTER_TIMEOUTS; default %(default)s)",
    )
    parser.add_argument(
        "--end-absent-games-after",
        type=int,
        metavar="SECONDS",
        default=_int("CARDROOM_END_ABSENT_GAMES_AFTER", defaults.end_absent_games_after),
        help="abandoned games (T-ABSENT): a new game that recorded nothing for this long ends "
        "if nobody started it, or if it is running and its seats still playing are all absent "
        "(--absent-after), unless its creator asks for other seconds; 0: never (env "
        "CARDROOM_END_ABSENT_GAMES_AFTER; default %(default)s)",
    )

    parser.add_argument(
        "--absent-after",
        type=int,
        metavar="SECONDS",
        default=_int("CARDROOM_ABSENT_AFTER", 120),
        help="a seat of a running game that made no call (no command, no open WatchEvents) "
        "for this long shows as absent in the table view; 0: never (env CARDROOM_ABSENT_AFTER; "
        "default %(default)s)",
    )
    parser.add_argument(
        "--abandon-after",
        type=int,
        metavar="SECONDS",
        default=_int("CARDROOM_ABANDON_AFTER", 3600),
        help="a running game whose every human seat made no call for this long, and that "
        "T-ABSENT does not end (a server bot still plays in it, or it has no T-ABSENT seconds), "
        "has those seats removed for absence (T-REMOVE); its bots play on; 0: never (env "
        "CARDROOM_ABANDON_AFTER; default %(default)s)",
    )
    parser.add_argument(
        "--bot-think-ms",
        type=int,
        metavar="MS",
        default=_int("CARDROOM_BOT_THINK_MS", 500),
        help="how long a search bot the server runs (AddBot) thinks a move, in a worker "
        "process (env CARDROOM_BOT_THINK_MS; default %(default)s)",
    )
    parser.add_argument(
        "--bot-move-ms",
        type=int,
        metavar="MS",
        default=_int("CARDROOM_BOT_MOVE_MS", 100),
        help="the least time between two moves of one bot the server runs, so fast bots cannot "
        "crowd out everyone else's calls (env CARDROOM_BOT_MOVE_MS; default %(default)s)",
    )
    parser.add_argument(
        "--bot-turns",
        type=int,
        metavar="N",
        default=_int("CARDROOM_BOT_TURNS", 4),
        help="looks or moves of the server's bots at once; the bots one client added hold at "
        "most half of them, as they do of the search workers (env CARDROOM_BOT_TURNS; default "
        "%(default)s)",
    )
    parser.add_argument(
        "--bot-lease-seconds",
        type=int,
        metavar="SECONDS",
        default=_int("CARDROOM_BOT_LEASE_SECONDS", 10),
        help="how often a server checks its lease on its bots' games and takes over bot games "
        "no server plays (several servers on one PostgreSQL store; env "
        "CARDROOM_BOT_LEASE_SECONDS; default %(default)s)",
    )


def settings_of(args: argparse.Namespace) -> Settings:
    from cardroom.server.api.server import Settings
    from cardroom.server.storage.log import BadDatabase, storage_env

    for flag in (
        "max_request_bytes",
        "max_watchers",
        "max_streams_per_connection",
        "cache_games",
        "watchers_per_client",
        "watchers_per_seat",
        "records_per_client",
        "records_per_game",
        "record_memory_mib",
    ):
        if getattr(args, flag) < 1:
            raise UsageError(f"--{flag.replace('_', '-')} must be at least 1")
    if args.absent_after < 0:
        raise UsageError("--absent-after must be 0 (never) or more seconds")
    if args.abandon_after < 0:
        raise UsageError("--abandon-after must be 0 (never) or more seconds")
    if 0 < args.abandon_after < args.absent_after:
        raise UsageError(
            f"--abandon-after ({args.abandon_after} s) must be at least --absent-after "
            f"({args.absent_after} s): a seat shows as absent before it is removed for absence"
        )
    if not 1 <= args.bot_think_ms <= 60_000:
        raise UsageError("--bot-think-ms must be 1 to 60000")
    if not 0 <= args.bot_move_ms <= 60_000:
        raise UsageError("--bot-move-ms must be 0 to 60000")
    if not 1 <= args.bot_turns <= 1000:
        raise UsageError("--bot-turns must be 1 to 1000")
    if not 1 <= args.bot_lease_seconds <= 3600:
        raise UsageError("--bot-lease-seconds must be 1 to 3600")
    if args.games_per_client_per_hour < 0:
        raise UsageError("--games-per-client-per-hour must be 0 (no limit) or more")
    if args.max_game_events and args.max_game_events < 100:
        raise UsageError("--max-game-events must be 0 (none) or at least 100")
    if not 0 <= args.end_absent_games_after <= 7 * 24 * 3600:
        raise UsageError("--end-absent-games-after must be 0 (never) to a week of seconds")
    if args.resign_after_timeouts < 0:
        raise UsageError("--resign-after-timeouts must be 0 (never) or more")
    if args.joins_per_client_per_hour < 0:
        raise UsageError("--joins-per-client-per-hour must be 0 (no limit) or more")
    if args.invitations_per_client_per_hour < 0:
        raise UsageError("--invitations-per-client-per-hour must be 0 (no limit) or more")
    if args.watcher_reserve >= args.max_watchers:
        raise UsageError("--watcher-reserve must be below --max-watchers")
    if args.web_root and not Path(args.web_root).is_dir():
        raise UsageError(f"--web-root {args.web_root[:200]} is not a folder")
    try:
        storage_env(args.database)
    except BadDatabase as error:
        raise UsageError(str(error)) from None
    check_broker_url(args.broker)
    limits = Limits(
        max_request_bytes=args.max_request_bytes,
        max_watchers=args.max_watchers,
        max_streams_per_connection=args.max_streams_per_connection,
        games_per_client_per_hour=args.games_per_client_per_hour,
        joins_per_client_per_hour=args.joins_per_client_per_hour,
        invitations_per_client_per_hour=args.invitations_per_client_per_hour,
        max_game_events=args.max_game_events,
        resign_after_timeouts=args.resign_after_timeouts,
        end_absent_games_after=args.end_absent_games_after,
        watchers_per_client=args.watchers_per_client,
        watcher_reserve=None if args.watcher_reserve < 0 else args.watcher_reserve,
        watchers_per_seat=args.watchers_per_seat,
        records_per_client=args.records_per_client,
        records_per_game=args.records_per_game,
        record_memory_bytes=args.record_memory_mib << 20,
        cache_games=args.cache_games,
    )
    return Settings(
        address=args.address,
        database=args.database,
        operator_token=args.operator_token,
        signing_key=args.signing_key,
        signed_heads=args.signed_heads,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        tls_client_ca=args.tls_client_ca,
        metrics_address=args.metrics_address,
        limits=limits,
        web_address=args.web_address,
        web_origins=tuple(o.strip() for o in args.web_origins.split(",") if o.strip()),
        web_root=args.web_root,
        absent_after=args.absent_after or None,
        abandon_after=args.abandon_after or None,
        bot_think_ms=args.bot_think_ms,
        bot_move_ms=args.bot_move_ms,
        bot_turns=args.bot_turns,
        bot_lease_seconds=args.bot_lease_seconds,
        broker=args.broker or None,
    )


def check_broker_url(url: str | None) -> None:
    if url and not url.startswith(("nats://", "tls://")):
        raise UsageError(f"--broker must be a nats://HOST:PORT URL, not {url[:80]!r}")


def run(args: argparse.Namespace) -> int:
    from cardroom.server.api.server import ServeError, serve

    settings = settings_of(args)
    logs.configure(args.access_log)
    try:
        asyncio.run(serve(settings))
    except ServeError as error:
        raise UsageError(str(error)) from None
    except KeyboardInterrupt:
        pass
    return EXIT_OK
