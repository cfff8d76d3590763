"""The turn (SL-03), the start player (SL-02), taking the top discard
(SL-04, SL-21), the end of the game (SL-05), discarding as the always-legal
play (SL-18) and the river variant (SL-20)."""

from __future__ import annotations

from cardroom.domain.kernel import SPECTATOR
from cardroom.smile_life.v1 import smile_life_pb2 as pb

from .support import (
    PETS,
    TRIPS,
    Table,
    after_draw,
    deck,
    discard,
    draw,
    given,
    life,
    malus,
    options,
    person,
    take,
)


def test_a_tie_for_the_most_smiles_in_hand_goes_to_the_lowest_seat() -> None:
    hands = [
        ["malus_accident"] * 5,
        ["pet_cat", *["malus_illness"] * 4],
        ["pet_dog", *["malus_burn_out"] * 4],
    ]
    table = Table(3, deal=[deck(hands)])
    assert table.state.current == 1 and table.state.start_seat == 1 and table.state.turn == 1


def test_each_player_is_dealt_five_cards_seen_by_them_alone() -> None:
    table = Table(4, seed=3)
    assert [len(hand) for hand in table.state.hands] == [5, 5, 5, 5]
    assert len(table.state.pile) == 200 - 20
    for seat in range(4):
        fold = table.fold(seat)
        assert fold.hands[seat] == table.state.hands[seat]
        assert all(c is None for s in range(4) if s != seat for c in fold.hands[s])
        assert set(fold.pile) == {None}
    assert set(table.fold(None).hands[0]) == {None}


def test_a_turn_is_one_draw_then_exactly_one_play() -> None:
    table = given([[*PETS, "salary_1"], [*TRIPS, "salary_2"]])
    assert table.refused(0, life("pet_cat")).rule == "SL-03"
    table.send(0, draw())
    assert table.refused(0, draw()).rule == "SL-03"
    assert len(table.state.hands[0]) == 6
    table.send(0, life("pet_cat"))
    assert len(table.state.hands[0]) == 5 and table.state.current == 1


def test_any_card_in_hand_may_always_be_discarded() -> None:
    table = after_draw(given([[*PETS, "malus_prison"], [*TRIPS, "salary_2"]]))
    plays = table.legal(0)
    for card in set(table.hand(0)):
        assert discard(card) in plays


def test_the_top_discard_is_taken_only_to_be_played_at_once() -> None:
    table = given([[*PETS, "salary_1"], [*TRIPS, "salary_2"]], discard=[("salary_3", 1)])
    assert table.refused(0, take()).rule == "SL-21"  # no job: a salary cannot be played
    assert take() not in table.legal(0)
    table = given([[*PETS, "salary_1"], [*TRIPS, "salary_2"]], discard=[("pet_unicorn", 1)])
    table.send(0, take())
    assert table.state.held == "pet_unicorn" and table.legal(0) == [life("pet_unicorn")]
    table.send(0, life("pet_unicorn"))
    assert len(table.state.hands[0]) == 5 and table.state.current == 1


def test_a_card_discarded_by_someone_else_after_you_may_be_taken_again() -> None:
    table = given(
        [[*PETS, "malus_dismissal"], ["pet_unicorn", *TRIPS[:3], "salary_2"]],
        discard=[("writer", 0)],
    )
    assert table.refused(0, take()).rule == "SL-04"
    after_draw(table).send(0, life("pet_cat"))
    table.send(1, take())
    table.send(1, life("writer"))
    after_draw(table).send(0, malus("malus_dismissal", 1))
    assert table.state.discard[-1] == ("writer", 1)  # the victim's discard now
    assert table.refused(1, take()).rule == "SL-04"
    after_draw(table).send(1, life("pet_unicorn"))
    table.send(0, take())
    table.send(0, life("writer"))
    assert table.life(0).job == "writer"


def test_the_game_ends_when_a_turn_ends_with_the_draw_pile_empty() -> None:
    table = given([[*PETS, "salary_1"], [*TRIPS, "salary_2"]], pile=["pet_unicorn"], only_pile=True)
    table.send(0, draw())
    assert table.state.winners is None  # the turn goes on
    table.send(0, life("pet_unicorn"))
    [ended] = table.events_of(pb.GameEnded)
    assert list(ended.smiles) == [3, 0] and list(ended.winners) == [0]
    assert table.legal(0) == table.legal(1) == []
    assert table.refused(1, draw()).rule == "SL-05"


def test_draws_cut_short_by_an_empty_pile_are_skipped() -> None:
    table = given(
        [["special_luck", *PETS], TRIPS], pile=["salary_1", "pet_unicorn"], only_pile=True
    )
    after_draw(table).send(0, life("special_luck"))
    assert table.state.luck == ("pet_unicorn",) and not table.state.pile
    table.send(0, pb.ChooseLuckCard(card="pet_unicorn"))
    table.send(0, life("pet_unicorn"))
    assert table.state.winners == (0,)


def test_a_tie_shares_the_win() -> None:
    lives = [person(pets=["pet_unicorn"]), person()]
    table = given(
        [[*PETS, "salary_1"], [*TRIPS, "salary_2"]], lives, pile=["house_villa"], only_pile=True
    )
    table.send(0, draw())
    table.send(0, discard("house_villa"))
    assert table.state.winners == (0,)
    lives = [person(pets=["pet_unicorn"]), person(houses=["house_villa"])]
    table = given(
        [[*PETS, "salary_1"], [*TRIPS, "salary_2"]], lives, pile=["salary_3"], only_pile=True
    )
    table.send(0, draw())
    table.send(0, discard("salary_3"))
    assert table.state.winners == (0, 1)


def test_the_river_offers_three_face_up_cards_to_keep_or_play() -> None:
    cards = deck(
        [[*PETS, "salary_1"], [*TRIPS, "salary_2"]], river=["pet_unicorn", "salary_3", "flirt_bar"]
    )
    table = Table(2, options(river_variant=True), deal=[cards])
    assert table.state.river == ("pet_unicorn", "salary_3", "flirt_bar")
    assert table.view(SPECTATOR).river == ["pet_unicorn", "salary_3", "flirt_bar"]
    assert pb.TakeRiverCard(card="salary_3") in table.legal(0)
    top = table.state.pile[0]
    table.send(0, pb.TakeRiverCard(card="salary_3"))
    assert table.state.river == ("pet_unicorn", "flirt_bar", top)
    assert "salary_3" in table.fold(1).hands[0]  # everyone saw it taken
    table.send(0, discard("pet_cat"))  # kept in hand
    assert "salary_3" in table.hand(0)


def test_the_river_is_refreshed_after_a_full_round_without_a_taker() -> None:
    cards = deck(
        [[*PETS, "salary_1"], [*TRIPS, "salary_2"]], river=["pet_unicorn", "salary_3", "flirt_bar"]
    )
    table = Table(2, options(river_variant=True), deal=[cards])
    after_draw(table).send(0, discard("pet_cat"))
    assert table.state.river_idle == 1
    after_draw(table).send(1, discard("trip_london"))
    assert [c for c, _ in table.state.discard[-3:]] == ["pet_unicorn", "salary_3", "flirt_bar"]
    assert {by for _, by in table.state.discard[-3:]} == {None}
    assert len(table.state.river) == 3 and table.state.river_idle == 0


def test_without_the_option_there_is_no_river() -> None:
    table = Table(2, seed=1)
    assert table.state.river == ()
    assert table.refused(table.state.current or 0, pb.TakeRiverCard(card="pet_cat")).rule == "SL-20"


def test_a_malus_on_a_player_is_a_play() -> None:
    table = after_draw(given([["malus_accident", *PETS], [*TRIPS, "salary_2"]]))
    table.send(0, malus("malus_accident", 1))
    assert table.state.current == 0  # seat 1 misses its turn at once
