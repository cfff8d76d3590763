"""The rulebook's worked examples (DECISIONS 1.5), played from the scenario
script in ``scenarios.py`` that the API tests reuse."""

from __future__ import annotations

import pytest

from cardroom.domain.smiles_and_daggers.cards import ranks_in
from cardroom.domain.smiles_and_daggers.state import EndReason, Phase
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb

from .scenarios import (
    ANDREA,
    DEMIS,
    E1,
    E2,
    GABRIELE,
    GIACOMO,
    LIVIO,
    LUIGI,
    SCENARIOS,
    Expect,
    Scenario,
)
from .support import KNIGHT, LADY, Table, viewers


def start(scenario: Scenario) -> Table:
    table = Table(scenario.seat_count, scenario.options, start=None)
    for outcome in scenario.chance:
        table.dealer(outcome)
    return table


def check(table: Table, expect: Expect) -> None:
    state = table.state
    assert state.coins == expect.coins
    over = state.phase is Phase.OVER
    assert (None if over else state.current) == expect.current_seat
    out = tuple(
        tuple(sorted(ranks_in(state.eliminated[s]) + ranks_in(state.lost[s])))
        for s in range(state.seat_count)
    )
    assert out == expect.out_of_game
    assert tuple(state.hand_count(s) for s in range(state.seat_count)) == expect.hand_counts
    assert state.winners == expect.winners
    # Every viewer's own fold renders the same public facts.
    for viewer in viewers(state.seat_count):
        view = table.view(viewer)
        assert tuple(s.coins for s in view.seats) == expect.coins
        assert tuple(s.hand_count for s in view.seats) == expect.hand_counts
        assert (view.current_seat if view.phase != pb.PHASE_OVER else None) == (expect.current_seat)
        assert tuple(view.winners) == (expect.winners or ())


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_each_scenario_plays_through_with_the_expected_result_after_every_stage(
    scenario: Scenario,
) -> None:
    table = start(scenario)
    for stage in scenario.stages:
        for seat, command in stage.steps:
            table.send(seat, command)
        check(table, stage.expect)


class TestE1GameplayExample:
    def play(self) -> tuple[Table, int]:
        table = start(E1)
        families, turn = E1.stages
        for seat, command in families.steps:
            table.send(seat, command)
        mark = len(table.log)
        for seat, command in turn.steps:
            table.send(seat, command)
        return table, mark

    def test_given_six_players_when_luigi_challenges_andrea_then_betting_skips_them(
        self,
    ) -> None:
        table, mark = self.play()
        [opened] = table.events_of(pb.BettingOpened, mark)
        assert list(opened.bettors) == [GIACOMO, LIVIO, GABRIELE, DEMIS]

    def test_then_giacomo_and_livio_win_their_bets_and_demis_loses_his_knight(self) -> None:
        table, mark = self.play()
        settled = {s.seat: (s.correct, s.coins) for s in table.events_of(pb.BetSettled, mark)}
        assert settled == {GIACOMO: (True, 1), LIVIO: (True, 2), DEMIS: (False, 0)}
        assert GABRIELE not in settled
        hand = table.state.hand(DEMIS)
        assert hand is not None and hand[KNIGHT - 1] == 2 and sum(hand) == 5

    def test_then_luigis_smiling_lady_survives_andreas_knight_and_pays_one(self) -> None:
        table, mark = self.play()
        [revealed] = table.events_of(pb.CardsRevealed, mark)
        assert (revealed.current.rank, revealed.opponent.rank) == (LADY, KNIGHT)
        assert table.events_of(pb.CardEliminated, mark) == []
        paid = table.events_of(pb.CoinsPaid, mark)
        assert [(p.seat, p.amount) for p in paid] == [(LUIGI, 1)]
        assert table.state.hand(ANDREA) == (1, 2, 3)
        assert table.state.hand(LUIGI) == (1, 2, 3)

    def test_then_the_tile_goes_to_giacomo_with_no_winner(self) -> None:
        table, _ = self.play()
        assert table.state.coins == (1, 1, 0, 2, 0, 0)
        assert table.state.current == GIACOMO
        assert table.state.winners is None


class TestE2EndgameTies:
    def stage(self, table: Table, index: int) -> None:
        for seat, command in E2.stages[index].steps:
            table.send(seat, command)

    def before_t1(self) -> Table:
        table = start(E2)
        self.stage(table, 0)
        self.stage(table, 1)
        return table

    def test_given_the_scripted_earlier_turns_then_coins_are_8_8_8_5_4_3_with_luigi_to_play(
        self,
    ) -> None:
        table = self.before_t1()
        assert table.state.coins == (8, 8, 8, 5, 4, 3)
        assert table.state.current == LUIGI
        assert table.state.turn == 13
        assert table.state.eliminated[DEMIS] == (1, 0, 0)
        assert table.state.eliminated[LIVIO] == (0, 0, 1)

    def test_when_luigi_and_andrea_tie_at_nine_then_nobody_wins(self) -> None:
        table = self.before_t1()
        self.stage(table, 2)
        assert table.state.coins[LUIGI] == table.state.coins[ANDREA] == 9
        assert table.state.winners is None
        assert table.state.current == GIACOMO

    def test_when_giacomo_and_andrea_tie_at_ten_then_nobody_wins(self) -> None:
        table = self.before_t1()
        self.stage(table, 2)
        self.stage(table, 3)
        assert table.state.coins[:3] == (9, 10, 10)
        assert table.state.winners is None
        assert table.state.current == ANDREA

    def test_when_luigi_reaches_eleven_alone_then_he_wins_at_the_end_of_t3(self) -> None:
        table = self.before_t1()
        for index in (2, 3, 4):
            self.stage(table, index)
        assert table.state.coins[:3] == (11, 10, 10)
        assert table.state.winners == (LUIGI,)
        assert table.state.end_reason is EndReason.NINE_COINS
        [ended] = table.events_of(pb.GameEnded)
        assert list(ended.winners) == [LUIGI]
