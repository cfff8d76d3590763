"""The distribution as pip builds it: one wheel per test run, built from a
clean copy of the working tree (setuptools' build/ keeps stale files)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VERSION: str = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
# What git ignores or a build leaves: never part of a distribution.
NOT_SOURCE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "node_modules",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
    "test-artifacts",
    "*.sqlite3*",
)


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``pip wheel --no-deps`` of the project, as a release would build it.
    Without build isolation: the dev venv has setuptools (grpcio-tools
    needs it), so no download is needed to build."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    subprocess.run(
        [
            sys.executable,
            *("-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"),
            *("--wheel-dir", str(work), str(source)),
        ],
        check=True,
        capture_output=True,
    )
    [built] = work.glob("cardroom_games-*.whl")
    return built
