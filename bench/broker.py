"""A private NATS server for a benchmark run (never the machine's shared one).

``nats-server -js -p PORT -sd DIR`` on a free port with its own storage
folder, started for the run and stopped after it, so a benchmark neither
reads nor disturbs another user's broker and its stream starts empty. It
inherits the benchmark's CPU affinity (``--pin``: the relays' core).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

START_SECONDS = 10.0
# A watcher process kept off its core for a while (a loaded machine, or all
# of them pinned to one core) must not be cut off as a slow consumer after
# nats-server's default 2 s write deadline: that loses the message for it.
CONFIG = 'write_deadline: "60s"\n'

NATS_BINARY = "/usr/sbin/nats-server"  # Debian's, when it is not on PATH


class NoBroker(RuntimeError):
    """nats-server is not installed, or did not start."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), 1).close()
    except OSError:
        return False
    return True


@contextmanager
def private_nats() -> Iterator[str]:
    """The nats:// URL of a fresh JetStream server, stopped afterwards."""
    binary = shutil.which("nats-server") or NATS_BINARY
    if not Path(binary).exists():
        raise NoBroker("nats-server is not installed (apt-get install nats-server)")
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-nats-") as folder:
        config = Path(folder) / "nats.conf"
        config.write_text(CONFIG)
        log = os.environ.get("CARDROOM_BENCH_NATS_LOG")  # where its log goes, if anywhere
        process = subprocess.Popen(
            [binary, "-c", str(config), "-a", "127.0.0.1", "-p", str(port), "-js", "-sd", folder],
            stdout=subprocess.DEVNULL,
            stderr=open(log, "ab") if log else subprocess.DEVNULL,  # noqa: SIM115
        )
        try:
            deadline = time.monotonic() + START_SECONDS
            while not _answers(port):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise NoBroker(f"nats-server did not start on port {port}")
                time.sleep(0.02)
            yield f"nats://127.0.0.1:{port}"
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
