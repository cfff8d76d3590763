"""``npm pack`` of clients/typescript: a tarball that installs into a fresh
Node project with no registry and an empty npm cache, whose examples run on
plain Node (no TypeScript runner) against a real ``cardroom serve``."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

from tests.docs.readme import snippet
from tests.service.helpers import server_process
from tests.web.support import CLIENTS

PACKAGE = CLIENTS / "typescript"
BUNDLED = (
    "@bufbuild/protobuf",
    "@connectrpc/connect",
    "@connectrpc/connect-node",
    "@connectrpc/connect-web",
)


def npm(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        ["npm", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **(env or {})},
    )
    assert done.returncode == 0, f"npm {' '.join(map(str, args))}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def node(script: str, *args: str, cwd: Path, url: str) -> str:
    done = subprocess.run(
        ["node", script, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "CARDROOM_URL": url},
    )
    assert done.returncode == 0, f"node {script}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_packed_client_installs_offline_and_its_examples_play_a_game(tmp_path: Path) -> None:
    version = json.loads((PACKAGE / "package.json").read_text())["version"]
    # Packed from a copy: `prepack` compiles into dist/, which the node test
    # items on other xdist workers are importing from clients/typescript.
    packing = tmp_path / "clients"
    shutil.copytree(
        PACKAGE, packing / "typescript", ignore=shutil.ignore_patterns("node_modules", "dist")
    )
    (packing / "node_modules").symlink_to(CLIENTS / "node_modules", target_is_directory=True)
    npm("pack", "--pack-destination", tmp_path, cwd=packing / "typescript")
    tarball = tmp_path / f"cardroom-client-{version}.tgz"
    with tarfile.open(tarball) as packed:
        names = set(packed.getnames())
    assert {f"package/node_modules/{dep}/package.json" for dep in BUNDLED} <= names
    assert {
        "package/dist/src/index.js",
        "package/dist/src/index.d.ts",
        "package/examples/bots.mjs",
        "package/README.md",
    } <= names
    assert not any(name.startswith(("package/dist/test/", "package/test/")) for name in names)
    assert not (packing / "typescript" / "node_modules").exists()  # the packing links are gone

    project = tmp_path / "fresh"
    project.mkdir()
    (project / "package.json").write_text('{"name": "fresh", "private": true}\n')
    npm(
        "install",
        "--offline",
        "--no-audit",
        "--no-fund",
        "--cache",
        tmp_path / "empty-cache",
        tarball,
        cwd=project,
    )
    examples = project / "node_modules" / "@cardroom" / "client" / "examples"
    for example in examples.iterdir():
        shutil.copy(example, project)  # as a user starts: a copy in their own project

    # The README's first snippet, saved as it says in a project `npm init -y` made.
    first = tmp_path / "first"
    first.mkdir()
    npm("init", "-y", cwd=first)
    npm(
        "install",
        "--offline",
        "--no-audit",
        "--no-fund",
        "--cache",
        tmp_path / "empty-cache",
        tarball,
        cwd=first,
    )
    (first / "first.mjs").write_text(snippet("first.mjs"))

    with server_process(str(tmp_path / "cardroom.sqlite3")) as address:
        url = f"http://{address}"
        played = node("bots.mjs", "smoke-and-mirrors", "3", cwd=project, url=url)
        listed = node("list-games.mjs", cwd=project, url=url)
        game_id = played.splitlines()[-1].split()[1].rstrip(":")
        watched = node("watch.mjs", game_id, cwd=project, url=url)
        readme = node("first.mjs", url, cwd=first, url=url).splitlines()

    # The server's words (WatchEventsRequest.narrate): the terminal's sentences.
    assert readme[:2] == [
        "A game of Smiles & Daggers for 3 players is set up.",
        "Ada sits down at seat 1.",
    ]
    assert readme[-1].startswith("Game over")

    story = played.splitlines()[:-1]
    assert story[0] == "#1 A game of Smoke & Mirrors for 3 players is set up."
    assert story[1:4] == [
        "#2 Ada sits down at seat 1.",
        "#3 Bo sits down at seat 2.",
        "#4 Cy sits down at seat 3.",
    ]
    assert any(" performs an act of " in line for line in story)
    assert re.match(r"#\d+ Game over", story[-1])
    assert watched.splitlines() == story  # the finished game, told again the same way
    assert f"{game_id}  smoke-and-mirrors  3/3 seats  finished" in listed
    assert "smoke-and-mirrors: Smoke & Mirrors, 2 to 5 players" in listed
