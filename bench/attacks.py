"""Issue 34's stream attacks, from separate processes as an attacker would:
``python -m bench.attacks [--before TREE]`` (or ``python3 dev.py bench attacks``).

One public 5-seat Smoke & Mirrors game of ``--events`` events
(``TableOptions.max_events``, so T-LENGTH ends it; 25,000 make a record of
about 10 MB, the size issue 34 measured) is played once into a SQLite file; then each server
measured (``--before``: a checkout of another commit, e.g. made by
``git archive COMMIT | tar -x -C TREE``, first; then this tree's) serves a
fresh copy of it, and an attacker process:

* **records**: opens ``--streams`` StreamGameRecord calls of that game on
  one connection and never reads; the server's RSS before, at its peak, the
  streams it holds (``cardroom_live_watchers``) and how many it refused;
  then the attacker is killed (SIGKILL) and the time until every slot is
  back (bounded) and the RSS after;
* **dead peer**: opens 20 WatchEvents of a running game, reads what is
  there, and is frozen (SIGSTOP: its connection stays open, nothing
  answers); the time until the server has given every slot back;
* **shares**: joins seats in 12 five-seat games and opens 8 streams per seat
  (480) against ``--max-watchers 400``; the slots it holds, and whether
  another client (``[::1]``, the attacker is ``127.0.0.1``) can then open a
  seat's stream of its own game and the operator a stream.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any, cast

import grpc

from bench import load
from bench.servers import OPERATOR_TOKEN, Server, Servers
from cardroom.client import CardroomError, Client
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import game_service_pb2_grpc as gpb_grpc
from cardroom.v1 import table_pb2 as tpb

KIND = "smoke-and-mirrors"
SEATS = 5  # the largest events of the game that can be made long
PUBLIC = tpb.LogPolicy(kind=tpb.LogPolicy.KIND_PUBLIC_AFTER_END)
WAIT_FREED = 300.0  # seconds: the longest the driver waits for slots to come back


# ------------------------------------------------------------- the attacker


async def attacker(argv: list[str]) -> None:
    """Runs in its own process; prints one JSON line when its streams are
    open, then holds them until it is killed or frozen."""
    what, address, game_id, count = argv[0], argv[1], argv[2], int(argv[3])
    if what == "records":
        # No window growth (BDP probing): the streams stall as soon as the
        # first 64 KiB window is full, as a reader that never reads.
        channel = grpc.aio.insecure_channel(address, options=[("grpc.http2.bdp_probe", 0)])
        stub = gpb_grpc.GameServiceStub(channel)
        calls = [
            stub.StreamGameRecord(gpb.StreamGameRecordRequest(game_id=game_id))
            for _ in range(count)
        ]
        await asyncio.sleep(10)  # refusals come at once; the rest never read
        ended = Counter([(await call.code()).name if call.done() else "OPEN" for call in calls])
        print(json.dumps(dict(ended)), flush=True)
    elif what == "watch":
        client = Client.connect(address)
        version = (await client.view(game_id)).version
        streams = [client.watch(game_id) for _ in range(count)]
        for stream in streams:
            async for envelope in stream:
                if envelope.sequence >= version:
                    break
        print(json.dumps({"OPEN": count}), flush=True)
    elif what == "seats":
        clients = [load.client(address, own_connection=True) for _ in range(8)]
        codes: Counter[str] = Counter()
        held = []
        for game in range(count // 40):
            game_id = await clients[0].create_game(KIND, seat_count=5)
            for seat in range(5):
                token = (await clients[0].join(game_id, f"m{game}.{seat}")).token
                for n in range(8):
                    stream = clients[n].watch(game_id, token)
                    try:
                        await anext(stream)
                        codes["OPEN"] += 1
                        held.append(stream)
                    except CardroomError as error:
                        codes[error.code.name] += 1
        print(json.dumps(dict(codes)), flush=True)
    await asyncio.Event().wait()


def start_attacker(*args: str) -> tuple[subprocess.Popen[str], dict[str, int]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.attacks", "attacker", *args],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line:
        process.kill()
        raise RuntimeError(f"the attacker ({args[0]}) died")
    return process, json.loads(line)


def kill(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait()


# ---------------------------------------------------------------- the driver


def live_streams(metrics: str) -> int:
    text = urllib.request.urlopen(f"http://{metrics}/metrics", timeout=10).read().decode()
    match = re.search(r"^cardroom_live_watchers (\S+)$", text, re.MULTILINE)
    return int(float(match.group(1))) if match else -1


def seconds_until_freed(metrics: str, began: float) -> str:
    """How long until the server holds no stream (bounded), measured from
    ``began``; printed as it is known."""
    result = _seconds_until_freed(metrics, began)
    print(f"  (slots back: {result})", file=sys.stderr, flush=True)
    return result


def _seconds_until_freed(metrics: str, began: float) -> str:
    while time.monotonic() - began < WAIT_FREED:
        if live_streams(metrics) == 0:
            return f"{time.monotonic() - began:.0f} s"
        time.sleep(0.5)
    return f"not within {WAIT_FREED:.0f} s ({live_streams(metrics)} still held)"


def mb(kib: int) -> str:
    return f"{kib / 1024:.0f} MB"


async def build_game(folder: Path, events: int) -> tuple[str, str]:
    """The public finished game (and a running one) in ``folder/game.sqlite3``."""
    servers = Servers(folder)
    server = servers.start(str(folder / "game.sqlite3"), "--max-game-events", str(events))
    try:
        client = Client.connect(server.address)
        game_id = await client.create_game(
            KIND,
            seat_count=SEATS,
            options=sm.Options(rounds_to_win=50),
            log_policy=PUBLIC,
            table_options=tpb.TableOptions(max_events=events),
        )
        tokens = [(await client.join(game_id, f"bot{seat}")).token for seat in range(SEATS)]
        await client.start(game_id, tokens[0])
        finished = False
        while not finished:
            for token in tokens:
                actions = await client.legal_actions(game_id, token)
                if actions:
                    await client.act(game_id, token, actions[0])
                    break
            else:
                finished = (await client.view(game_id)).table.finished
        running = await client.create_game(KIND, seat_count=2)
        seats = [(await client.join(running, name)).token for name in ("a", "b")]
        await client.start(running, seats[0])
        await client.close()
        return game_id, running
    finally:
        servers.stop_all()


def start_server(servers: Servers, tree: str | None, database: str, *flags: str) -> Server:
    command = [
        "serve",
        "--address",
        "[::]:0",
        "--database",
        database,
        "--signing-key",
        str(servers.folder / "signing-key.pem"),
        "--operator-token",
        OPERATOR_TOKEN,
        "--metrics-address",
        f"127.0.0.1:{free_port()}",
        *flags,
    ]
    if tree is None:
        program = [sys.executable, "-m", "cardroom.cli"]
    else:  # another checkout's server, not this tree's (installed editable)
        paths = [str(Path(tree) / part) for part in ("service", "domain", "clients", "protos")]
        program = [
            sys.executable,
            "-c",
            "import sys; sys.meta_path[:] = [f for f in sys.meta_path "
            "if 'editable' not in repr(f)]; "
            f"sys.path[:0] = {paths!r}; from cardroom.cli import main; sys.exit(main())",
        ]
    # The shares as an operator leaves them: they are what is attacked.
    server = servers.start_command([*program, *command], database, lifted=False)
    server.address = server.address.replace("[::]", "127.0.0.1")
    return server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def metrics_address(server: Server) -> str:
    command = server.process.args
    assert isinstance(command, list)
    return str(command[command.index("--metrics-address") + 1])


async def measure(tree: str | None, folder: Path, game: str, running: str) -> dict[str, Any]:
    name = tree or "this tree"
    found: dict[str, Any] = {"server": name}
    servers = Servers(folder / name.replace("/", "_"))
    servers.folder.mkdir(parents=True, exist_ok=True)
    database = str(servers.folder / "game.sqlite3")
    shutil.copy(folder / "game.sqlite3", database)
    try:
        server = start_server(servers, tree, database)
        metrics = metrics_address(server)
        found["rss idle"] = mb(server.rss_kib())
        process, codes = start_attacker("records", server.address, game, "100")
        peak, last_change, began = server.rss_kib(), time.monotonic(), time.monotonic()
        while time.monotonic() - last_change < 10 and time.monotonic() - began < 180:
            time.sleep(1)
            now = server.rss_kib()
            if now > peak + 1024:
                peak, last_change = now, time.monotonic()
        found["records: calls"] = codes
        found["records: streams held"] = live_streams(metrics)
        found["records: rss peak"] = mb(peak)
        kill(process)
        found["records: slots back after the kill"] = seconds_until_freed(metrics, time.monotonic())
        found["records: rss after"] = mb(server.rss_kib())
        servers.stop_all()  # a fresh server: the records' slots may still be held
        server = start_server(servers, tree, database)
        metrics = metrics_address(server)
        process, _ = start_attacker("watch", server.address, running, "20")
        process.send_signal(signal.SIGSTOP)
        found["dead peer: slots back after SIGSTOP"] = seconds_until_freed(
            metrics, time.monotonic()
        )
        process.send_signal(signal.SIGCONT)
        kill(process)
        servers.stop_all()
        shared = start_server(servers, tree, database, "--max-watchers", "400")
        shared_metrics = metrics_address(shared)
        process, codes = start_attacker("seats", shared.address, running, "480")
        found["shares: the attacker's 480 seat streams"] = codes
        found["shares: streams held of 400"] = live_streams(shared_metrics)
        port = shared.address.rsplit(":", 1)[1]
        victim = Client.connect(f"[::1]:{port}")
        game_id = await victim.create_game(KIND, seat_count=2)
        token = (await victim.join(game_id, "victim")).token
        for who, key in (("another client's seat", token), ("the operator", OPERATOR_TOKEN)):
            try:
                stream = cast(AsyncGenerator[Any, None], victim.watch(game_id, key))
                await anext(stream)
                found[f"shares: {who}"] = "streams"
                await stream.aclose()
            except CardroomError as error:
                found[f"shares: {who}"] = f"refused ({error.code.name})"
        await victim.close()
        kill(process)
    finally:
        servers.stop_all()
    return found


async def main(argv: list[str]) -> int:
    if argv[:1] == ["attacker"]:
        await attacker(argv[1:])
        return 0
    parser = argparse.ArgumentParser(prog="python -m bench.attacks")
    parser.add_argument(
        "--events", type=int, default=25_000, help="length of the public game (25,000: ~10 MB)"
    )
    parser.add_argument("--before", metavar="TREE", help="a checkout to measure first")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cardroom-attacks-") as name:
        folder = Path(name)
        began = time.monotonic()
        game, running = await build_game(folder, args.events)
        size = os.path.getsize(folder / "game.sqlite3") / 1e6
        print(
            f"game {game}: {args.events} events, {size:.0f} MB of SQLite, built in "
            f"{time.monotonic() - began:.0f} s",
            flush=True,
        )
        for tree in ([args.before] if args.before else []) + [None]:
            try:
                for key, value in (await measure(tree, folder, game, running)).items():
                    print(f"{key}: {value}", flush=True)
            except Exception as error:
                print(f"{tree or 'this tree'}: FAILED: {error}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
