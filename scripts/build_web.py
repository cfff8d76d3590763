"""Build the reference web table (clients/web) into the server package
(service/cardroom/server/browser/web_table/), or check that the committed build is
current.

The built bundle is committed so that ``cardroom serve --web-address``
serves the table wherever the Python package runs (pip, Docker: it is package
data of cardroom.server) with no Node.js, and needs no network at run time.
Like the generated code, it is never edited by hand: `--check` builds into a
temporary folder and fails on any difference, so CI catches a table whose
sources changed without a rebuild. Needs clients/node_modules (`npm ci` in
clients/; dev.py does it).
"""

from __future__ import annotations

import filecmp
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = ROOT / "clients"
DIST = ROOT / "service" / "cardroom" / "server" / "browser" / "web_table"


def npm(*args: str) -> None:
    subprocess.run(["npm", *args], cwd=CLIENTS, check=True, stdout=subprocess.DEVNULL)


def build(out: Path) -> None:
    """The TypeScript client first (the table imports its dist/), then the table."""
    if not (CLIENTS / "node_modules").is_dir():
        raise SystemExit("clients/node_modules is missing: run `npm ci` in clients/")
    npm("run", "build", "--workspace", "typescript")
    npm("run", "build", "--workspace", "web", "--", "--outDir", str(out), "--emptyOutDir")


def files(folder: Path) -> set[Path]:
    return {p.relative_to(folder) for p in folder.rglob("*") if p.is_file()}


def check() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "dist"
        build(fresh)
        new, old = files(fresh), files(DIST) if DIST.is_dir() else set()
        changed = [p for p in new & old if not filecmp.cmp(fresh / p, DIST / p, shallow=False)]
        drift = sorted(str(p) for p in (new ^ old) | set(changed))
    if drift:
        print(
            "the committed web table (service/cardroom/server/browser/web_table) is out of date:",
            *drift,
            sep="\n  ",
        )
        print("run: python scripts/build_web.py")
        return 1
    print("the committed web table matches clients/web")
    return 0


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        sys.exit(check())
    build(DIST)
    print(*sorted(str(DIST.relative_to(ROOT) / p) for p in files(DIST)), sep="\n")
