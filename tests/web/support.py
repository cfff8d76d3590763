"""A real server with its browser port, and plain HTTP to read what a
browser protocol puts on the wire."""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import http.client
import json
import os
import re
import shlex
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from tests.conftest import Served


@dataclass
class WebServed(Served):
    web_url: str  # http://127.0.0.1:PORT, no trailing slash


def _post(
    url: str, body: bytes, headers: dict[str, str], method: str
) -> tuple[int, dict[str, str], bytes]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.netloc, timeout=30)
    try:
        connection.request(method, parts.path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


async def post(
    url: str, body: bytes, headers: dict[str, str], method: str = "POST"
) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and the whole body of one request."""
    return await asyncio.to_thread(_post, url, body, headers, method)


def frames(body: bytes) -> list[tuple[int, bytes]]:
    """A streamed body's frames: (flags, payload), each after a 1-byte flag
    and a 4-byte big-endian length (Connect and gRPC-Web frame alike)."""
    found, at = [], 0
    while at < len(body):
        size = int.from_bytes(body[at + 1 : at + 5], "big")
        found.append((body[at], body[at + 5 : at + 5 + size]))
        at += 5 + size
    return found


ROOT = Path(__file__).resolve().parents[2]
CLIENTS = ROOT / "clients"
# Screenshots of the browser tests (gitignored), listed at the end of a run.
ARTIFACTS = ROOT / "test-artifacts"


def node_tests(
    workspace: str,
    env: dict[str, str],
    *,
    files: Sequence[str] = (),
    names: Sequence[str] = (),
    passed: int | None = None,
    timeout: float = 900,
) -> str:
    """A clients/ workspace's tests (node's test runner, as its package.json
    ``test`` script runs them, compiled once per pytest run): only the
    compiled test ``files`` given (paths in the workspace; default all) and
    only the tests whose names match a pattern of ``names`` (node's
    ``--test-name-pattern``; default all). Fails the calling test, with the
    runner's report, unless every test run passed and, when ``passed`` is
    given, exactly that many did (a pattern that matches nothing fails)."""
    if not (CLIENTS / "node_modules").is_dir():
        raise AssertionError("clients/node_modules is missing: run `python3 dev.py test`")
    compiled()
    _, run = _test_script(workspace)
    folder = CLIENTS / workspace
    node, *given = shlex.split(run)
    options = [arg for arg in given if arg.startswith("-")]
    chosen = list(files) or [
        str(found.relative_to(folder))
        for pattern in given
        if not pattern.startswith("-")
        for found in sorted(folder.glob(pattern))
    ]
    assert chosen, f"no compiled test files in clients/{workspace}"
    result = subprocess.run(
        [node, *options, *(f"--test-name-pattern={name}" for name in names), *chosen],
        cwd=folder,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    report = result.stdout + result.stderr
    assert result.returncode == 0, f"{workspace} tests failed:\n{report[-20000:]}"
    ran = re.search(r"\btests (\d+)", report)
    assert ran and int(ran.group(1)) > 0 and re.search(r"\bfail 0\b", report), report[-5000:]
    if passed is not None:
        assert re.search(rf"\bpass {passed}\b", report), f"not {passed} passed:\n{report[-5000:]}"
    return report


def _test_script(workspace: str) -> tuple[list[str], str]:
    """The workspace's ``test`` script: its compile steps, and the node
    command that runs the compiled tests (the last step)."""
    scripts = json.loads((CLIENTS / workspace / "package.json").read_text())["scripts"]
    *steps, run = (step.strip() for step in scripts["test"].split("&&"))
    assert run.startswith("node --test"), run
    return steps, run


# Every workspace whose tests pytest runs, in the order they compile (the
# web table's tests import the TypeScript client's build).
WORKSPACES = ("typescript", "web")


def compiled() -> None:
    """Compile every workspace's tests (their ``test`` scripts' steps) once
    per pytest run, before any of them runs: no test's node process then
    reads a file another worker is rewriting. One lock for every xdist
    worker of the machine; a stamp with the run's id (xdist's, shared by
    its workers; else this process's) says it is done."""
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid-{os.getpid()}"
    stamp = CLIENTS / "node_modules" / ".cardroom-tests-compiled"
    lock = Path(tempfile.gettempdir()) / f"cardroom-node-tests-{_digest(CLIENTS)}.lock"
    with lock.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if stamp.is_file() and stamp.read_text() == run_id:
            return
        path = os.pathsep.join([str(CLIENTS / "node_modules" / ".bin"), os.environ.get("PATH", "")])
        done: set[tuple[Path, str]] = set()
        for workspace in WORKSPACES:
            steps, _ = _test_script(workspace)
            for step in steps:
                key = (_project(CLIENTS / workspace, step), step.split()[0])
                if key in done:
                    continue  # the same project, compiled already (web's ../typescript)
                done.add(key)
                result = subprocess.run(
                    step,
                    shell=True,
                    cwd=CLIENTS / workspace,
                    env={**os.environ, "PATH": path},
                    capture_output=True,
                    text=True,
                    timeout=600,
                )
                assert result.returncode == 0, (
                    f"clients/{workspace}: {step}\n{result.stdout}{result.stderr}"
                )
        stamp.write_text(run_id)


def _project(folder: Path, step: str) -> Path:
    """The project a ``tsc -p DIR`` step compiles (else the step's folder)."""
    words = shlex.split(step)
    if "-p" in words and words.index("-p") + 1 < len(words):
        return (folder / words[words.index("-p") + 1]).resolve()
    return folder.resolve()


def _digest(path: Path) -> str:
    return hashlib.sha256(str(path).encode()).hexdigest()[:16]
