"""Fair shares of the server's bots (issue 34), attacked from outside:
``python -m bench.bot_shares [--before DIR] [--think-ms 500]``.

Three processes: a ``cardroom serve``, an attacker and this victim (with
``--pin``, the server on CPU 0 and the others on CPU 1; the server's search
workers then share CPU 0 with its event loop). The attacker talks to
the server through a TCP relay of its own whose connections leave from
127.0.0.2, so the server counts it as another client than the victim's
127.0.0.1 (docs/trust.md, "Clients").

* **waiting**: the attacker seats ``--waiting-games`` games of six seats
  with itself and four random bots (one seat stays free: none starts), more
  than the 100 streams of one connection; the victim's game of a random and
  a heuristic bot is timed to its end, against the same game with no attack,
  and again after the server restarts (its bots are found in the events).
* **search**: the attacker seats ``--search-games`` games of two search bots
  each (its host resigns, the bots play on); the victim's game has one
  search bot and one heuristic bot. Figure: the wall time of each of the
  victim search bot's moves (from the event before it to its own, by the
  events' ``recorded_at``), median and 90th percentile, against the same
  bot's moves with no attack in the same run.
* **fast**: the attacker seats ``--random-games`` long games of two random
  bots each; the victim times ``--views`` GetView calls of its own game,
  against the same calls before the attack (same run, same server).

``--before DIR`` also measures the server of another checkout (its
``service``, ``clients`` and ``domain`` folders first on PYTHONPATH: a
``git worktree add`` of main), so both sides come from one run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.servers import OPERATOR_TOKEN, Server, Servers
from cardroom.client import CardroomError, Client, RuleBroken
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.v1 import envelope_pb2 as epb

KIND = "smoke-and-mirrors"
LONG = 50  # rounds to win: the attackers' games outlast the measurement
ATTACKER_SOURCE = "127.0.0.2"
WARM_UP = 2  # a game's first search moves, left out: the worker processes start
ATTACKS = ("waiting", "search", "fast")
GAME_SECONDS = 120.0  # the victim's bot game: longer counts as frozen


PIN = False  # --pin: the server on CPU 0, the attacker and the victim on CPU 1


def pinned(cpu: int) -> list[str]:
    return ["taskset", "-c", str(cpu)] if PIN and shutil.which("taskset") else []


# ------------------------------------------------------------- the attacker


async def relay(server: str) -> tuple[asyncio.Server, str]:
    """A TCP relay to ``server`` whose outgoing connections leave from
    127.0.0.2: the server sees this process as another client."""
    host, port = server.rsplit(":", 1)

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()

    async def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(
            host, int(port), local_addr=(ATTACKER_SOURCE, 0)
        )
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    listening = await asyncio.start_server(accepted, "127.0.0.1", 0)
    return listening, f"127.0.0.1:{listening.sockets[0].getsockname()[1]}"


async def attack(server: str, strategy: str, games: int) -> None:
    """Seat ``games`` long games of two ``strategy`` bots each; their hosts
    resign, so the server's bots play on. Prints "ready" and stays (its
    relay carries nothing more, but the bots were added by this client)."""
    listening, address = await relay(server)
    client = Client.connect(address)
    if strategy == "waiting":
        await seat_waiting_bots(client, games)
        games = 0
    for _ in range(games):
        game_id = await client.create_game(
            KIND, seat_count=3, options=sm.Options(rounds_to_win=LONG)
        )
        host = await client.join(game_id, "attacker")
        await client.add_bot(game_id, host.token, strategy)
        await client.add_bot(game_id, host.token, strategy)
        await start_and_leave(client, game_id, host.token)
    print("ready", flush=True)
    await asyncio.Event().wait()
    listening.close()


async def seat_waiting_bots(client: Client, games: int) -> None:
    """``games`` games of six seats, each with this client and four random
    bots: one seat stays free, so none ever starts."""
    for _ in range(games):
        game_id = await client.create_game("smiles-and-daggers", seat_count=6)
        host = await client.join(game_id, "attacker")
        for _ in range(4):
            await client.add_bot(game_id, host.token, "random")


async def bot_game_seconds(client: Client) -> float | None:
    """Seconds for a game of the victim's two bots (a random and a heuristic)
    to end once its host leaves; None: not within ``GAME_SECONDS``."""
    game_id = await client.create_game(KIND, seat_count=3)
    host = await client.join(game_id, "victim")
    await client.add_bot(game_id, host.token, "random")
    await client.add_bot(game_id, host.token, "heuristic")
    began = time.monotonic()
    await start_and_leave(client, game_id, host.token)
    while time.monotonic() - began < GAME_SECONDS:
        try:
            view = await asyncio.wait_for(client.view(game_id, host.token), 5)
        except (TimeoutError, CardroomError):
            continue
        if view.table.finished:
            return time.monotonic() - began
        await asyncio.sleep(0.2)
    return None


async def start_and_leave(client: Client, game_id: str, token: str) -> None:
    """Start the game (unless its bots already did: every seat is taken)
    and resign: the server's bots play on, the host's seat by default."""
    with contextlib.suppress(RuleBroken):
        await client.start(game_id, token)
    await client.resign(game_id, token)


def start_attacker(server: str, strategy: str, games: int) -> subprocess.Popen[str]:
    command = [*pinned(1), sys.executable, "-m", "bench.bot_shares", "attack", server, strategy]
    process = subprocess.Popen(
        [*command, str(games)], stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[1]
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if line.strip() != "ready":
        process.kill()
        raise RuntimeError(f"the attacker did not get ready: {line!r}")
    return process


# --------------------------------------------------------------- the victim


async def search_moves(client: Client, moves: int) -> list[float]:
    """Seconds for each of ``moves`` moves of a search bot in a game of the
    victim's (the event before each to the bot's own)."""
    game_id = await client.create_game(KIND, seat_count=3, options=sm.Options(rounds_to_win=LONG))
    host = await client.join(game_id, "victim")
    searcher = (await client.add_bot(game_id, host.token, "search")).seat
    await client.add_bot(game_id, host.token, "heuristic")
    await start_and_leave(client, game_id, host.token)
    seconds: list[float] = []
    last = None
    async for envelope in client.watch(game_id, OPERATOR_TOKEN):  # sees who acted
        at = envelope.recorded_at.ToDatetime().timestamp()
        actor = envelope.command.actor
        if last is not None and actor.kind == epb.Actor.KIND_SEAT and actor.seat == searcher:
            seconds.append(at - last)
            if len(seconds) >= moves + WARM_UP:
                break
        last = at
    # Its search bot leaves (the operator removes it), so it does not think
    # on beside the next measurement's.
    await client.remove_seat(game_id, searcher, OPERATOR_TOKEN)
    return seconds[WARM_UP:]


async def view_seconds(client: Client, calls: int) -> list[float]:
    game_id = await client.create_game(KIND, seat_count=3)
    host = await client.join(game_id, "victim")
    seconds = []
    for _ in range(calls):
        began = time.perf_counter()
        await client.view(game_id, host.token)
        seconds.append(time.perf_counter() - began)
    return seconds


def summary(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    return f"median {statistics.median(ordered) * 1000:.0f} ms, p90 {p90 * 1000:.0f} ms"


async def side(name: str, python_path: str | None, args: argparse.Namespace) -> list[str]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="cardroom-bot-shares-") as folder:
        servers = Servers(Path(folder))
        env = ["env", f"PYTHONPATH={python_path}"] if python_path else []
        for attack_name in args.only:
            command = [
                *env,
                *pinned(0),
                sys.executable,
                "-m",
                "cardroom.cli",
                "serve",
                "--address",
                "0.0.0.0:0",
                "--database",
                str(Path(folder) / f"{attack_name}.sqlite3"),
                "--operator-token",
                OPERATOR_TOKEN,
                "--bot-think-ms",
                str(args.think_ms),
            ]
            server = servers.start_command(command)
            address = server_address(server)
            client = Client.connect(address)
            try:
                if attack_name == "waiting":
                    rows += await waiting_rows(name, servers, server, command, client, args)
                    continue
                if attack_name == "search":
                    quiet = await search_moves(client, args.moves)
                    attacker = start_attacker(address, "search", args.search_games)
                    try:
                        loud = await search_moves(client, args.moves)
                    finally:
                        attacker.kill()
                        attacker.wait()
                    what = f"victim's search bot, a move ({args.search_games * 2} attacking)"
                else:
                    quiet = await view_seconds(client, args.views)
                    attacker = start_attacker(address, "random", args.random_games)
                    try:
                        loud = await view_seconds(client, args.views)
                    finally:
                        attacker.kill()
                        attacker.wait()
                    what = f"victim's GetView ({args.random_games} games of random bots)"
                ratio = statistics.median(loud) / statistics.median(quiet)
                rows.append(
                    f"| {name} | {what} | {summary(quiet)} | {summary(loud)} | {ratio:.2f}x |"
                )
                print(rows[-1], flush=True)
            finally:
                await client.close()
                for running in list(servers.running):
                    servers.stop(running)
    return rows


def game_time(seconds: float | None) -> str:
    return f"not in {GAME_SECONDS:.0f} s (frozen)" if seconds is None else f"{seconds:.1f} s"


async def waiting_rows(
    name: str,
    servers: Servers,
    server: Server,
    command: list[str],
    client: Client,
    args: argparse.Namespace,
) -> list[str]:
    """The victim's bot game with no attack, beside 4 x ``--waiting-games``
    bots waiting in games that never start, and again after a restart."""
    quiet = await bot_game_seconds(client)
    attacker = start_attacker(server_address(server), "waiting", args.waiting_games)
    attacker.kill()  # its bots stay: they are the server's
    attacker.wait()
    loud = await bot_game_seconds(client)
    servers.stop(server)
    restarted = servers.start_command(command)
    again_client = Client.connect(server_address(restarted))
    try:
        again = await bot_game_seconds(again_client)
    finally:
        await again_client.close()
    bots = 4 * args.waiting_games
    rows = []
    for what, seconds in ((f"{bots} bots waiting", loud), ("the same, after a restart", again)):
        rows.append(
            f"| {name} | victim's bot game to its end, {what} | {game_time(quiet)} | "
            f"{game_time(seconds)} | "
            + (f"{seconds / quiet:.2f}x |" if seconds is not None and quiet else "- |")
        )
        print(rows[-1], flush=True)
    return rows


def server_address(server: Server) -> str:
    return "127.0.0.1:" + server.address.rsplit(":", 1)[1]


async def measure(args: argparse.Namespace) -> None:
    print(
        f"load average {os.getloadavg()[0]:.1f}; think {args.think_ms} ms; "
        f"{args.moves} search moves, {args.views} views a side\n"
    )
    print("| server | figure | no attack | under attack | ratio (medians) |")
    print("|---|---|---|---|---|")
    if args.before:
        root = Path(args.before).resolve()
        path = os.pathsep.join(str(root / d) for d in ("service", "clients", "domain"))
        await side("before", path, args)
    await side("after", None, args)


def main(argv: list[str]) -> int:
    if argv[:1] == ["attack"]:
        server, strategy, games = argv[1], argv[2], int(argv[3])
        asyncio.run(attack(server, strategy, games))
        return 0
    parser = argparse.ArgumentParser(prog="python -m bench.bot_shares")
    parser.add_argument("--before", metavar="DIR", help="also measure this checkout's server")
    parser.add_argument("--think-ms", type=int, default=500)
    parser.add_argument("--moves", type=int, default=12, help="victim search moves a side")
    parser.add_argument("--views", type=int, default=300, help="victim GetView calls a side")
    parser.add_argument("--search-games", type=int, default=6)
    parser.add_argument("--random-games", type=int, default=10)
    parser.add_argument("--waiting-games", type=int, default=27, help="four bots each")
    parser.add_argument(
        "--only",
        nargs="+",
        choices=ATTACKS,
        default=ATTACKS,
        help="the attacks to run (default: all)",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the server on CPU 0, the rest on CPU 1 (its search workers then share CPU 0)",
    )
    args = parser.parse_args(argv)
    global PIN
    PIN = args.pin
    asyncio.run(measure(args))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
