"""``pip install cardroom-games`` in a fresh venv is the client: none of the
server's dependencies, and it plays a whole game against a server started
from the full install. Needs PyPI or pip's configured wheels."""

from __future__ import annotations

import os
import subprocess
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.packaging.conftest import VERSION
from tests.service.helpers import server_process

pytestmark = pytest.mark.slow

HERE = Path(__file__).resolve().parent
SERVER_ONLY = ("eventsourcing", "psycopg", "uvicorn", "starlette", "connectrpc", "textual")


def clean_env() -> dict[str, str]:
    """This process's environment without its Python path (pytest's
    pythonpath holds the checkout's portions)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


@pytest.fixture(scope="module")
def client_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh venv with the wheel installed without extras; its bin/."""
    root = tmp_path_factory.mktemp("client-venv") / "venv"
    venv.create(root, with_pip=True)
    bin_ = root / ("Scripts" if os.name == "nt" else "bin")
    subprocess.run(
        [bin_ / "python", "-m", "pip", "install", "--quiet", str(wheel)],
        check=True,
        capture_output=True,
        env=clean_env(),
    )
    yield bin_


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=clean_env(),
        timeout=600,
    )


def test_the_client_install_pulls_none_of_the_server_s_dependencies(
    client_venv: Path, tmp_path: Path
) -> None:
    probe = (
        "import sys\n"
        "from importlib import metadata\n"
        "for name in sys.argv[1:]:\n"
        "    try:\n"
        "        print(name, metadata.version(name))\n"
        "    except metadata.PackageNotFoundError:\n"
        "        print(name, 'absent')\n"
    )
    names = ("cardroom-games", "grpcio", "protobuf", *SERVER_ONLY)
    done = run(client_venv / "python", "-c", probe, *names, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    found = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert found["cardroom-games"] == VERSION
    assert found["grpcio"] != "absent" and found["protobuf"] != "absent"
    assert {name: found[name] for name in SERVER_ONLY} == dict.fromkeys(SERVER_ONLY, "absent")


def test_the_client_install_plays_a_whole_game_against_a_full_server(
    client_venv: Path, tmp_path: Path
) -> None:
    with server_process(str(tmp_path / "cardroom.sqlite3")) as address:
        game = run(client_venv / "python", HERE / "client_only_game.py", address, cwd=tmp_path)
        listed = run(client_venv / "cardroom", "games", "--address", address, cwd=tmp_path)
    assert game.returncode == 0, game.stderr[-5000:]
    lines = game.stdout.splitlines()
    assert lines[0].startswith(f"client={client_venv.parent}")
    assert lines[-1].startswith("finished=True winners=[")
    story = "\n".join(lines[1:-1])
    assert "#1 A game of Smoke & Mirrors for 3 players is set up." in story
    assert "Ada sits down at seat 1." in story
    assert "performs an act of" in story and "Game over: " in story
    assert listed.returncode == 0, listed.stderr
    assert "Smoke & Mirrors  3/3          finished" in listed.stdout


def test_commands_that_need_an_extra_say_which(client_venv: Path, tmp_path: Path) -> None:
    version = run(client_venv / "cardroom", "--version", cwd=tmp_path)
    assert version.stdout.strip() == f"cardroom {VERSION}"
    serve = run(client_venv / "cardroom", "serve", cwd=tmp_path)
    assert serve.returncode == 2
    assert serve.stderr.strip() == (
        "cardroom serve needs the server extra: pip install 'cardroom-games[server]'"
    )
