"""Checkpoints: derived snapshots of folded states, so that a game loaded
after a restart (or a view at an old version) is folded from the nearest
checkpoint instead of from its first event.

A checkpoint is *derived data*: the events stay the only record. Delete every
checkpoint and each view is rebuilt, identically, from the events
(``tests/service/test_checkpoints.py``). Checkpoints are written in the
background, never on a command's path, and a checkpoint that cannot be read
or was written by other code is ignored.

Format: a checkpoint is JSON. Rules states are immutable trees of
dataclasses, named tuples, enums, tuples, frozensets and protobuf messages;
:func:`encode` writes each with a type tag, and :func:`decode` rebuilds only
classes defined under the ``cardroom.domain`` package (never arbitrary code, so a
tampered checkpoint cannot run anything; pickle could). Each checkpoint
carries a fingerprint of the rules' source code and of this format: after any
change to either, old checkpoints no longer match and are not used.

Storage: the eventsourcing library's snapshot recorder in the same database
(SQLite ``stored_snapshots``, PostgreSQL ``<app>_snapshots``), one stream per
(game, viewer) keyed by a UUID derived from both, version = the number of
events folded.
"""

from __future__ import annotations

import base64
import dataclasses
import enum
import hashlib
import importlib
import json
import logging
import uuid
from functools import cache
from pathlib import Path
from typing import Any

from eventsourcing.persistence import AggregateRecorder, IntegrityError, StoredEvent
from google.protobuf import descriptor_pool, message_factory
from google.protobuf.message import Message

import cardroom.domain
from cardroom.domain import registry
from cardroom.domain.kernel import Viewer
from cardroom.server.storage.background import Background

log = logging.getLogger(__name__)

FORMAT = "cardroom-checkpoint/1"
# Events between checkpoints of one viewer: a view at any version folds at
# most EVERY - 1 events after reading one (docs/scaling.md, "Checkpoints").
EVERY = 32
NAMESPACE = uuid.UUID("5b9a4f2e-3c1d-4e8b-9a7f-6d2c1b0e8f41")
_ALLOWED_PREFIX = "cardroom.domain."
# Besides the rules: the files that give a checkpoint's contents their meaning.
_SERVICE_SOURCES = ("cache.py", "checkpoints.py", "indexes.py")


class CheckpointError(ValueError):
    """A checkpoint this code cannot (or may not) rebuild."""


# ------------------------------------------------------------------ codec


def _class_name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


@cache
def _resolve(name: str) -> type:
    module_name, _, qualname = name.partition(":")
    if not module_name.startswith(_ALLOWED_PREFIX) or not qualname:
        raise CheckpointError(f"a checkpoint may only name rules classes, not {name[:80]!r}")
    target: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        target = getattr(target, part)
    if not isinstance(target, type):
        raise CheckpointError(f"{name[:80]!r} is not a class")
    return target


def encode(value: Any) -> Any:
    """A JSON-able tree for a rules value (see the module docstring)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.Enum):
        return {"e": _class_name(type(value)), "v": encode(value.value)}
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, bytes):
        return {"b": base64.b64encode(value).decode()}
    if isinstance(value, Message):
        return {
            "pb": value.DESCRIPTOR.full_name,
            "v": base64.b64encode(value.SerializeToString(deterministic=True)).decode(),
        }
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a NamedTuple
        return {"nt": _class_name(type(value)), "v": [encode(v) for v in value]}
    if isinstance(value, tuple):
        return {"t": [encode(v) for v in value]}
    if isinstance(value, list):
        return {"l": [encode(v) for v in value]}
    if isinstance(value, frozenset):
        return {"fs": [encode(v) for v in value]}
    if isinstance(value, dict):
        return {"d": [[encode(k), encode(v)] for k, v in value.items()]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"dc": _class_name(type(value)), "f": fields}
    kind = getattr(value, "kind", None)
    if isinstance(kind, str) and registry.games().get(kind) is value:
        return {"game": kind}
    raise CheckpointError(f"cannot checkpoint a {type(value).__qualname__}")


def decode(data: Any) -> Any:
    """The value :func:`encode` wrote."""
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if not isinstance(data, dict):
        raise CheckpointError(f"unexpected {type(data).__name__} in a checkpoint")
    if "t" in data:
        return tuple(decode(v) for v in data["t"])
    if "l" in data:
        return [decode(v) for v in data["l"]]
    if "fs" in data:
        return frozenset(decode(v) for v in data["fs"])
    if "d" in data:
        return {decode(k): decode(v) for k, v in data["d"]}
    if "b" in data:
        return base64.b64decode(data["b"])
    if "e" in data:
        cls = _resolve(data["e"])
        if not issubclass(cls, enum.Enum):
            raise CheckpointError(f"{data['e'][:80]!r} is not an enum")
        return cls(decode(data["v"]))
    if "nt" in data:
        cls = _resolve(data["nt"])
        if not (issubclass(cls, tuple) and hasattr(cls, "_fields")):
            raise CheckpointError(f"{data['nt'][:80]!r} is not a named tuple")
        return cls(*(decode(v) for v in data["v"]))
    if "dc" in data:
        cls = _resolve(data["dc"])
        if not dataclasses.is_dataclass(cls):
            raise CheckpointError(f"{data['dc'][:80]!r} is not a dataclass")
        names = {f.name for f in dataclasses.fields(cls)}
        values = {k: decode(v) for k, v in data["f"].items()}
        if set(values) != names:
            raise CheckpointError(f"{data['dc'][:80]!r} has other fields now")
        # Rebuilt as stored, without running __init__ (as evolve's replace does).
        instance = object.__new__(cls)
        for name, field_value in values.items():
            object.__setattr__(instance, name, field_value)
        return instance
    if "pb" in data:
        descriptor = descriptor_pool.Default().FindMessageTypeByName(data["pb"])
        message = message_factory.GetMessageClass(descriptor)()
        message.ParseFromString(base64.b64decode(data["v"]))
        return message
    if "game" in data:
        return registry.game(data["game"])
    raise CheckpointError("unknown tag in a checkpoint")


@cache
def fingerprint() -> str:
    """Of this format and every source file of the rules: checkpoints
    written by other code are never used."""
    digest = hashlib.sha256(FORMAT.encode())
    root = Path(cardroom.domain.__file__).parent
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    for source in _SERVICE_SOURCES:
        digest.update((Path(__file__).parent / source).read_bytes())
    return f"{FORMAT}:{digest.hexdigest()[:32]}"


def dumps(value: Any) -> bytes:
    return json.dumps(encode(value), separators=(",", ":")).encode()


def loads(raw: bytes) -> Any:
    try:
        return decode(json.loads(raw))
    except CheckpointError:
        raise
    except Exception as error:  # malformed JSON, a class that changed shape...
        raise CheckpointError(f"unreadable checkpoint: {error}") from None


# ------------------------------------------------------------------ store


def viewer_key(viewer: Viewer) -> str:
    return f"seat-{viewer.seat}" if viewer.kind == "seat" else viewer.kind


def stream_id(game_id: str, key: str) -> uuid.UUID:
    """The checkpoint stream of one viewer (or "table") of one game."""
    return uuid.uuid5(NAMESPACE, f"{game_id}/{key}")


class Checkpoints:
    """Reads checkpoints now; writes them in a background thread, so a
    command never waits for one. Losing a pending write loses nothing."""

    def __init__(self, recorder: AggregateRecorder | None, *, every: int = EVERY) -> None:
        self.recorder = recorder
        self.every = every
        self._writer: Background[tuple[uuid.UUID, int, Any]] = Background(
            "cardroom-checkpoints", self._write
        )
        self._written: set[tuple[uuid.UUID, int]] = set()
        self.used = 0  # checkpoints folded from (for tests and metrics)
        if self.enabled:
            # Hashing the rules' sources takes milliseconds: do it now, not
            # in the first read of a checkpoint (a first view after a restart).
            fingerprint()

    @property
    def enabled(self) -> bool:
        return self.recorder is not None

    def due(self, version: int, finishes: bool = False) -> bool:
        """Whether to checkpoint a fold at ``version``: every ``every``
        events, and at the event that finishes the game (a finished game
        never changes again, and replay sites and auditors read it most:
        its first view after a restart then folds nothing)."""
        return self.enabled and version > 0 and (version % self.every == 0 or finishes)

    def save_later(self, game_id: str, key: str, version: int, value: Any) -> None:
        """Write ``value`` (immutable: encoded later, in the writer thread) as
        the checkpoint of ``key`` at ``version``, unless it was written before
        or the queue is full (then it is simply not written)."""
        sid = stream_id(game_id, key)
        if not self.enabled or (sid, version) in self._written:
            return
        if not self._writer.submit((sid, version, value)):
            log.debug("checkpoint queue full or closed; skipped %s@%d", key, version)

    def _write(self, item: tuple[uuid.UUID, int, Any]) -> None:
        assert self.recorder is not None
        sid, version, value = item
        if (sid, version) in self._written:
            return
        try:
            state = dumps(value)
            self.recorder.insert_events(
                [
                    StoredEvent(
                        originator_id=sid,
                        originator_version=version,
                        topic=fingerprint(),
                        state=state,
                    )
                ]
            )
        except IntegrityError:
            pass  # another process (or an earlier run) wrote it: the same state
        except CheckpointError as error:
            log.debug("not checkpointed: %s", error)
        except Exception:
            log.warning("writing a checkpoint failed", exc_info=True)
        self._written.add((sid, version))
        if len(self._written) > 200_000:
            self._written.clear()

    def latest(self, game_id: str, key: str, upto: int | None = None) -> tuple[int, Any] | None:
        """The newest usable checkpoint of ``key`` (at a version <= ``upto``)."""
        if not self.enabled or (upto is not None and upto < self.every):
            return None
        assert self.recorder is not None
        try:
            found = self.recorder.select_events(
                stream_id(game_id, key), lte=upto, desc=True, limit=1
            )
        except Exception:
            log.warning("reading a checkpoint failed", exc_info=True)
            return None
        for stored in found:
            if stored.topic != fingerprint():
                return None
            try:
                checkpoint = stored.originator_version, loads(bytes(stored.state))
                self.used += 1
                return checkpoint
            except CheckpointError as error:
                log.info("ignoring a checkpoint: %s", error)
                return None
        return None

    def flush(self) -> None:
        """Wait until every pending checkpoint is written (tests, shutdown)."""
        self._writer.flush()

    def close(self) -> None:
        self._writer.close()
