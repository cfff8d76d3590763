"""The flags of DECISIONS.md §5 as docs/rules/table.md lists them: each row
names a field of its game's Options message, and each Options field of every
game is a row (but Smoke & Mirrors' rounds_to_win, the rulebook's four
rounds, which §5 does not list)."""

from __future__ import annotations

import re
from pathlib import Path

from cardroom.domain import registry

ROOT = Path(__file__).resolve().parents[2]
PREFIXES = {
    "sd": "smiles-and-daggers",
    "sv": "silver-dagger",
    "sl": "smile-life",
    "sm": "smoke-and-mirrors",
}
NOT_FLAGS = {("smoke-and-mirrors", "rounds_to_win")}


def rows() -> list[tuple[str, str, str]]:
    """(kind, flag, Options field) for each row of the flags table."""
    text = (ROOT / "docs" / "rules" / "table.md").read_text()
    found = re.findall(r"^\| `(s[dvlm])\.([a-z0-9_]+)` \| `([a-z0-9_]+)` \|", text, re.MULTILINE)
    return [(PREFIXES[prefix], flag, field) for prefix, flag, field in found]


def test_every_flag_row_names_a_field_of_its_games_options() -> None:
    listed = rows()
    assert len(listed) == 15  # DECISIONS §5
    for kind, _flag, field in listed:
        options = registry.game(kind).options_type
        assert field in options.DESCRIPTOR.fields_by_name, (kind, field)


def test_every_options_field_is_a_listed_flag() -> None:
    listed = {(kind, field) for kind, _, field in rows()}
    for kind in PREFIXES.values():
        fields = registry.game(kind).options_type.DESCRIPTOR.fields_by_name
        for field in fields:
            assert (kind, field) in listed | NOT_FLAGS, (kind, field)
