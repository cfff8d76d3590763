"""The auditor re-runs finished Smile Life games (full-length games of
every kind are audited by tests/trust/test_audit.py and
test_server_records.py): shorter games played through the
service (random legal play, and a set-deal game whose casino bets are opened
by reveals) export a record that passes every check, and a
hidden card changed after the fact is caught."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from google.protobuf.message import Message

from cardroom.server.games.application import Games
from cardroom.server.storage.log import GameLog
from cardroom.smile_life.v1 import smile_life_pb2 as pb
from cardroom.trust.audit import audit_events, audit_record
from cardroom.trust.record import record_body
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import trust_pb2 as trpb
from cardroom.v1.table_pb2 import SeatEntropy
from tests.conftest import OPERATOR_TOKEN
from tests.service.test_non_interference import packed
from tests.smile_life.scenarios import CASINO, Scenario

MAX_COMMANDS = 5000


class Played:
    """A Smile Life game on a real SQLite store, through ``Games``."""

    def __init__(self, folder: Path, seats: int, options: pb.Options, deals: list[Message]) -> None:
        self.games = Games(GameLog(str(folder / "cardroom.sqlite3")), operator_token=OPERATOR_TOKEN)
        self.game_id = self.games.create_game(
            "smile-life",
            packed(options),
            seats,
            [packed(d) for d in deals],
            OPERATOR_TOKEN if deals else None,
        )
        self.tokens = [self.games.join(self.game_id, s, f"P{s}")[1] for s in range(seats)]
        self.games.start(self.game_id, self.tokens[0])
        self.commands = 0

    def act(self, seat: int, command: Message) -> None:
        self.commands += 1
        self.games.submit(
            self.game_id, self.tokens[seat], packed(command), f"c{self.commands}", None
        )

    def play_out(self, rng: random.Random) -> None:
        for _ in range(MAX_COMMANDS):
            moved = False
            for seat, token in enumerate(self.tokens):
                _, actions = self.games.legal_actions(self.game_id, token)
                if actions:
                    self.act(seat, rng.choice(actions))
                    moved = True
                    break
            if not moved:
                assert self.games.version(self.game_id) and self.finished
                return
        raise AssertionError("the game did not end")

    @property
    def finished(self) -> bool:
        return self.games.load(self.game_id).finished

    def record(self) -> trpb.GameRecord:
        return self.games.export_record(self.game_id, OPERATOR_TOKEN)


def scenario_game(folder: Path, scenario: Scenario) -> Played:
    game = Played(folder, scenario.seat_count, scenario.options, list(scenario.chance))
    for stage in scenario.stages:
        for seat, command in stage.steps:
            game.act(seat, command)
    return game


@pytest.mark.parametrize(
    ("seed", "seats", "options"),
    [
        (1, 3, pb.Options(draw_pile_size=50)),
        (2, 2, pb.Options(river_variant=True, draw_pile_size=40)),
        (3, 5, pb.Options(draw_pile_size=60, grand_prof_salary_max=3)),
        (4, 6, pb.Options(allow_six_players=True, draw_pile_size=30)),
    ],
)
def test_a_finished_random_game_passes_the_audit(
    tmp_path: Path, seed: int, seats: int, options: pb.Options
) -> None:
    game = Played(tmp_path, seats, options, [])
    game.play_out(random.Random(seed))
    report = audit_record(game.record())
    assert report.ok, report.render()
    assert "rules" in report.summaries


def test_a_set_deal_game_with_reveals_passes_the_audit(tmp_path: Path) -> None:
    game = scenario_game(tmp_path, CASINO)
    assert game.finished
    record = game.record()
    body = record_body(record)
    envelopes = [epb.EventEnvelope.FromString(raw) for raw in body.events]
    # The game's own reveals (GameStarted also opens the seats' server-drawn
    # entropy, T-ENTROPY).
    opened = [o for e in envelopes for o in e.openings if not o.value.Is(SeatEntropy.DESCRIPTOR)]
    assert len(opened) == 5  # two settlings of two bets, and the bet that came home
    report = audit_record(record)
    assert report.ok, report.render()


def test_a_hidden_card_changed_after_the_fact_is_caught(tmp_path: Path) -> None:
    game = scenario_game(tmp_path, CASINO)
    stored = list(record_body(game.record()).events)
    for index, raw in enumerate(stored):
        envelope = epb.EventEnvelope.FromString(raw)
        for secret in envelope.secrets:
            if secret.value.Is(pb.CasinoBet.DESCRIPTOR):
                bet = pb.CasinoBet()
                secret.value.Unpack(bet)
                secret.value.Pack(pb.CasinoBet(seat=bet.seat, card="salary_4"))
                stored[index] = envelope.SerializeToString()
                report = audit_events(stored)
                assert not report.ok and "commitments" in {p.check for p in report.problems}
                return
    raise AssertionError("no casino bet in the game")


def test_every_viewer_of_a_finished_game_folds_to_the_same_public_end(tmp_path: Path) -> None:
    game = scenario_game(tmp_path, CASINO)
    views = [game.games.view(game.game_id, token, None) for token in (None, *game.tokens)]
    ends = []
    for response in views:
        view = pb.View()
        response.game.Unpack(view)
        ends.append(([s.smiles for s in view.seats], list(view.winners)))
    assert ends == [([0, 3, 2], [1])] * 4
