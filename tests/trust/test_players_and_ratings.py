"""The players check of the audit and the pure rating rule (T-RATING):
a recorded proof that does not sign its seat is named; a game's ranks come
from its public events alone; unrated games change nothing."""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from google.protobuf import any_pb2

from cardroom.domain import ratings as rules
from cardroom.trust import players
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import table_pb2 as tpb

GAME = "00000000-0000-4000-8000-000000000001"
KEYS = [Ed25519PrivateKey.generate() for _ in range(3)]


def _envelope(sequence: int, event: tpb.SeatTaken) -> epb.EventEnvelope:
    packed = any_pb2.Any()
    packed.Pack(event)
    return epb.EventEnvelope(game_id=GAME, sequence=sequence, event=packed)


def _taken(seat: int, key: Ed25519PrivateKey, signed_seat: int | None = None) -> tpb.SeatTaken:
    commitment = bytes(32)
    proof = players.sign_seat(key, GAME, seat if signed_seat is None else signed_seat, commitment)
    return tpb.SeatTaken(seat=seat, player_name="p", entropy_commitment=commitment, player=proof)


def test_the_audit_names_a_seat_whose_proof_signs_another_seat() -> None:
    good = [_envelope(2, _taken(0, KEYS[0])), _envelope(3, _taken(1, KEYS[1]))]
    problems, summary = players.check_players(good)
    assert not problems and summary.startswith("2 seat(s) signed")
    moved = [_envelope(2, _taken(0, KEYS[0])), _envelope(3, _taken(1, KEYS[1], signed_seat=2))]
    problems, _ = players.check_players(moved)
    assert [(p.check, p.event) for p in problems] == [("players", 3)]
    assert "does not sign seat 1" in problems[0].message


def _game(
    *,
    winners: list[int],
    departed: list[int] = (),
    anonymous: int | None = None,  # type: ignore[assignment]
    set_deal: bool = False,
) -> list[object]:
    events: list[object] = [tpb.GameCreated(kind="k", seat_count=3, set_deal=set_deal)]
    for seat in range(3):
        taken = _taken(seat, KEYS[seat])
        if seat == anonymous:
            taken.ClearField("player")
        events.append(taken)
    events.extend(tpb.SeatResigned(seat=s) for s in departed)
    events.append(tpb.GameFinished(winners=winners))
    return events


def test_ranks_are_winners_then_those_still_playing_then_those_who_left() -> None:
    result = rules.result_of(GAME, _game(winners=[2], departed=[0]))  # type: ignore[arg-type]
    assert result is not None and result.rated
    assert [p.rank for p in result.placings] == [3, 2, 1]
    ratings: dict[tuple[bytes, str], rules.Rating] = {}
    changed = rules.apply(ratings, result)
    by_seat = [changed[p.public_key, "k"] for p in result.placings]
    assert by_seat[2].mu > by_seat[1].mu > by_seat[0].mu
    assert all(r.games == 1 for r in by_seat)
    # Pure and deterministic: the same results in the same order, the same ratings.
    again: dict[tuple[bytes, str], rules.Rating] = {}
    rules.apply(again, result)
    assert again == ratings


NEVER_STARTED = tpb.GameFinished(reason=tpb.GameFinished.REASON_NEVER_STARTED)


def test_unrated_games_change_nothing() -> None:
    unrated = {
        "a seat is anonymous": _game(winners=[0], anonymous=1),
        "the operator set the deal": _game(winners=[0], set_deal=True),
        "every seat left": _game(winners=[0], departed=[0, 1, 2]),
        "nobody started the game": [*_game(winners=[])[:-1], NEVER_STARTED],
    }
    for why, events in unrated.items():
        result = rules.result_of(GAME, events)  # type: ignore[arg-type]
        assert result is not None and result.why_unrated == why
        ratings: dict[tuple[bytes, str], rules.Rating] = {}
        assert rules.apply(ratings, result) == {} and ratings == {}
    assert rules.result_of(GAME, _game(winners=[0])[:-1]) is None  # type: ignore[arg-type]


def test_a_key_holding_two_seats_is_left_out_and_the_others_are_rated() -> None:
    events = _game(winners=[2])
    for event in events:
        if isinstance(event, tpb.SeatTaken) and event.seat == 1:
            event.player.public_key = players.signing.public_key_bytes(KEYS[0])
    result = rules.result_of(GAME, events)  # type: ignore[arg-type]
    assert result is not None and not result.rated  # two seats share a key: one player left
    assert result.why_unrated == "fewer than two players with a seat of their own"
    result = rules.result_of(GAME, _game(winners=[2]))  # type: ignore[arg-type]
    assert result is not None and result.rated and len(result.placings) == 3


def test_a_game_nobody_started_is_a_forfeit_in_a_tournament() -> None:
    """A tournament table whose game ended unstarted (T-ABSENT) is a
    forfeit (TN-FORFEIT): the seats taken share the first rank, the seats
    never taken come after them; nobody came: a draw. So a no-show cannot
    hold a round up for ever, and the audit derives the same ranks."""
    from cardroom.trust.tournament_audit import game_ranks

    def envelopes(events: list[object]) -> list[epb.EventEnvelope]:
        out = []
        for sequence, event in enumerate(events, 1):
            packed = any_pb2.Any()
            packed.Pack(event)  # type: ignore[arg-type]
            out.append(epb.EventEnvelope(game_id=GAME, sequence=sequence, event=packed))
        return out

    assert game_ranks(envelopes(_game(winners=[2]))) == [2, 2, 1]
    assert game_ranks(envelopes([*_game(winners=[])[:-1], NEVER_STARTED])) == [1, 1, 1]
    came = [e for e in _game(winners=[])[:-1] if not isinstance(e, tpb.SeatTaken) or e.seat == 1]
    assert game_ranks(envelopes([*came, NEVER_STARTED])) == [2, 1, 2]
    nobody = [e for e in came if not isinstance(e, tpb.SeatTaken)]
    assert game_ranks(envelopes([*nobody, NEVER_STARTED])) == [1, 1, 1]
