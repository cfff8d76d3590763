#!/usr/bin/env python3
"""One entry point for a fresh machine: set everything up, then serve or test.

    python3 dev.py serve [cardroom serve flags]   # run the server on ./cardroom.sqlite3
    python3 dev.py test  [pytest args]            # every check and the whole test suite
    python3 dev.py bench                          # the benchmarks in bench/

Needs only Python 3.11+. It creates .venv/, installs the project with its
development tools (again only when pyproject.toml changes), then runs.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / "python"
STAMP = VENV / ".cardroom-installed"


def run(*cmd: str | Path) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], cwd=ROOT, check=True)


def bootstrap() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - runs before the venv exists
        sys.exit(f"cardroom needs Python 3.11 or newer, not {sys.version.split()[0]}")
    if not PYTHON.exists():
        venv.create(VENV, with_pip=True)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not STAMP.exists() or STAMP.read_text() != wanted:
        run(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
        run(PYTHON, "-m", "pip", "install", "--quiet", "-e", ".[dev]")
        STAMP.write_text(wanted)


def test(args: list[str]) -> None:
    run(PYTHON, "scripts/gen_protos.py", "--check")
    run(BIN / "buf", "lint")
    run(BIN / "ruff", "check", ".")
    run(BIN / "ruff", "format", "--check", ".")
    run(BIN / "mypy")
    run(PYTHON, "-m", "pytest", *args)


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in ("serve", "test", "bench"):
        sys.exit(__doc__)
    command, rest = sys.argv[1], sys.argv[2:]
    bootstrap()
    try:
        if command == "serve":
            os.execv(BIN / "cardroom", [str(BIN / "cardroom"), "serve", *rest])
        elif command == "test":
            test(rest)
        else:
            run(PYTHON, "-m", "bench", *rest)
    except subprocess.CalledProcessError as error:
        sys.exit(error.returncode)


if __name__ == "__main__":
    main()
