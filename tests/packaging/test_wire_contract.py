"""The wire contract: protos/ is checked against the newest release's
schema (protos/releases/, made by scripts/release_schema.py), so a change
that would break existing clients fails before it lands."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from google.protobuf import descriptor_pb2

ROOT = Path(__file__).resolve().parents[2]
RELEASES = ROOT / "protos" / "releases"


def tree_copy(tmp: Path) -> Path:
    """The schema, its release images and the check, as a checkout has them."""
    copy = tmp / "checkout"
    shutil.copytree(ROOT / "protos", copy / "protos", ignore=shutil.ignore_patterns("*.py*"))
    shutil.copy(ROOT / "buf.yaml", copy)
    (copy / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "release_schema.py", copy / "scripts")
    return copy


def check(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(tree / "scripts" / "release_schema.py"), "--check"],
        capture_output=True,
        text=True,
    )


def test_the_first_release_image_holds_the_whole_0_1_0_schema() -> None:
    image = descriptor_pb2.FileDescriptorSet.FromString(
        (RELEASES / "cardroom-0.1.0.binpb").read_bytes()
    )
    files = {f.name: f for f in image.file}
    assert {
        "cardroom/v1/envelope.proto",
        "cardroom/v1/game_service.proto",
        "cardroom/v1/table.proto",
        "cardroom/v1/trust.proto",
        "cardroom/smoke_and_mirrors/v1/smoke_and_mirrors.proto",
        "cardroom/smiles_and_daggers/v1/smiles_and_daggers.proto",
        "cardroom/silver_dagger/v1/silver_dagger.proto",
        "cardroom/smile_life/v1/smile_life.proto",
    } <= files.keys()
    [service] = files["cardroom/v1/game_service.proto"].service
    assert service.name == "GameService"
    assert "ListLegalActions" in {m.name for m in service.method}


def test_the_working_tree_keeps_the_newest_release_s_contract() -> None:
    done = check(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "keeps the wire contract of cardroom-" in done.stdout


def test_a_new_field_keeps_the_contract(tmp_path: Path) -> None:
    tree = tree_copy(tmp_path)
    table = tree / "protos" / "cardroom" / "v1" / "table.proto"
    table.write_text(
        table.read_text().replace(
            "  TableOptions table_options = 8;\n",
            "  TableOptions table_options = 8;\n  string motto = 99;\n",
        )
    )
    done = check(tree)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_removed_field_is_a_broken_contract_named_in_the_report(tmp_path: Path) -> None:
    tree = tree_copy(tmp_path)
    table = tree / "protos" / "cardroom" / "v1" / "table.proto"
    source = table.read_text()
    assert "  uint32 seat_count = 3;\n" in source
    table.write_text(source.replace("  uint32 seat_count = 3;\n", ""))
    done = check(tree)
    assert done.returncode != 0
    assert "seat_count" in done.stdout + done.stderr
    assert re.search(r"breaks clients of cardroom-\d+\.\d+\.\d+\.binpb", done.stderr)
