"""What `cardroom play` keeps between runs, so a restart picks up the same
seat: the server's address, the game, the seat and its token, and the
tokens of the bots it seated for you; and, beside them, the player's own key
pair (``player.ed25519``), which signs each seat taken so that the player's
games count for one rating.

They live in one JSON file, ``$XDG_STATE_HOME/cardroom/seats.json`` (by
default ``~/.local/state/cardroom/seats.json``), readable by its owner only,
or wherever ``--token-file`` says; never in a checkout. A seat token is a
password for that seat: whoever holds it plays it.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from cardroom.trust import signing

# The player's key pair, beside seats.json in the same folder.
PLAYER_KEY_FILE = "player.ed25519"


def default_path() -> Path:
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "cardroom" / "seats.json"


@dataclass(frozen=True)
class BotSeat:
    seat: int
    token: str
    bot: str  # "random" | "heuristic"


@dataclass(frozen=True)
class SeatRecord:
    address: str
    game_id: str
    kind: str
    seat: int
    token: str
    name: str
    bots: tuple[BotSeat, ...] = ()
    saved_at: float = field(default_factory=time.time)
    # The seat's own entropy, hex (T-ENTROPY): kept to reveal it when the
    # game starts and to verify the deal at the end; "" when the server drew it.
    entropy: str = ""

    @property
    def key(self) -> str:
        return f"{self.address} {self.game_id}"

    @staticmethod
    def from_json(data: dict[str, object]) -> SeatRecord:
        bots = tuple(BotSeat(**b) for b in data.pop("bots", []))  # type: ignore[arg-type, attr-defined]
        return SeatRecord(**data, bots=bots)  # type: ignore[arg-type]


class SessionError(Exception):
    """The file cannot be read or written."""


@dataclass(frozen=True)
class Sessions:
    path: Path

    @classmethod
    def at(cls, path: str | Path | None = None) -> Sessions:
        return cls(Path(path) if path else default_path())

    def load(self) -> dict[str, SeatRecord]:
        try:
            text = self.path.read_text()
        except FileNotFoundError:
            return {}
        except OSError as error:
            raise SessionError(f"{self.path}: {error.strerror or error}") from None
        try:
            records = [SeatRecord.from_json(r) for r in json.loads(text)]
        except (ValueError, TypeError, AttributeError) as error:
            raise SessionError(f"{self.path}: not a seats file ({error})") from None
        return {r.key: r for r in records}

    def save(self, record: SeatRecord) -> None:
        records = self.load()
        records[record.key] = record
        data = json.dumps([asdict(r) for r in records.values()], indent=1)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            temporary = self.path.with_suffix(".tmp")
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w") as out:
                out.write(data)
            os.replace(temporary, self.path)
        except OSError as error:
            raise SessionError(f"{self.path}: {error.strerror or error}") from None

    @property
    def player_key_path(self) -> Path:
        """The player's own key, beside the seats (docs/trust.md, "Players")."""
        return self.path.with_name(PLAYER_KEY_FILE)

    def player_key(self) -> Ed25519PrivateKey:
        """The player's Ed25519 key: who they are from game to game, so their
        seats count for one rating. Made on first use, readable by its owner
        only (unencrypted PKCS#8 PEM, like the server's own key)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            return signing.load_or_create_key(self.player_key_path)
        except (OSError, ValueError) as error:
            raise SessionError(f"{self.player_key_path}: {error}") from None

    def find(self, address: str, game_id: str) -> SeatRecord | None:
        return self.load().get(f"{address} {game_id}")

    def latest(self) -> SeatRecord | None:
        records = self.load().values()
        return max(records, key=lambda r: r.saved_at) if records else None
