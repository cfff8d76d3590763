"""The README's runnable snippets, each marked ``<!-- snippet: NAME -->``
just above its code block, read exactly as a person copies them."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def snippet(name: str) -> str:
    """The code block under the marker ``<!-- snippet: name -->``."""
    found = re.search(
        rf"<!-- snippet: {re.escape(name)} -->\n```[a-z]*\n(.*?)\n```", README.read_text(), re.S
    )
    assert found, f"README.md has no snippet {name}"
    return found.group(1) + "\n"
