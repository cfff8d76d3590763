"""Seats add entropy (T-ENTROPY): the chance key is exactly the documented
one, pinned by vectors; every seat's entropy changes the deal and the seed
alone does not fix it; the table awaits the reveals; the audit checks every
commitment and reveal and catches every way of cheating with them."""

from __future__ import annotations

import hashlib
import hmac
import random
import struct
from collections.abc import Callable
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from google.protobuf.message import Message
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import (
    CLOCK,
    DEALER,
    GUEST,
    SPECTATOR,
    Actor,
    Forbidden,
    Game,
    Viewer,
)
from cardroom.trust import chain, chance
from cardroom.trust.audit import Report, audit_record
from cardroom.trust.commitments import command_digest, secret_digest
from cardroom.trust.drbg import ChanceRandom
from cardroom.trust.entropy import chance_key, entropy_commitment
from cardroom.trust.record import export_record
from cardroom.trust.signing import public_key_bytes
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import trust_pb2 as trpb
from tests.trust import fakegame
from tests.trust.harness import TrustedGame

KEY = Ed25519PrivateKey.generate()
SEED = bytes(range(32))
GAME_ID = "00000000-0000-4000-8000-000000000000"
E0, E1, E2 = bytes([0xA0]) * 32, bytes(range(32, 64)), bytes([0x5C]) * 32


# ------------------------------------------------------------ derivation


def reference_key(seed: bytes, game_id: str, entropies: list[tuple[int, bytes]]) -> bytes:
    """docs/trust.md section 3's chance key, written from the document."""
    gid = game_id.encode()
    message = b"cardroom.v1.chance-key" + b"\x00" + struct.pack(">I", len(gid)) + gid
    message += struct.pack(">I", len(entropies))
    for seat, entropy in entropies:
        message += struct.pack(">I", seat) + entropy
    return hmac.new(seed, message, hashlib.sha256).digest()


def test_the_commitment_is_the_documented_hash_pinned_by_a_vector() -> None:
    assert entropy_commitment(E1) == hashlib.sha256(b"cardroom.v1.seat-entropy\x00" + E1).digest()
    assert entropy_commitment(E1).hex() == (
        "6f5bfa31c64e28cc3d9527aa1a8d9f9a594eda534ff9deedda2794aceb380135"
    )


def test_the_chance_key_is_the_documented_hmac_pinned_by_vectors() -> None:
    entropies = [(0, E0), (2, E2)]
    assert chance_key(SEED, GAME_ID, entropies) == reference_key(SEED, GAME_ID, entropies)
    assert chance_key(SEED, GAME_ID, entropies).hex() == (
        "e58e272bb365b59618778190b7d6637efd9f1ba9cbe05dce63aa0d8f07b08e0d"
    )
    # The first shuffle such a key deals, as test_drbg pins the generator.
    deck = list(range(52))
    ChanceRandom(chance_key(SEED, GAME_ID, entropies), GAME_ID, 0).shuffle(deck)
    assert deck[:13] == [30, 25, 20, 44, 48, 47, 38, 32, 7, 51, 15, 11, 1]


def test_a_game_without_seat_entropy_keeps_the_seed_as_its_key() -> None:
    assert chance_key(SEED, GAME_ID, []) == SEED


def test_the_key_refuses_what_the_document_does_not_define() -> None:
    with pytest.raises(ValueError):
        chance_key(SEED, GAME_ID, [(1, E1), (0, E0)])  # not in seat order
    with pytest.raises(ValueError):
        chance_key(SEED, GAME_ID, [(0, E0), (0, E1)])
    with pytest.raises(ValueError):
        chance_key(SEED, GAME_ID, [(0, b"short")])
    with pytest.raises(ValueError):
        chance_key(b"short", GAME_ID, [(0, E0)])


# ------------------------------------------------------------ the deal


def first_outcome(game: TrustedGame) -> Message:
    """The first chance outcome the dealer drew."""
    for envelope in game.envelopes:
        if envelope.HasField("command") and envelope.command.actor.kind == epb.Actor.KIND_DEALER:
            return chance.unpack(envelope.command.command)
    raise AssertionError("the dealer drew nothing")


def seated(
    game: Game[Any], seed: bytes, entropies: list[bytes | None], **kwargs: Any
) -> TrustedGame:
    trusted = TrustedGame(game, game_id=GAME_ID, seed=seed)
    trusted.create(len(entropies))
    trusted.seat_with_entropy(entropies, **kwargs)
    return trusted


SM = registry.game("smoke-and-mirrors")
entropy = st.binary(min_size=32, max_size=32)


@settings(max_examples=25, deadline=None)
@given(
    seed=entropy,
    mine=st.lists(entropy, min_size=3, max_size=3, unique=True),
    other=entropy,
    who=st.integers(0, 2),
)
def test_twins_differing_in_one_seats_entropy_are_dealt_differently(
    seed: bytes, mine: list[bytes], other: bytes, who: int
) -> None:
    twin = list(mine)
    twin[who] = other
    if twin == mine or len(set(twin)) < len(twin):  # a copied commitment is refused
        return
    assert first_outcome(seated(SM, seed, list(mine))) != first_outcome(
        seated(SM, seed, list(twin))
    )


@settings(max_examples=25, deadline=None)
@given(
    seed=entropy,
    mine=st.lists(entropy, min_size=3, max_size=3, unique=True),
    others=st.lists(entropy, min_size=3, max_size=3, unique=True),
)
def test_the_server_seed_alone_does_not_determine_the_deal(
    seed: bytes, mine: list[bytes], others: list[bytes]
) -> None:
    if mine == others:
        return
    dealt = first_outcome(seated(SM, seed, list(mine)))
    assert dealt != first_outcome(seated(SM, seed, list(others)))
    # ...and it is not the deal the seed alone (the old derivation) gives.
    alone = TrustedGame(SM, game_id=GAME_ID, seed=seed)
    alone.create(3)
    alone.seat_everyone()
    assert dealt != first_outcome(alone)


@settings(max_examples=25, deadline=None)
@given(
    seeds=st.lists(entropy, min_size=2, max_size=2, unique=True),
    mine=st.lists(entropy, min_size=3, max_size=3, unique=True),
)
def test_the_revealed_entropies_alone_do_not_determine_the_deal(
    seeds: list[bytes], mine: list[bytes]
) -> None:
    """Revealing entropy tells nobody anything about any card: with every
    entropy public, the deal still depends on the unopened seed."""
    first, second = (first_outcome(seated(SM, s, list(mine))) for s in seeds)
    assert first != second


def test_server_drawn_entropy_is_opened_at_the_start_and_takes_part() -> None:
    mixed = seated(SM, SEED, [E0, None, E2])
    started = next(e for e in mixed.envelopes if e.event.Is(tpb.GameStarted.DESCRIPTOR))
    assert len(started.openings) == 1  # seat 1's, drawn by the server
    assert mixed.table is not None and mixed.table.entropy_revealed == {0, 1, 2}
    # Another entropy drawn for seat 1 deals differently.
    other = TrustedGame(SM, game_id="00000000-0000-4000-8000-000000000001", seed=SEED)
    other.create(3)
    other.seat_with_entropy([E0, None, E2])
    assert first_outcome(mixed) != first_outcome(other)


# ------------------------------------------------------------ the table


def waiting(entropies: list[bytes | None], reveal: list[int], **options: int) -> TrustedGame:
    trusted = TrustedGame(fakegame.GAME, game_id=GAME_ID, seed=SEED)
    trusted.create(len(entropies), table_options=tpb.TableOptions(**options))
    trusted.seat_with_entropy(entropies, reveal=reveal)
    return trusted


def refusal(trusted: TrustedGame, actor: Actor, command: Message) -> str:
    with pytest.raises((tables.RuleViolation, Forbidden, tables.MalformedCommand)) as caught:
        trusted.execute(actor, command, "x")
    return str(caught.value)


def test_no_chance_outcome_and_no_game_command_before_every_reveal() -> None:
    trusted = waiting([E0, E1], reveal=[0])
    table = trusted.table
    assert table is not None and table.started
    assert tables.chance_needed(table) is None and trusted.dealt == 0
    assert tables.awaited(table) == [1]
    assert tables.legal_actions(table, 0) == []
    assert tables.legal_actions(table, 1) == [tpb.RevealEntropy()]  # its client fills it in
    assert "T-ENTROPY" in refusal(trusted, Actor.of_seat(0), fakegame.Play(card=0))
    trusted.execute(Actor.of_seat(1), tpb.RevealEntropy(entropy=E1), "e1")
    assert trusted.dealt >= 1  # the deal follows the last reveal at once


def test_a_copy_of_another_seats_commitment_is_refused_and_writes_nothing() -> None:
    """A seat that copied seat 0's public commitment could open it only by
    replaying seat 0's reveal: T-ENTROPY refuses the copy when it sits."""
    trusted = TrustedGame(fakegame.GAME, game_id=GAME_ID, seed=SEED)
    trusted.create(2)
    taken = tpb.TakeSeat(seat=0, player_name="A", token_sha256=bytes(32))
    taken.entropy_commitment = tables.entropy_commitment(E0)
    trusted.execute(GUEST, taken)
    before = len(trusted.stored)
    copy = tpb.TakeSeat(seat=1, player_name="B", token_sha256=bytes([1]) * 32)
    copy.entropy_commitment = tables.entropy_commitment(E0)
    message = refusal(trusted, GUEST, copy)
    assert message.startswith("T-ENTROPY") and "another seat's" in message
    assert len(trusted.stored) == before


def test_a_reveal_that_does_not_match_is_refused_and_writes_nothing() -> None:
    trusted = waiting([E0, E1], reveal=[])
    before = len(trusted.stored)
    message = refusal(trusted, Actor.of_seat(1), tpb.RevealEntropy(entropy=E0))
    assert message.startswith("T-ENTROPY") and "commitment" in message
    assert len(trusted.stored) == before
    assert "32 bytes" in refusal(trusted, Actor.of_seat(1), tpb.RevealEntropy(entropy=b"x"))
    trusted.execute(Actor.of_seat(0), tpb.RevealEntropy(entropy=E0), "e0")
    assert "already revealed" in refusal(trusted, Actor.of_seat(0), tpb.RevealEntropy(entropy=E0))
    assert "only a seated player" in refusal(trusted, DEALER, tpb.RevealEntropy(entropy=E0))


def test_a_server_seat_owes_no_reveal() -> None:
    trusted = waiting([None, E1], reveal=[1])
    assert trusted.dealt >= 1
    assert "owes no entropy" in refusal(trusted, Actor.of_seat(0), tpb.RevealEntropy(entropy=E0))


def test_a_seat_whose_reveal_times_out_leaves_and_the_deal_goes_on_without_it() -> None:
    trusted = waiting([E0, E1, E2], reveal=[0, 2], seconds_per_decision=30)
    assert trusted.table is not None
    trusted.execute(CLOCK, tpb.ClockExpired(seat=1, version=trusted.table.version))
    table = trusted.table
    assert 1 in table.resigned and trusted.dealt >= 1
    left = [e for e in trusted.envelopes if e.event.Is(tpb.SeatResigned.DESCRIPTOR)]
    assert len(left) == 1
    assert table.revealed_entropies() == [(0, E0), (2, E2)]
    assert audit_record(trusted.export(KEY), resolve_game=duel).problems_of("entropy") == []


def test_a_seat_that_resigns_instead_of_revealing_takes_no_part() -> None:
    trusted = waiting([E0, E1, E2], reveal=[0, 2])
    trusted.execute(Actor.of_seat(1), tpb.Resign(), "r")
    assert trusted.dealt >= 1
    assert trusted.table is not None and trusted.table.revealed_entropies() == [(0, E0), (2, E2)]


# ------------------------------------------------------- non-interference


def views_before_the_deal(entropies: list[bytes | None], reveal: list[int]) -> dict[str, Any]:
    trusted = waiting(entropies, reveal=reveal)
    viewers = {"spectator": SPECTATOR} | {
        f"seat {s}": Viewer.of_seat(s) for s in range(len(entropies))
    }
    return {
        name: (tables.view(trusted.fold_for(v), v), tables.legal_actions(trusted.fold_for(v), 0))
        for name, v in viewers.items()
    }


@settings(max_examples=20, deadline=None)
@given(a=entropy, b=entropy, c=entropy)
def test_a_seats_entropy_is_secret_until_revealed_and_its_reveal_shows_no_card(
    a: bytes, b: bytes, c: bytes
) -> None:
    """Twins differing in seat 1's entropy: before its reveal every other
    viewer's projection is the same (the commitment hides it), and right
    after every reveal, before the deal, every viewer's is too (a reveal
    shows nothing about any card: none is dealt yet, and the deal depends
    on the unopened seed)."""
    if a in (b, c):
        return  # a copied commitment is refused
    first = views_before_the_deal([a, b], reveal=[0])
    second = views_before_the_deal([a, c], reveal=[0])
    assert {k: v for k, v in first.items() if k != "seat 1"} == {
        k: v for k, v in second.items() if k != "seat 1"
    }
    server = views_before_the_deal([a, None], reveal=[])
    assert server["spectator"] == views_before_the_deal([c, None], reveal=[])["spectator"]


# ------------------------------------------------------------ the audit


def duel(kind: str) -> Game[Any]:
    if kind == "duel":
        return fakegame.GAME
    raise KeyError(f"unknown game kind {kind!r}")


def audit(signed: trpb.GameRecord) -> Report:
    return audit_record(signed, resolve_game=duel, public_key=public_key_bytes(KEY))


def checks_failed(report: Report) -> set[str]:
    return {p.check for p in report.problems}


@pytest.fixture(scope="module")
def committed() -> TrustedGame:
    trusted = TrustedGame(fakegame.GAME, fakegame.reveals, game_id=GAME_ID, seed=SEED)
    trusted.create(3)
    trusted.seat_with_entropy([E0, None, E2])
    trusted.play_out(random.Random(5))
    return trusted


def rewrite(game: TrustedGame, edit: Callable[[list[epb.EventEnvelope]], None]) -> trpb.GameRecord:
    """A forger holding the server's key: edit, rechain, re-sign."""
    envelopes = [epb.EventEnvelope.FromString(raw) for raw in game.stored]
    edit(envelopes)
    for number, envelope in enumerate(envelopes, start=1):
        envelope.sequence = number
    return export_record(chain.link(envelopes, chain.ZERO_HASH), KEY)


def the(envelopes: list[epb.EventEnvelope], kind: type[Message]) -> epb.EventEnvelope:
    return next(e for e in envelopes if e.event.Is(kind.DESCRIPTOR))


def test_an_honest_game_with_seat_entropy_is_verified(committed: TrustedGame) -> None:
    report = audit(committed.export(KEY))
    assert report.ok, report.render()
    assert "3 seat commitment(s), 1 drawn by the server" in report.summaries["entropy"]
    assert "2 revealed by their seats" in report.summaries["entropy"]
    assert "3 seat(s)' revealed entropy" in report.summaries["chance"]


def test_a_changed_reveal_is_caught(committed: TrustedGame) -> None:
    def change(envelopes: list[epb.EventEnvelope]) -> None:
        shown = the(envelopes, tpb.SeatEntropyRevealed)
        shown.event.Pack(tpb.SeatEntropyRevealed(seat=0, entropy=E1))
        shown.command.command.Pack(tpb.RevealEntropy(entropy=E1))
        shown.command.digest = command_digest(shown.command.salt, shown.command)

    report = audit(rewrite(committed, change))
    assert "entropy" in checks_failed(report)
    assert "seat 0's revealed entropy does not match its commitment" in report.render()


def test_a_reveal_with_its_commitment_changed_to_match_is_caught_by_the_deal(
    committed: TrustedGame,
) -> None:
    """The forger changes seat 0's commitment and reveal consistently: the
    record's own checks pass for them, but the deal is not what the seed
    and the new reveal give (and every seat's copy of SeatTaken differs)."""

    def change(envelopes: list[epb.EventEnvelope]) -> None:
        taken = next(
            e
            for e in envelopes
            if e.event.Is(tpb.SeatTaken.DESCRIPTOR) and chance.unpack(e.event).seat == 0
        )
        seat = chance.unpack(taken.event)
        seat.entropy_commitment = entropy_commitment(E1)
        taken.event.Pack(seat)
        record = chance.unpack(taken.command.command)
        record.entropy_commitment = entropy_commitment(E1)
        taken.command.command.Pack(record)
        taken.command.digest = command_digest(taken.command.salt, taken.command)
        shown = the(envelopes, tpb.SeatEntropyRevealed)
        shown.event.Pack(tpb.SeatEntropyRevealed(seat=0, entropy=E1))
        shown.command.command.Pack(tpb.RevealEntropy(entropy=E1))
        shown.command.digest = command_digest(shown.command.salt, shown.command)

    report = audit(rewrite(committed, change))
    assert "chance" in checks_failed(report)
    assert "keyed with the 3 seats' revealed entropy" in report.render()


def test_a_missing_reveal_is_caught(committed: TrustedGame) -> None:
    def drop(envelopes: list[epb.EventEnvelope]) -> None:
        envelopes.remove(the(envelopes, tpb.SeatEntropyRevealed))

    report = audit(rewrite(committed, drop))
    assert "entropy" in checks_failed(report)
    assert "before seat(s) [0] revealed" in report.render()


def test_a_server_entropy_that_does_not_open_its_commitment_is_caught(
    committed: TrustedGame,
) -> None:
    def change(envelopes: list[epb.EventEnvelope]) -> None:
        taken = next(
            e for e in envelopes if e.event.Is(tpb.SeatTaken.DESCRIPTOR) and len(e.secrets) == 2
        )
        secret = taken.secrets[1]
        secret.value.Pack(tpb.SeatEntropy(seat=1, entropy=E2))
        secret.digest = secret_digest(secret.salt, secret.value)

    report = audit(rewrite(committed, change))
    assert "seat 1's server entropy does not open its commitment" in report.render()


class SeedOnly(TrustedGame):
    """A server that deals from the seed and only some reveals."""

    def execute(self, actor: Actor, command: Message, command_id: str = "") -> None:
        original = chance.chance_key

        def partial(seed: bytes, game_id: str, entropies: Any) -> bytes:
            return original(seed, game_id, list(entropies)[:1])

        chance.chance_key = partial  # type: ignore[assignment]
        try:
            super().execute(actor, command, command_id)
        finally:
            chance.chance_key = original  # type: ignore[assignment]


def test_a_deal_not_derived_from_all_reveals_is_caught() -> None:
    cheat = SeedOnly(fakegame.GAME, game_id=GAME_ID, seed=SEED)
    cheat.create(3)
    cheat.seat_with_entropy([E0, E1, E2])
    cheat.play_out(random.Random(5))
    report = audit(cheat.export(KEY))
    assert checks_failed(report) == {"chance"}
    assert "keyed with the 3 seats' revealed entropy" in report.render()


def test_a_game_from_before_seat_entropy_audits_as_before() -> None:
    old = TrustedGame(fakegame.GAME, fakegame.reveals, game_id=GAME_ID, seed=SEED)
    old.create(2)
    old.seat_everyone()
    old.play_out(random.Random(3))
    report = audit(old.export(KEY))
    assert report.ok and "entropy" not in report.summaries
    assert report.summaries["chance"].endswith("reproduced from the seed")


@pytest.mark.parametrize("kind", sorted(registry.games()))
def test_every_game_deals_and_audits_after_a_seat_left_before_revealing(kind: str) -> None:
    """A seat may leave between the start and the first card (T-ENTROPY):
    every game's rules take a departure there, and the game plays out."""
    real = registry.game(kind)
    seats = max(3, real.min_seats)
    trusted = TrustedGame(real, game_id=GAME_ID, seed=SEED)
    trusted.create(seats)
    entropies: list[bytes | None] = [bytes([s + 1]) * 32 for s in range(seats)]
    trusted.seat_with_entropy(entropies, reveal=list(range(1, seats)))
    trusted.execute(Actor.of_seat(0), tpb.Resign(), "r0")
    assert trusted.dealt >= 1
    trusted.play_out(random.Random(1))
    report = audit_record(trusted.export(KEY), public_key=public_key_bytes(KEY))
    assert report.ok, report.render()


def test_a_game_that_ends_before_any_card_owes_no_reveal() -> None:
    """Two seats: one leaves before revealing, so the other wins at once
    (T-RESIGN) without revealing; nothing was dealt, nothing is missing."""
    trusted = waiting([E0, E1], reveal=[])
    trusted.execute(Actor.of_seat(0), tpb.Resign(), "r0")
    assert trusted.table is not None and trusted.table.finished and trusted.dealt == 0
    report = audit(trusted.export(KEY))
    assert report.ok, report.render()
