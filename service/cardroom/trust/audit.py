"""The offline auditor: checks a signed game record end to end and says, in
plain words, whether anything does not add up (docs/trust.md, "Auditing").

:func:`audit_record` checks, in order:

* signature: the Ed25519 signature over the record body (against a pinned
  public key when one is given);
* record: the body's format, and that its game id, kind, rules version and
  openings agree with the events;
* chain: sequence numbers and ``previous_hash`` links of the exact stored
  bytes, up to the signed chain head;
* commitments: every secret and command record is sealed and opens to its
  digest; the chance seed (and a set deal's script) was committed in the
  first event; every opening of an earlier secret matches its digest;
* players: every player's signature recorded in ``SeatTaken`` signs exactly
  that seat of that game (docs/trust.md, "Players");
* chance: every dealer outcome is the one the seed (or the set deal) gives,
  recomputed with ``game.sample_chance`` and the documented generator, and
  came exactly when the rules waited for one;
* rules: every recorded command, re-decided by the pure rules on the state
  before it, gives exactly the recorded events, and the game is over.

Nothing here touches the network or a database. :func:`main_audit` is the
``cardroom audit FILE`` command.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from google.protobuf import text_format
from google.protobuf.message import Message

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import CLOCK, DEALER, Event, Game, Secret
from cardroom.trust import chance, signing
from cardroom.trust.chain import UNDECODABLE, event_hash, verify_chain
from cardroom.trust.commitments import (
    SALT_BYTES,
    check_command,
    check_opening,
    check_secret,
    check_secret_opening,
    digest_form,
    holds,
)
from cardroom.trust.entropy import check_entropy
from cardroom.trust.envelopes import actor_of, by_seat_of, unpack
from cardroom.trust.players import check_players
from cardroom.trust.problems import Problem
from cardroom.trust.record import RecordError, ScannedRecord, mapped, record_body
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import trust_pb2 as trpb

CHECKS = (
    "signature",
    "record",
    "chain",
    "commitments",
    "entropy",
    "players",
    "chance",
    "rules",
)


@dataclass
class Report:
    """What an audit found. ``ok`` when there is no problem at all."""

    game_id: str = ""
    kind: str = ""
    rules_version: str = ""
    event_count: int = 0
    chain_head: bytes = b""
    public_key: bytes = b""
    key_pinned: bool = False
    problems: list[Problem] = field(default_factory=list)
    # What each check established when it passed ("" when it did not run).
    summaries: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """No discrepancy found (checks that could not apply, like the
        signature of a bare event log, are listed as skipped)."""
        return not self.problems

    def problems_of(self, check: str) -> list[Problem]:
        return [p for p in self.problems if p.check == check]

    def add(self, check: str, message: str, event: int | None = None) -> None:
        self.problems.append(Problem(check, message, event))

    def render(self) -> str:
        lines = [f"cardroom audit of game {self.game_id or '?'}"]
        if self.kind:
            lines.append(f"  game:        {self.kind}, rules version {self.rules_version!r}")
        lines.append(f"  events:      {self.event_count}")
        if self.chain_head:
            lines.append(f"  chain head:  {self.chain_head.hex()}")
        if self.public_key:
            how = "pinned" if self.key_pinned else "named by the record itself, not pinned"
            key = signing.fingerprint(self.public_key)
            lines.append(f"  signed by:   Ed25519 key {key} ({how})")
        lines.append("")
        for check in CHECKS:
            found = self.problems_of(check)
            if found:
                noun = "problem" if len(found) == 1 else "problems"
                lines.append(f"  [FAIL] {check:<12} {len(found)} {noun}")
            elif check in self.skipped:
                lines.append(f"  [SKIP] {check:<12} {self.skipped[check]}")
            else:
                lines.append(f"  [ OK ] {check:<12} {self.summaries.get(check, '')}")
        lines.append("")
        if self.problems:
            lines.append(f"DISCREPANCIES ({len(self.problems)}):")
            lines.extend(f"  {p}" for p in self.problems)
        elif self.skipped:
            lines.append(f"VERIFIED, except what was skipped: {', '.join(self.skipped)}.")
        else:
            lines.append("VERIFIED: the record is intact and every check passed.")
        return "\n".join(lines)


# ------------------------------------------------------------------ entry


def audit_record(
    record: trpb.GameRecord,
    *,
    public_key: bytes | None = None,
    resolve_game: Callable[[str], Game[Any]] = registry.game,
) -> Report:
    """Audit a signed game record. ``public_key`` is the server key you
    trust (raw 32 bytes); without it the signature is checked against the
    key the record names, which proves integrity but not origin.
    ``resolve_game`` finds the rules for a game kind."""
    report = Report(public_key=public_key or record.public_key, key_pinned=public_key is not None)
    _check_signature(report, signing.verify(record, public_key), record.public_key, public_key)
    try:
        body = record_body(record)
    except RecordError as error:
        report.add("record", str(error))
        for check in CHECKS[2:]:
            report.skipped[check] = "the record body is unreadable"
        return report
    report.game_id, report.kind, report.rules_version = body.game_id, body.kind, body.rules_version
    _audit_stream(report, lambda: iter(body.events), body.chain_head, resolve_game, body)
    return report


def audit_scanned(
    scanned: ScannedRecord,
    *,
    public_key: bytes | None = None,
    resolve_game: Callable[[str], Game[Any]] = registry.game,
) -> Report:
    """:func:`audit_record` of a record read in place (``record.scan`` or
    ``record.mapped``), for records of any size: the events are read one at
    a time, a pass per check, and only what a check needs is kept (the
    rules' state, the digests of earlier secrets)."""
    report = Report(public_key=public_key or scanned.public_key, key_pinned=public_key is not None)
    _check_signature(report, scanned.verify(public_key), scanned.public_key, public_key)
    header = scanned.header
    report.game_id, report.kind = header.game_id, header.kind
    report.rules_version = header.rules_version
    _audit_stream(report, scanned.events, header.chain_head, resolve_game, header)
    return report


def _check_signature(
    report: Report, valid: bool, named_key: bytes, public_key: bytes | None
) -> None:
    if valid:
        report.summaries["signature"] = "valid Ed25519 signature over the record body"
    elif public_key is not None and named_key != public_key:
        report.add("signature", "the record is signed with another key than the pinned one")
    else:
        report.add("signature", "the signature does not match the record body")


def audit_events(
    stored: Sequence[bytes],
    *,
    head: bytes | None = None,
    resolve_game: Callable[[str], Game[Any]] = registry.game,
) -> Report:
    """Audit a game's exact stored events without a signed record (e.g. a
    log read from the database, or GetAuditLog's envelopes serialized): every
    check but the signature's. ``head``, when known, anchors the chain."""
    report = Report()
    report.skipped["signature"] = "not a signed record"
    report.skipped["record"] = "not a signed record"
    stored = list(stored)
    _audit_stream(report, lambda: iter(stored), head, resolve_game, None)
    return report


class _Envelopes:
    """The events, decoded anew on each pass: an audit holds one at a time."""

    def __init__(self, stored: Callable[[], Iterator[bytes]], first: epb.EventEnvelope) -> None:
        self._stored = stored
        self.first = first

    def __iter__(self) -> Iterator[epb.EventEnvelope]:
        for raw in self._stored():
            yield epb.EventEnvelope.FromString(raw)


def _audit_stream(
    report: Report,
    stored: Callable[[], Iterator[bytes]],
    head: bytes | None,
    resolve_game: Callable[[str], Game[Any]],
    body: trpb.GameRecordBody | None,
) -> None:
    """The checks after the signature's, each a pass over ``stored()``."""
    count = 0
    last = first_raw = b""
    for raw in stored():
        count += 1
        last = raw
        if count == 1:
            first_raw = raw
    report.event_count = count
    report.chain_head = head or (event_hash(last) if count else b"")
    if not count:
        report.add("record", "the record holds no events")
        return
    chain_problems = verify_chain(stored(), head=head)
    report.problems.extend(chain_problems)
    if not chain_problems:
        anchor = "up to the signed head" if head is not None else "(no head to anchor the end)"
        report.summaries["chain"] = f"{count} events linked by previous_hash {anchor}"
    if any(p.message == UNDECODABLE for p in chain_problems):
        for check in ("commitments", "entropy", "players", "chance", "rules"):
            report.skipped[check] = "some events do not decode"
        return
    first = epb.EventEnvelope.FromString(first_raw)
    envelopes = _Envelopes(stored, first)
    created = _created(first)
    if created is None:
        report.add("rules", "the first event is not GameCreated", 1)
        for check in ("commitments", "entropy", "players", "chance"):
            report.skipped[check] = "the stream does not start with GameCreated"
        return
    if not report.game_id:
        report.game_id = first.game_id
        report.kind, report.rules_version = created.kind, created.rules_version
    if body is not None:
        _check_body(report, body, envelopes, created)
    _check_commitments(report, envelopes, created)
    _check_entropy(report, envelopes)
    _check_players(report, envelopes)
    _rerun(report, envelopes, created, resolve_game)


def _check_entropy(report: Report, envelopes: _Envelopes) -> None:
    """Seat commitments and reveals (T-ENTROPY; ``entropy.check_entropy``)."""
    found, summary = check_entropy(envelopes)
    report.problems.extend(found)
    if not found and summary:
        report.summaries["entropy"] = summary


def _check_players(report: Report, envelopes: _Envelopes) -> None:
    """Players' seat claims (``players.check_players``)."""
    found, summary = check_players(envelopes)
    report.problems.extend(found)
    if not found:
        report.summaries["players"] = summary


def _created(envelope: epb.EventEnvelope) -> tpb.GameCreated | None:
    created = tpb.GameCreated()
    return created if envelope.event.Unpack(created) else None


def _check_body(
    report: Report,
    body: trpb.GameRecordBody,
    envelopes: _Envelopes,
    created: tpb.GameCreated,
) -> None:
    first = envelopes.first
    named = {o.sequence for o in body.openings}
    held = {e.sequence: e for e in envelopes if e.sequence in named} if named - {1} else {1: first}
    for name, said, actual in (
        ("game id", body.game_id, first.game_id),
        ("kind", body.kind, created.kind),
        ("rules version", body.rules_version, created.rules_version),
    ):
        if said != actual:
            report.add("record", f"the record says {name} {said!r}, its events say {actual!r}")
    before = len(report.problems)
    for opening in body.openings:
        wrong = check_secret_opening(opening, list(held.values()))
        if wrong is None:
            secret = held[opening.sequence].secrets[opening.index]
            if secret.value != opening.value or secret.salt != opening.salt:
                wrong = "it differs from the secret held in the event"
        if wrong is not None:
            report.add("record", f"opening of event {opening.sequence}: {wrong}")
    wanted = [i for i in (chance.seed_index(first), chance.set_deal_index(first)) if i is not None]
    listed = sorted(o.index for o in body.openings if o.sequence == 1)
    if listed != sorted(wanted):
        report.add("record", "the record's openings are not the first event's commitments")
    if len(report.problems) == before:
        report.summaries["record"] = (
            f"format {body.format}; {len(body.openings)} opening(s) agree with the events"
        )


# ------------------------------------------------------------ commitments


def _disclosure(secret: epb.Secret) -> epb.SecretOpening | None:
    if not holds(secret.value, epb.SecretOpening):
        return None
    opening = epb.SecretOpening()
    secret.value.Unpack(opening)
    return opening


def _check_commitments(report: Report, envelopes: _Envelopes, created: tpb.GameCreated) -> None:
    before = len(report.problems)
    secrets = commands = openings = 0
    # The digests of every secret of the events passed so far, by sequence
    # (the first event of a sequence, as a search in stream order finds).
    digests: dict[int, list[bytes]] = {}
    for position, envelope in enumerate(envelopes, 1):
        for index, secret in enumerate(envelope.secrets):
            secrets += 1
            if not secret.HasField("value"):
                report.add(
                    "commitments", f"secret {index} has no value (it was redacted)", position
                )
            elif len(secret.salt) != SALT_BYTES or not secret.digest:
                report.add("commitments", f"secret {index} is not sealed", position)
            elif not check_secret(secret):
                report.add("commitments", f"secret {index} does not open to its digest", position)
            opening = _disclosure(secret)
            if opening is not None:
                openings += 1
                _check_opening(report, opening, digests, envelope, position)
        if envelope.HasField("command"):
            commands += 1
            if not envelope.command.digest:
                report.add("commitments", "the command record is not sealed", position)
            elif not check_command(envelope.command):
                report.add(
                    "commitments", "the command record does not open to its digest", position
                )
        for opening in envelope.openings:
            openings += 1
            _check_opening(report, opening, digests, envelope, position)
        digests.setdefault(envelope.sequence, [s.digest for s in envelope.secrets])
    first = envelopes.first
    seeds = [s for s in first.secrets if holds(s.value, trpb.ChanceSeed)]
    if len(seeds) != 1:
        report.add("commitments", f"the first event commits to {len(seeds)} chance seeds, not 1", 1)
    elif seeds[0].audience.seats:
        report.add("commitments", "the chance seed was shown to seats during the game", 1)
    scripts = [s for s in first.secrets if holds(s.value, tpb.SetDeal)]
    if len(scripts) != (1 if created.set_deal else 0):
        report.add(
            "commitments",
            f"set_deal is {created.set_deal} but the first event holds {len(scripts)} scripts",
            1,
        )
    elif scripts and scripts[0].audience.seats:
        report.add("commitments", "the set-deal script was shown to seats during the game", 1)
    if len(report.problems) == before:
        committed = "seed" + (" and set-deal script" if created.set_deal else "")
        report.summaries["commitments"] = (
            f"{committed} committed in event 1; {secrets} secret(s), {commands} command "
            f"record(s) sealed and opened; {openings} reveal(s) match earlier digests"
        )


def _check_opening(
    report: Report,
    opening: epb.SecretOpening,
    digests: dict[int, list[bytes]],
    envelope: epb.EventEnvelope,
    position: int,
) -> None:
    """``check_secret_opening`` against the events before this one, by the
    digests kept of them."""
    if not 1 <= opening.sequence < envelope.sequence:
        report.add(
            "commitments", f"a reveal opens event {opening.sequence}, not an earlier one", position
        )
        return
    earlier = digests.get(opening.sequence)
    if earlier is None:
        wrong: str | None = f"it opens event {opening.sequence}, which is not in the stream"
    elif opening.index >= len(earlier):
        wrong = f"event {opening.sequence} has no secret {opening.index}"
    elif not check_opening(earlier[opening.index], opening.salt, opening.value):
        wrong = (
            f"the value and salt do not match the digest of secret {opening.index} "
            f"of event {opening.sequence}"
        )
    else:
        wrong = None
    if wrong is not None:
        report.add("commitments", f"a reveal does not match: {wrong}", position)


# ------------------------------------------------------------------ re-run


def _rules_event(envelope: epb.EventEnvelope) -> Event:
    """The event as the rules made it: without the reveals the trust layer
    adds (secrets holding a SecretOpening)."""
    return Event(
        unpack(envelope.event),
        tuple(
            Secret(frozenset(s.audience.seats), unpack(s.value))
            for s in envelope.secrets
            if s.HasField("value") and _disclosure(s) is None
        ),
        by_seat_of(envelope),
    )


def _batches(
    envelopes: Iterable[epb.EventEnvelope],
) -> Iterator[tuple[int, list[epb.EventEnvelope], epb.EventEnvelope]]:
    """(position of its first event, events, the event before them) for each
    command's batch: an event with a command record and the events without
    one that follow. The first event (GameCreated) is in none."""
    batch: list[epb.EventEnvelope] = []
    start = 2
    stream = iter(envelopes)
    before = previous = next(stream)
    for position, envelope in enumerate(stream, 2):
        if batch and envelope.HasField("command"):
            yield start, batch, before
            batch = []
        if not batch:
            start = position
            before = previous
        batch.append(envelope)
        previous = envelope
    if batch:
        yield start, batch, before


def _with_reveals(table: tables.Table) -> str:
    count = len(table.entropy_revealed)
    return f" (keyed with the {count} seats' revealed entropy)" if count else ""


def _show(message: Message) -> str:
    text = text_format.MessageToString(message, as_one_line=True)
    text = f"{message.DESCRIPTOR.name} {{{text}}}"
    return text if len(text) <= 160 else text[:157] + "..."


def _rerun(
    report: Report,
    envelopes: _Envelopes,
    created: tpb.GameCreated,
    resolve_game: Callable[[str], Game[Any]],
) -> None:
    try:
        game = resolve_game(created.kind)
    except KeyError as error:
        report.add("rules", f"no rules installed for this game: {error.args[0]}")
        report.skipped["chance"] = "no rules to draw with"
        return
    if game.rules_version != created.rules_version:
        report.add(
            "rules",
            f"the installed rules are version {game.rules_version!r}, the game was played "
            f"under {created.rules_version!r}",
        )
    try:
        options = tables.unpack_options(game, created.options)
        again = tables.create(game, options, created.seat_count, set_deal=created.set_deal).public
        if isinstance(again, tpb.GameCreated):
            # Who may watch and read the log is the service's choice, not the rules'.
            if created.HasField("spectator_policy"):
                again.spectator_policy.CopyFrom(created.spectator_policy)
            if created.HasField("log_policy"):
                again.log_policy.CopyFrom(created.log_policy)
            if created.HasField("table_options"):
                again.table_options.CopyFrom(tables.checked_table_options(created.table_options))
    except Exception as error:
        report.add("rules", f"the rules refuse the game's options: {error}", 1)
        report.skipped["chance"] = "the game cannot be set up"
        return
    if again != created:
        report.add("rules", f"creating the game gives {_show(again)}", 1)
    first = envelopes.first
    seed = chance.seed_of(first)
    script = chance.set_deal_of(first)
    table = tables.initial(game, created)
    before_rules = len(report.problems_of("rules"))
    before_chance = len(report.problems_of("chance"))
    commands = dealt = picks = 0
    for position, batch, before in _batches(envelopes):
        if not batch[0].HasField("command"):
            report.add("rules", "events without a command record", position)
            recorded = batch
        else:
            record = batch[0].command
            actor = actor_of(record)
            try:
                command = unpack(record.command)
            except Exception as error:
                report.add("rules", f"the recorded command does not decode: {error}", position)
                command = None
            needed = tables.chance_needed(table)
            if actor == DEALER:
                if needed is None:
                    report.add(
                        "chance", "the dealer acted when no chance outcome was due", position
                    )
                elif seed is None:
                    report.add("chance", "no seed to check the dealer's outcome against", position)
                elif command is not None:
                    try:
                        expected = chance.chance_outcome(
                            table,
                            dealt,
                            seed=seed,
                            game_id=first.game_id,
                            set_deal=script,
                            picks=picks,
                        )
                    except chance.SetDealMismatch as error:
                        report.add("chance", str(error), position)
                        expected = command
                    if expected != command:
                        report.add(
                            "chance",
                            f"dealer outcome {dealt} is {_show(command)}, the seed gives "
                            f"{_show(expected)}{_with_reveals(table)}",
                            position,
                        )
                dealt += 1
                picks += isinstance(command, tpb.DealerPick)
            elif needed is not None:
                report.add(
                    "chance",
                    f"a {needed.DESCRIPTOR.name} was due, yet a command came first",
                    position,
                )
            if actor == CLOCK:
                seconds = (
                    table.end_when_absent_seconds
                    if isinstance(command, (tpb.SeatsAbsent, tpb.NeverStarted))
                    else table.seconds_per_decision
                )
                _check_deadline(report, before, seconds, batch[0], position)
            if command is not None:
                commands += 1
                _compare(report, table, actor, command, batch, position)
            recorded = batch
        for offset, envelope in enumerate(recorded):
            try:
                table = tables.evolve(table, _rules_event(envelope))
            except Exception as error:
                report.add("rules", f"the rules cannot fold the event: {error}", position + offset)
                report.skipped.setdefault("chance", "the stream stopped folding")
                return
    if tables.chance_needed(table) is not None:
        report.add("chance", "the record ends while a chance outcome is due")
    if not table.finished:
        report.add("rules", "the record ends before the game is over")
    if len(report.problems_of("chance")) == before_chance:
        source = "the set deal and the seed" if script is not None else "the seed"
        if table.entropy_revealed:
            source += f" with {len(table.entropy_revealed)} seat(s)' revealed entropy"
        report.summaries["chance"] = f"{dealt} dealer outcome(s) reproduced from {source}"
    if len(report.problems_of("rules")) == before_rules:
        winners = ", ".join(f"seat {w}" for w in table.winners) or "nobody"
        report.summaries["rules"] = (
            f"{commands} command(s) re-decided, every event identical; game over, won by {winners}"
        )


def _check_deadline(
    report: Report,
    before: epb.EventEnvelope,
    seconds: int,
    first: epb.EventEnvelope,
    position: int,
) -> None:
    """The table's clock fired no earlier than its deadline: the recording
    time of the game's latest event before it (``before``) plus the seconds
    per decision (T-CLOCK), or the game's absent seconds for SeatsAbsent
    and NeverStarted (T-ABSENT)."""
    latest = before.recorded_at.ToDatetime()
    fired = first.recorded_at.ToDatetime()
    if (fired - latest).total_seconds() < seconds:
        report.add(
            "rules",
            f"the clock fired {(fired - latest).total_seconds():.3f}s after the latest event, "
            f"before its {seconds}s deadline",
            position,
        )


def _compare(
    report: Report,
    table: tables.Table,
    actor: Any,
    command: Message,
    batch: list[epb.EventEnvelope],
    position: int,
) -> None:
    try:
        expected = tables.decide(table, actor, command)
    except Exception as error:
        report.add("rules", f"the rules refuse the recorded {_show(command)}: {error}", position)
        return
    if len(expected) != len(batch):
        report.add(
            "rules",
            f"{_show(command)} gives {len(expected)} event(s), the record has {len(batch)}",
            position,
        )
    for offset, (want, envelope) in enumerate(zip(expected, batch, strict=False)):
        try:
            got = _rules_event(envelope)
        except Exception as error:
            report.add("rules", f"the event does not decode: {error}", position + offset)
            continue
        if got.public != want.public:
            report.add(
                "rules",
                f"the rules give {_show(want.public)}, the record has {_show(got.public)}",
                position + offset,
            )
        elif [(s.audience, s.value) for s in got.secrets] != [
            (s.audience, s.value) for s in want.secrets
        ]:
            report.add(
                "rules",
                f"the hidden parts of {_show(got.public)} differ from what the rules give",
                position + offset,
            )


# ------------------------------------------------------------------ viewers


def compare_viewer_stream(
    copies: Sequence[epb.EventEnvelope], stored: Sequence[bytes]
) -> list[Problem]:
    """Check the copy of a game a viewer received while it was played (its
    redacted envelopes) against the full events opened at the end: same
    digest form, the same whole values and salts where the viewer held them,
    and the same event hash where the server served one."""
    problems: list[Problem] = []
    full: dict[int, tuple[epb.EventEnvelope, bytes]] | None = None
    for copy in copies:
        found = None
        if 1 <= copy.sequence <= len(stored):  # where an intact stream has it
            raw = stored[copy.sequence - 1]
            envelope = epb.EventEnvelope.FromString(raw)
            if envelope.sequence == copy.sequence:
                found = envelope, raw
        if found is None:
            if full is None:  # not in place: search the whole stream, once
                full = {
                    e.sequence: (e, raw)
                    for raw in stored
                    for e in [epb.EventEnvelope.FromString(raw)]
                }
            found = full.get(copy.sequence)
        if found is None:
            problems.append(Problem("chain", "the record lacks this event", copy.sequence))
            continue
        envelope, raw = found
        if digest_form(copy) != digest_form(envelope):
            problems.append(
                Problem("chain", "the record's event differs from the copy served", copy.sequence)
            )
            continue
        for index, (mine, theirs) in enumerate(zip(copy.secrets, envelope.secrets, strict=True)):
            if mine.HasField("value") and mine != theirs:
                problems.append(
                    Problem(
                        "commitments",
                        f"secret {index} was served with another value or salt",
                        copy.sequence,
                    )
                )
        if copy.command.HasField("command") and copy.command != envelope.command:
            problems.append(
                Problem("commitments", "the command was served differently", copy.sequence)
            )
        if copy.event_hash and copy.event_hash != event_hash(raw):
            problems.append(
                Problem("chain", "the event hash served differs from the record", copy.sequence)
            )
    return problems


# --------------------------------------------------------------------- CLI


def main_audit(
    argv: Sequence[str] | None = None,
    *,
    resolve_game: Callable[[str], Game[Any]] = registry.game,
) -> int:
    """``cardroom audit FILE [--public-key HEX]``: prints the report; exits
    0 when verified, 1 on any discrepancy, 2 when the arguments are wrong or
    the file cannot be read as a record."""
    parser = argparse.ArgumentParser(
        prog="cardroom audit",
        description="Verify a signed cardroom game record offline: signature, hash chain, "
        "commitments, chance outcomes, and every command re-run through the rules.",
    )
    parser.add_argument("file", help="a game record file")
    parser.add_argument(
        "--public-key",
        metavar="HEX",
        help="the server's Ed25519 public key (64 hex digits) to require; without it the "
        "key the record names is used, which shows integrity but not who signed",
    )
    parser.add_argument(
        "--keys",
        metavar="FILE",
        help="a key list file (cardroom key --list): the record must be signed by the key its "
        "key id names, within that key's validity",
    )
    args = parser.parse_args(argv)
    keys = None
    if args.keys is not None:
        from cardroom.trust import keyring

        try:
            keys = keyring.read_key_list(args.keys)
        except keyring.KeyListError as error:
            print(f"cardroom audit: {error}", file=sys.stderr)
            return 2
    pinned = None
    if args.public_key is not None:
        try:
            pinned = bytes.fromhex(args.public_key)
        except ValueError:
            pinned = b""
        if len(pinned) != signing.PUBLIC_KEY_BYTES:
            print("cardroom audit: --public-key must be 64 hex digits", file=sys.stderr)
            return 2
    try:
        with mapped(args.file) as scanned:
            if keys is not None and pinned is None:
                from cardroom.trust.key_audit import audit_with_keys

                report = audit_with_keys(scanned, keys, resolve_game=resolve_game)
            else:
                report = audit_scanned(scanned, public_key=pinned, resolve_game=resolve_game)
    except (OSError, RecordError) as error:
        print(f"cardroom audit: {args.file}: {error}", file=sys.stderr)
        return 2
    print(report.render())
    return 0 if report.ok else 1
