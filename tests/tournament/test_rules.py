"""The tournament's decider, command by command: what it records, and what
it refuses with the rule it names (docs/rules/tournaments.md)."""

from __future__ import annotations

import hashlib

import pytest

from cardroom.domain.kernel import MalformedCommand, RuleViolation
from cardroom.domain.tournament import view
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as sd
from cardroom.v1 import tournament_pb2 as tnpb
from tests.tournament.builder import (
    KIND,
    ROUND_ROBIN,
    SEED,
    SWISS,
    Driver,
    closed,
    key,
    opened,
    register,
)


def refused(driver: Driver, command: object, rule: str) -> None:
    before = driver.state
    with pytest.raises(RuleViolation) as raised:
        driver.do(command)  # type: ignore[arg-type]
    assert raised.value.rule == rule
    assert driver.state is before


def test_creating_fills_in_the_bye_as_a_tables_average() -> None:
    driver = Driver()
    [created] = driver.do(
        tnpb.CreateTournament(tournament_id="t", kind=KIND, table_size=4, format=SWISS, rounds=3)
    )
    assert isinstance(created.public, tnpb.TournamentCreated)
    assert created.public.bye_half_points == 3  # 1.5 points: the mean of 3, 2, 1, 0


@pytest.mark.parametrize(
    ("table_size", "rounds", "rule"),
    [(7, 3, "TN-TABLE"), (1, 3, "TN-TABLE"), (3, 0, "TN-ROUNDS"), (3, 65, "TN-ROUNDS")],
)
def test_a_table_the_game_cannot_seat_or_a_swiss_without_rounds_is_refused(
    table_size: int, rounds: int, rule: str
) -> None:
    command = tnpb.CreateTournament(
        tournament_id="t", kind=KIND, table_size=table_size, format=SWISS, rounds=rounds
    )
    refused(Driver(), command, rule)


def test_a_table_size_the_games_options_do_not_allow_is_refused() -> None:
    """Smiles & Daggers seats 2 only with allow_two_players (DECISIONS 1.1):
    options given without it are refused; no options at all take the
    variant the table size needs (T-VARIANT), as a game's creation does."""
    command = tnpb.CreateTournament(
        tournament_id="t", kind=KIND, table_size=2, format=SWISS, rounds=1
    )
    command.options.Pack(sd.Options())
    refused(Driver(), command, "TN-TABLE")
    command.ClearField("options")
    [variant] = Driver().do(command)
    assert isinstance(variant.public, tnpb.TournamentCreated)
    command.options.Pack(sd.Options(allow_two_players=True))
    [created] = Driver().do(command)
    assert isinstance(created.public, tnpb.TournamentCreated)
    assert created.public.options == command.options
    command.options.Pack(tnpb.Standing())
    with pytest.raises(MalformedCommand):
        Driver().do(command)


def test_an_unknown_kind_or_format_is_malformed() -> None:
    for command in (
        tnpb.CreateTournament(tournament_id="t", kind="chess", table_size=2, format=SWISS),
        tnpb.CreateTournament(tournament_id="t", kind=KIND, table_size=3, rounds=1),
        tnpb.CreateTournament(kind=KIND, table_size=3, format=SWISS, rounds=1),
    ):
        with pytest.raises(MalformedCommand):
            Driver().do(command)


def test_a_player_registers_once_with_a_whole_key() -> None:
    driver = opened(2)
    refused(driver, register(public_key=key(0)), "TN-REGISTER")
    with pytest.raises(MalformedCommand):
        driver.do(register(public_key=b"short"))


def test_registration_closes_only_with_a_table_full_and_then_stays_closed() -> None:
    driver = opened(2, table_size=3)
    commitment = hashlib.sha256(SEED).digest()
    refused(driver, tnpb.CloseRegistration(seed_commitment=commitment), "TN-FIELD")
    driver.do(register(public_key=key(2)))
    driver.do(tnpb.CloseRegistration(seed_commitment=commitment))
    refused(driver, register(public_key=key(3)), "TN-REGISTER")
    assert driver.state.field == (key(0), key(1), key(2))


def test_a_round_needs_the_committed_seed_and_the_rounds_in_order() -> None:
    driver = closed(6)
    refused(driver, tnpb.PairRound(round=1, seed=bytes(32)), "TN-SEED")
    refused(driver, tnpb.PairRound(round=2, seed=SEED), "TN-ROUND")
    driver.pair(1)
    refused(driver, tnpb.PairRound(round=2, seed=SEED), "TN-ROUND")


def test_a_round_pairs_every_player_once_with_the_game_ids_given() -> None:
    driver = closed(7, table_size=3)
    paired = driver.pair(1)
    seated = [k for t in paired.tables for k in t.seats] + list(paired.byes)
    assert sorted(seated) == sorted(key(i) for i in range(7))
    assert [t.game_id for t in paired.tables] == ["r1t1", "r1t2"]
    assert len(paired.byes) == 1
    with pytest.raises(MalformedCommand):
        closed(7).do(tnpb.PairRound(round=1, seed=SEED, game_ids=["only one"]))
    for number, table in ((1, 1), (1, 2)):
        driver.do(
            tnpb.RecordGame(round=number, table=table, game_id=f"r1t{table}", ranks=[1, 2, 3])
        )
    with pytest.raises(MalformedCommand):  # a game of round 1 again
        driver.do(tnpb.PairRound(round=2, seed=SEED, game_ids=["r1t1", "new"]))


def test_a_result_names_the_tables_game_once_with_a_rank_per_seat() -> None:
    driver = closed(6)
    paired = driver.pair(1)
    table = paired.tables[0]
    refused(
        driver, tnpb.RecordGame(round=1, table=1, game_id="other", ranks=[1, 2, 3]), "TN-RESULT"
    )
    refused(driver, tnpb.RecordGame(round=1, table=9, game_id="x", ranks=[1, 2, 3]), "TN-RESULT")
    refused(
        driver,
        tnpb.RecordGame(round=2, table=1, game_id=table.game_id, ranks=[1, 2, 3]),
        "TN-RESULT",
    )
    for ranks in ([1, 2], [2, 2, 3], [1, 2, 0], [1, 2, 65]):
        with pytest.raises(MalformedCommand):
            driver.do(tnpb.RecordGame(round=1, table=1, game_id=table.game_id, ranks=ranks))
    driver.do(tnpb.RecordGame(round=1, table=1, game_id=table.game_id, ranks=[1, 1, 3]))
    refused(
        driver,
        tnpb.RecordGame(round=1, table=1, game_id=table.game_id, ranks=[1, 2, 3]),
        "TN-RESULT",
    )


def test_the_last_result_of_a_round_completes_it_with_the_standings() -> None:
    driver = closed(6)
    driver.play_round(1)
    last = driver.events[-1].public
    assert isinstance(last, tnpb.RoundCompleted)
    assert last.round == 1
    assert sorted(s.half_points for s in last.standings) == [0, 0, 2, 2, 4, 4]


def test_the_tournament_finishes_after_its_last_round_and_reveals_the_seed() -> None:
    driver = closed(6, rounds=2)
    driver.play_round(1)
    refused(driver, tnpb.FinishTournament(seed=SEED), "TN-FINISH")
    driver.play_round(2)
    refused(driver, tnpb.PairRound(round=3, seed=SEED), "TN-ROUND")
    assert view(driver.state).seed == b""
    refused(driver, tnpb.FinishTournament(seed=bytes(32)), "TN-SEED")
    [finished] = driver.do(tnpb.FinishTournament(seed=SEED))
    assert isinstance(finished.public, tnpb.TournamentFinished)
    assert [s.place for s in finished.public.standings] == [1, 2, 3, 4, 5, 6]
    assert view(driver.state).seed == SEED
    refused(driver, tnpb.WithdrawPlayer(public_key=key(0)), "TN-STATE")


def test_a_player_who_withdraws_has_no_table_or_bye_after_and_keeps_a_line() -> None:
    driver = closed(7, table_size=3, rounds=3)
    driver.play_round(1)
    driver.do(tnpb.WithdrawPlayer(public_key=key(0)))
    refused(driver, tnpb.WithdrawPlayer(public_key=key(0)), "TN-LEAVE")
    paired = driver.play_round(2)
    assert key(0) not in [k for t in paired.tables for k in t.seats] + list(paired.byes)
    assert not paired.byes  # 6 still playing: two full tables
    standing = {s.public_key: s for s in view(driver.state).standings}
    assert standing[key(0)].withdrawn and len(standing) == 7


def test_a_player_who_withdraws_before_the_close_is_not_in_the_field() -> None:
    driver = opened(5, table_size=3, rounds=2)
    driver.do(tnpb.WithdrawPlayer(public_key=key(4)))
    driver.do(tnpb.CloseRegistration(seed_commitment=hashlib.sha256(SEED).digest()))
    assert key(4) not in driver.state.field and len(driver.state.field) == 4
    paired = driver.play_round(1)
    assert key(4) not in [*paired.byes, *(k for t in paired.tables for k in t.seats)]
    assert key(4) not in [s.public_key for s in view(driver.state).standings]
    driver.play_round(2)
    [done] = driver.do(tnpb.FinishTournament(seed=SEED))
    assert [s.public_key for s in done.public.standings if s.public_key == key(4)] == []


def test_the_field_too_small_for_a_table_may_finish_early() -> None:
    driver = closed(3, table_size=3, rounds=3)
    driver.play_round(1)
    driver.do(tnpb.WithdrawPlayer(public_key=key(1)))
    refused(driver, tnpb.PairRound(round=2, seed=SEED), "TN-FIELD")
    driver.do(tnpb.FinishTournament(seed=SEED))
    assert driver.state.finished


def test_a_round_robin_of_zero_rounds_plays_its_whole_schedule() -> None:
    driver = closed(5, table_size=2, rounds=0, format=ROUND_ROBIN)
    assert driver.state.planned_rounds == 5
    for number in range(1, 6):
        driver.play_round(number)
    refused(driver, tnpb.PairRound(round=6, seed=SEED), "TN-ROUND")


def test_every_viewer_sees_the_same_and_no_seed_before_the_end() -> None:
    driver = closed(6)
    driver.play_round(1)
    shown = view(driver.state)
    assert shown.seed == b"" and shown.seed_commitment == hashlib.sha256(SEED).digest()
    assert SEED not in shown.SerializeToString()
    assert len(shown.rounds) == 1 and len(shown.results) == 2


def test_in_a_round_robin_the_opponent_of_a_player_who_withdrew_has_a_bye() -> None:
    driver = closed(4, table_size=2, rounds=0, format=ROUND_ROBIN)
    driver.play_round(1)
    driver.do(tnpb.WithdrawPlayer(public_key=key(0)))
    paired = driver.play_round(2)
    assert len(paired.tables) == 1 and len(paired.byes) == 1
    assert key(0) not in [*paired.byes, *(k for t in paired.tables for k in t.seats)]
