"""Committed chance: the per-game seed, and the one function that turns it
into the dealer's outcomes (docs/trust.md, "Chance outcomes").

At creation a game gets a fresh 32-byte seed, stored as an auditors-only
``ChanceSeed`` secret of its first event; sealing that secret publishes its
digest to every viewer before any card is dealt. Every chance outcome is then
:func:`chance_outcome`: the set-deal script's outcome when the game has one
that fits (the script is itself an auditors-only sealed secret of the first
event), else ``game.sample_chance`` driven by :class:`ChanceRandom` over
(seed, game id, chance index). The service and the auditor call this same
function, so an audit recomputes every outcome exactly.
"""

from __future__ import annotations

from google.protobuf import any_pb2
from google.protobuf.message import Message

from cardroom.domain import table as tables
from cardroom.domain.kernel import DEALER, Forbidden, MalformedCommand, RuleViolation, Secret
from cardroom.trust.commitments import holds
from cardroom.trust.drbg import SEED_BYTES, ChanceRandom
from cardroom.trust.entropy import chance_key
from cardroom.trust.envelopes import unpack
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import trust_pb2 as trpb


def seed_secret(seed: bytes) -> Secret:
    """The first event's secret holding the seed: auditors only."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a chance seed is {SEED_BYTES} bytes")
    return Secret(frozenset(), trpb.ChanceSeed(seed=seed))


def _find(created: epb.EventEnvelope, kind: type[Message]) -> list[int]:
    return [
        i for i, s in enumerate(created.secrets) if s.HasField("value") and holds(s.value, kind)
    ]


def seed_index(created: epb.EventEnvelope) -> int | None:
    """Position of the ChanceSeed secret among the first event's secrets."""
    found = _find(created, trpb.ChanceSeed)
    return found[0] if found else None


def seed_of(created: epb.EventEnvelope) -> bytes | None:
    """The seed held by a full first event, or None."""
    index = seed_index(created)
    if index is None:
        return None
    seed = trpb.ChanceSeed()
    created.secrets[index].value.Unpack(seed)
    return seed.seed


def set_deal_index(created: epb.EventEnvelope) -> int | None:
    found = _find(created, tpb.SetDeal)
    return found[0] if found else None


def set_deal_of(created: epb.EventEnvelope) -> tpb.SetDeal | None:
    """The set-deal script held by a full first event, or None."""
    index = set_deal_index(created)
    if index is None:
        return None
    script = tpb.SetDeal()
    created.secrets[index].value.Unpack(script)
    return script


class SetDealMismatch(RuleViolation):
    """An operator's set-deal outcome does not fit the game when it is needed:
    the command that needs it fails and nothing is written (no silent random
    draw in its place)."""

    def __init__(self, index: int, outcome: str, why: str) -> None:
        super().__init__("T-DEAL", f"set deal outcome {index} ({outcome}) does not fit: {why}")
        self.index, self.outcome, self.why = index, outcome, why


def set_deal_outcome(
    table: tables.Table, index: int, packed: any_pb2.Any, needed: type[Message]
) -> Message:
    """The set deal's outcome ``index`` if the rules accept it now, else
    SetDealMismatch naming the outcome, its type and why."""
    try:
        outcome = unpack(packed, f"set_deal[{index}]")
    except MalformedCommand as error:
        raise SetDealMismatch(index, packed.type_url[-80:], str(error)) from None
    name = outcome.DESCRIPTOR.full_name
    if not isinstance(outcome, needed):
        raise SetDealMismatch(index, name, f"the game waits for a {needed.DESCRIPTOR.full_name}")
    try:
        tables.decide(table, DEALER, outcome)
    except (RuleViolation, MalformedCommand, Forbidden) as error:
        raise SetDealMismatch(index, name, str(error)) from None
    return outcome


def chance_outcome(
    table: tables.Table,
    index: int,
    *,
    seed: bytes,
    game_id: str,
    set_deal: tpb.SetDeal | None = None,
    picks: int = 0,
) -> Message:
    """The ``index``-th chance outcome of a game (0-based, counting the
    dealer's commands), for the chance ``table`` waits for now. ``picks``
    of the earlier ones were dealer's picks of default choices
    (``DealerPick``, T-PICK), which a set deal never scripts: a game's own
    outcome is the set deal's outcome ``index - picks`` while the set deal
    lasts (SetDealMismatch if the rules refuse it), and every outcome past
    it, and every pick, is drawn with ``index`` from the chance key: the
    seed and every entropy the seats revealed (``entropy.chance_key``; the
    seed itself for games whose seats committed to none). ``table`` is the
    full fold, which holds every revealed entropy."""
    needed = tables.chance_needed(table)
    if needed is None:
        raise ValueError("the game waits for no chance outcome")
    scripted = index - picks
    if needed is not tpb.DealerPick and set_deal is not None and scripted < len(set_deal.outcomes):
        return set_deal_outcome(table, scripted, set_deal.outcomes[scripted], needed)
    key = chance_key(seed, game_id, table.revealed_entropies())
    return tables.sample_chance(table, ChanceRandom(key, game_id, index))


def is_pick(record: epb.CommandRecord) -> bool:
    """Whether a dealer's command record holds a DealerPick (T-PICK)."""
    return record.HasField("command") and holds(record.command, tpb.DealerPick)
