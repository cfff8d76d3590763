"""The README's first Python snippet, saved as ``first.py`` and run exactly
as written against a real ``cardroom serve`` (the TypeScript one runs in
tests/web/test_npm_pack.py, where the packed client is installed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.docs.readme import snippet
from tests.service.helpers import server_process


def test_the_readme_python_snippet_plays_a_game_and_prints_bo_s_feed(tmp_path: Path) -> None:
    script = tmp_path / "first.py"
    script.write_text(snippet("first.py"))
    with server_process(str(tmp_path / "cardroom.sqlite3")) as address:
        done = subprocess.run(
            [sys.executable, str(script), address],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=tmp_path,
        )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:4] == [
        "A game of Smoke & Mirrors for 3 players is set up.",
        "Ada sits down at seat 1.",
        "Bo sits down at seat 2.",
        "Cy sits down at seat 3.",
    ]
    assert "Cy resigns: the game makes their choices from now on." in lines
    assert lines[-1].startswith("Game over: ")
