"""The server's rooms (docs/design.md, "The server's rooms"): every module of
cardroom.server lives in one room, and imports run one way, from a room to
the rooms below it, never up and never in a circle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[2] / "service" / "cardroom" / "server"

# Lowest first: a room may import only from itself and the rooms before it.
# "" is the server package's root: the vocabulary every room shares.
ROOMS = ("", "storage", "table", "games", "live", "browser", "api", "relay")
ROOT_MODULES = {"errors", "limits", "observability"}


def room_of(dotted: str) -> str:
    """The room of a module under cardroom.server ("" for a root module)."""
    first = dotted.split(".")[0]
    return "" if first in ROOT_MODULES else first


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(SERVER.rglob("*.py")):
        relative = path.relative_to(SERVER).with_suffix("")
        if relative.name == "__init__":
            relative = relative.parent
        if str(relative) != ".":
            found[".".join(relative.parts)] = path
    return found


def server_imports(path: Path) -> set[str]:
    """Every cardroom.server module the file imports, at any depth (a
    function's own import counts: it runs the same)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "cardroom.server":
                names |= {alias.name for alias in node.names}
            elif node.module.startswith("cardroom.server."):
                rest = node.module.removeprefix("cardroom.server.")
                subpackage = rest in {room for room in ROOMS if room}
                names |= {f"{rest}.{a.name}" for a in node.names} if subpackage else {rest}
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("cardroom.server."):
                    names.add(alias.name.removeprefix("cardroom.server."))
    return names


def test_every_module_lives_in_a_room() -> None:
    strays = [
        name
        for name in modules()
        if room_of(name) not in ROOMS
        or ("." not in name and name not in ROOMS + tuple(ROOT_MODULES))
    ]
    assert not strays, f"modules outside the rooms of docs/design.md: {strays}"


@pytest.mark.parametrize("name", sorted(modules()))
def test_imports_run_down_the_rooms_only(name: str) -> None:
    mine = ROOMS.index(room_of(name))
    upward = sorted(
        target for target in server_imports(modules()[name]) if ROOMS.index(room_of(target)) > mine
    )
    assert not upward, f"{name} ({ROOMS[mine] or 'root'}) imports rooms above it: {upward}"


def test_a_root_module_imports_no_room() -> None:
    for name in ROOT_MODULES:
        assert not server_imports(SERVER / f"{name}.py"), name
