"""Auditing a record against a key list (docs/trust.md, "Keys and their
rotation"): the record's key id (or, for a record from before rotation,
the fingerprint of the key it carries) picks the listed key, that key alone
must have made the signature, and it must have been the signing key when
the record was exported."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC
from typing import Any

from cardroom.domain import registry
from cardroom.domain.kernel import Game
from cardroom.trust.audit import Report, audit_scanned
from cardroom.trust.keyring import KeyList, key_id
from cardroom.trust.record import ScannedRecord


def named_key_id(scanned: ScannedRecord) -> str:
    """The key id a record names: its body's, else its key's fingerprint."""
    return scanned.header.key_id or key_id(scanned.public_key)


def audit_with_keys(
    scanned: ScannedRecord,
    keys: KeyList,
    *,
    holder: str = "the key list holds",
    resolve_game: Callable[[str], Game[Any]] = registry.game,
) -> Report:
    """:func:`audit_scanned` with the key the record's key id names pinned.
    An id not in the list (``holder`` says where the list came from), or a
    record exported outside its key's validity, is a signature problem; a
    record whose key id names a key that did not sign it fails the
    signature against that key."""
    wanted = named_key_id(scanned)
    listed = keys.find(wanted)
    report = audit_scanned(
        scanned,
        public_key=listed.public_key if listed is not None else None,
        resolve_game=resolve_game,
    )
    if listed is None:
        known = ", ".join(k.key_id for k in keys.keys) or "none"
        report.add("signature", f"the record names key {wanted}; {holder} {known}")
        return report
    if scanned.header.HasField("exported_at"):
        exported = scanned.header.exported_at.ToDatetime(UTC)
        if not listed.valid_at(exported):
            report.add(
                "signature",
                f"the record was exported at {exported.isoformat()}, outside the validity of "
                f"key {wanted} ({listed.to_json()['valid_from'] or 'the start'} to "
                f"{listed.to_json()['valid_until'] or 'now'})",
            )
    return report
