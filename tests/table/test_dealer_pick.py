"""The dealer's pick of a default choice (DECISIONS G-02(b), docs/rules/
table.md T-PICK): when every option of a seat's default choice touches
another player, the table waits for the dealer's ``DealerPick`` among them,
a chance outcome drawn from the committed seed (never from a set deal) that
the audit re-draws. Played here with the trust tests' duel, whose default
choices are all the dealer's in this variant."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from google.protobuf import any_pb2
from google.protobuf.message import Message

from cardroom.domain import table as tables
from cardroom.domain.kernel import CLOCK, DEALER, Actor, DealersPick, Forbidden, RuleViolation
from cardroom.trust import chain, chance, commitments
from cardroom.trust.audit import audit_events
from cardroom.trust.envelopes import actor_of, unpack
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from tests.trust import fakegame
from tests.trust.harness import TrustedGame


class PickingDuel(fakegame.Duel):
    """The duel, with every default choice the dealer's (as if each card
    played touched another player)."""

    def default_action(self, state: Any, seat: int, *, departed: bool) -> Message | DealersPick:
        return DealersPick(tuple(self.legal_actions(state, seat)))


def started(seats: int = 3, set_deal: list[Message] | None = None) -> TrustedGame:
    trusted = TrustedGame(PickingDuel())
    trusted.create(seats, fakegame.Options(hand_size=3), set_deal or [])
    trusted.seat_everyone()
    return trusted


def dealer_commands(trusted: TrustedGame) -> list[Message]:
    return [
        unpack(e.command.command)
        for e in trusted.envelopes
        if e.HasField("command") and actor_of(e.command) == DEALER
    ]


def to_move(trusted: TrustedGame) -> int:
    assert trusted.table is not None
    [seat] = tables.awaited(trusted.table)
    return seat


def test_a_departed_seats_pick_is_drawn_in_the_batch_of_its_resignation() -> None:
    trusted = started()
    seat = to_move(trusted)
    assert trusted.table is not None
    options = PickingDuel().legal_actions(trusted.table.game_state, seat)
    before = len(trusted.envelopes)
    trusted.execute(Actor.of_seat(seat), tpb.Resign(), "leave")
    batch = trusted.envelopes[before:]
    assert unpack(batch[0].event) == tpb.SeatResigned(seat=seat, reason=1)
    assert actor_of(batch[1].command) == DEALER
    pick = unpack(batch[1].command.command)
    assert isinstance(pick, tpb.DealerPick) and pick.index < len(options)
    played = unpack(batch[1].event)
    assert played == fakegame.Played(seat=seat)
    assert batch[1].secrets  # the card it played, from the dealer's pick
    card = fakegame.PlayedCard()
    batch[1].secrets[0].value.Unpack(card)
    assert fakegame.Play(card=card.card) == options[pick.index]


def test_a_game_with_picks_ends_and_passes_the_audit() -> None:
    trusted = started()
    trusted.execute(Actor.of_seat(to_move(trusted)), tpb.Resign(), "leave")
    trusted.play_out(random.Random(4))
    assert trusted.table is not None and trusted.table.finished
    assert any(isinstance(c, tpb.DealerPick) for c in dealer_commands(trusted))
    report = audit_events(trusted.stored, resolve_game=lambda kind: PickingDuel())
    assert report.ok, report.render()


def test_the_audit_catches_a_pick_the_seed_does_not_give() -> None:
    trusted = started()
    trusted.execute(Actor.of_seat(to_move(trusted)), tpb.Resign(), "leave")
    trusted.play_out(random.Random(4))
    stored = [epb.EventEnvelope.FromString(raw) for raw in trusted.stored]
    first = next(e for e in stored if e.command.command.Is(tpb.DealerPick.DESCRIPTOR))
    pick = unpack(first.command.command)
    assert isinstance(pick, tpb.DealerPick)
    first.command.command.Pack(tpb.DealerPick(index=(pick.index + 1) % 3))
    first.command.digest = b""
    commitments.seal_command(first.command)  # a forger re-seals what it changed
    report = audit_events(
        chain.link(stored, chain.ZERO_HASH), resolve_game=lambda kind: PickingDuel()
    )
    assert report.problems_of("chance"), report.render()


def test_a_timed_out_seat_waits_for_the_dealer() -> None:
    trusted = started()
    seat = to_move(trusted)
    assert trusted.table is not None
    table = replace(trusted.table, seconds_per_decision=30)
    expired = tpb.ClockExpired(seat=seat, version=table.version)
    events = tables.decide(table, CLOCK, expired)
    assert [e.public for e in events] == [tpb.SeatTimedOut(seat=seat)]
    waiting = tables.evolve(table, events[0])
    assert tables.chance_needed(waiting) is tpb.DealerPick
    assert tables.awaited(waiting) == []
    options = PickingDuel().legal_actions(waiting.game_state, seat)
    played = tables.decide(waiting, DEALER, tpb.DealerPick(index=len(options) - 1))
    assert played[0].public == fakegame.Played(seat=seat)
    assert played[0].secret(fakegame.PlayedCard).card == options[-1].card  # type: ignore[union-attr]
    after = waiting
    for e in played:
        after = tables.evolve(after, e)
    assert after.timed_out is None and tables.chance_needed(after) is None


def test_picks_are_refused_unless_due_in_range_and_from_the_dealer() -> None:
    trusted = started()
    seat = to_move(trusted)
    assert trusted.table is not None
    table = replace(trusted.table, seconds_per_decision=30)
    with pytest.raises(RuleViolation) as refused:
        tables.decide(table, DEALER, tpb.DealerPick(index=0))
    assert refused.value.rule == "T-CHANCE"
    [timed_out] = tables.decide(table, CLOCK, tpb.ClockExpired(seat=seat, version=table.version))
    waiting = tables.evolve(table, timed_out)
    with pytest.raises(RuleViolation) as refused:
        tables.decide(waiting, DEALER, tpb.DealerPick(index=3))
    assert refused.value.rule == "T-PICK"
    with pytest.raises(Forbidden):
        tables.decide(waiting, Actor.of_seat(seat), tpb.DealerPick(index=0))


def test_a_pick_with_one_option_is_played_without_a_draw() -> None:
    trusted = started(seats=2)
    assert trusted.table is not None
    table = trusted.table
    # Play until every seat has one card left.
    rng = random.Random(1)
    while True:
        seat = to_move(trusted)
        assert trusted.table is not None
        if len(PickingDuel().legal_actions(trusted.table.game_state, seat)) == 1:
            break
        choice = rng.choice(tables.legal_actions(trusted.table, seat))
        trusted.execute(Actor.of_seat(seat), choice, f"c{len(trusted.stored)}")
    table = trusted.table
    assert table is not None
    choice = tables.default_action(table, seat)
    assert isinstance(choice, fakegame.Play)
    table = replace(table, seconds_per_decision=30)
    events = tables.decide(table, CLOCK, tpb.ClockExpired(seat=seat, version=table.version))
    assert [type(e.public) for e in events][:2] == [tpb.SeatTimedOut, fakegame.Played]


def test_a_set_deal_never_scripts_a_pick() -> None:
    trusted = started()
    seat = to_move(trusted)
    assert trusted.table is not None
    waiting = trusted.table
    for e in tables.decide(waiting, Actor.of_seat(seat), tpb.Resign()):
        if isinstance(e.public, fakegame.Played):
            break
        waiting = tables.evolve(waiting, e)
    assert tables.chance_needed(waiting) is tpb.DealerPick
    script = tpb.SetDeal()
    lead = any_pb2.Any()
    lead.Pack(fakegame.Lead(seat=0))
    script.outcomes.append(lead)
    drawn = chance.chance_outcome(waiting, 0, seed=trusted.seed, game_id="g", set_deal=script)
    assert isinstance(drawn, tpb.DealerPick)
