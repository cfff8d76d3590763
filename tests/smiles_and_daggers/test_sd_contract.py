"""The kernel contract: metadata, options, chance, command shape, turn order
and the order of checks."""

from __future__ import annotations

import random

import pytest

from cardroom.domain.kernel import (
    AUDITOR,
    DEALER,
    OPERATOR,
    SPECTATOR,
    Actor,
    MalformedCommand,
    NotYourTurn,
    RuleViolation,
    Viewer,
)
from cardroom.domain.smiles_and_daggers import GAME
from cardroom.domain.smiles_and_daggers.state import Phase
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb

from .support import (
    DAGGER,
    KNIGHT,
    LADY,
    LORD,
    SMILE,
    Table,
    bet,
    challenge,
    commit,
    given,
    options,
    recover,
)


class TestTheGameModule:
    @pytest.mark.parametrize("seats", [0, 1, 7])
    def test_it_refuses_fewer_than_two_or_more_than_six_players(self, seats: int) -> None:
        with pytest.raises(RuleViolation):
            GAME.initial_state(options(two=True), seats)

    def test_it_rejects_options_of_another_game(self) -> None:
        with pytest.raises(MalformedCommand):
            GAME.initial_state(pb.View(), 3)

    def test_default_options_follow_the_flags_table(self) -> None:
        settings = GAME.initial_state(pb.Options(), 3).settings
        assert settings.allow_two_players is False
        assert settings.come_back is False
        assert settings.recover_lost_bet_knights is True

    def test_recover_lost_bet_knights_can_be_switched_off(self) -> None:
        state = GAME.initial_state(options(recover_knights=False), 3)
        assert state.settings.recover_lost_bet_knights is False


class TestChance:
    def test_a_new_game_waits_for_the_start_seat(self) -> None:
        state = GAME.initial_state(pb.Options(), 4)
        assert GAME.chance_needed(state) is pb.ChooseStartSeat
        assert GAME.legal_actions(state, 0) == []
        assert GAME.winners(state) is None

    def test_the_start_seat_is_drawn_with_the_given_generator(self) -> None:
        state = GAME.initial_state(pb.Options(), 5)
        draws = {GAME.sample_chance(state, random.Random(seed)).seat for seed in range(200)}
        assert draws == set(range(5))
        one = GAME.sample_chance(state, random.Random(7))
        assert one == GAME.sample_chance(state, random.Random(7))

    def test_no_chance_is_needed_once_the_start_seat_is_chosen(self) -> None:
        table = Table(3, families=False)
        assert GAME.chance_needed(table.state) is None
        table = Table(3)
        assert GAME.chance_needed(table.state) is None

    def test_the_dealer_may_choose_the_start_seat_only_once(self) -> None:
        table = Table(3, families=False)
        with pytest.raises(RuleViolation) as caught:
            GAME.decide(table.state, DEALER, pb.ChooseStartSeat(seat=1))
        assert caught.value.rule == "SD-14"

    def test_a_start_seat_outside_the_table_is_malformed(self) -> None:
        state = GAME.initial_state(pb.Options(), 3)
        with pytest.raises(MalformedCommand):
            GAME.decide(state, DEALER, pb.ChooseStartSeat(seat=3))

    def test_the_dealer_sends_no_player_commands(self) -> None:
        table = Table(3)
        with pytest.raises(MalformedCommand):
            GAME.decide(table.state, DEALER, challenge(1))

    def test_seats_and_the_operator_send_no_chance_outcomes(self) -> None:
        state = GAME.initial_state(pb.Options(), 3)
        for actor in (Actor.of_seat(0), OPERATOR):
            with pytest.raises(MalformedCommand):
                GAME.decide(state, actor, pb.ChooseStartSeat(seat=0))


class TestCommandShape:
    @pytest.mark.parametrize(
        "command",
        [
            pb.ChooseFamily(),
            pb.ChooseFamily(family=7),
            pb.RecoverCard(),
            pb.RecoverCard(rank=4),
            pb.ChallengeOpponent(target=3),
            pb.CommitCard(rank=LADY),
            pb.CommitCard(orientation=SMILE),
            pb.CommitCard(rank=9, orientation=SMILE),
            pb.CommitCard(rank=LADY, orientation=3),
            pb.PlaceBet(),
            pb.PlaceBet(shape=9),
            pb.View(),
            pb.Options(),
            pb.ChooseStartSeat(seat=0),
        ],
        ids=lambda c: f"{type(c).__name__}({c})".replace("\n", " "),
    )
    def test_a_malformed_command_is_refused_before_any_rule(self, command: object) -> None:
        table = Table(3)
        with pytest.raises(MalformedCommand):
            GAME.decide(table.state, Actor.of_seat(0), command)  # type: ignore[arg-type]
        # ... even by a seat whose turn it is not.
        with pytest.raises(MalformedCommand):
            GAME.decide(table.state, Actor.of_seat(1), command)  # type: ignore[arg-type]

    def test_a_seat_outside_the_table_cannot_play(self) -> None:
        table = Table(3)
        with pytest.raises(MalformedCommand):
            GAME.decide(table.state, Actor.of_seat(3), challenge(1))


class TestTurnOrder:
    def test_before_the_start_seat_nobody_may_act(self) -> None:
        state = GAME.initial_state(pb.Options(), 3)
        with pytest.raises(NotYourTurn):
            GAME.decide(state, Actor.of_seat(0), pb.ChooseFamily(family=pb.FAMILY_HYDRA))

    def test_only_the_chooser_may_choose_a_family(self) -> None:
        table = Table(3, start=1, families=False)
        with pytest.raises(NotYourTurn):
            GAME.decide(table.state, Actor.of_seat(0), pb.ChooseFamily(family=pb.FAMILY_HYDRA))

    def test_the_chooser_must_choose_before_anything_else(self) -> None:
        table = Table(3, start=1, families=False)
        assert table.refused(1, challenge(0)).rule == "SD-14"

    def test_only_the_tile_holder_acts_at_the_start_of_a_turn(self) -> None:
        table = Table(3)
        for seat in (1, 2):
            with pytest.raises(NotYourTurn):
                GAME.decide(table.state, Actor.of_seat(seat), challenge(0))
            assert table.legal(seat) == []

    def test_the_tile_holder_must_challenge_before_committing_or_betting(self) -> None:
        table = Table(3)
        for command in (commit(LORD, SMILE), bet(pb.BET_SHAPE_SMILE_BOTH), pb.PassBet()):
            assert table.refused(0, command).rule == "SD-13"

    def test_only_the_two_challengers_commit_and_each_only_once(self) -> None:
        table = Table(3)
        table.send(0, challenge(1))
        with pytest.raises(NotYourTurn):
            GAME.decide(table.state, Actor.of_seat(2), commit(LORD, SMILE))
        table.send(1, commit(LORD, SMILE))  # the opponent may commit first
        with pytest.raises(NotYourTurn):
            GAME.decide(table.state, Actor.of_seat(1), commit(LADY, SMILE))
        assert [a.DESCRIPTOR.name for a in table.legal(1)] == []
        assert len(table.legal(0)) == 6

    def test_challengers_must_commit_before_anything_else(self) -> None:
        table = Table(3)
        table.send(0, challenge(1))
        assert table.refused(0, pb.PassBet()).rule == "rulebook: challenge"
        assert table.refused(0, recover(LORD)).rule == "SD-11"

    def test_bettors_act_one_at_a_time_in_order(self) -> None:
        table = Table(4)
        table.send(0, challenge(1))
        table.send(0, commit(LORD, SMILE))
        table.send(1, commit(LORD, SMILE))
        with pytest.raises(NotYourTurn):
            GAME.decide(table.state, Actor.of_seat(3), pb.PassBet())
        assert table.refused(2, commit(LORD, SMILE)).rule == "SD-06"
        table.send(2, pb.PassBet())
        with pytest.raises(NotYourTurn):
            GAME.decide(table.state, Actor.of_seat(2), pb.PassBet())

    def test_nothing_is_accepted_once_the_game_is_over(self) -> None:
        table = given([(1, 2, 3), (1, 2, 3), (1, 2, 3)], [7, 0, 0])
        table.play_challenge(1, (LORD, SMILE), (KNIGHT, SMILE))
        assert table.state.phase is Phase.OVER
        for seat in range(3):
            assert table.legal(seat) == []
            error = table.refused(seat, challenge((seat + 1) % 3))
            assert error.rule == "rulebook: end of the game"


class TestOrderOfChecks:
    def test_turn_order_is_checked_before_the_actors_cards(self) -> None:
        # Seat 2 holds no Lord, but it is not its turn: it learns only that.
        table = given([(1, 2, 3), (1, 2, 3), (0, 2, 3)], [0, 0, 0])
        table.send(0, challenge(1))
        with pytest.raises(NotYourTurn):
            GAME.decide(table.state, Actor.of_seat(2), commit(LORD, DAGGER))

    def test_a_challenger_is_told_only_about_its_own_cards(self) -> None:
        table = given([(1, 2, 3), (0, 2, 3), (1, 2, 3)], [0, 0, 0])
        table.send(0, challenge(1))
        error = table.refused(1, commit(LORD, DAGGER))
        assert error.rule == "rulebook: challenge"
        assert "lord" in error.message


class TestViews:
    def test_the_view_before_the_start_shows_the_options(self) -> None:
        state = GAME.initial_state(options(come_back=True), 3)
        view = GAME.view(state, SPECTATOR)
        assert isinstance(view, pb.View)
        assert view.phase == pb.PHASE_START
        assert view.optional_come_back and view.recover_lost_bet_knights
        assert not view.HasField("start_seat")

    def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others(self) -> None:
        table = Table(3)
        view = table.view(Viewer.of_seat(1))
        mine, other = view.seats[1], view.seats[0]
        assert mine.hand_visible and list(mine.hand) == [LORD, LADY, LADY, KNIGHT, KNIGHT, KNIGHT]
        assert not other.hand_visible and list(other.hand) == [] and other.hand_count == 6
        assert list(view.awaiting) == [0]
        assert view.phase == pb.PHASE_TURN and view.current_seat == 0 and view.turn == 1

    def test_the_auditor_sees_every_hand_and_every_commitment(self) -> None:
        table = Table(3)
        table.send(0, challenge(1))
        table.send(0, commit(LADY, DAGGER))
        view = table.view(AUDITOR)
        assert all(s.hand_visible for s in view.seats)
        assert view.challenge.current.rank == LADY
        assert view.challenge.current.orientation == DAGGER
        assert list(view.awaiting) == [1]
