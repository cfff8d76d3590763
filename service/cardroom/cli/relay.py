"""``cardroom relay``: serve WatchEvents from the broker, in front of the
game servers (docs/scaling.md, "Relays"). Settings come from flags, else
environment variables, else the defaults."""

from __future__ import annotations

import argparse
import asyncio
from typing import TYPE_CHECKING

from cardroom.cli import logs
from cardroom.cli.common import EXIT_OK, UsageError, env, int_env
from cardroom.cli.serve import check_broker_url
from cardroom.server.limits import Limits

if TYPE_CHECKING:  # the server's modules need `pip install 'cardroom-games[server]'`
    from cardroom.server.api.server import Settings

NAME = "relay"
TRANSPORTS = ("h2", "grpc")  # the relay server's (its modules load only to serve)
HELP = "serve WatchEvents from the broker for many watchers (stateless; run as many as needed)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    defaults = Limits()
    parser.add_argument(
        "--address",
        default=env("CARDROOM_RELAY_ADDRESS", "127.0.0.1:50061"),
        metavar="HOST:PORT",
        help="where to listen (env CARDROOM_RELAY_ADDRESS; default %(default)s; port 0 picks one)",
    )
    parser.add_argument(
        "--database",
        default=env("CARDROOM_DATABASE", "cardroom.sqlite3"),
        metavar="PATH_OR_URL",
        help="the game servers' database, read to check credentials and catch watchers up "
        "(env CARDROOM_DATABASE; default %(default)s)",
    )
    parser.add_argument(
        "--signing-key",
        metavar="PATH",
        default=env("CARDROOM_SIGNING_KEY"),
        help="the game servers' key file, to sign the heads of the events a watcher catches up "
        "on (docs/trust.md §13; env CARDROOM_SIGNING_KEY; default as cardroom serve's; never "
        "created: without it those events carry no signed head)",
    )
    parser.add_argument(
        "--broker",
        metavar="NATS_URL",
        default=env("CARDROOM_BROKER"),
        help="nats://HOST:PORT of the NATS server the game servers publish to "
        "(env CARDROOM_BROKER; required)",
    )
    parser.add_argument(
        "--operator-token",
        metavar="SECRET",
        default=env("CARDROOM_OPERATOR_TOKEN"),
        help="the game servers' operator token, so the operator may watch through the relay "
        "(env CARDROOM_OPERATOR_TOKEN)",
    )
    for flag, what in (
        ("--tls-cert", "serve TLS with this certificate chain"),
        ("--tls-key", "the private key of --tls-cert"),
        ("--tls-client-ca", "require client certificates signed by this CA"),
    ):
        variable = "CARDROOM_" + flag.strip("-").upper().replace("-", "_")
        parser.add_argument(
            flag, metavar="PEM", default=env(variable), help=f"{what} (env {variable})"
        )
    parser.add_argument(
        "--metrics-address",
        metavar="HOST:PORT",
        default=env("CARDROOM_RELAY_METRICS_ADDRESS"),
        help="serve Prometheus metrics at http://HOST:PORT/metrics "
        "(env CARDROOM_RELAY_METRICS_ADDRESS; default: none)",
    )
    logs.add_access_log_flag(parser, "CARDROOM_RELAY_ACCESS_LOG")
    parser.add_argument(
        "--web-address",
        metavar="HOST:PORT",
        default=env("CARDROOM_RELAY_WEB_ADDRESS"),
        help="also serve WatchEvents to browsers here (Connect, gRPC-Web) "
        "(env CARDROOM_RELAY_WEB_ADDRESS; default: none)",
    )
    parser.add_argument(
        "--web-origins",
        metavar="ORIGIN[,ORIGIN]",
        default=env("CARDROOM_WEB_ORIGINS", ""),
        help="pages from these origins may watch through the web port (CORS); * allows any "
        "(env CARDROOM_WEB_ORIGINS)",
    )
    parser.add_argument(
        "--transport",
        choices=TRANSPORTS,
        default=env("CARDROOM_RELAY_TRANSPORT", "h2"),
        help="the gRPC port's implementation, serving the same calls (WatchEvents, health, "
        "reflection): h2 (python-hyper h2, about a tenth of the CPU per delivered message; "
        "docs/scaling.md) or grpc (grpc.aio) "
        "(env CARDROOM_RELAY_TRANSPORT; default %(default)s)",
    )
    parser.add_argument(
        "--max-watchers",
        type=int,
        metavar="N",
        default=int_env("CARDROOM_MAX_WATCHERS", defaults.max_watchers),
        help="open WatchEvents streams the relay allows (env CARDROOM_MAX_WATCHERS; "
        "default %(default)s)",
    )
    parser.add_argument(
        "--watchers-per-client",
        type=int,
        metavar="N",
        default=int_env("CARDROOM_WATCHERS_PER_CLIENT", defaults.watchers_per_client),
        help="streams one client (by address) may hold open on the relay, its seats' included "
        "(env CARDROOM_WATCHERS_PER_CLIENT; default %(default)s)",
    )
    parser.add_argument(
        "--max-streams-per-connection",
        type=int,
        metavar="N",
        default=int_env("CARDROOM_MAX_STREAMS_PER_CONNECTION", defaults.max_streams_per_connection),
        help="concurrent streams one connection may have open (default %(default)s)",
    )


def settings_of(args: argparse.Namespace) -> Settings:
    from cardroom.server.api.server import Settings
    from cardroom.server.storage.log import BadDatabase, storage_env

    if not args.broker:
        raise UsageError("a relay needs --broker nats://HOST:PORT (or CARDROOM_BROKER)")
    check_broker_url(args.broker)
    for flag in ("max_watchers", "max_streams_per_connection", "watchers_per_client"):
        if getattr(args, flag) < 1:
            raise UsageError(f"--{flag.replace('_', '-')} must be at least 1")
    try:
        storage_env(args.database)
    except BadDatabase as error:
        raise UsageError(str(error)) from None
    return Settings(
        address=args.address,
        database=args.database,
        operator_token=args.operator_token,
        signing_key=args.signing_key,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        tls_client_ca=args.tls_client_ca,
        metrics_address=args.metrics_address,
        limits=Limits(
            max_watchers=args.max_watchers,
            max_streams_per_connection=args.max_streams_per_connection,
            watchers_per_client=args.watchers_per_client,
        ),
        web_address=args.web_address,
        web_origins=tuple(o.strip() for o in args.web_origins.split(",") if o.strip()),
        broker=args.broker,
    )


def run(args: argparse.Namespace) -> int:
    from cardroom.server.api.server import ServeError
    from cardroom.server.relay.server import relay

    settings = settings_of(args)
    if args.transport not in TRANSPORTS:
        raise UsageError("--transport must be h2 or grpc (env CARDROOM_RELAY_TRANSPORT)")
    logs.configure(args.access_log)
    try:
        asyncio.run(relay(settings, args.transport))
    except ServeError as error:
        raise UsageError(str(error)) from None
    except KeyboardInterrupt:
        pass
    return EXIT_OK
