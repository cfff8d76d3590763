"""Text from the network made safe to print: a player's name (or anything a
client typed) reaches other people's terminals, so it must not carry
terminal commands. ``printable`` is the one place that decides; every
feed line, table, note and error a Python frontend prints goes through it.

It shows, rather than drops, what it takes out, so a hostile name stays
recognisable: C0 controls and DEL become their control pictures (ESC ->
"␛", a newline -> "␤"), and C1 controls (a lone CSI, OSC ...), bidi
overrides and isolates, and line or paragraph separators become "�".
Joiners stay, so emoji sequences and scripts that need them are kept."""

from __future__ import annotations

import re

# U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069: reordering what is
# shown (a name that reads backwards past its end); U+2028, U+2029: new lines.
_UNSEEN = re.compile("[\x80-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
_CONTROL = re.compile("[\x00-\x1f\x7f]")
_PICTURES = {**{chr(c): chr(0x2400 + c) for c in range(0x20)}, "\x7f": "␡", "\n": "␤"}


def printable(text: str) -> str:
    """``text`` with nothing a terminal would obey: "Ada\\x1b]52;c;..." ->
    "Ada␛]52;c;..."."""
    text = _CONTROL.sub(lambda match: _PICTURES[match.group()], text)
    return _UNSEEN.sub("\ufffd", text)
