"""What signed heads cost (docs/trust.md, "Signed heads"): a same-run A/B.

``python3 dev.py bench heads`` (or ``python -m bench.heads``) starts servers
on fresh SQLite databases, in alternating rounds with heads signed (the default) and with
``--no-signed-heads``, and measures on each the two figures of the
commands and spectators rows at a reduced scale: SubmitCommand seconds
(bots playing ordinary games, one client) and delivery to the last of N
spectators of one game from the command's start. It prints the medians of
each side over all rounds and their ratio, and the cost of one Ed25519
signature of a head's size (what per-event signing pays once per event,
shared by every viewer). Like every bench, it imports nothing of service/.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bench.commands import submit_samples
from bench.servers import Servers, fresh_database
from bench.spectators import delivery

# One client (127.0.0.1) holds every spectator stream here.
SHARED = ("--watchers-per-client", "5000")
SIDES = {"signed": SHARED, "unsigned": (*SHARED, "--no-signed-heads")}


def signing_micro(rounds: int = 2000) -> float:
    """Seconds per Ed25519 signature over a message of a signed head's
    size (docs/trust.md, "Signed heads": 139 bytes for a UUID game id)."""
    key = Ed25519PrivateKey.generate()
    message = b"cardroom.v1.SignedHead\x00" + bytes(139 - 23)
    start = time.perf_counter()
    for _ in range(rounds):
        key.sign(message)
    return (time.perf_counter() - start) / rounds


async def measure(args: argparse.Namespace) -> None:
    submit: dict[str, list[float]] = {side: [] for side in SIDES}
    deliver: dict[str, list[float]] = {side: [] for side in SIDES}
    events_per_command: list[float] = []
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-heads-") as folder:
        servers = Servers(Path(folder))
        try:
            for round_ in range(args.rounds):
                order = list(SIDES) if round_ % 2 == 0 else list(reversed(SIDES))
                for side in order:
                    with fresh_database("sqlite") as database:
                        server = servers.start(database, *SIDES[side])
                        try:
                            submit[side] += await submit_samples(
                                server.address, args.commands, seed=round_
                            )
                            delivered = await delivery(
                                server.address, args.spectators, args.spectator_commands
                            )
                            deliver[side] += delivered.seconds
                            commands = len(delivered.table.commands) or 1
                            events_per_command.append(len(delivered.events) / commands)
                        finally:
                            servers.stop(server)
                    print(
                        f"round {round_ + 1} {side}: running p50s: SubmitCommand "
                        f"{statistics.median(submit[side]) * 1e3:.2f} ms, delivery "
                        f"{statistics.median(deliver[side]) * 1e3:.2f} ms",
                        flush=True,
                    )
        finally:
            servers.stop_all()
    print()
    print(f"one head signature (Ed25519, this machine): {signing_micro() * 1e6:.1f} µs")
    print(f"events per command (delivery game): {statistics.mean(events_per_command):.2f}")
    for name, samples in (("SubmitCommand", submit), (f"delivery to {args.spectators}", deliver)):
        a = statistics.median(samples["signed"])
        b = statistics.median(samples["unsigned"])
        print(
            f"{name}: signed p50 {a * 1e3:.2f} ms ({len(samples['signed'])} samples), "
            f"unsigned p50 {b * 1e3:.2f} ms ({len(samples['unsigned'])}), ratio {a / b:.3f}"
        )


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.heads", description=__doc__)
    parser.add_argument("--rounds", type=int, default=2, help="A/B rounds (default 2)")
    parser.add_argument("--commands", type=int, default=300, help="SubmitCommands per round")
    parser.add_argument("--spectators", type=int, default=1000, help="watchers of one game")
    parser.add_argument(
        "--spectator-commands", type=int, default=30, help="commands delivered per round"
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(measure(arguments()))
