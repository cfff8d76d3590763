"""The client side of the words: a feed told once and in order, the plain
narrator for a game without its own, and the seats file."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardroom.client.feed import Feed, numbered
from cardroom.client.sessions import BotSeat, SeatRecord, SessionError, Sessions
from cardroom.domain.kernel import Event
from cardroom.domain.presentation import PLAIN, describe
from cardroom.domain.table import pack
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb


def envelope(sequence: int, public: object) -> epb.EventEnvelope:
    return epb.EventEnvelope(sequence=sequence, event=pack(public))  # type: ignore[arg-type]


def test_a_feed_tells_each_event_once_and_refuses_a_gap() -> None:
    feed = Feed()
    created = envelope(1, tpb.GameCreated(kind="smoke-and-mirrors", seat_count=2))
    assert feed.tell(created) == ["A game of Smoke & Mirrors for 2 players is set up."]
    assert feed.tell(created) == []  # told already: a reconnect may send it again
    assert feed.tell(envelope(2, tpb.SeatTaken(seat=0, player_name="Ada"))) == [
        "Ada sits down at seat 1."
    ]
    with pytest.raises(ValueError, match="gap"):
        feed.tell(envelope(4, tpb.GameStarted()))
    assert feed.cursor == 2 and feed.names == ("Ada", "") and feed.seats_free == 1


def test_a_feed_of_a_kind_this_client_does_not_know_is_told_plainly() -> None:
    feed = Feed()
    assert feed.tell(envelope(1, tpb.GameCreated(kind="chess", seat_count=2))) == [
        "A game of chess for 2 players is set up."
    ]
    assert feed.tell(envelope(2, tpb.SeatTaken(seat=0, player_name="Ada"))) == [
        "Ada sits down at seat 1."
    ]
    assert feed.tell(envelope(3, sm.BreakTaken(seat=0))) == ["Break taken: seat Ada"]


def test_the_plain_narrator_names_seats_and_keeps_zeros() -> None:
    names = ["Ada", "Bo"]
    event = Event(
        sm.ActChallenged(challenger=1, actor=0, claim=3, act_was_true=False, eliminated=0)
    )
    [line] = PLAIN.event(None, event, names)
    assert line == (
        "Act challenged: challenger Bo, actor Ada, claim 3, act was true False, eliminated Ada"
    )
    assert describe(sm.RoundWon(round=2), names) == "round 2, seat none"
    assert PLAIN.action(sm.TakeBreak(), sm.View(), names) == "Take break"


def test_numbered_lines_keep_the_sequence_on_the_first_line_only() -> None:
    assert numbered(7, ["one", "two"]) == ["#7    one", "      two"]


def test_seats_are_kept_for_their_owner_only_and_found_again(tmp_path: Path) -> None:
    sessions = Sessions.at(tmp_path / "state" / "seats.json")
    assert sessions.load() == {} and sessions.latest() is None
    first = SeatRecord("h:1", "g1", "smoke-and-mirrors", 0, "t1", "Ada", saved_at=1.0)
    second = SeatRecord(
        "h:1", "g2", "smoke-and-mirrors", 2, "t2", "Ada", (BotSeat(0, "b", "random"),), 2.0
    )
    sessions.save(first)
    sessions.save(second)
    assert sessions.find("h:1", "g1") == first and sessions.find("h:2", "g1") is None
    assert sessions.latest() == second
    assert sessions.path.stat().st_mode & 0o077 == 0
    assert sessions.path.parent.stat().st_mode & 0o077 == 0


def test_an_unreadable_seats_file_is_an_error_that_says_where(tmp_path: Path) -> None:
    path = tmp_path / "seats.json"
    path.write_text("not json")
    with pytest.raises(SessionError, match=r"seats\.json: not a seats file"):
        Sessions.at(path).load()


def test_the_seats_file_follows_xdg_state_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert Sessions.at().path == tmp_path / "cardroom" / "seats.json"
