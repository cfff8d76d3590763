"""The wheel: one name in site-packages, every module of the namespace's
portions inside it, and the server's dependencies behind its extra."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from tests.packaging.conftest import ROOT, VERSION

# The folders whose cardroom/ is a portion of the namespace (docs/design.md, "Layout").
PORTIONS = ("protos", "domain", "clients", "service")
SERVER_ONLY = (
    "eventsourcing",
    "psycopg",
    "uvicorn",
    "starlette",
    "connectrpc",
    "nats-py",
    "textual",
)


def source_files() -> set[str]:
    """Every file under each portion's cardroom/, as its installed path."""
    return {
        path.relative_to(ROOT / portion).as_posix()
        for portion in PORTIONS
        for path in (ROOT / portion / "cardroom").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_nothing_but_the_cardroom_namespace_lands_in_site_packages(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names} == {
        "cardroom",
        f"cardroom_games-{VERSION}.dist-info",
    }
    # cardroom itself stays a namespace package (PEP 420), as in the checkout.
    assert "cardroom/__init__.py" not in names


def test_the_wheel_holds_every_file_of_the_namespace_s_portions(wheel: Path) -> None:
    packed = {
        name
        for name in zipfile.ZipFile(wheel).namelist()
        if name.startswith("cardroom/") and not name.endswith("/")
    }
    assert packed == source_files()
    for needed in (
        "cardroom/v1/game_service_pb2.py",
        "cardroom/client/py.typed",
        "cardroom/domain/smile_life/cards.yaml",
        "cardroom/server/browser/web_table/index.html",
        "cardroom/smoke_and_mirrors/v1/smoke_and_mirrors.proto",
    ):
        assert needed in packed


def test_the_server_s_dependencies_come_only_with_its_extra(wheel: Path) -> None:
    metadata = zipfile.ZipFile(wheel).read(f"cardroom_games-{VERSION}.dist-info/METADATA").decode()
    requires = re.findall(r"^Requires-Dist: (.+)$", metadata, re.MULTILINE)
    plain = [r for r in requires if "extra ==" not in r]
    assert plain and all(re.match(r"[\w.-]+", r) for r in plain)
    named = {re.match(r"[\w.-]+", r).group().lower() for r in plain}  # type: ignore[union-attr]
    assert named.isdisjoint(SERVER_ONLY)
    for dist in SERVER_ONLY:
        assert any(r.lower().startswith(dist) and "extra ==" in r for r in requires), dist
    assert re.search(r'^Requires-Dist: textual.*extra == "tui"', metadata, re.MULTILINE)
    assert "Provides-Extra: server" in metadata
