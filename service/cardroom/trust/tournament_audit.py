"""The tournament auditor: checks a signed tournament record and its games'
records offline, and names the first thing that does not add up
(docs/trust.md, "Tournaments"; the rules in docs/rules/tournaments.md).

:func:`audit_tournament` checks, in order:

* signature, record, chain: the record's Ed25519 signature (against a
  pinned key when one is given), its body, and the hash chain of its events;
* entries: every registration carries the player's signature over the
  tournament's id (TN-REGISTER);
* pairing, standings, rules: the decider re-run on the recorded events,
  with the seed the finish reveals (TN-SEED): every round's tables are the
  ones the seed and the standings before it give, every result and round
  is where the rules allow it, and the standings of every completed round
  and the final ones follow from the results;
* games: each table's game record passes the game audit
  (:func:`cardroom.trust.audit.audit_record`: signature, chain,
  commitments, rules re-run) under the same key, is a game of the
  tournament's kind with the table's seats, and, where seats carry player
  proofs, each seat is the table's player and its signature holds; no record
  of another game is passed off as one of the tournament's;
* results: the ranks recorded for each table are the ones its game's
  events give;
* ratings: given the players' rating histories as the server serves them
  (``histories``; the live audit fetches them with GetPlayer), each
  game's change to its players' ratings is the one their ratings before
  it and its result give (:mod:`cardroom.trust.rating_changes`).

Nothing here touches the network or a database.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC
from typing import TYPE_CHECKING, Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from google.protobuf.message import DecodeError, Message

from cardroom.domain import registry
from cardroom.domain.kernel import Event, Game, MalformedCommand, RuleViolation
from cardroom.domain.tournament import Tournament, decide, evolve
from cardroom.trust import signing
from cardroom.trust import tournament_record as records
from cardroom.trust.audit import Report, audit_record
from cardroom.trust.chain import verify_chain
from cardroom.trust.envelopes import unpack
from cardroom.trust.key_audit import audit_with_keys
from cardroom.trust.keyring import KeyList, key_id
from cardroom.trust.problems import Problem
from cardroom.trust.record import RecordError, record_body, scan
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import tournament_pb2 as tnpb
from cardroom.v1 import trust_pb2 as trpb

CHECKS = (
    "signature",
    "record",
    "chain",
    "entries",
    "pairing",
    "standings",
    "rules",
    "games",
    "results",
    "ratings",
)
SEAT_CLAIM = b"cardroom.v1.seat-claim\x00"

if TYPE_CHECKING:  # imported where this build rates games (cardroom.domain.ratings)
    from cardroom.trust.rating_changes import Histories


@dataclass
class TournamentReport:
    """What a tournament audit found; ``ok`` when there is no problem."""

    tournament_id: str = ""
    kind: str = ""
    event_count: int = 0
    games: int = 0
    public_key: bytes = b""
    key_pinned: bool = False
    problems: list[Problem] = field(default_factory=list)
    summaries: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, check: str, message: str, event: int | None = None) -> None:
        self.problems.append(Problem(check, message, event))

    def render(self) -> str:
        lines = [f"cardroom audit of tournament {self.tournament_id or '?'}"]
        if self.kind:
            lines.append(f"  game kind:   {self.kind}")
        lines.append(f"  events:      {self.event_count}; games: {self.games}")
        if self.public_key:
            how = "pinned" if self.key_pinned else "named by the record itself, not pinned"
            key = signing.fingerprint(self.public_key)
            lines.append(f"  signed by:   Ed25519 key {key} ({how})")
        lines.append("")
        for check in CHECKS:
            found = [p for p in self.problems if p.check == check]
            if found:
                noun = "problem" if len(found) == 1 else "problems"
                lines.append(f"  [FAIL] {check:<12} {len(found)} {noun}")
            elif check in self.skipped:
                lines.append(f"  [SKIP] {check:<12} {self.skipped[check]}")
            else:
                lines.append(f"  [ OK ] {check:<12} {self.summaries.get(check, '')}")
        lines.append("")
        if self.problems:
            lines.append(f"DISCREPANCIES ({len(self.problems)}), the first one first:")
            lines.extend(f"  {p}" for p in self.problems)
        elif self.skipped:
            lines.append(f"VERIFIED, except what was skipped: {', '.join(self.skipped)}.")
        else:
            lines.append("VERIFIED: the tournament and every game check out.")
        return "\n".join(lines)


def audit_tournament(
    record: tnpb.TournamentRecord,
    games: Iterable[trpb.GameRecord],
    *,
    public_key: bytes | None = None,
    keys: KeyList | None = None,
    resolve_game: Callable[[str], Game[Any]] = registry.game,
    histories: Histories | None = None,
) -> TournamentReport:
    """Audit a signed tournament record with its games' records.
    ``public_key`` is the server key you trust: the tournament and every
    game must be signed with it. ``keys`` (a key list, docs/trust.md §14)
    instead: each record with the listed key its key id names, within that
    key's validity, so a tournament may span a rotation. With neither, the
    key the tournament record names is used (integrity, not origin), and
    every game record must be signed by that same key. ``histories`` (each
    player's rated games, oldest first) turns on the ratings check."""
    try:
        body: tnpb.TournamentRecordBody | None = records.record_body(record)
    except records.TournamentRecordError as error:
        body, unreadable = None, str(error)
    listed = None
    use_keys = keys is not None and public_key is None
    if use_keys and keys is not None and body is not None:
        wanted = body.key_id or key_id(record.public_key)
        listed = keys.find(wanted)
        public_key = listed.public_key if listed is not None else record.public_key
    report = TournamentReport(
        public_key=public_key or record.public_key,
        key_pinned=public_key is not None and (keys is None or listed is not None),
    )
    if use_keys and keys is not None and body is not None and listed is None:
        known = ", ".join(k.key_id for k in keys.keys) or "none"
        report.add("signature", f"the record names key {wanted}; the key list holds {known}")
    elif records.verify(record, public_key):
        report.summaries["signature"] = "valid Ed25519 signature over the record body"
    elif public_key is not None and record.public_key != public_key:
        report.add("signature", "the record is signed with another key than the pinned one")
    else:
        report.add("signature", "the signature does not match the record body")
    if listed is not None and body is not None and body.HasField("exported_at"):
        exported = body.exported_at.ToDatetime(UTC)
        if not listed.valid_at(exported):
            report.add(
                "signature",
                f"the record was exported at {exported.isoformat()}, outside the validity of "
                f"key {listed.key_id}",
            )
    if body is None:
        report.add("record", unreadable)
        return report
    report.tournament_id, report.kind = body.tournament_id, body.kind
    report.event_count = len(body.events)
    chain_problems = verify_chain(body.events, head=body.chain_head)
    report.problems.extend(chain_problems)
    if chain_problems:
        return report
    report.summaries["chain"] = f"{len(body.events)} events linked up to the signed head"
    envelopes = [epb.EventEnvelope.FromString(raw) for raw in body.events]
    try:
        events = [Event(unpack(e.event)) for e in envelopes]
    except (DecodeError, ValueError, TypeError) as error:
        report.add("record", f"an event does not decode: {error}")
        return report
    created = events[0].public if events else None
    if not isinstance(created, tnpb.TournamentCreated):
        report.add("record", "the first event is not TournamentCreated", 1)
        return report
    for name, said, actual in (
        ("tournament id", body.tournament_id, created.tournament_id),
        ("kind", body.kind, created.kind),
    ):
        if said != actual:
            report.add("record", f"the record says {name} {said!r}, its events say {actual!r}")
    if not report.problems:
        report.summaries["record"] = f"format {body.format}; {created.kind} at {created.table_size}"
    _check_entries(report, events, created.tournament_id)
    _check_withdrawals(report, envelopes, created.tournament_id)
    state = _rerun(report, events, resolve_game)
    if use_keys and keys is not None:
        listing = keys

        def audit_game(game: trpb.GameRecord) -> Report:
            scanned = scan(game.SerializeToString())
            return audit_with_keys(scanned, listing, resolve_game=resolve_game)

    else:
        key = public_key if public_key is not None else record.public_key

        def audit_game(game: trpb.GameRecord) -> Report:
            return audit_record(game, public_key=key, resolve_game=resolve_game)

    results = _check_games(report, state, list(games), audit_game)
    if importlib.util.find_spec("cardroom.domain.ratings") is None:
        report.skipped["ratings"] = "no ratings module (cardroom.domain.ratings) in this build"
    elif histories is None:
        report.skipped["ratings"] = (
            "needs the players' rating histories: audit live (--address), or recompute "
            "every rating with `cardroom audit ratings RECORD...`"
        )
    else:
        _check_ratings(report, results, histories)
    return report


def _check_ratings(report: TournamentReport, results: Sequence[Any], histories: Histories) -> None:
    from cardroom.trust.rating_changes import check_changes

    for problem in check_changes(results, histories):
        report.add("ratings", problem)
    if not any(p.check == "ratings" for p in report.problems):
        rated = sum(r.rated for r in results)
        report.summaries["ratings"] = (
            f"{rated} rated game(s): every rating change follows from the game and the "
            "ratings before it"
        )


# ------------------------------------------------------------------ entries


def _check_entries(report: TournamentReport, events: Sequence[Event], tournament_id: str) -> None:
    count = 0
    before = len(report.problems)
    for position, e in enumerate(events, 1):
        if isinstance(e.public, tnpb.PlayerRegistered):
            count += 1
            if not records.entry_signed(e.public, tournament_id):
                name = e.public.player.display_name or _short(e.public.player.public_key)
                report.add(
                    "entries",
                    f"{name}'s registration is not signed by their key for this tournament",
                    position,
                )
    if len(report.problems) == before:
        report.summaries["entries"] = f"{count} registrations signed by the players' keys"


def _check_withdrawals(
    report: TournamentReport, envelopes: Sequence[epb.EventEnvelope], tournament_id: str
) -> None:
    """TN-LEAVE: a withdrawal the player asked for carries their signature
    over the tournament's id (in the command record, kept for auditors);
    one without a signature was the organizer's or the operator's."""
    signed = by_organizer = 0
    before = len(report.problems)
    for position, envelope in enumerate(envelopes, 1):
        withdrew = tnpb.PlayerWithdrew()
        if not envelope.event.Unpack(withdrew):
            continue
        command = tnpb.WithdrawPlayer()
        recorded = envelope.HasField("command") and envelope.command.command.Unpack(command)
        if not recorded:
            report.add("entries", "a withdrawal's command is not in the record", position)
        elif not command.signature:
            by_organizer += 1
        elif command.public_key != withdrew.public_key or not records.withdrawal_signed(
            command, tournament_id
        ):
            report.add(
                "entries",
                f"{_short(withdrew.public_key)}'s withdrawal is not signed by their key for "
                "this tournament",
                position,
            )
        else:
            signed += 1
    if len(report.problems) == before and (signed or by_organizer):
        said = report.summaries.get("entries", "")
        report.summaries["entries"] = (
            f"{said}; withdrawals: {signed} signed by the player, {by_organizer} by the organizer"
        )


# ------------------------------------------------------------------ re-run


def _command_for(e: Event, seed: bytes) -> Message | None:
    """The command the rules would have taken to record ``e``."""
    public = e.public
    if isinstance(public, tnpb.TournamentCreated):
        return tnpb.CreateTournament(
            tournament_id=public.tournament_id,
            kind=public.kind,
            table_size=public.table_size,
            format=public.format,
            rounds=public.rounds,
            options=public.options if public.HasField("options") else None,
            bye_half_points=public.bye_half_points,
            name=public.name,
            table_options=public.table_options if public.HasField("table_options") else None,
        )
    if isinstance(public, tnpb.PlayerRegistered):
        return tnpb.RegisterPlayer(player=public.player)
    if isinstance(public, tnpb.PlayerWithdrew):
        return tnpb.WithdrawPlayer(public_key=public.public_key)
    if isinstance(public, tnpb.RegistrationClosed):
        return tnpb.CloseRegistration(seed_commitment=public.seed_commitment)
    if isinstance(public, tnpb.RoundPaired):
        ids = [t.game_id for t in public.tables]
        return tnpb.PairRound(round=public.round, seed=seed, game_ids=ids if any(ids) else [])
    if isinstance(public, tnpb.GameRecorded):
        return tnpb.RecordGame(
            round=public.round, table=public.table, game_id=public.game_id, ranks=public.ranks
        )
    if isinstance(public, tnpb.TournamentFinished):
        return tnpb.FinishTournament(seed=seed)
    return None


def _check_of(public: Message) -> str:
    if isinstance(public, tnpb.RoundPaired):
        return "pairing"
    if isinstance(public, (tnpb.RoundCompleted, tnpb.TournamentFinished)):
        return "standings"
    return "rules"


def _rerun(
    report: TournamentReport, events: Sequence[Event], resolve_game: Callable[[str], Game[Any]]
) -> Tournament:
    """Re-decide every recorded event from the state before it; returns the
    state folded from the record's own events."""
    finished = [e.public for e in events if isinstance(e.public, tnpb.TournamentFinished)]
    seed = finished[-1].seed if finished else b""
    if not finished:
        report.add("rules", "the tournament is not finished: its seed is not revealed (TN-SEED)")
    state = Tournament()
    before = len(report.problems)
    rounds = 0
    at = 0
    while at < len(events):
        recorded = events[at]
        command = _command_for(recorded, seed)
        want: list[Event] = []
        if command is None:
            check = _check_of(recorded.public)
            report.add(check, f"the rules do not give {_show(recorded)}", at + 1)
        else:
            try:
                want = decide(state, command, resolve_game=resolve_game)
            except (RuleViolation, MalformedCommand) as error:
                report.add(
                    _check_of(recorded.public),
                    f"the rules refuse {_show(recorded)}: {error}",
                    at + 1,
                )
        got = list(events[at : at + max(1, len(want))])
        for offset, (expected, actual) in enumerate(zip(want, got, strict=False)):
            if expected.public != actual.public:
                report.add(
                    _check_of(actual.public),
                    _difference(expected.public, actual.public),
                    at + offset + 1,
                )
        if len(got) < len(want):
            report.add(
                _check_of(want[len(got)].public),
                f"the record lacks {_show(want[len(got)])}, which the rules give",
            )
        for e in got:
            rounds += isinstance(e.public, tnpb.RoundPaired)
            try:
                state = evolve(state, e)
            except (ValueError, IndexError, KeyError) as error:
                report.add("rules", f"the event cannot follow the ones before it: {error}", at + 1)
                return state
        at += len(got)
    found = {p.check for p in report.problems[before:]}
    for check, summary in (
        ("pairing", f"{rounds} rounds re-drawn from the revealed seed"),
        ("standings", "every round's standings and the final ones follow"),
        ("rules", f"{len(events)} events re-decided by the tournament's rules"),
    ):
        if check not in found:
            report.summaries[check] = summary
    return state


def _difference(want: Message, got: Message) -> str:
    if isinstance(want, tnpb.RoundPaired) and isinstance(got, tnpb.RoundPaired):
        if [t.seats for t in want.tables] != [t.seats for t in got.tables]:
            for w, g in zip(want.tables, got.tables, strict=False):
                if w.seats != g.seats:
                    return (
                        f"round {got.round}, table {g.table}: the seed and the standings seat "
                        f"{_keys(w.seats)}, the record {_keys(g.seats)}"
                    )
            return f"round {got.round}: the seed and the standings give {len(want.tables)} tables"
        if list(want.byes) != list(got.byes):
            return f"round {got.round}: the byes go to {_keys(want.byes)}, not {_keys(got.byes)}"
        return f"round {got.round}: the standings digest is not the one the results give"
    if isinstance(want, (tnpb.RoundCompleted, tnpb.TournamentFinished)) and isinstance(
        got, (tnpb.RoundCompleted, tnpb.TournamentFinished)
    ):
        for line, said in zip(want.standings, got.standings, strict=False):
            if line != said:
                return (
                    f"place {said.place}: the results give {_key(line.public_key)} with "
                    f"{line.half_points / 2:g} points, the record {_key(said.public_key)} with "
                    f"{said.half_points / 2:g}"
                )
        return "the standings do not follow from the results"
    return f"the rules give {_show(Event(want))}, the record has {_show(Event(got))}"


# -------------------------------------------------------------------- games


def forfeit_ranks(public: Sequence[Any]) -> list[int] | None:
    """TN-FORFEIT: a tournament table whose game nobody started. The players
    who took their seat beat those who never came; among themselves they
    are tied (they never played)."""
    created = next((e for e in public if isinstance(e, tpb.GameCreated)), None)
    if created is None:
        return None
    taken = {e.seat for e in public if isinstance(e, tpb.SeatTaken)}
    return [1 if seat in taken or not taken else 2 for seat in range(created.seat_count)]


def game_ranks(envelopes: Sequence[epb.EventEnvelope]) -> list[int] | None:
    """Each seat's rank from a finished game's public events, as ratings
    rank it (docs/rules/table.md, T-RATING): the winners of GameFinished 1,
    the other seats still playing 2, the seats that left (SeatResigned) 3.
    None when the game did not finish. A game that ended unplayed (nobody
    started it: T-ABSENT, NEVER_STARTED) is a forfeit (TN-FORFEIT): the
    seats taken share rank 1, the seats never taken rank 2; when no seat
    was taken every seat shares rank 1 (a table nobody played is a draw).
    Uses ``cardroom.domain.ratings`` where this build has it, so the two
    never disagree."""
    public = [unpack(e.event) for e in envelopes]
    return _outcome(envelopes[0].game_id, public)[0]


def _outcome(game_id: str, public: Sequence[Any]) -> tuple[list[int] | None, Any]:
    """``game_ranks`` from a game's public events, and its rating result
    (``cardroom.domain.ratings.Result``; None while the game runs, or where
    this build rates no games): one pass for the audit's two checks."""
    rates = importlib.util.find_spec("cardroom.domain.ratings") is not None
    ratings: Any = importlib.import_module("cardroom.domain.ratings") if rates else None
    result = ratings.result_of(game_id, public) if rates else None
    never = getattr(tpb.GameFinished, "REASON_NEVER_STARTED", None)
    if any(isinstance(e, tpb.GameFinished) and e.reason == never for e in public):
        return forfeit_ranks(public), result
    if rates:
        return (None if result is None else [p.rank for p in result.placings]), result
    created = next((e for e in public if isinstance(e, tpb.GameCreated)), None)
    finished = next((e for e in public if isinstance(e, tpb.GameFinished)), None)
    if created is None or finished is None:
        return None, None
    departed = {e.seat for e in public if isinstance(e, tpb.SeatResigned)}
    ranks = [
        3 if seat in departed else 1 if seat in finished.winners else 2
        for seat in range(created.seat_count)
    ]
    return ranks, None


def _check_games(
    report: TournamentReport,
    state: Tournament,
    games: Sequence[trpb.GameRecord],
    audit_game: Callable[[trpb.GameRecord], Report],
) -> list[Any]:
    """Check every table's game; returns the games' rating results
    (``cardroom.domain.ratings.Result``, where this build rates games)."""
    by_id: dict[str, trpb.GameRecord] = {}
    for given in games:
        try:
            by_id.setdefault(record_body(given).game_id, given)
        except RecordError as error:
            report.add("games", f"a game record cannot be read: {error}")
    wanted = {
        t.game_id: (paired.number, t) for paired in state.rounds for t in paired.tables if t.game_id
    }
    for game_id in by_id:
        if game_id not in wanted:
            report.add("games", f"game {game_id} is not a game of this tournament")
    before = {check: _count(report, check) for check in ("games", "results")}
    proofs = seat_proofs()
    checked = 0
    results: list[Any] = []
    for paired in state.rounds:
        for table in paired.tables:
            ranks = paired.results.get(table.number)
            where = f"round {paired.number}, table {table.number}"
            if ranks is None:
                continue
            game = by_id.get(table.game_id)
            if game is None:
                report.add("games", f"{where}: no record of its game {table.game_id!r}")
                continue
            checked += 1
            result = _check_game(report, where, table.seats, ranks, game, audit_game, proofs, state)
            if result is not None:
                results.append(result)
    report.games = checked
    if _count(report, "games") == before["games"]:
        seats = "player proofs checked" if proofs else "no seat proofs in this build's SeatTaken"
        report.summaries["games"] = f"{checked} game records pass the game audit ({seats})"
    if _count(report, "results") == before["results"]:
        report.summaries["results"] = f"{checked} recorded results are the games' own"
    return results


def _check_game(
    report: TournamentReport,
    where: str,
    seats: Sequence[bytes],
    ranks: Sequence[int],
    game: trpb.GameRecord,
    audit_game: Callable[[trpb.GameRecord], Report],
    proofs: bool,
    state: Tournament,
) -> Any:
    """Check one table's game; returns its rating result (None when it does
    not check out or this build has no ratings)."""
    found = audit_game(game)
    if found.problems:
        first = found.problems[0]
        report.add("games", f"{where}: game {found.game_id}: {first}")
        return None
    envelopes = [epb.EventEnvelope.FromString(raw) for raw in record_body(game).events]
    created = tpb.GameCreated()
    envelopes[0].event.Unpack(created)
    if created.kind != report.kind or created.seat_count != len(seats):
        report.add(
            "games",
            f"{where}: game {found.game_id} is {created.kind} at {created.seat_count} seats, "
            f"not the table's {report.kind} at {len(seats)}",
        )
        return None
    assert state.created is not None
    if state.created.HasField("options") and created.options != state.created.options:
        report.add("games", f"{where}: game {found.game_id} is not played with the options set")
        return None
    clock = _table_options_differ(state.created, created)
    if clock:
        report.add("games", f"{where}: game {found.game_id} is played with {clock} (TN-CLOCK)")
        return None
    if proofs:
        _check_seat_proofs(report, where, found.game_id, seats, envelopes)
    derived, result = _outcome(found.game_id, [unpack(e.event) for e in envelopes])
    if derived != list(ranks):
        report.add(
            "results",
            f"{where}: the tournament records ranks {list(ranks)}, game {found.game_id}'s events "
            f"give {derived}",
        )
    return result


def _table_options_differ(tournament: tnpb.TournamentCreated, game: tpb.GameCreated) -> str:
    """TN-CLOCK: every table option the tournament set is the game's; a
    field it left 0 is the server's to fill. Empty when they agree."""
    for option, value in tournament.table_options.ListFields():
        played = getattr(game.table_options, option.name)
        if played != value:
            return f"{option.name} {played}, not the tournament's {value}"
    return ""


def _check_seat_proofs(
    report: TournamentReport,
    where: str,
    game_id: str,
    seats: Sequence[bytes],
    envelopes: Sequence[epb.EventEnvelope],
) -> None:
    """Each seat is taken by the table's player, who signed the seat claim
    (the players' spec: "cardroom.v1.seat-claim" || 0x00 || game_id || 0x00
    || u32be(seat) || entropy_commitment)."""
    for envelope in envelopes:
        taken = tpb.SeatTaken()
        if not envelope.event.Unpack(taken):
            continue
        proof: Any = getattr(taken, "player")  # noqa: B009 (a field of a newer SeatTaken)
        if taken.seat >= len(seats) or proof.public_key != seats[taken.seat]:
            report.add(
                "games",
                f"{where}: seat {taken.seat} of game {game_id} is not taken by the table's player",
                envelope.sequence,
            )
            continue
        # The commitment the proof signed: none when the server drew the
        # seat's entropy (cardroom.trust.players.signed_commitment).
        signed = b"" if taken.entropy_by_server else taken.entropy_commitment
        claim = seat_claim(game_id, taken.seat, signed)
        try:
            Ed25519PublicKey.from_public_bytes(proof.public_key).verify(proof.signature, claim)
        except (InvalidSignature, ValueError):
            report.add(
                "games",
                f"{where}: seat {taken.seat}'s signature in game {game_id} does not match",
                envelope.sequence,
            )


# ----------------------------------------------------------------- helpers


def seat_claim(game_id: str, seat: int, entropy_commitment: bytes) -> bytes:
    """What a player signs to take a seat (the players' spec)."""
    return SEAT_CLAIM + game_id.encode() + b"\x00" + seat.to_bytes(4, "big") + entropy_commitment


def seat_proofs() -> bool:
    """Whether this build's seats carry player proofs (SeatTaken.player)."""
    return "player" in tpb.SeatTaken.DESCRIPTOR.fields_by_name


def _count(report: TournamentReport, check: str) -> int:
    return sum(p.check == check for p in report.problems)


def _key(key: bytes) -> str:
    return _short(key)


def _short(key: bytes) -> str:
    return signing.fingerprint(key)[:12] if key else "nobody"


def _keys(keys: Iterable[bytes]) -> str:
    return "[" + ", ".join(_short(k) for k in keys) + "]"


def _show(e: Event) -> str:
    """An event named for a person: its type and its scalar fields (keys
    and digests left out)."""
    fields = ", ".join(
        f"{field.name} {value}"
        for field, value in e.public.ListFields()
        if isinstance(value, (str, int, float)) and not isinstance(value, bytes)
    )
    return f"{e.public.DESCRIPTOR.name}" + (f" ({fields})" if fields else "")
