"""The server's Ed25519 signing key and signatures over game records
(docs/trust.md, "Signed game records").

The key is generated on first start and kept beside the database, as an
unencrypted PKCS#8 PEM file readable by its owner only: ``<database>.ed25519``
for a SQLite database, a path given in the settings for PostgreSQL. A
record's signature covers ``"cardroom.v1.GameRecord" || 0x00 || body``, the
exact body bytes stored in the record, so nothing is re-serialized to check
it. A valid signature means the holder of the key vouches for the record,
nothing more: pin the server's public key (the API serves it) out of band.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from cardroom.v1 import trust_pb2 as trpb

CONTEXT = b"cardroom.v1.GameRecord\x00"
KEY_SUFFIX = ".ed25519"
PUBLIC_KEY_BYTES = 32


def key_path_for(database: str) -> Path | None:
    """Where the key of a SQLite database lives (``<database>.ed25519``);
    None for a PostgreSQL URL, whose key path must be configured."""
    if database.startswith(("postgresql://", "postgres://")):
        return None
    return Path(database + KEY_SUFFIX)


def load_or_create_key(path: str | os.PathLike[str]) -> Ed25519PrivateKey:
    """The key in ``path``, generated (mode 0600) when the file does not
    exist. Safe against two processes starting at once: the file appears
    complete or not at all, and the loser loads the winner's key."""
    path = Path(path)
    if path.exists():
        return _load(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    key = Ed25519PrivateKey.generate()
    if not write_private(path, private_pem(key), replace=False):
        return _load(path)
    return key


def private_pem(key: Ed25519PrivateKey) -> bytes:
    """The key as the key file holds it: unencrypted PKCS#8 PEM."""
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def write_private(path: Path, data: bytes, *, replace: bool) -> bool:
    """Write ``data`` to ``path`` (mode 0600) so that it appears complete or
    not at all. With ``replace`` an existing file is replaced; without, an
    existing file is kept and False returned (another process won)."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        if replace:
            os.replace(temporary, path)
            return True
        try:
            os.link(temporary, path)
        except FileExistsError:
            return False
        return True
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()


def _load(path: Path) -> Ed25519PrivateKey:
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path} does not hold an Ed25519 private key")
    return key


def public_key_bytes(key: Ed25519PrivateKey | Ed25519PublicKey) -> bytes:
    """The raw 32-byte public key (what the API serves and records carry)."""
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def fingerprint(public_key: bytes) -> str:
    """A short name for a public key: the first 16 bytes of its SHA-256, hex."""
    return hashlib.sha256(public_key).hexdigest()[:32]


def sign(record: trpb.GameRecord, key: Ed25519PrivateKey) -> trpb.GameRecord:
    """Sign the record's body in place (sets public_key and signature)."""
    record.public_key = public_key_bytes(key)
    record.signature = key.sign(CONTEXT + record.body)
    return record


def verify(record: trpb.GameRecord, public_key: bytes | None = None) -> bool:
    """Whether the record's signature is valid for ``public_key`` (the key
    you trust) or, when None, for the key the record itself names, which
    only shows the record is intact, not who signed it."""
    return verify_body(record.body, record.public_key, record.signature, public_key)


def verify_body(
    body: bytes | memoryview, named_key: bytes, signature: bytes, public_key: bytes | None = None
) -> bool:
    """:func:`verify` of a record given as its parts (the body as the exact
    bytes signed, possibly a slice of a larger buffer)."""
    key = named_key if public_key is None else public_key
    if public_key is not None and named_key and named_key != public_key:
        return False
    if len(key) != PUBLIC_KEY_BYTES:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(signature, b"".join((CONTEXT, body)))
    except (InvalidSignature, ValueError):
        return False
    return True
