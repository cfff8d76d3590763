"""SD-01..SD-03 (the challenge matrix), SD-07 (bet payouts) and SD-11's cost
table, checked on the pure tables and through the decider.

The expected values are written out by hand from the rulings, not computed
by the code under test.
"""

from __future__ import annotations

import pytest

from cardroom.domain.smiles_and_daggers.cards import (
    BEATS,
    VALUE,
    Card,
    recovery_cost,
    settle_bet,
    settle_challenge,
)
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb

from .support import DAGGER, KNIGHT, LADY, LORD, SHAPE, SMILE, Table, bet, challenge, commit

Lo, La, Kn = LORD, LADY, KNIGHT
S, D = SMILE, DAGGER
A, B, NONE = "current", "opponent", "-"

# (current card, opponent card, whose card is eliminated, current +, opponent +)
MATRIX = [
    ((Lo, S), (Lo, S), NONE, 2, 2),
    ((Lo, S), (Lo, D), NONE, 2, 0),
    ((Lo, S), (La, S), NONE, 2, 1),
    ((Lo, S), (La, D), NONE, 2, 0),
    ((Lo, S), (Kn, S), NONE, 2, 0),
    ((Lo, S), (Kn, D), A, 0, 0),
    ((Lo, D), (Lo, S), NONE, 0, 2),
    ((Lo, D), (Lo, D), NONE, 0, 0),
    ((Lo, D), (La, S), B, 0, 0),
    ((Lo, D), (La, D), B, 0, 0),
    ((Lo, D), (Kn, S), NONE, 0, 0),
    ((Lo, D), (Kn, D), A, 0, 0),
    ((La, S), (Lo, S), NONE, 1, 2),
    ((La, S), (Lo, D), A, 0, 0),
    ((La, S), (La, S), NONE, 1, 1),
    ((La, S), (La, D), NONE, 1, 0),
    ((La, S), (Kn, S), NONE, 1, 0),
    ((La, S), (Kn, D), NONE, 1, 0),
    ((La, D), (Lo, S), NONE, 0, 2),
    ((La, D), (Lo, D), A, 0, 0),
    ((La, D), (La, S), NONE, 0, 1),
    ((La, D), (La, D), NONE, 0, 0),
    ((La, D), (Kn, S), B, 0, 0),
    ((La, D), (Kn, D), B, 0, 0),
    ((Kn, S), (Lo, S), NONE, 0, 2),
    ((Kn, S), (Lo, D), NONE, 0, 0),
    ((Kn, S), (La, S), NONE, 0, 1),
    ((Kn, S), (La, D), A, 0, 0),
    ((Kn, S), (Kn, S), NONE, 0, 0),
    ((Kn, S), (Kn, D), NONE, 0, 0),
    ((Kn, D), (Lo, S), B, 0, 0),
    ((Kn, D), (Lo, D), B, 0, 0),
    ((Kn, D), (La, S), NONE, 0, 1),
    ((Kn, D), (La, D), A, 0, 0),
    ((Kn, D), (Kn, S), NONE, 0, 0),
    ((Kn, D), (Kn, D), NONE, 0, 0),
]


def matrix_id(row: tuple) -> str:
    names = {Lo: "lord", La: "lady", Kn: "knight", S: "smile", D: "dagger"}
    (r1, o1), (r2, o2) = row[0], row[1]
    return f"{names[r1]}-{names[o1]}-vs-{names[r2]}-{names[o2]}"


class TestTheChallengeMatrix:
    def test_it_has_all_36_cases_once(self) -> None:
        assert len({(row[0], row[1]) for row in MATRIX}) == 36

    def test_the_ranks_form_a_cycle_with_no_mutual_beats(self) -> None:
        assert BEATS == {LORD: LADY, LADY: KNIGHT, KNIGHT: LORD}
        assert VALUE == {LORD: 2, LADY: 1, KNIGHT: 0}

    @pytest.mark.parametrize("row", MATRIX, ids=matrix_id)
    def test_given_two_cards_when_settled_then_eliminations_and_coins_follow_sd_03(
        self, row: tuple
    ) -> None:
        (r1, o1), (r2, o2), gone, coins_a, coins_b = row
        outcome = settle_challenge(Card(r1, o1), Card(r2, o2))
        assert outcome.eliminated == (gone == A, gone == B)
        assert outcome.coins == (coins_a, coins_b)

    @pytest.mark.parametrize("row", MATRIX, ids=matrix_id)
    def test_given_two_cards_when_played_in_a_game_then_the_events_match_sd_03(
        self, row: tuple
    ) -> None:
        (r1, o1), (r2, o2), gone, coins_a, coins_b = row
        table = Table(3)
        events = table.play_challenge(1, (r1, o1), (r2, o2))
        eliminated = [
            (e.public.seat, e.public.rank)
            for e in events
            if isinstance(e.public, pb.CardEliminated)
        ]
        expected = {A: [(0, r1)], B: [(1, r2)], NONE: []}[gone]
        assert eliminated == expected
        assert table.state.coins == (coins_a, coins_b, 0)
        out = [sum(table.state.eliminated[s]) for s in range(3)]
        assert out == [int(gone == A), int(gone == B), 0]


class TestSD01OnlyDaggersEliminate:
    def test_given_lady_smile_against_knight_dagger_then_nothing_is_eliminated(self) -> None:
        # DECISIONS SD-01 test: A Lady SMILE, B Knight DAGGER: A +1, B +0.
        table = Table(3)
        table.play_challenge(1, (LADY, SMILE), (KNIGHT, DAGGER))
        assert table.state.coins == (1, 0, 0)
        assert table.state.eliminated == ((0, 0, 0),) * 3

    def test_given_a_smiling_card_that_beats_a_dagger_then_it_still_eliminates_nothing(
        self,
    ) -> None:
        table = Table(3)
        table.play_challenge(1, (LORD, SMILE), (LADY, DAGGER))
        assert table.state.eliminated == ((0, 0, 0),) * 3
        assert table.state.coins == (2, 0, 0)


class TestSD02EliminatedSmilesDoNotPay:
    def test_given_lady_smile_against_lord_dagger_then_the_lady_is_gone_and_nobody_gains(
        self,
    ) -> None:
        # DECISIONS SD-02 test: A Lady SMILE, B Lord DAGGER: A's Lady out, 0/0.
        table = Table(3)
        table.play_challenge(1, (LADY, SMILE), (LORD, DAGGER))
        assert table.state.coins == (0, 0, 0)
        assert table.state.eliminated[0] == (0, 1, 0)
        assert table.state.in_play[0] == (1, 1, 3)


# ------------------------------------------------------------------ bets

# Which (current, opponent) orientations each shape wins on, and its payout.
WINS = {
    SHAPE.Value("BET_SHAPE_SMILE_CURRENT"): ({(S, S), (S, D)}, 1),
    SHAPE.Value("BET_SHAPE_DAGGER_CURRENT"): ({(D, S), (D, D)}, 1),
    SHAPE.Value("BET_SHAPE_SMILE_OPPONENT"): ({(S, S), (D, S)}, 1),
    SHAPE.Value("BET_SHAPE_DAGGER_OPPONENT"): ({(S, D), (D, D)}, 1),
    SHAPE.Value("BET_SHAPE_SMILE_BOTH"): ({(S, S)}, 2),
    SHAPE.Value("BET_SHAPE_DAGGER_BOTH"): ({(D, D)}, 2),
    SHAPE.Value("BET_SHAPE_SMILE_CURRENT_DAGGER_OPPONENT"): ({(S, D)}, 2),
    SHAPE.Value("BET_SHAPE_DAGGER_CURRENT_SMILE_OPPONENT"): ({(D, S)}, 2),
}
BET_CASES = [(shape, cur, opp) for shape in WINS for cur in (S, D) for opp in (S, D)]


def bet_id(case: tuple) -> str:
    shape, cur, opp = case
    names = {S: "smile", D: "dagger"}
    return f"{SHAPE.Name(shape).lower()}-on-{names[cur]}-{names[opp]}"


class TestSD07BetPayouts:
    def test_there_are_eight_shapes(self) -> None:
        assert len(WINS) == 8 == len(SHAPE.keys()) - 1

    @pytest.mark.parametrize("case", BET_CASES, ids=bet_id)
    def test_given_a_bet_when_the_cards_are_revealed_then_it_pays_per_prediction_or_loses(
        self, case: tuple
    ) -> None:
        shape, cur, opp = case
        winning, pays = WINS[shape]
        assert settle_bet(shape, cur, opp) == (pays if (cur, opp) in winning else None)

    @pytest.mark.parametrize("case", BET_CASES, ids=bet_id)
    def test_given_a_bet_in_a_game_then_the_bettor_gains_or_loses_the_knight(
        self, case: tuple
    ) -> None:
        shape, cur, opp = case
        winning, pays = WINS[shape]
        won = (cur, opp) in winning
        # Knights against Knights: no elimination and no challenge coins,
        # so only the bet moves anything.
        table = Table(3)
        table.send(0, challenge(1))
        table.send(0, commit(KNIGHT, cur))
        table.send(1, commit(KNIGHT, opp))
        table.send(2, bet(shape))
        settled = table.events_of(pb.BetSettled)
        assert [(s.seat, s.shape, s.correct, s.coins) for s in settled] == [
            (2, shape, won, pays if won else 0)
        ]
        assert table.state.coins == (0, 0, pays if won else 0)
        assert table.state.in_play[2] == ((1, 2, 3) if won else (1, 2, 2))
        assert table.state.eliminated[2] == ((0, 0, 0) if won else (0, 0, 1))


class TestSD11RecoveryCost:
    @pytest.mark.parametrize(("hand", "cost"), [(5, 3), (4, 2), (3, 1), (2, 1), (1, 1), (0, 1)])
    def test_the_cost_depends_on_the_hand_before_recovery(self, hand: int, cost: int) -> None:
        assert recovery_cost(hand) == cost
