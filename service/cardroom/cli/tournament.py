"""``cardroom tournament``: tournaments a server runs (docs/rules/tournaments.md,
"How the server runs one").

* ``new KIND --table-size N --rounds R``: create one; prints its id and the
  organizer token that starts it.
* ``join TOURNAMENT_ID``: before the start, register with your player key
  (the one ``cardroom play`` signs seats with); once your round is paired,
  take the seat of your table's game reserved for that key and keep it, so
  ``cardroom play --game-id GAME_ID`` plays it.
* ``withdraw TOURNAMENT_ID``: leave it, signed with your player key (from
  the next round on you have no table; your running game goes on without
  you); with ``--player ID --organizer-token TOKEN`` the organizer
  withdraws a player (a no-show).
* ``start TOURNAMENT_ID --organizer-token TOKEN``: close registration and
  pair round 1.
* ``standings TOURNAMENT_ID``: standings, rounds and each table's game.
* ``watch TOURNAMENT_ID``: its events as lines, live, until it finishes.
* ``simulate KIND``: a bot tournament from start to audit
  (``cardroom.cli.tournament_simulate``).
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import textwrap
from collections.abc import Awaitable, Callable

from cardroom.cli.common import (
    EXIT_OK,
    UsageError,
    add_server_flags,
    connect,
    env,
    player_key,
    unreachable,
)
from cardroom.client import CardroomError, Client
from cardroom.client.entropy import new_entropy
from cardroom.client.follow import transient
from cardroom.client.printable import printable
from cardroom.client.sessions import SeatRecord, SessionError, Sessions
from cardroom.trust import signing
from cardroom.trust.envelopes import unpack
from cardroom.trust.players import player_id
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import tournament_pb2 as tnpb

NAME = "tournament"
WIDTH = 80  # what `standings` and `watch` print fits an 80x24 terminal
NAME_WIDTH = 16  # a player's name in the standings
HELP = "tournaments a server runs: new, join, withdraw, start, standings, watch, simulate"
DESCRIPTION = (
    "Tournaments a server runs (docs/rules/tournaments.md). `new` creates one and prints "
    "its organizer token; `join` registers you with your player key, and once your round "
    "is paired takes your reserved seat (then `cardroom play --game-id GAME_ID`); `withdraw` "
    "leaves it; `start` pairs round 1; `standings` and `watch` show it."
)


def _login() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # pragma: no cover - no login name
        return "player"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    new = actions.add_parser("new", help="create a tournament; prints its id and organizer token")
    new.add_argument("kind", metavar="KIND", help="the game kind every game is played in")
    new.add_argument("--table-size", type=int, required=True, metavar="N", help="seats a table")
    new.add_argument(
        "--rounds", type=int, default=0, metavar="R", help="rounds (a round robin: 0, its schedule)"
    )
    new.add_argument("--round-robin", action="store_true", help="a round robin (default: a Swiss)")
    new.add_argument("--name", default="", help="the tournament's name, for people")
    new.add_argument(
        "--seconds-per-decision",
        type=int,
        default=0,
        metavar="S",
        help="a turn clock at every table: each awaited seat has S seconds, then the game makes "
        "its default choice for it (docs/rules/tournaments.md TN-CLOCK; default 0, no clock)",
    )
    add_server_flags(new)
    join = actions.add_parser(
        "join",
        help="register with your player key; once paired, take your reserved seat",
    )
    join.add_argument("tournament_id", metavar="TOURNAMENT_ID")
    join.add_argument(
        "--name",
        default=env("CARDROOM_NAME") or _login(),
        help="your name (env CARDROOM_NAME; default your login name)",
    )
    join.add_argument(
        "--token-file",
        metavar="PATH",
        help="where your seats and your player key are kept (default: cardroom play's)",
    )
    add_server_flags(join)
    withdraw = actions.add_parser(
        "withdraw",
        help="leave, signed with your player key (or the organizer withdraws --player)",
    )
    withdraw.add_argument("tournament_id", metavar="TOURNAMENT_ID")
    withdraw.add_argument(
        "--token-file",
        metavar="PATH",
        help="where your player key is kept (default: cardroom play's)",
    )
    withdraw.add_argument(
        "--player",
        metavar="PLAYER",
        help="with --organizer-token: the player to withdraw, by id or display name",
    )
    withdraw.add_argument(
        "--organizer-token",
        default=env("CARDROOM_ORGANIZER_TOKEN"),
        metavar="TOKEN",
        help="with --player: the organizer's (env CARDROOM_ORGANIZER_TOKEN) or operator's token",
    )
    add_server_flags(withdraw)
    start = actions.add_parser("start", help="close registration and pair round 1")
    start.add_argument("tournament_id", metavar="TOURNAMENT_ID")
    start.add_argument(
        "--organizer-token",
        default=env("CARDROOM_ORGANIZER_TOKEN"),
        metavar="TOKEN",
        help="from `cardroom tournament new` (env CARDROOM_ORGANIZER_TOKEN); or the operator token",
    )
    add_server_flags(start)
    simulate = actions.add_parser(
        "simulate",
        help="a bot tournament from start to audit (a temporary server unless --address)",
    )
    simulate.add_argument("kind", metavar="KIND", help="the game kind every game is played in")
    simulate.add_argument(
        "--players", type=int, default=8, metavar="N", help="bot players (default %(default)s)"
    )
    simulate.add_argument(
        "--table-size", type=int, default=3, metavar="N", help="seats a table (default %(default)s)"
    )
    simulate.add_argument(
        "--rounds", type=int, default=3, metavar="R", help="rounds (default %(default)s)"
    )
    simulate.add_argument(
        "--round-robin", action="store_true", help="a round robin (default: a Swiss)"
    )
    simulate.add_argument(
        "--bots",
        default="heuristic,random",
        metavar="BOT,BOT,...",
        help="the bot levels, dealt to the players in turn (default %(default)s)",
    )
    simulate.add_argument(
        "--seed", type=int, default=0, help="the players' keys and the bots' choices"
    )
    add_server_flags(
        simulate,
        address_default=None,
        address_help="run it on this server (default: a temporary server of its own)",
    )
    for action, what in (
        ("standings", "standings, rounds and each table's game"),
        ("watch", "the tournament's events as lines, live, until it finishes"),
    ):
        sub = actions.add_parser(action, help=what)
        sub.add_argument("tournament_id", metavar="TOURNAMENT_ID")
        add_server_flags(sub)


Step = Callable[[argparse.Namespace, Client], Awaitable[None]]


def run(args: argparse.Namespace) -> int:
    if args.action == "simulate":
        from cardroom.cli import tournament_simulate

        return tournament_simulate.run(args)
    steps: dict[str, Step] = {
        "new": _new,
        "join": _join,
        "withdraw": _withdraw,
        "start": _start,
        "standings": _standings,
        "watch": _watch,
    }
    return asyncio.run(_with_client(args, steps[args.action]))


async def _with_client(args: argparse.Namespace, step: Step) -> int:
    try:
        async with connect(args) as client:
            await step(args, client)
    except CardroomError as error:
        if transient(error):
            raise unreachable(args.address, error.details) from None
        raise
    return EXIT_OK


async def _new(args: argparse.Namespace, client: Client) -> None:
    if args.table_size < 1 or args.rounds < 0:
        raise UsageError("--table-size must be 1 or more and --rounds 0 or more")
    if args.seconds_per_decision < 0:
        raise UsageError("--seconds-per-decision must be 0 (no clock) or more")
    clock = args.seconds_per_decision
    created = await client.create_tournament(
        args.kind,
        table_size=args.table_size,
        rounds=args.rounds,
        swiss=not args.round_robin,
        name=args.name,
        table_options=tpb.TableOptions(seconds_per_decision=clock) if clock else None,
    )
    print(f"organizer token: {created.organizer_token}")
    print("  (keep it: `cardroom tournament start ID --organizer-token TOKEN` starts it)")
    print(created.tournament_id)


async def _join(args: argparse.Namespace, client: Client) -> None:
    sessions = Sessions.at(args.token_file)
    key = player_key(args, sessions)
    assert key is not None
    public = signing.public_key_bytes(key)
    view = await client.tournament(args.tournament_id)
    if view.registration_open:
        count = await client.register_player(args.tournament_id, key, args.name)
        print(f"Registered as {args.name} ({player_id(public)}): {count} player(s) so far.")
        return
    current = view.rounds[-1] if view.rounds else None
    table = next((t for t in current.tables if public in t.seats), None) if current else None
    if view.finished or current is None or table is None:
        raise UsageError("registration is closed and no table of the current round is yours")
    # The seat's own entropy (T-ENTROPY), kept for `cardroom play` to reveal and check.
    seat = await client.join_tournament_game(
        args.tournament_id, table.game_id, key, args.name, entropy=new_entropy()
    )
    record = SeatRecord(
        args.address,
        table.game_id,
        view.created.kind,
        seat.seat,
        seat.token,
        args.name,
        entropy=seat.entropy.hex(),
    )
    try:
        sessions.save(record)
    except SessionError as error:
        raise UsageError(f"cannot keep your seat token: {error}") from None
    print(f"Round {current.round}, table {table.table}: seat {seat.seat + 1} of {table.game_id}.")
    print(f"Play it: cardroom play --game-id {table.game_id}")


async def _withdraw(args: argparse.Namespace, client: Client) -> None:
    if args.player:
        if not args.organizer_token:
            raise UsageError("--player needs --organizer-token (the organizer withdraws them)")
        view = await client.tournament(args.tournament_id)
        public = _player_named(view, args.player)
        left = await client.withdraw_player(
            args.tournament_id, public_key=public, organizer_token=args.organizer_token
        )
        print(f"Withdrew {_names(view)[public]} ({player_id(public)}): {left} player(s) left.")
        return
    key = player_key(args, Sessions.at(args.token_file))
    assert key is not None
    left = await client.withdraw_player(args.tournament_id, key)
    public = signing.public_key_bytes(key)
    print(f"Withdrawn ({player_id(public)}): {left} player(s) left.")


def _player_named(view: tnpb.TournamentView, player: str) -> bytes:
    """A registered player's key, by their id or their (unique) display name."""
    by_id = [p.public_key for p in view.players if player_id(p.public_key) == player]
    by_name = [p.public_key for p in view.players if p.display_name == player]
    found = by_id or by_name
    if len(found) != 1:
        what = "several players have" if found else "no player has"
        raise UsageError(f"{what} the id or name {player!r} in this tournament")
    return bytes(found[0])


async def _start(args: argparse.Namespace, client: Client) -> None:
    if not args.organizer_token:
        raise UsageError("starting needs --organizer-token (from `cardroom tournament new`)")
    view = await client.start_tournament(args.tournament_id, args.organizer_token)
    print("\n".join(_rounds(view)))


async def _standings(args: argparse.Namespace, client: Client) -> None:
    view = await client.tournament(args.tournament_id)
    print("\n".join(standings_lines(view)))


async def _watch(args: argparse.Namespace, client: Client) -> None:
    async for response in client.watch_tournament(args.tournament_id):
        said = describe(unpack(response.event), response.tournament)
        print("\n".join(_wrapped(f"{response.sequence:>4}  {said}")))


# ---------------------------------------------------------------- words


def _names(view: tnpb.TournamentView) -> dict[bytes, str]:
    return {
        p.public_key: printable(p.display_name) or player_id(p.public_key)[:8] for p in view.players
    }


def _points(half_points: int) -> str:
    return f"{half_points // 2}" + (".5" if half_points % 2 else "")


def _wrapped(text: str) -> list[str]:
    """``text`` in lines of at most WIDTH columns, the later ones indented
    4 more than the first."""
    indent = " " * (len(text) - len(text.lstrip()) + 4)
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent) or [""]


def _short(name: str, width: int = NAME_WIDTH) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def _rounds(view: tnpb.TournamentView) -> list[str]:
    names = _names(view)
    lines = []
    results = {(r.round, r.table): list(r.ranks) for r in view.results}
    for paired in view.rounds:
        lines.append(f"Round {paired.round}:")
        for table in paired.tables:
            ranks = results.get((paired.round, table.table))
            seated = ", ".join(
                names.get(k, "?") + (f" (#{ranks[i]})" if ranks else "")
                for i, k in enumerate(table.seats)
            )
            lines.extend(_wrapped(f"  table {table.table}: {seated}"))
            if table.game_id:  # on a line of its own: what `cardroom watch` takes
                lines.append(f"    game {table.game_id}")
        if paired.byes:
            lines.extend(_wrapped(f"  byes: {', '.join(names.get(k, '?') for k in paired.byes)}"))
    return lines


def standings_lines(view: tnpb.TournamentView) -> list[str]:
    """The tournament in words, every line within WIDTH columns (an 80x24
    terminal): a name longer than NAME_WIDTH is cut in the standings, and
    given whole in the rounds below them."""
    created = view.created
    state = (
        "finished"
        if view.finished
        else "registration open"
        if view.registration_open
        else f"round {len(view.rounds)}"
    )
    lines = [
        *_wrapped(printable(created.name) or created.tournament_id),
        f"{created.kind}, tables of {created.table_size}, {state}; {len(view.players)} player(s)",
    ]
    names = _names(view)
    for line in view.standings:
        name = _short(names.get(line.public_key, "?"))
        lines.append(
            f"{line.place:>3}. {name:<{NAME_WIDTH}} {_points(line.half_points):>5} pts  "
            f"Buchholz {_points(line.buchholz_half_points):>5}  {line.wins} of {line.games} "
            f"won, {line.byes} bye(s)" + (" withdrew" if line.withdrawn else "")
        )
    lines.extend(_rounds(view))
    return lines


def describe(event: object, view: tnpb.TournamentView) -> str:
    """One tournament event, in words."""
    names = _names(view)
    if isinstance(event, tnpb.TournamentCreated):
        return f"created: {event.kind}, tables of {event.table_size}"
    if isinstance(event, tnpb.PlayerRegistered):
        return f"{printable(event.player.display_name) or '?'} registered"
    if isinstance(event, tnpb.PlayerWithdrew):
        return f"{names.get(event.public_key, '?')} withdrew"
    if isinstance(event, tnpb.RegistrationClosed):
        return f"registration closed (seed commitment {event.seed_commitment.hex()[:16]}…)"
    if isinstance(event, tnpb.RoundPaired):
        tables = "; ".join(
            f"table {t.table}: " + ", ".join(names.get(k, "?") for k in t.seats)
            for t in event.tables
        )
        return f"round {event.round} paired: {tables}"
    if isinstance(event, tnpb.GameRecorded):
        return f"round {event.round}, table {event.table}: ranks {list(event.ranks)}"
    if isinstance(event, tnpb.RoundCompleted):
        top = event.standings[0] if event.standings else None
        leader = f"; leader {names.get(top.public_key, '?')}" if top else ""
        return f"round {event.round} complete{leader}"
    if isinstance(event, tnpb.TournamentFinished):
        top = event.standings[0] if event.standings else None
        return f"finished; winner {names.get(top.public_key, '?') if top else '?'}"
    return type(event).__name__
