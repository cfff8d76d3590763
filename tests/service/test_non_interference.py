"""Nothing hidden leaks through the service: for every viewer, two games that
differ only in values that viewer may not see look identical through the
service's own read paths (its redacted events, views, legal actions, errors,
and the server's words for each event and legal action).

The twin games come from the pure harness (tests/smoke_and_mirrors/twins.py:
another deal that agrees on the viewer's cards, other cards for others' acts
with the same count and truthfulness). Here both games are replayed through
``cardroom.server.games.application.Games`` on real SQLite stores, with the dealer's outcomes as
set deals, so the service's sealing, redaction and folding are what is
tested. Salts, digests and hashes differ between any two games by design
(they are random or commit to hidden values), so they are compared only in
shape, never in value.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from google.protobuf import any_pb2
from google.protobuf.message import Message
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cardroom.domain import table as tables
from cardroom.domain.kernel import SPECTATOR, Actor, MalformedCommand, RuleViolation, Viewer
from cardroom.server.games.application import Games
from cardroom.server.storage.log import GameLog
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as sd
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as pb
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb
from tests.conftest import OPERATOR_TOKEN
from tests.smoke_and_mirrors.twins import FEW, Twins

CLOCK = datetime(2026, 1, 1, tzinfo=UTC)


class RecordingTwins(Twins):
    """The pure twins, remembering every command sent to each game."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.sent: list[tuple[int | None, Message, Message]] = []

    def send(self, actor_seat: int | None, cmd_a: Message, cmd_b: Message) -> None:
        self.sent.append((actor_seat, cmd_a, cmd_b))
        super().send(actor_seat, cmd_a, cmd_b)


def packed(message: Message) -> any_pb2.Any:
    a = any_pb2.Any()
    a.Pack(message)
    return a


class ServedGame:
    """One of the twins, played through a real Games service."""

    def __init__(
        self,
        folder: Path,
        seats: int,
        options: Message,
        deals: list[Message],
        kind: str = "smoke-and-mirrors",
    ) -> None:
        self.games = Games(
            GameLog(str(folder / "cardroom.sqlite3")),
            operator_token=OPERATOR_TOKEN,
            clock=lambda: CLOCK,
        )
        self.game_id = self.games.create_game(
            kind,
            packed(options),
            seats,
            [packed(d) for d in deals],
            OPERATOR_TOKEN,
            # A turn clock, so that the clocks in the public view are compared too.
            table_options=tpb.TableOptions(seconds_per_decision=60),
        )
        self.tokens = [self.games.join(self.game_id, s, f"P{s}")[1] for s in range(seats)]
        self.games.start(self.game_id, self.tokens[0])
        self.commands = 0

    def play(self, seat: int, command: Message) -> None:
        self.commands += 1
        self.games.submit(
            self.game_id, self.tokens[seat], packed(command), f"c{self.commands}", None
        )

    def token(self, viewer: Viewer) -> str | None:
        return self.tokens[viewer.seat] if viewer.seat is not None else None

    def seen(self, viewer: Viewer) -> list[bytes]:
        events, _ = self.games.events_for(self.game_id, self.token(viewer), 0)
        return [comparable(e) for e in events]

    def view(self, viewer: Viewer) -> bytes:
        response = self.games.view(self.game_id, self.token(viewer), None)
        if viewer.seat is not None and response.table.finished:
            # The post-mortem: once the game is over its seats see every
            # card by design (the full log is theirs too); the table stays.
            return response.table.SerializeToString(deterministic=True)
        return response.SerializeToString(deterministic=True)

    def legal(self, viewer: Viewer) -> list[bytes]:
        if viewer.seat is None:
            return []
        _, actions = self.games.legal_actions(self.game_id, self.token(viewer))
        return [a.SerializeToString(deterministic=True) for a in actions]

    def told(self, viewer: Viewer) -> list[tuple[str, ...]]:
        """The server's words for each event (ReplayViews with narrate)."""
        steps = self.games.replay_views(self.game_id, self.token(viewer), 0, narrate=True)
        return [tuple(step.narration) for step in steps]

    def said(self, viewer: Viewer) -> list[bytes]:
        """The server's words and warnings for each legal action."""
        if viewer.seat is None:
            return []
        version, actions = self.games.legal_actions(self.game_id, self.token(viewer))
        if not actions:
            return []
        words = self.games.action_words(self.game_id, self.token(viewer), version, actions)
        return [w.SerializeToString(deterministic=True) for w in words]

    def refusal(self, seat: int, command: Message) -> str | None:
        """The service's answer to a command the rules refuse (None if accepted:
        the caller only tries commands the pure rules refuse in game A)."""
        loaded = self.games.load(self.game_id)
        try:
            tables.decide(loaded.table, Actor.of_seat(seat), command)
        except (RuleViolation, MalformedCommand) as error:
            try:
                self.games.submit(self.game_id, self.tokens[seat], packed(command), "probe", None)
            except (RuleViolation, MalformedCommand) as served:
                assert str(served) == str(error)
                return f"{type(served).__name__}: {served}"
            raise AssertionError("the service accepted what the rules refuse") from None
        return None


def _without_entropy(packed: any_pb2.Any) -> None:
    """The server draws a seat's entropy at random when its client commits
    to none (T-ENTROPY): like a salt, it differs between any two games."""
    for kind, field in ((tpb.SeatTaken, "entropy_commitment"), (tpb.SeatEntropy, "entropy")):
        value = kind()
        if packed.Unpack(value):
            assert len(getattr(value, field)) in (0, 32)
            value.ClearField(field)  # type: ignore[arg-type]
            packed.Pack(value)


def comparable(envelope: epb.EventEnvelope) -> bytes:
    """An envelope without what differs between any two games by design:
    ids, times, hashes, salts and digests (random, or commitments), and
    seat entropy (random) and commitments to it."""
    copy = epb.EventEnvelope()
    copy.CopyFrom(envelope)
    _without_entropy(copy.event)
    for secret in copy.secrets:
        _without_entropy(secret.value)
    for opening in copy.openings:
        _without_entropy(opening.value)
    for name in ("game_id", "recorded_at", "previous_hash", "event_hash"):
        copy.ClearField(name)
    for secret in copy.secrets:
        secret.ClearField("salt")
        secret.ClearField("digest")
        if secret.value.Is(epb.SecretOpening.DESCRIPTOR):
            opening = epb.SecretOpening()
            secret.value.Unpack(opening)
            opening.ClearField("salt")
            secret.value.Pack(opening)
    copy.command.ClearField("salt")
    copy.command.ClearField("digest")
    copy.command.ClearField("command_id")
    for opening in copy.openings:
        opening.ClearField("salt")
    return copy.SerializeToString(deterministic=True)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 4), seed=st.integers(0, 2**32 - 1), who=st.integers(0, 4))
def test_no_viewer_can_tell_the_twins_apart_through_the_service(
    tmp_path_factory, seats: int, seed: int, who: int
) -> None:
    viewer = Viewer.of_seat(who) if who < seats else SPECTATOR
    options = pb.Options(rounds_to_win=1)
    twins = RecordingTwins(seats, viewer, seed, options)
    twins.run(max_commands=60)
    # Only twins that really differ in what this viewer cannot see test anything.
    assume(any(x != y for _, x, y in twins.sent))
    deals_a = [a for seat, a, _ in twins.sent if seat is None]
    deals_b = [b for seat, _, b in twins.sent if seat is None]
    a = ServedGame(tmp_path_factory.mktemp("a"), seats, options, deals_a)
    b = ServedGame(tmp_path_factory.mktemp("b"), seats, options, deals_b)
    probes = [*FEW, pb.PerformAct(), pb.GiveCard()]
    for seat, cmd_a, cmd_b in twins.sent:
        if seat is None:
            continue  # the dealer's outcomes come from the set deals
        a.play(seat, cmd_a)
        b.play(seat, cmd_b)
        assert a.seen(viewer) == b.seen(viewer)
        assert a.view(viewer) == b.view(viewer)
        assert a.legal(viewer) == b.legal(viewer)
        # One voice (the narrate flags): the words come from the viewer's fold only.
        assert a.told(viewer) == b.told(viewer)
        assert a.said(viewer) == b.said(viewer)
        if viewer.seat is not None:
            for probe in probes:
                assert a.refusal(viewer.seat, probe) == b.refusal(viewer.seat, probe)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hidden=st.tuples(st.sampled_from(sd.Rank.values()[1:]), st.sampled_from([1, 2])),
    other=st.tuples(st.sampled_from(sd.Rank.values()[1:]), st.sampled_from([1, 2])),
    mine=st.tuples(st.sampled_from(sd.Rank.values()[1:]), st.sampled_from([1, 2])),
    who=st.sampled_from([0, 1, 2, 3, None]),
    choices=st.randoms(use_true_random=False),
)
def test_a_commitment_stays_hidden_through_the_service_until_the_reveal(
    tmp_path_factory, hidden, other, mine, who, choices
) -> None:
    """Smiles & Daggers, 4 seats: seat 0 challenges seat 2. The twins differ
    only in the commitment of a challenger the viewer is not: nothing the
    viewer receives may differ until the cards are revealed."""
    viewer = Viewer.of_seat(who) if who is not None else SPECTATOR
    secret_seat = 2 if who == 0 else 0  # whose commitment the viewer cannot see
    twins = []
    for variant in (hidden, other):
        game = ServedGame(
            tmp_path_factory.mktemp("sd"),
            4,
            sd.Options(),
            [sd.ChooseStartSeat(seat=0)],
            kind="smiles-and-daggers",
        )
        for seat, family in enumerate(sd.Family.values()[1:5]):
            game.play(seat, sd.ChooseFamily(family=family))
        game.play(0, sd.ChallengeOpponent(target=2))
        for seat in (secret_seat, 2 - secret_seat):  # either order is allowed
            rank, orientation = variant if seat == secret_seat else mine
            game.play(seat, sd.CommitCard(rank=rank, orientation=orientation))
        twins.append(game)
    a, b = twins
    rng = choices
    probes = [
        sd.PassBet(),
        sd.PlaceBet(shape=sd.BET_SHAPE_SMILE_BOTH),
        sd.CommitCard(rank=sd.RANK_LORD, orientation=sd.ORIENTATION_SMILE),
    ]
    for bettor in (1, 3):
        assert a.seen(viewer) == b.seen(viewer)
        assert a.view(viewer) == b.view(viewer)
        assert a.legal(viewer) == b.legal(viewer)
        # One voice (the narrate flags): the words come from the viewer's fold only.
        assert a.told(viewer) == b.told(viewer)
        assert a.said(viewer) == b.said(viewer)
        if viewer.seat is not None:
            for probe in probes:
                assert a.refusal(viewer.seat, probe) == b.refusal(viewer.seat, probe)
        _, actions = a.games.legal_actions(a.game_id, a.tokens[bettor])
        bet = rng.choice(actions)
        if bettor == 3:
            break  # the last bet triggers the reveal
        a.play(bettor, bet)
        b.play(bettor, bet)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mine=st.binary(min_size=32, max_size=32),
    other=st.binary(min_size=32, max_size=32),
    who=st.sampled_from([0, 2, None]),
)
def test_a_seats_entropy_stays_hidden_through_the_service_until_its_reveal(
    tmp_path_factory, mine: bytes, other: bytes, who: int | None
) -> None:
    """T-ENTROPY, 3 seats: the twins differ only in the entropy seat 1
    committed to. Until seat 1 reveals it, nothing another viewer receives
    differs but the commitment itself (a hash of 32 random bytes: compared
    in shape, like digests), and no card has been dealt."""
    assume(
        mine != other
        and bytes([0]) * 32 not in (mine, other)
        and bytes([2]) * 32 not in (mine, other)
    )
    served = []
    for entropy in (mine, other):
        games = Games(
            GameLog(str(tmp_path_factory.mktemp("e") / "cardroom.sqlite3")),
            operator_token=OPERATOR_TOKEN,
            clock=lambda: CLOCK,
        )
        game_id = games.create_game("smoke-and-mirrors", packed(pb.Options()), 3)
        tokens = [
            games.join_with_entropy(
                game_id,
                s,
                f"P{s}",
                tables.entropy_commitment(entropy if s == 1 else bytes([s]) * 32),
            )[1]
            for s in range(3)
        ]
        games.start(game_id, tokens[0])
        for s in (0, 2):
            reveal = tpb.RevealEntropy(entropy=bytes([s]) * 32)
            games.submit(game_id, tokens[s], packed(reveal), f"e{s}", None)
        served.append((games, game_id, tokens))

    def seen(games: Games, game_id: str, tokens: list[str]) -> tuple[list[bytes], bytes]:
        token = tokens[who] if who is not None else None
        events, _ = games.events_for(game_id, token, 0)
        shaped = [comparable(envelope) for envelope in events]
        view = games.view(game_id, token, None).SerializeToString(deterministic=True)
        return shaped, view

    a, b = (seen(*s) for s in served)
    assert a == b
    assert all(games.load(game_id).indexes.dealt == 0 for games, game_id, _ in served)
