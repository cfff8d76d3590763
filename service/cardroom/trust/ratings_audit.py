"""``cardroom audit ratings RECORD...``: recompute every rating from signed
game records alone (docs/rules/table.md, T-RATING; docs/trust.md, "Players").

Each record is audited in full first (signature, chain, seat signatures,
rules re-run); a record that does not verify is named and left out. The
verified games' results are read from their public events
(``cardroom.domain.ratings.result_of``) and applied in the order they
finished: by the recording time of their GameFinished, then game id. On one
server that is the order the server applies them in (its log's order) save
for games that finish within the same instant on concurrent writers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from cardroom.domain import ratings as rules
from cardroom.trust.audit import audit_scanned
from cardroom.trust.envelopes import to_event
from cardroom.trust.players import player_id
from cardroom.trust.record import RecordError, mapped
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb


@dataclass
class RatingsAudit:
    ratings: dict[tuple[bytes, str], rules.Rating] = field(default_factory=dict)
    names: dict[bytes, str] = field(default_factory=dict)
    rated: list[str] = field(default_factory=list)
    unrated: list[tuple[str, str]] = field(default_factory=list)  # (game, why)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def board(self, kind: str) -> list[tuple[bytes, rules.Rating]]:
        """One kind's ratings, best first (ties by key), as the server lists them."""
        found = [(key, r) for (key, k), r in self.ratings.items() if k == kind]
        return sorted(found, key=lambda item: (-item[1].display, item[0]))

    def render(self) -> str:
        lines = [
            f"cardroom audit ratings: {len(self.rated)} rated game(s), {len(self.unrated)} unrated",
        ]
        lines.extend(f"  unrated {game}: {why}" for game, why in self.unrated)
        for kind in sorted({k for _, k in self.ratings}):
            lines.append(f"\n{kind}")
            for place, (key, r) in enumerate(self.board(kind), start=1):
                name = self.names.get(key, "")
                lines.append(
                    f"  {place:>3}. {r.display:7.2f}  (mu {r.mu:.3f}, sigma {r.sigma:.3f}, "
                    f"{r.games} games)  {player_id(key)}  {name}"
                )
        if self.problems:
            lines.append(f"\nDISCREPANCIES ({len(self.problems)}):")
            lines.extend(f"  {p}" for p in self.problems)
        else:
            lines.append("\nVERIFIED: every record audits, and the ratings above follow from them.")
        return "\n".join(lines)


def _finished_at(events: Iterable[epb.EventEnvelope]) -> tuple[str, list[object]]:
    """The recording time of GameFinished (RFC 3339, sortable) and the public events."""
    finished_at = ""
    public: list[object] = []
    for envelope in events:
        event = to_event(envelope).public
        public.append(event)
        if isinstance(event, tpb.GameFinished):
            finished_at = envelope.recorded_at.ToJsonString()
    return finished_at, public


def audit_ratings(paths: Sequence[str], *, public_key: bytes | None = None) -> RatingsAudit:
    """Audit every record, then recompute the ratings from the verified ones."""
    audit = RatingsAudit()
    games: list[tuple[str, str, rules.Result]] = []
    seen: set[str] = set()
    for path in paths:
        try:
            with mapped(path) as scanned:
                report = audit_scanned(scanned, public_key=public_key)
                if not report.ok:
                    audit.problems.append(
                        f"{path}: the record does not audit ({report.problems[0]})"
                    )
                    continue
                envelopes = [epb.EventEnvelope.FromString(raw) for raw in scanned.events()]
        except (OSError, RecordError) as error:
            audit.problems.append(f"{path}: {error}")
            continue
        finished_at, public = _finished_at(envelopes)
        game_id = report.game_id
        if game_id in seen:
            audit.problems.append(f"{path}: game {game_id} is given twice")
            continue
        seen.add(game_id)
        result = rules.result_of(game_id, public)  # type: ignore[arg-type]
        if result is None:
            audit.problems.append(f"{path}: game {game_id} is not finished")
            continue
        games.append((finished_at, game_id, result))
    for _, game_id, result in sorted(games, key=lambda g: (g[0], g[1])):
        if not result.rated:
            audit.unrated.append((game_id, result.why_unrated))
            continue
        rules.apply(audit.ratings, result)
        audit.rated.append(game_id)
        for placing in result.placings:
            audit.names[placing.public_key] = placing.display_name
    return audit
