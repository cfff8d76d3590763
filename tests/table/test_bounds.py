"""Games are bounded at the table, for every game: the game length limit
(T-LENGTH) ends a game that would go on, with the best-placed seats still
playing as winners; a seat whose clock runs out N times in a row leaves
(T-TIMEOUTS), and a game whose seats all left ends (T-RESIGN); the audit
re-decides each of these from the record."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta

import pytest

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import CLOCK, Actor, Forbidden, MalformedCommand, RuleViolation, Viewer
from cardroom.trust.audit import audit_events
from cardroom.trust.envelopes import to_event, unpack
from cardroom.v1 import table_pb2 as tpb
from tests.bounded import steps
from tests.trust.harness import TrustedGame

KINDS = sorted(registry.games())
SECONDS = 30


def _started(kind: str, seats: int, table_options: tpb.TableOptions) -> TrustedGame:
    trusted = TrustedGame(registry.game(kind))
    trusted.create(seats, table_options=table_options)
    trusted.seat_everyone()
    return trusted


def _play_one(trusted: TrustedGame, rng: random.Random) -> None:
    """One random legal command of the lowest awaited seat (the full fold
    gives the same legal actions as the seat's own: tests only)."""
    assert trusted.table is not None
    seat = tables.awaited(trusted.table)[0]
    actions = tables.legal_actions(trusted.table, seat)
    trusted.execute(Actor.of_seat(seat), rng.choice(actions), f"c{len(trusted.stored)}")


def _finished(trusted: TrustedGame) -> tpb.GameFinished:
    last = unpack(trusted.envelopes[-1].event)
    assert isinstance(last, tpb.GameFinished)
    return last


@pytest.mark.parametrize("kind", KINDS)
def test_the_length_limit_ends_every_game_with_the_leaders_still_playing(kind: str) -> None:
    game = registry.game(kind)
    seats = max(game.min_seats, 3)
    trusted = _started(kind, seats, tpb.TableOptions(max_events=tables.MIN_MAX_EVENTS))
    rng = random.Random(2)  # every game reaches the limit with this seed
    assert trusted.table is not None
    trusted.execute(Actor.of_seat(seats - 1), tpb.Resign(), "leave")
    for _ in steps(tables.MIN_MAX_EVENTS, "commands before the limit"):
        if trusted.table.finished:
            break
        _play_one(trusted, rng)
    finished = _finished(trusted)
    assert finished.reason == tpb.GameFinished.REASON_LENGTH_LIMIT
    # At the limit, give or take the last command's batch.
    assert tables.MIN_MAX_EVENTS <= len(trusted.envelopes) < tables.MIN_MAX_EVENTS + 60
    leaders = getattr(game, "leaders")(trusted.table.game_state)  # noqa: B009
    assert list(finished.winners) == sorted(w for w in leaders if w != seats - 1)
    assert finished.winners and seats - 1 not in finished.winners
    report = audit_events(trusted.stored)
    assert report.ok, report.render()


def test_the_length_limit_is_the_tables_and_no_command_passes_it() -> None:
    trusted = _started("smoke-and-mirrors", 3, tpb.TableOptions(max_events=tables.MIN_MAX_EVENTS))
    rng = random.Random(1)
    assert trusted.table is not None
    for _ in steps(tables.MIN_MAX_EVENTS, "commands"):
        if trusted.table.finished:
            break
        _play_one(trusted, rng)
    assert _finished(trusted).reason == tpb.GameFinished.REASON_LENGTH_LIMIT
    with pytest.raises(RuleViolation, match="T-PLAY"):
        tables.decide(trusted.table, Actor.of_seat(0), tpb.Resign())


def test_table_options_take_the_servers_limits_and_refuse_more() -> None:
    recorded = tables.checked_table_options(
        tpb.TableOptions(seconds_per_decision=5), max_events=500, resign_after_timeouts=3
    )
    assert (recorded.max_events, recorded.resign_after_timeouts) == (500, 3)
    asked = tpb.TableOptions(seconds_per_decision=5, max_events=200, resign_after_timeouts=1)
    recorded = tables.checked_table_options(asked, max_events=500, resign_after_timeouts=3)
    assert (recorded.max_events, recorded.resign_after_timeouts) == (200, 1)
    # Without a clock there is nothing to time out.
    assert tables.checked_table_options(None, resign_after_timeouts=3).resign_after_timeouts == 0
    with pytest.raises(MalformedCommand, match="at most 500"):
        tables.checked_table_options(tpb.TableOptions(max_events=501), max_events=500)
    with pytest.raises(MalformedCommand, match="100"):
        tables.checked_table_options(tpb.TableOptions(max_events=10))


def _expire(trusted: TrustedGame) -> int:
    """The lowest awaited seat's clock runs out; that seat."""
    assert trusted.table is not None
    seat = tables.awaited(trusted.table)[0]
    trusted.now += timedelta(seconds=SECONDS)
    trusted.execute(CLOCK, tpb.ClockExpired(seat=seat, version=trusted.table.version))
    return seat


def _clocked(kind: str, seats: int, after: int) -> TrustedGame:
    options = tpb.TableOptions(seconds_per_decision=SECONDS, resign_after_timeouts=after)
    return _started(kind, seats, options)


@pytest.mark.parametrize("kind", KINDS)
def test_an_abandoned_clocked_game_ends_after_n_timeouts_in_a_row(kind: str) -> None:
    seats = max(registry.game(kind).min_seats, 3)
    trusted = _clocked(kind, seats, after=2)
    assert trusted.table is not None
    expiries = 0
    for _ in steps(20 * seats, "expiries"):
        if trusted.table.finished:
            break
        _expire(trusted)
        expiries += 1
    resigned = [
        e
        for e in (unpack(envelope.event) for envelope in trusted.envelopes)
        if isinstance(e, tpb.SeatResigned)
    ]
    assert resigned and all(r.reason == tpb.SeatResigned.REASON_TIMED_OUT for r in resigned)
    assert len(resigned) >= seats - 1
    assert expiries <= 2 * seats
    assert _finished(trusted).reason == tpb.GameFinished.REASON_UNSPECIFIED
    report = audit_events(trusted.stored)
    assert report.ok, report.render()


def test_a_decision_of_its_own_starts_the_count_again() -> None:
    trusted = _clocked("smoke-and-mirrors", 2, after=2)
    rng = random.Random(3)
    assert trusted.table is not None
    seat = _expire(trusted)
    assert trusted.table.timeouts_in_a_row[seat] == 1
    for _ in steps(50, "until the seat is awaited again and acts"):
        if tables.awaited(trusted.table)[0] == seat:
            break
        _play_one(trusted, rng)
    _play_one(trusted, rng)  # the seat decides itself
    assert trusted.table.timeouts_in_a_row[seat] == 0
    for _ in steps(50, "until the seat is awaited again"):
        if tables.awaited(trusted.table)[0] == seat:
            break
        _play_one(trusted, rng)
    assert _expire(trusted) == seat  # one in a row again: still playing
    assert seat not in trusted.table.resigned
    assert not trusted.table.finished
    # Every viewer's fold counts the same: the command record's audience
    # travels in every copy, the command itself only in its actor's.
    for viewer in (Viewer.of_seat(1 - seat), Viewer("spectator")):
        stream = [to_event(e) for e in trusted.copy_for(viewer)]
        counted = tables.replay(trusted.game, stream).timeouts_in_a_row
        assert counted == trusted.table.timeouts_in_a_row


def test_without_the_option_a_seat_times_out_for_ever() -> None:
    trusted = _clocked("smoke-and-mirrors", 2, after=0)
    assert trusted.table is not None
    for _ in range(6):
        _expire(trusted)
    assert not trusted.table.resigned and not trusted.table.finished


def test_the_clock_ends_a_game_whose_seats_are_all_absent() -> None:
    absent_after = 600
    trusted = _started(
        "smiles-and-daggers", 3, tpb.TableOptions(end_when_absent_seconds=absent_after)
    )
    assert trusted.table is not None
    trusted.execute(Actor.of_seat(1), tpb.Resign(), "leave")
    version = trusted.table.version
    with pytest.raises(Forbidden):
        tables.decide(trusted.table, Actor.of_seat(0), tpb.SeatsAbsent(version=version))
    with pytest.raises(RuleViolation, match="T-ABSENT"):
        tables.decide(trusted.table, CLOCK, tpb.SeatsAbsent(version=version - 1))
    trusted.now += timedelta(seconds=absent_after)
    trusted.execute(CLOCK, tpb.SeatsAbsent(version=version))
    assert trusted.table.finished and trusted.table.winners == ()
    left = [unpack(e.event) for e in trusted.envelopes[-3:-1]]
    assert left == [
        tpb.SeatResigned(seat=seat, reason=tpb.SeatResigned.REASON_ABSENT) for seat in (0, 2)
    ]
    report = audit_events(trusted.stored)
    assert report.ok, report.render()


def test_a_game_without_the_option_is_never_ended_for_absence() -> None:
    trusted = _started("smiles-and-daggers", 3, tpb.TableOptions())
    assert trusted.table is not None
    with pytest.raises(RuleViolation, match="T-ABSENT"):
        tables.decide(trusted.table, CLOCK, tpb.SeatsAbsent(version=trusted.table.version))


def test_the_audit_catches_absence_declared_too_early() -> None:
    trusted = _started("smiles-and-daggers", 3, tpb.TableOptions(end_when_absent_seconds=600))
    assert trusted.table is not None
    trusted.now += timedelta(seconds=599)
    trusted.execute(CLOCK, tpb.SeatsAbsent(version=trusted.table.version))
    report = audit_events(trusted.stored)
    assert not report.ok and "600s deadline" in report.render()


INVITE_SEAT_1 = tpb.IssueInvitation(code_sha256=bytes(32), seat=1)


def _unstarted(seats: int, max_events: int = 0) -> tables.Table:
    game = registry.game("smoke-and-mirrors")
    created = tables.create(game, game.options_type(), seats, set_deal=False)
    assert isinstance(created.public, tpb.GameCreated)
    created.public.table_options.max_events = max_events
    table = tables.initial(game, created.public)
    host = tpb.TakeSeat(player_name="A", token_sha256=b"a" * 32)
    for e in tables.decide(table, Actor("guest"), host):
        table = tables.evolve(table, e)
    return table


def test_an_unstarted_game_issues_a_bounded_number_of_invitations() -> None:
    """An invitation flood (40,000 calls grew one unstarted game to 40,002
    events): each seat's share of invitations, then T-INVITE refuses."""
    table = _unstarted(4)
    issued = 0
    for _ in steps(10 * tables.MAX_INVITATIONS_PER_SEAT * 4, "invitations"):
        try:
            events = tables.decide(table, Actor.of_seat(0), INVITE_SEAT_1)
        except RuleViolation as refused:
            assert refused.rule == "T-INVITE"
            assert f"{tables.MAX_INVITATIONS_PER_SEAT} per seat" in str(refused)
            break
        for e in events:
            table = tables.evolve(table, e)
        issued += 1
    assert issued == tables.MAX_INVITATIONS_PER_SEAT * 4
    # The free seats can still be taken (the held one by its code) and the game started.
    for name, code in (("B", bytes(32)), ("C", b""), ("D", b"")):
        taken = tpb.TakeSeat(
            player_name=name, token_sha256=name.encode() * 32, invitation_sha256=code
        )
        for e in tables.decide(table, Actor("guest"), taken):
            table = tables.evolve(table, e)
    assert tables.decide(table, Actor.of_seat(0), tpb.StartGame())


def test_the_length_limit_holds_before_the_start_and_leaves_room_for_the_seats() -> None:
    """T-LENGTH for the table's own events: an invitation that would leave
    no room within the limit for the free seats and the start is refused."""
    # No game's seats and invitations reach the least limit a game may
    # have (MIN_MAX_EVENTS): the backstop is shown on a lower one.
    limit = 30
    table = replace(_unstarted(5), max_events=limit)
    refused = None
    for _ in steps(limit, "invitations"):
        try:
            events = tables.decide(table, Actor.of_seat(0), INVITE_SEAT_1)
        except RuleViolation as error:
            refused = error
            break
        for e in events:
            table = tables.evolve(table, e)
    assert refused is not None and refused.rule == "T-LENGTH"
    assert "T-LENGTH: the game holds" in str(refused)
    assert table.version + 4 + 1 == limit  # exactly room for the free seats and the start
    for seat in range(1, 5):
        taken = tpb.TakeSeat(
            player_name=f"P{seat}", token_sha256=bytes([seat]) * 32, invitation_sha256=bytes(32)
        )
        if seat > 1:
            taken.ClearField("invitation_sha256")
        for e in tables.decide(table, Actor("guest"), taken):
            table = tables.evolve(table, e)
    started = tables.decide(table, Actor.of_seat(0), tpb.StartGame())
    assert table.version + len(started) == limit


# ---------------------------------------------- T-ABSENT: open games nobody starts


def _open_game(seconds: int) -> TrustedGame:
    """A game with one seat taken that nobody starts."""
    trusted = TrustedGame(registry.game("smiles-and-daggers"))
    trusted.create(3, table_options=tpb.TableOptions(end_when_absent_seconds=seconds))
    token = bytes(32)
    trusted.execute(Actor("guest"), tpb.TakeSeat(seat=0, player_name="P0", token_sha256=token))
    return trusted


def test_the_clock_ends_an_open_game_nobody_started() -> None:
    trusted = _open_game(600)
    assert trusted.table is not None
    version = trusted.table.version
    trusted.now += timedelta(seconds=600)
    trusted.execute(CLOCK, tpb.NeverStarted(version=version))
    assert trusted.table.finished and not trusted.table.started
    assert trusted.table.winners == () and trusted.table.resigned == frozenset()
    assert _finished(trusted) == tpb.GameFinished(reason=tpb.GameFinished.REASON_NEVER_STARTED)
    assert len(trusted.envelopes) == version + 1  # GameFinished alone: nobody resigns
    report = audit_events(trusted.stored)
    assert report.ok, report.render()
    with pytest.raises(RuleViolation, match="T-PLAY"):
        tables.decide(
            trusted.table, Actor("guest"), tpb.TakeSeat(player_name="B", token_sha256=bytes(32))
        )


def test_a_write_keeps_an_open_game_and_a_forged_end_is_refused() -> None:
    trusted = _open_game(600)
    assert trusted.table is not None
    stale = trusted.table.version
    trusted.now += timedelta(seconds=599)
    token = bytes(range(32))
    trusted.execute(Actor("guest"), tpb.TakeSeat(seat=1, player_name="P1", token_sha256=token))
    # The join moved the game on: the end armed before it is stale.
    with pytest.raises(RuleViolation, match="T-ABSENT"):
        tables.decide(trusted.table, CLOCK, tpb.NeverStarted(version=stale))
    # Only the table's clock may end it.
    for actor in (Actor.of_seat(0), Actor("operator"), Actor("guest")):
        with pytest.raises(Forbidden):
            tables.decide(trusted.table, actor, tpb.NeverStarted(version=trusted.table.version))
    # A started game is not ended this way (its seats may be absent: SeatsAbsent).
    started = _started("smiles-and-daggers", 3, tpb.TableOptions(end_when_absent_seconds=600))
    assert started.table is not None
    with pytest.raises(RuleViolation, match="T-ABSENT"):
        tables.decide(started.table, CLOCK, tpb.NeverStarted(version=started.table.version))
    # Nor a game without the option (0 as recorded: never).
    never = _open_game(0)
    assert never.table is not None
    with pytest.raises(RuleViolation, match="T-ABSENT"):
        tables.decide(never.table, CLOCK, tpb.NeverStarted(version=never.table.version))


def test_the_audit_refuses_an_open_game_ended_too_early() -> None:
    trusted = _open_game(600)
    assert trusted.table is not None
    trusted.now += timedelta(seconds=599)
    trusted.execute(CLOCK, tpb.NeverStarted(version=trusted.table.version))
    report = audit_events(trusted.stored)
    assert not report.ok and "600s deadline" in report.render()
