"""One version for the Python distribution, the npm package and the
CHANGELOG, and a kept schema for every release the CHANGELOG dates."""

from __future__ import annotations

import json
import re

from tests.packaging.conftest import ROOT, VERSION

HEADING = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\S+)", re.MULTILINE)


def test_the_python_and_npm_packages_and_the_changelog_share_one_version() -> None:
    package = json.loads((ROOT / "clients" / "typescript" / "package.json").read_text())
    web = json.loads((ROOT / "clients" / "web" / "package.json").read_text())
    [(newest, _), *_] = HEADING.findall((ROOT / "CHANGELOG.md").read_text())
    assert package["version"] == VERSION
    assert web["dependencies"]["@cardroom/client"] == VERSION
    assert newest == VERSION


def test_every_dated_release_has_its_schema_kept() -> None:
    releases = HEADING.findall((ROOT / "CHANGELOG.md").read_text())
    dated = [version for version, date in releases if re.fullmatch(r"\d{4}-\d{2}-\d{2}", date)]
    assert "0.1.0" in dated
    for version in dated:
        assert (ROOT / "protos" / "releases" / f"cardroom-{version}.binpb").is_file(), version
    undated = [(version, date) for version, date in releases if version not in dated]
    assert all(date == "Unreleased" for _, date in undated), undated
