"""The server's signing keys over time (docs/trust.md, "Keys and their
rotation").

The current private key stays where it always was (the key file,
:mod:`cardroom.trust.signing`). Beside it, ``<key file>.keys.json`` lists
every key the server has signed with, public halves only, each with its key
id (its fingerprint) and validity, oldest first. That list is what
``GetServerKey`` serves and what ``cardroom audit --keys`` reads: the same
format, so a list saved from a server is a key list file. A key file without
a list (a server from before rotation) is a ring of one key valid since the
start. ``rotate`` makes a new current key and retires the old one: its
public half and validity stay listed, so every record it signed still
audits; its private half is gone.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows
    fcntl = None  # type: ignore[assignment]

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from cardroom.trust import signing
from cardroom.v1 import trust_pb2 as trpb

FORMAT = "cardroom.keys.v1"
LIST_SUFFIX = ".keys.json"
BOTS_SUFFIX = ".bots"
LOCK_SUFFIX = ".lock"


class KeyInUse(Exception):
    """A running server signs with the key file: rotating it now would
    leave that server signing with a key the list calls retired."""


class KeyListError(ValueError):
    """A key list file that cannot be read."""


def key_id(public_key: bytes) -> str:
    """A key's id: its fingerprint (the first 16 bytes of SHA-256, hex)."""
    return signing.fingerprint(public_key)


@dataclass(frozen=True)
class ListedKey:
    """One public key and when it signed (None: open at that end)."""

    public_key: bytes
    valid_from: datetime | None = None
    valid_until: datetime | None = None

    @property
    def key_id(self) -> str:
        return key_id(self.public_key)

    def valid_at(self, when: datetime) -> bool:
        """Whether the key was the one signing at ``when``."""
        if self.valid_from is not None and when < self.valid_from:
            return False
        return self.valid_until is None or when < self.valid_until

    def to_proto(self) -> trpb.ServerKey:
        listed = trpb.ServerKey(key_id=self.key_id, public_key=self.public_key)
        if self.valid_from is not None:
            listed.valid_from.FromDatetime(self.valid_from)
        if self.valid_until is not None:
            listed.valid_until.FromDatetime(self.valid_until)
        return listed

    @classmethod
    def from_proto(cls, listed: trpb.ServerKey) -> ListedKey:
        return cls(
            bytes(listed.public_key),
            listed.valid_from.ToDatetime(UTC) if listed.HasField("valid_from") else None,
            listed.valid_until.ToDatetime(UTC) if listed.HasField("valid_until") else None,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "key_id": self.key_id,
            "public_key": self.public_key.hex(),
            "valid_from": _time_text(self.valid_from),
            "valid_until": _time_text(self.valid_until),
        }


def _time_text(when: datetime | None) -> str | None:
    return None if when is None else when.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _parse_time(text: object, where: str) -> datetime | None:
    if text is None:
        return None
    if not isinstance(text, str):
        raise KeyListError(f"{where}: a time must be an RFC 3339 string or null")
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise KeyListError(f"{where}: {text!r} is not an RFC 3339 time") from None
    if when.tzinfo is None:
        raise KeyListError(f"{where}: {text!r} has no time zone")
    return when.astimezone(UTC)


@dataclass(frozen=True)
class KeyList:
    """Every key a server has signed with, oldest first, the current one last."""

    keys: tuple[ListedKey, ...]

    def find(self, wanted: str) -> ListedKey | None:
        return next((k for k in self.keys if k.key_id == wanted), None)

    def to_proto(self) -> list[trpb.ServerKey]:
        return [k.to_proto() for k in self.keys]

    @classmethod
    def from_proto(cls, keys: Iterable[trpb.ServerKey]) -> KeyList:
        return cls(tuple(ListedKey.from_proto(k) for k in keys))

    def dumps(self) -> str:
        document = {"format": FORMAT, "keys": [k.to_json() for k in self.keys]}
        return json.dumps(document, indent=2) + "\n"

    @classmethod
    def loads(cls, text: str) -> KeyList:
        """Read a key list file; every key id must be its key's fingerprint."""
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            raise KeyListError(f"not JSON: {error}") from None
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            raise KeyListError(f"not a key list (its format must be {FORMAT!r})")
        entries = document.get("keys")
        if not isinstance(entries, list):
            raise KeyListError("a key list's 'keys' must be a list")
        keys = []
        for position, entry in enumerate(entries, 1):
            where = f"key {position}"
            if not isinstance(entry, dict):
                raise KeyListError(f"{where}: not an object")
            try:
                public = bytes.fromhex(str(entry.get("public_key", "")))
            except ValueError:
                public = b""
            if len(public) != signing.PUBLIC_KEY_BYTES:
                raise KeyListError(f"{where}: public_key must be 64 hex digits")
            listed = ListedKey(
                public,
                _parse_time(entry.get("valid_from"), where),
                _parse_time(entry.get("valid_until"), where),
            )
            if entry.get("key_id", listed.key_id) != listed.key_id:
                raise KeyListError(f"{where}: key_id is not the fingerprint of its public_key")
            keys.append(listed)
        return cls(tuple(keys))


def read_key_list(path: str | os.PathLike[str]) -> KeyList:
    try:
        return KeyList.loads(Path(path).read_text())
    except OSError as error:
        raise KeyListError(f"{path}: {error.strerror or error}") from None
    except KeyListError as error:
        raise KeyListError(f"{path}: {error}") from None


def list_path(key_path: str | os.PathLike[str]) -> Path:
    return Path(str(key_path) + LIST_SUFFIX)


def bots_path(key_path: str | os.PathLike[str]) -> Path:
    return Path(str(key_path) + BOTS_SUFFIX)


def bot_secret(key: Ed25519PrivateKey) -> bytes:
    """The secret the server's bots' seat tokens are derived from: the
    signing key's, through a one-way hash. Rotation keeps the first one
    (in ``<key file>.bots``) so a bot's seat survives a new key."""
    raw = key.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    return hashlib.sha256(b"cardroom server-side bots\0" + raw).digest()


@dataclass(frozen=True)
class KeyRing:
    """The key that signs now, and the list of every key that ever did."""

    current: Ed25519PrivateKey
    listed: KeyList
    bots: bytes

    @property
    def current_id(self) -> str:
        return key_id(signing.public_key_bytes(self.current))

    @classmethod
    def of(cls, key: Ed25519PrivateKey) -> KeyRing:
        """A ring of one key, valid since the start (tests; no files)."""
        return cls(key, KeyList((ListedKey(signing.public_key_bytes(key)),)), bot_secret(key))


def load_ring(key_path: str | os.PathLike[str]) -> KeyRing:
    """The ring beside the key file (the key is created when missing, as
    ``signing.load_or_create_key`` does). A list that does not end with
    the key file's key (a key file replaced by hand) gets it appended."""
    key = signing.load_or_create_key(key_path)
    public = signing.public_key_bytes(key)
    path = list_path(key_path)
    keys: tuple[ListedKey, ...] = ()
    if path.exists():
        keys = read_key_list(path).keys
    if not any(k.public_key == public for k in keys):
        keys = (*keys, ListedKey(public, keys[-1].valid_until if keys else None))
    bots = bots_path(key_path)
    secret = bots.read_bytes() if bots.exists() else bot_secret(key)
    return KeyRing(key, KeyList(keys), secret)


def lock_path(key_path: str | os.PathLike[str]) -> Path:
    return Path(str(key_path) + LOCK_SUFFIX)


def hold(key_path: str | os.PathLike[str]) -> IO[str] | None:
    """Mark the key file as in use by this server until the returned file is
    closed: a shared lock on ``<key file>.lock`` (several servers may share
    a key), which ``rotate`` refuses to break. Waits while a rotation runs.
    None where the platform has no file locks."""
    if fcntl is None:  # pragma: no cover - not on Windows
        return None
    path = lock_path(key_path)
    path.parent.mkdir(parents=True, exist_ok=True)  # the key is created there next
    handle = path.open("a+")
    fcntl.flock(handle, fcntl.LOCK_SH)
    return handle


@contextmanager
def _not_in_use(key_path: Path) -> Iterator[None]:
    """An exclusive lock on the key file's lock, or KeyInUse at once."""
    if fcntl is None:  # pragma: no cover - not on Windows
        yield
        return
    with lock_path(key_path).open("a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise KeyInUse(
                f"a running cardroom server signs with {key_path} (it holds "
                f"{lock_path(key_path)}): stop every server that uses this key, rotate, "
                "then start them again"
            ) from None
        yield


def rotate(key_path: str | os.PathLike[str], now: datetime | None = None) -> KeyRing:
    """Make a new current key: the old one is retired at ``now`` (its
    public half stays listed), the new one signs from ``now``. Written in
    an order that a crash at any point leaves a ring ``load_ring`` reads:
    the bots' secret first, then the list naming the new key, then the key
    file. Refused (KeyInUse) while a server on this machine holds the key
    (``hold``): a running server keeps signing with the key it loaded, so
    every record it exported after the rotation would name a retired key
    and fail the audit; servers pick the new key up when they start."""
    now = now or datetime.now(UTC)
    key_path = Path(key_path)
    with _not_in_use(key_path):
        return _rotate(key_path, now)


def _rotate(key_path: Path, now: datetime) -> KeyRing:
    ring = load_ring(key_path)
    new = Ed25519PrivateKey.generate()
    signing.write_private(bots_path(key_path), ring.bots, replace=False)
    *older, last = ring.listed.keys
    retired = ListedKey(last.public_key, last.valid_from, now)
    listed = KeyList((*older, retired, ListedKey(signing.public_key_bytes(new), now)))
    signing.write_private(list_path(key_path), listed.dumps().encode(), replace=True)
    list_path(key_path).chmod(0o644)  # public halves only
    signing.write_private(key_path, signing.private_pem(new), replace=True)
    return KeyRing(new, listed, ring.bots)


def served_keys(keys: Sequence[trpb.ServerKey], public_key: bytes) -> KeyList:
    """The key list a GetServerKey response gives: its ``keys``, or for a
    server older than rotation its one ``public_key``."""
    if keys:
        return KeyList.from_proto(keys)
    return KeyList((ListedKey(public_key),))
