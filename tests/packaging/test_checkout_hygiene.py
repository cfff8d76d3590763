"""What `python3 dev.py serve` writes into a checkout (the SQLite database,
its lock, its journal files and the signing key beside it) is ignored by
git, so a contributor's `git status` stays clean."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WRITTEN_BY_SERVE = (
    "cardroom.sqlite3",
    "cardroom.sqlite3.lock",
    "cardroom.sqlite3-wal",
    "cardroom.sqlite3-shm",
    "cardroom.sqlite3.ed25519",
    "cardroom-signing-key.pem",
)


@pytest.mark.parametrize("name", WRITTEN_BY_SERVE)
def test_what_serve_writes_into_the_checkout_is_ignored_by_git(name: str) -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an unpacked sdist)")
    done = subprocess.run(
        ["git", "check-ignore", "--no-index", "-q", name], cwd=ROOT, capture_output=True
    )
    assert done.returncode == 0, f"{name} is not ignored by .gitignore"
