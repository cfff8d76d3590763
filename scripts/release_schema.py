"""Keep each release's schema, and check the working tree against the newest.

    python3 scripts/release_schema.py 0.2.0 [REF]   # REF's protos/ (default HEAD) as
                                                     # protos/releases/cardroom-0.2.0.binpb
    python3 scripts/release_schema.py --check       # buf breaking against the newest one

A release's schema is committed as a buf image (a FileDescriptorSet of
every .proto file, without source info), so `--check`, which `dev.py test`
runs, needs neither git tags nor history in the clone: a change to protos/
that would break clients built against the last release (buf.yaml's
`breaking` rules) fails the run before it lands. Make one image per
release, from its tag, when the release is cut.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RELEASES = ROOT / "protos" / "releases"
BUF = Path(sys.executable).parent / "buf"
IMAGE = re.compile(r"cardroom-(\d+)\.(\d+)\.(\d+)\.binpb")


def images() -> list[Path]:
    """Every release image, oldest first."""
    found = [(m, p) for p in RELEASES.glob("*.binpb") if (m := IMAGE.fullmatch(p.name))]
    return [p for m, p in sorted(found, key=lambda mp: tuple(map(int, mp[0].groups())))]


def build(version: str, ref: str) -> Path:
    """The schema at git ``ref`` as a buf image for ``version``."""
    if not IMAGE.fullmatch(f"cardroom-{version}.binpb"):
        raise SystemExit(f"not a version: {version!r} (MAJOR.MINOR.PATCH)")
    archive = subprocess.run(
        ["git", "archive", "--format=tar", ref, "buf.yaml", "protos"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    out = RELEASES / f"cardroom-{version}.binpb"
    RELEASES.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        subprocess.run(
            [BUF, "build", tmp, "--exclude-source-info", "-o", out],
            check=True,
        )
    return out


def check() -> int:
    """``buf breaking`` of the working tree against the newest release."""
    known = images()
    if not known:
        print(f"no release image in {RELEASES.relative_to(ROOT)}", file=sys.stderr)
        return 1
    newest = known[-1]
    done = subprocess.run([BUF, "breaking", ROOT, "--against", newest], cwd=ROOT)
    if done.returncode != 0:
        print(
            f"protos/ breaks clients of {newest.name} (buf.yaml's breaking rules): "
            "add fields and messages instead of changing or removing them, "
            "or make it a new major version (cardroom.v2) and say so in CHANGELOG.md",
            file=sys.stderr,
        )
        return done.returncode
    print(f"protos/ keeps the wire contract of {newest.name}")
    return 0


def main(argv: list[str]) -> int:
    if argv == ["--check"]:
        return check()
    if len(argv) in (1, 2) and not argv[0].startswith("-"):
        print(build(argv[0], argv[1] if len(argv) == 2 else "HEAD").relative_to(ROOT))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
