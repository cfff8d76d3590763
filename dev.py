#!/usr/bin/env python3
"""One entry point for a fresh machine: set everything up, then serve or test.

    python3 dev.py serve [cardroom serve flags]   # run the server on ./cardroom.sqlite3
    python3 dev.py test  [pytest args]            # every check and the whole test suite
    python3 dev.py bench                          # the benchmarks in bench/

Needs only Python 3.11+. It creates .venv/, installs the project with its
development tools (again only when pyproject.toml changes), then runs.
`serve` also serves browsers on 127.0.0.1:8080 (the reference web table,
Connect and gRPC-Web) unless --web-address or CARDROOM_WEB_ADDRESS says
otherwise. `test` also needs Node.js 20+ with npm: it installs clients/'
packages (`npm ci`, again only when a lock changes) and, when missing,
Debian's chromium for the browser tests and valgrind for the instruction
counts' (as root, with apt-get).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / "python"
STAMP = VENV / ".cardroom-installed"
CLIENTS = ROOT / "clients"
NODE_STAMP = CLIENTS / "node_modules" / ".cardroom-installed"
CHROMIUM = Path(os.environ.get("CARDROOM_CHROMIUM", "/usr/bin/chromium"))
WEB_ADDRESS = "127.0.0.1:8080"


def run(*cmd: str | Path, cwd: Path = ROOT, env: dict[str, str] | None = None) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], cwd=cwd, check=True, env=env)


def bootstrap() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - runs before the venv exists
        sys.exit(f"cardroom needs Python 3.11 or newer, not {sys.version.split()[0]}")
    if not PYTHON.exists():
        venv.create(VENV, with_pip=True)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not STAMP.exists() or STAMP.read_text() != wanted:
        run(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
        # The distribution was called `cardroom` before it became `cardroom-games`
        # (that name on PyPI is someone else's): an old install goes first.
        run(PYTHON, "-m", "pip", "uninstall", "--quiet", "--yes", "cardroom")
        run(PYTHON, "-m", "pip", "install", "--quiet", "-e", ".[dev]")
        STAMP.write_text(wanted)


def node_packages() -> None:
    """clients/' npm packages, installed again only when a lock or manifest changes."""
    if shutil.which("npm") is None:
        sys.exit("python3 dev.py test needs Node.js 20+ with npm (for clients/typescript and web)")
    manifests = ["package-lock.json", "package.json", "typescript/package.json", "web/package.json"]
    wanted = hashlib.sha256(b"".join((CLIENTS / m).read_bytes() for m in manifests)).hexdigest()
    if not NODE_STAMP.exists() or NODE_STAMP.read_text() != wanted:
        run("npm", "ci", "--no-audit", "--no-fund", cwd=CLIENTS)
        NODE_STAMP.write_text(wanted)


def debian_packages() -> None:
    """Debian's chromium (the browser tests) and valgrind (the tests of
    bench/instructions.py's counts), installed when missing."""
    found = {"chromium": CHROMIUM.exists(), "valgrind": shutil.which("vgdb") is not None}
    missing = [package for package, there in found.items() if not there]
    if not missing:
        return
    if not shutil.which("apt-get") or os.geteuid() != 0:
        where = f" (Chromium at {CHROMIUM})" if "chromium" in missing else ""
        sys.exit(f"the tests need Debian's {' and '.join(missing)}{where}: install it as root")
    quiet = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    run("apt-get", "update", "-qq", env=quiet)
    run("apt-get", "install", "-y", "-qq", *missing, env=quiet)


def test(args: list[str]) -> None:
    node_packages()
    debian_packages()
    run(PYTHON, "scripts/gen_protos.py", "--check")
    run(PYTHON, "scripts/build_web.py", "--check")
    run(BIN / "buf", "lint")
    run(PYTHON, "scripts/release_schema.py", "--check")  # buf breaking vs the last release
    run(BIN / "ruff", "check", ".")
    run(BIN / "ruff", "format", "--check", ".")
    run(BIN / "mypy")
    run(PYTHON, "-m", "pytest", *parallel(args), *args)


def parallel(args: list[str]) -> list[str]:
    """pytest-xdist over every core, unless the caller chose (-n, -p no:xdist).
    Every test is independent of the others (own servers on port 0, own
    PostgreSQL schema, own temporary files), so any split is a valid run."""
    if any(a == "-n" or a.startswith(("-n", "--numprocesses")) or "xdist" in a for a in args):
        return []
    workers = os.environ.get("CARDROOM_TEST_WORKERS", "auto")
    return ["-n", workers, "--dist", "worksteal"]


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in ("serve", "test", "bench"):
        sys.exit(__doc__)
    command, rest = sys.argv[1], sys.argv[2:]
    bootstrap()
    try:
        if command == "serve":
            web = (
                []
                if "--web-address" in rest or os.environ.get("CARDROOM_WEB_ADDRESS")
                else [
                    "--web-address",
                    WEB_ADDRESS,
                ]
            )
            os.execv(BIN / "cardroom", [str(BIN / "cardroom"), "serve", *web, *rest])
        elif command == "test":
            test(rest)
        else:
            run(PYTHON, "-m", "bench", *rest)
    except subprocess.CalledProcessError as error:
        sys.exit(error.returncode)


if __name__ == "__main__":
    main()
