"""DECISIONS G-03, winners when seats have left, in each game's own decider
(so the audit re-runs it): the ranking that names the winners considers the
seats still playing, though a departed seat's cards keep their effects. The
rulings' own examples (Smiles & Daggers, Smile Life) and Silver Dagger's
tie-break from a departed dagger holder."""

from __future__ import annotations

from cardroom.domain.kernel import event
from cardroom.domain.silver_dagger.scoring import winner
from cardroom.v1 import table_pb2 as tpb

LEFT = tpb.SeatResigned.REASON_RESIGNED


def departs(seat: int) -> list:
    return [event(tpb.SeatResigned(seat=seat, reason=LEFT))]


def test_smiles_and_daggers_the_nine_coin_seat_wins_beside_a_departed_twelve() -> None:
    from tests.smiles_and_daggers.support import KNIGHT, SMILE, Table, given

    full = (1, 2, 3)
    table: Table = given([full, full, full], [9, 7, 12])
    table.apply(departs(2))
    table.play_challenge(1, (KNIGHT, SMILE), (KNIGHT, SMILE))
    assert table.state.winners == (0,)
    assert table.state.coins == (9, 7, 12)


def test_smiles_and_daggers_a_departed_leader_does_not_stop_a_strict_leader() -> None:
    from tests.smiles_and_daggers.support import KNIGHT, SMILE, given

    full = (1, 2, 3)
    table = given([full, full, full], [9, 9, 12])
    table.apply(departs(2))
    table.play_challenge(1, (KNIGHT, SMILE), (KNIGHT, SMILE))
    assert table.state.winners is None  # 9 and 9: SD-09 names nobody yet


def test_smile_life_seat_zero_wins_beside_a_departed_thirty() -> None:
    from cardroom.smile_life.v1 import smile_life_pb2 as pb
    from tests.smile_life.support import discard, draw, given, person

    levels = iter([f"salary_{1 + i % 4}" for i in range(40)])  # the 40 salaries, 10 a level

    def life(salaries: int, flirts: list[str], children: list[str], pet: str):  # type: ignore[no-untyped-def]
        return person(
            salaries=[next(levels) for _ in range(salaries)],
            flirts=flirts,
            children=children,
            pets=[pet],
        )

    locations = ["bar", "internet", "restaurant", "cinema", "theatre"]
    lives = [
        life(15, [f"flirt_{p}" for p in locations], ["child_luke", "child_leia"], "pet_cat"),
        life(
            10,
            [f"flirt_{p}" for p in locations],
            ["child_mario", "child_luigi", "child_zelda"],
            "pet_dog",
        ),
        life(
            15,
            [f"flirt_{p}" for p in ["zoo", "park", "nightclub", "hotel", "camping"] * 2],
            ["child_harry", "child_lara"],
            "pet_rabbit",
        ),
    ]
    hands = [["study_single"] * 5, ["study_single"] * 5, ["study_single"] * 5]
    table = given(hands, lives, pile=["study_double"], only_pile=True)
    assert table.state.smiles() == [25, 22, 30]
    table.apply(departs(2))
    table.send(0, draw())
    table.send(0, discard("study_double"))
    [ended] = table.events_of(pb.GameEnded)
    assert list(ended.smiles) == [25, 22, 30]
    assert list(ended.winners) == [0]


def test_silver_dagger_the_tie_break_searches_from_a_departed_holder() -> None:
    # A (departed) has the fewest points and holds the dagger; C and D tie
    # among the seats still playing: from A clockwise, B, then C wins.
    totals = [20, 40, 30, 30]
    assert winner(totals, 0) == 0
    assert winner(totals, 0, playing=[1, 2, 3]) == 2
    # Counter-clockwise from D (the holder still playing): D wins its own tie.
    assert winner(totals, 3, playing=[1, 2, 3]) == 3
