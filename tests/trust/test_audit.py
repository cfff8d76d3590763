"""The offline auditor: an honest record passes, every kind of lie fails."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from google.protobuf.message import Message

from cardroom.domain import registry
from cardroom.domain.kernel import AUDITOR, SPECTATOR, Game, Viewer
from cardroom.trust import chain, chance
from cardroom.trust.audit import (
    Report,
    audit_events,
    audit_record,
    compare_viewer_stream,
    main_audit,
)
from cardroom.trust.commitments import command_digest, secret_digest
from cardroom.trust.record import build_record, export_record, write_record
from cardroom.trust.signing import public_key_bytes, sign
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import trust_pb2 as trpb
from tests.trust import fakegame
from tests.trust.harness import TrustedGame, played_game

KEY = Ed25519PrivateKey.generate()
GAME_ID = "5d9bc0a4-6c1e-4a52-9a34-0c6f4b1f2e77"


def duel(kind: str) -> Game[Any]:
    if kind == "duel":
        return fakegame.GAME
    raise KeyError(f"unknown game kind {kind!r}")


def audit(signed: trpb.GameRecord, **kwargs: Any) -> Report:
    return audit_record(signed, resolve_game=duel, **kwargs)


@pytest.fixture(scope="module")
def game() -> TrustedGame:
    return played_game(fakegame.GAME, reveals=fakegame.reveals)


def checks_failed(report: Report) -> set[str]:
    return {p.check for p in report.problems}


def rewrite(game: TrustedGame, edit: Callable[[list[epb.EventEnvelope]], None]) -> trpb.GameRecord:
    """A forger holding the server's key: edit the events, rebuild the whole
    chain, re-sign. Whatever is still caught is caught by the content."""
    envelopes = [epb.EventEnvelope.FromString(raw) for raw in game.stored]
    edit(envelopes)
    return export_record(chain.link(envelopes, chain.ZERO_HASH), KEY)


def reseal(secret: epb.Secret) -> None:
    secret.digest = secret_digest(secret.salt, secret.value)


def swap_hand(secret: epb.Secret) -> None:
    """Give the hand in ``secret`` two cards it did not have."""
    hand = fakegame.Hand()
    assert secret.value.Unpack(hand)
    hand.cards[:] = [c for c in range(6) if c not in hand.cards][:2]
    secret.value.Pack(hand)


def find(envelopes: list[epb.EventEnvelope], kind: type[Message]) -> epb.EventEnvelope:
    return next(e for e in envelopes if e.event.TypeName() == kind.DESCRIPTOR.full_name)


def commanded(envelopes: list[epb.EventEnvelope], kind: type[Message]) -> epb.EventEnvelope:
    return next(
        e
        for e in envelopes
        if e.HasField("command") and e.command.command.TypeName() == kind.DESCRIPTOR.full_name
    )


# ------------------------------------------------------------------ honest


def test_an_honest_game_is_verified(game: TrustedGame) -> None:
    report = audit(game.export(KEY), public_key=public_key_bytes(KEY))
    assert report.ok, report.render()
    assert report.problems == []
    assert set(report.summaries) == {
        "signature",
        "record",
        "chain",
        "commitments",
        "chance",
        "players",
        "rules",
    }
    assert "2 dealer outcome(s) reproduced from the seed" in report.summaries["chance"]
    text = report.render()
    assert "VERIFIED" in text and "[FAIL]" not in text
    assert game.game_id in text and "pinned" in text
    assert "not pinned" in audit(game.export(KEY)).render()


def test_every_viewer_copy_agrees_with_an_honest_record(game: TrustedGame) -> None:
    for viewer in (SPECTATOR, AUDITOR, Viewer.of_seat(0), Viewer.of_seat(1)):
        assert compare_viewer_stream(game.copy_for(viewer), game.stored) == []


def test_a_bare_event_log_is_audited_without_a_signature(game: TrustedGame) -> None:
    report = audit_events(game.stored, head=chain.chain_head(game.stored), resolve_game=duel)
    assert report.ok, report.render()
    assert set(report.skipped) == {"signature", "record"}
    assert "VERIFIED, except what was skipped" in report.render()


def test_a_set_deal_game_is_verified_and_its_script_is_bound() -> None:
    deal = fakegame.Deal(order=[5, 4, 3, 2, 1, 0])
    game = played_game(fakegame.GAME, set_deal=[deal])
    dealt = commanded(game.envelopes, fakegame.Deal)
    assert dealt.command.command.Unpack(got := fakegame.Deal()) and got == deal
    report = audit(game.export(KEY))
    assert report.ok, report.render()
    assert "set deal" in report.summaries["chance"]

    def another_script(envelopes: list[epb.EventEnvelope]) -> None:
        index = chance.set_deal_index(envelopes[0])
        assert index is not None
        script = chance.set_deal_of(envelopes[0])
        assert script is not None
        script.outcomes[0].Pack(fakegame.Deal(order=[0, 1, 2, 3, 4, 5]))
        envelopes[0].secrets[index].value.Pack(script)
        reseal(envelopes[0].secrets[index])

    assert "chance" in checks_failed(audit(rewrite(game, another_script)))


# -------------------------------------------------------- signature, record


def test_a_record_signed_by_another_key_fails_when_the_key_is_pinned(game: TrustedGame) -> None:
    forged = game.export(Ed25519PrivateKey.generate())
    report = audit(forged, public_key=public_key_bytes(KEY))
    assert checks_failed(report) == {"signature"}
    assert "another key" in report.render()


def test_a_changed_body_breaks_the_signature(game: TrustedGame) -> None:
    signed = game.export(KEY)
    body = trpb.GameRecordBody.FromString(signed.body)
    body.rules_version = "duel-2"
    signed.body = body.SerializeToString()
    report = audit(signed)
    assert "signature" in checks_failed(report)
    assert "record" in checks_failed(report)  # and the body no longer matches its events


def test_the_record_openings_must_match_the_events(game: TrustedGame) -> None:
    unsigned = build_record(game.stored)
    body = trpb.GameRecordBody.FromString(unsigned.body)
    body.openings[0].salt = bytes(32)
    unsigned.body = body.SerializeToString()
    assert checks_failed(audit(sign(unsigned, KEY))) == {"record"}


# ------------------------------------------------------------------- chain


def test_an_event_changed_in_place_breaks_the_chain(game: TrustedGame) -> None:
    stored = list(game.stored)
    envelope = epb.EventEnvelope.FromString(stored[4])
    envelope.recorded_at.seconds += 60
    stored[4] = envelope.SerializeToString(deterministic=True)
    report = audit(export_record(stored, KEY))
    assert checks_failed(report) == {"chain"}
    assert [p.event for p in report.problems] == [6]


def test_a_deleted_event_is_caught_even_when_re_signed(game: TrustedGame) -> None:
    stored = game.stored[:5] + game.stored[6:]
    report = audit(export_record(stored, KEY))
    assert "chain" in checks_failed(report)


def test_a_record_cut_short_is_caught(game: TrustedGame) -> None:
    report = audit(export_record(game.stored[:-2], KEY))
    assert "rules" in checks_failed(report)
    assert "before the game is over" in report.render()


# ------------------------------------------------------------- commitments


def test_a_hidden_card_changed_after_the_fact_is_caught(game: TrustedGame) -> None:
    def other_hand(envelopes: list[epb.EventEnvelope]) -> None:
        swap_hand(find(envelopes, fakegame.Dealt).secrets[0])

    report = audit(rewrite(game, other_hand))
    assert "commitments" in checks_failed(report)
    assert "does not open to its digest" in report.render()


def test_an_unsealed_secret_is_caught(game: TrustedGame) -> None:
    def unseal(envelopes: list[epb.EventEnvelope]) -> None:
        find(envelopes, fakegame.Dealt).secrets[1].ClearField("salt")

    assert "not sealed" in audit(rewrite(game, unseal)).render()


def test_a_command_changed_after_the_fact_is_caught(game: TrustedGame) -> None:
    def other_command(envelopes: list[epb.EventEnvelope]) -> None:
        played = commanded(envelopes, fakegame.Play)
        played.command.command.Pack(fakegame.Play(card=99))

    report = audit(rewrite(game, other_command))
    assert "commitments" in checks_failed(report)
    assert "rules" in checks_failed(report)


def test_a_false_reveal_is_caught(game: TrustedGame) -> None:
    def lie(envelopes: list[epb.EventEnvelope]) -> None:
        shown = find(envelopes, fakegame.TrickShown)
        card = fakegame.PlayedCard()
        shown.openings[0].value.Unpack(card)
        card.card = (card.card + 1) % 6
        shown.openings[0].value.Pack(card)

    report = audit(rewrite(game, lie))
    assert checks_failed(report) == {"commitments"}
    assert "reveal does not match" in report.render()


def test_a_game_without_a_seed_commitment_is_caught(game: TrustedGame) -> None:
    def no_seed(envelopes: list[epb.EventEnvelope]) -> None:
        index = chance.seed_index(envelopes[0])
        assert index is not None
        del envelopes[0].secrets[index]

    report = audit(rewrite(game, no_seed))
    assert {"commitments", "chance"} <= checks_failed(report)


def test_a_seed_shown_to_a_seat_is_caught(game: TrustedGame) -> None:
    def leak(envelopes: list[epb.EventEnvelope]) -> None:
        index = chance.seed_index(envelopes[0])
        assert index is not None
        envelopes[0].secrets[index].audience.seats.append(0)

    assert "seed was shown to seats" in audit(rewrite(game, leak)).render()


# ------------------------------------------------------------------ chance


def test_dealing_from_another_seed_than_the_committed_one_is_caught() -> None:
    """The server commits to one seed and deals from another: every event
    follows the rules, but the outcomes are not the committed seed's."""
    cheat = TrustedGame(fakegame.GAME, game_id=GAME_ID, seed=bytes(32))
    cheat.create(2)
    cheat.seed = bytes([7]) * 32  # deal from a seed nobody saw committed
    cheat.seat_everyone()
    cheat.play_out(random.Random(3))
    report = audit(cheat.export(KEY))
    assert checks_failed(report) == {"chance"}
    assert "the seed gives" in report.render()


def test_a_dealer_outcome_changed_after_the_fact_is_caught(game: TrustedGame) -> None:
    def redeal(envelopes: list[epb.EventEnvelope]) -> None:
        lead = commanded(envelopes, fakegame.Lead)
        chosen = fakegame.Lead()
        lead.command.command.Unpack(chosen)
        lead.command.command.Pack(fakegame.Lead(seat=1 - chosen.seat))
        lead.command.digest = command_digest(lead.command.salt, lead.command)

    report = audit(rewrite(game, redeal))
    assert {"chance", "rules"} <= checks_failed(report)


def test_a_seed_swapped_at_the_end_is_caught_by_a_spectators_copy() -> None:
    """The worst case for a record alone: the server deals from seed B,
    having committed to seed A, then rewrites the first event so that it
    commits to B, rebuilds the chain and signs. The record is consistent, but
    every viewer kept the digest of A and the hash of the original event 1."""
    committed = TrustedGame(fakegame.GAME, game_id=GAME_ID, seed=bytes(32))
    committed.create(2)
    dealt_from = bytes([7]) * 32
    committed.seed = dealt_from
    committed.seat_everyone()
    committed.play_out(random.Random(5))
    spectator = committed.copy_for(SPECTATOR)

    def commit_to_b(envelopes: list[epb.EventEnvelope]) -> None:
        index = chance.seed_index(envelopes[0])
        assert index is not None
        envelopes[0].secrets[index].value.Pack(trpb.ChanceSeed(seed=dealt_from))
        reseal(envelopes[0].secrets[index])

    forged = rewrite(committed, commit_to_b)
    assert audit(forged).ok  # the record alone cannot tell...
    body = trpb.GameRecordBody.FromString(forged.body)
    problems = compare_viewer_stream(spectator, list(body.events))  # ...a viewer can
    assert problems
    assert problems[0].event == 1


def test_a_viewers_copy_catches_a_record_that_differs_from_what_was_served(
    game: TrustedGame,
) -> None:
    seat = game.copy_for(Viewer.of_seat(0))

    def other_hand(envelopes: list[epb.EventEnvelope]) -> None:
        dealt = find(envelopes, fakegame.Dealt)
        swap_hand(dealt.secrets[0])
        reseal(dealt.secrets[0])

    body = trpb.GameRecordBody.FromString(rewrite(game, other_hand).body)
    problems = compare_viewer_stream(seat, list(body.events))
    assert problems
    # A copy served with another value than the one committed to is caught too.
    lied_to = [epb.EventEnvelope() for _ in seat]
    for mine, original in zip(lied_to, seat, strict=True):
        mine.CopyFrom(original)
    swap_hand(find(lied_to, fakegame.Dealt).secrets[0])
    assert any(p.check == "commitments" for p in compare_viewer_stream(lied_to, game.stored))
    # And a served event_hash that is not the stored event's.
    lied_to = [epb.EventEnvelope() for _ in seat]
    for mine, original in zip(lied_to, seat, strict=True):
        mine.CopyFrom(original)
    lied_to[-1].event_hash = bytes(32)
    assert [p.event for p in compare_viewer_stream(lied_to, game.stored)] == [len(seat)]


# ------------------------------------------------------------------- rules


def test_the_rules_version_must_match(game: TrustedGame) -> None:
    class Newer(fakegame.Duel):
        rules_version = "duel-2"

    report = audit_record(game.export(KEY), resolve_game=lambda kind: Newer())
    assert checks_failed(report) == {"rules"}
    assert "duel-2" in report.render()


def test_an_unknown_game_cannot_be_re_run(game: TrustedGame) -> None:
    def nothing_installed(kind: str) -> Game[Any]:
        raise KeyError(f"unknown game kind {kind!r}")

    report = audit_record(game.export(KEY), resolve_game=nothing_installed)
    assert checks_failed(report) == {"rules"}
    assert "no rules installed" in report.render()
    assert "chance" in report.skipped


def test_events_the_rules_would_not_produce_are_caught(game: TrustedGame) -> None:
    def extra_trick(envelopes: list[epb.EventEnvelope]) -> None:
        shown = find(envelopes, fakegame.TrickShown)
        trick = fakegame.TrickShown()
        shown.event.Unpack(trick)
        trick.winner = 1 - trick.winner
        shown.event.Pack(trick)

    report = audit(rewrite(game, extra_trick))
    assert "rules" in checks_failed(report)
    assert "the rules give TrickShown" in report.render()


# --------------------------------------------------------------------- CLI


def test_the_cli_verifies_a_file(
    game: TrustedGame, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.cardroom-record"
    write_record(game.export(KEY), path)
    assert main_audit([str(path)], resolve_game=duel) == 0
    assert "VERIFIED" in capsys.readouterr().out
    key = public_key_bytes(KEY).hex()
    assert main_audit([str(path), "--public-key", key], resolve_game=duel) == 0
    other = public_key_bytes(Ed25519PrivateKey.generate()).hex()
    assert main_audit([str(path), "--public-key", other], resolve_game=duel) == 1
    out = capsys.readouterr().out
    assert "[FAIL] signature" in out and "DISCREPANCIES" in out


def test_the_cli_fails_on_a_tampered_file(
    game: TrustedGame, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.cardroom-record"
    stored = list(game.stored)
    stored[2] = stored[3]
    write_record(export_record(stored, KEY), path)
    assert main_audit([str(path)], resolve_game=duel) == 1
    assert "[FAIL] chain" in capsys.readouterr().out


def test_the_cli_refuses_what_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    garbage = tmp_path / "garbage"
    garbage.write_bytes(b"\xff\xff\xff")
    assert main_audit([str(garbage)]) == 2
    assert main_audit([str(tmp_path / "missing")]) == 2
    assert main_audit([str(garbage), "--public-key", "zz"]) == 2
    assert "cardroom audit" in capsys.readouterr().err


# ------------------------------------------------------------- real games


def real_games() -> list[Game[Any]]:
    try:
        return list(registry.games().values())
    except Exception:  # a game mid-edit elsewhere must not fail these tests
        return []


@pytest.mark.parametrize("real", real_games(), ids=lambda g: g.kind)
def test_real_games_pass_the_audit(real: Game[Any]) -> None:
    seats = max(real.min_seats, 3)
    for choices in range(3):
        game = played_game(real, seats=seats, choices=choices)
        report = audit_record(game.export(KEY), public_key=public_key_bytes(KEY))
        assert report.ok, report.render()
