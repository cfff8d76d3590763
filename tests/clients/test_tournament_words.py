"""`cardroom tournament standings` and `watch` in an 80x24 terminal: every
line fits 80 columns however long the names, the ids and the rounds; a
name too long for the standings is cut there and given whole in the
rounds; every table's game id is on a line of its own, whole (what
`cardroom watch` takes)."""

from __future__ import annotations

import uuid

from cardroom.cli.tournament import WIDTH, _wrapped, describe, standings_lines
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import tournament_pb2 as tnpb

LONG = "Augusta Ada King, Countess of Lovelace"  # 38 characters


def key(i: int) -> bytes:
    return bytes([i]) * 32


def wide_tournament() -> tnpb.TournamentView:
    names = [LONG, *(f"Player number {i} of the evening" for i in range(1, 12))]
    players = [tpb.PlayerProof(public_key=key(i), display_name=n) for i, n in enumerate(names)]
    tables = [
        tnpb.TournamentTable(
            table=t + 1, game_id=str(uuid.uuid4()), seats=[key(6 * t + s) for s in range(5)]
        )
        for t in range(2)
    ]
    standings = [
        tnpb.Standing(
            public_key=key(i),
            place=i + 1,
            half_points=99 - i,
            buchholz_half_points=399 - i,
            wins=12,
            games=15,
            byes=3,
            withdrawn=i == 0,
        )
        for i in range(12)
    ]
    return tnpb.TournamentView(
        created=tnpb.TournamentCreated(
            tournament_id=str(uuid.uuid4()), kind="smiles-and-daggers", table_size=5
        ),
        players=players,
        rounds=[tnpb.RoundPaired(round=1, tables=tables, byes=[key(5), key(11)])],
        results=[tnpb.GameRecorded(round=1, table=1, ranks=[1, 2, 2, 4, 5])],
        standings=standings,
    )


def test_the_standings_fit_an_80_column_terminal() -> None:
    view = wide_tournament()
    lines = standings_lines(view)
    assert max(len(line) for line in lines) <= WIDTH == 80
    ranked = [line for line in lines if " pts  Buchholz " in line]
    assert len(ranked) == 12
    assert ranked[0].startswith(f"  1. {LONG[:15]}… ") and ranked[0].endswith(" withdrew")
    assert "12 of 15 won, 3 bye(s)" in ranked[0]
    text = "\n".join(lines)
    assert f"{LONG} (#1)" in text.replace("\n    ", " ")  # whole in the rounds
    for table in view.rounds[0].tables:
        assert f"    game {table.game_id}" in lines


def test_a_watched_event_wraps_within_80_columns() -> None:
    view = wide_tournament()
    said = describe(view.rounds[0], view)
    assert len(f"   3  {said}") > WIDTH  # one line would run off
    lines = _wrapped(f"   3  {said}")
    assert len(lines) > 1 and max(map(len, lines)) <= WIDTH
    assert all(line.startswith(" " * 7) for line in lines[1:])  # under the event's words
    assert " ".join(line.strip() for line in lines).split() == f"3  {said}".split()
