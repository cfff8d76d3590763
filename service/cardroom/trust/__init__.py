"""Trust: tamper-evident logs, committed chance, signed game records and the
offline auditor. Pure functions over envelopes and bytes; the service calls
them (see docs/trust.md for the scheme and for where the service calls what).

* :mod:`cardroom.trust.chain`: the hash chain over stored event bytes.
* :mod:`cardroom.trust.commitments`: sealed secrets, digest-keeping redaction,
  openings.
* :mod:`cardroom.trust.drbg`: the deterministic generator for chance outcomes.
* :mod:`cardroom.trust.chance`: the per-game seed and the dealer's outcomes.
* :mod:`cardroom.trust.signing`: the server's Ed25519 key and signatures.
* :mod:`cardroom.trust.record`: signed game record files.
* :mod:`cardroom.trust.audit`: the offline auditor and ``cardroom audit``.
* :mod:`cardroom.trust.keyring`: the signing keys over time (rotation).
* :mod:`cardroom.trust.key_audit`: auditing a record against a key list.
* :mod:`cardroom.trust.heads`: signed heads and proofs of equivocation.
"""
