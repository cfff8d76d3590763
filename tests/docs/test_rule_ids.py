"""Every rule a refusal names is written down: each id passed to
``RuleViolation`` in a game package appears in that game's
``docs/rules/<kind>.md`` (or the table's), and each id the table and the
service use appears in ``docs/rules/table.md``. Found by reading the source,
so a new message with a new id fails here until the docs say what it is."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from cardroom.domain import registry

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
TABLE_DOC = RULES / "table.md"


def rule_ids(path: Path) -> set[str]:
    """String ids passed as the first argument to RuleViolation (or to a
    RuleViolation subclass's ``super().__init__``), literally or through a
    module constant."""
    tree = ast.parse(path.read_text())
    constants = {
        target.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        named = isinstance(func, ast.Name) and func.id == "RuleViolation"
        init = (
            isinstance(func, ast.Attribute)
            and func.attr == "__init__"
            and isinstance(func.value, ast.Call)
            and isinstance(func.value.func, ast.Name)
            and func.value.func.id == "super"
        )
        if not (named or init):
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            found.add(first.value)
        elif isinstance(first, ast.Name) and first.id in constants:
            found.add(constants[first.id])
    return found


def documented(rule: str, text: str) -> bool:
    if re.fullmatch(r"[A-Z]+(-[A-Z]+)?-\d+[a-z]?", rule):  # SD-05, CR-SV-03
        return re.search(rf"\b{re.escape(rule)}\b", text) is not None
    return f"`{rule}`" in text


def sources(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def test_the_scanner_finds_the_ids_a_module_uses() -> None:
    found = rule_ids(ROOT / "domain" / "cardroom" / "domain" / "table.py")
    assert {"T-SEATS", "T-JOIN", "T-START", "T-PLAY"} <= found


@pytest.mark.parametrize("kind", sorted(registry.games()))
def test_every_rule_a_game_names_is_in_its_rules_doc(kind: str) -> None:
    game = registry.game(kind)
    package = Path(__import__(type(game).__module__.rsplit(".", 1)[0], fromlist=["_"]).__file__)
    doc = RULES / f"{kind}.md"
    assert doc.exists(), f"{kind} has no docs/rules/{kind}.md"
    text = doc.read_text() + TABLE_DOC.read_text()
    used = set().union(*(rule_ids(p) for p in sources(package.parent)))
    assert used, f"{kind} names no rule at all?"
    missing = sorted(r for r in used if not documented(r, text))
    assert missing == [], f"ids used by {kind} but not in docs/rules/{kind}.md: {missing}"


def test_every_rule_the_table_and_service_name_is_in_the_table_doc() -> None:
    text = TABLE_DOC.read_text()
    files = [
        ROOT / "domain" / "cardroom" / "domain" / "table.py",
        ROOT / "domain" / "cardroom" / "domain" / "kernel.py",
        *sources(ROOT / "service"),
    ]
    used = set().union(*(rule_ids(p) for p in files))
    assert {"T-LOG", "T-DEAL", "T-SPECTATORS", "T-TURN"} <= used
    missing = sorted(r for r in used if not documented(r, text))
    assert missing == [], f"ids used but not in docs/rules/table.md: {missing}"
