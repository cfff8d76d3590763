"""A server installed from the wheel serves the reference web table at /
with no --web-root (issue 20, item 6): the table is package data of
cardroom.server, and the default."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest

# The wheel's files first on the path: cardroom.server (a regular package)
# comes from them, not from the checkout.
SERVE = (
    "import runpy, sys; sys.path.insert(0, sys.argv.pop(1)); "
    "import cardroom.server.browser.app as web; print('web module', web.__file__, flush=True); "
    "runpy.run_module('cardroom.cli', run_name='__main__')"
)


@pytest.mark.slow
def test_the_installed_server_serves_the_web_table_at_the_root(wheel: Path, tmp_path: Path) -> None:
    installed = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(installed)
    process = subprocess.Popen(
        [
            *(sys.executable, "-c", SERVE, str(installed), "serve"),
            *("--address", "127.0.0.1:0", "--database", str(tmp_path / "db.sqlite3")),
            *("--web-address", "127.0.0.1:0"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        module = process.stdout.readline().split()[-1]
        assert Path(module).is_relative_to(installed)
        assert "listening on" in process.stdout.readline()
        url = process.stdout.readline().split()[-1]  # "browsers: URL"
        with urllib.request.urlopen(url, timeout=30) as page:
            assert page.status == 200
            html = page.read().decode()
        assert "<html" in html.lower() and "/assets/" in html
    finally:
        process.terminate()
        process.wait(timeout=30)
