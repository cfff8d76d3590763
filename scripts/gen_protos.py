"""Generate the Python code for protos/ into clients/ (or check it is current).

Generated files are never edited by hand: run this after changing a .proto.
`--check` regenerates into a temporary directory and fails on any difference,
so CI catches drift between protos/ and clients/.
"""

from __future__ import annotations

import filecmp
import sys
import tempfile
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTOS = ROOT / "protos"
OUT = ROOT / "clients"
GENERATED_SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py")


def generate(out: Path) -> list[Path]:
    """Run protoc over every .proto; return the generated files."""
    protos = sorted(p.relative_to(PROTOS).as_posix() for p in PROTOS.rglob("*.proto"))
    well_known = Path(protoc.__file__).parent / "_proto"
    args = [
        "protoc",
        f"-I{PROTOS}",
        f"-I{well_known}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        *protos,
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    for package in {(out / p).parent for p in protos}:
        while package != out:
            (package / "__init__.py").touch()
            package = package.parent
    return sorted(p for p in out.rglob("*") if p.name.endswith(GENERATED_SUFFIXES))


def check() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        fresh = {p.relative_to(tmp) for p in generate(Path(tmp))}
        current = {
            p.relative_to(OUT) for p in OUT.rglob("*") if p.name.endswith(GENERATED_SUFFIXES)
        }
        drift = sorted(str(p) for p in fresh ^ current)
        drift += sorted(
            str(p)
            for p in fresh & current
            if not filecmp.cmp(Path(tmp) / p, OUT / p, shallow=False)
        )
    if drift:
        print("generated code is out of date with protos/:", *drift, sep="\n  ")
        print("run: python scripts/gen_protos.py")
        return 1
    print("generated code matches protos/")
    return 0


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        sys.exit(check())
    for path in generate(OUT):
        print(path.relative_to(ROOT))
