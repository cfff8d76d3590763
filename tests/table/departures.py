"""The tests of DECISIONS G-02, G-03, SD-15, SD-16, SM-11, SV-28 and SL-37
as scenarios: a set deal, then steps (a seat's command, a seat leaving, a
seat's clock running out, or play to the end), with checks of what is public
after each stage. The same data is played through the pure rules
(tests/table/test_departure_scenarios.py, through the trust harness, then
audited) and through gRPC (tests/service/test_departure_scenarios_api.py),
so a check reads only what every client can read: the public events, the
spectator's view, the table's end and winners, each seat's legal actions
and, for the operator, the dealer's outcomes.

Where the dealer draws (a timed-out seat's target), the check accepts any
legal draw: the pure runs and the server use different seeds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from google.protobuf.message import Message

from cardroom.silver_dagger.v1 import silver_dagger_pb2 as sv
from cardroom.smile_life.v1 import smile_life_pb2 as sl
from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as sd
from cardroom.smoke_and_mirrors.v1 import smoke_and_mirrors_pb2 as sm
from cardroom.v1 import table_pb2 as tpb

# ------------------------------------------------------------------ steps


@dataclass(frozen=True)
class Act:
    seat: int
    command: Message


@dataclass(frozen=True)
class Leave:
    """The seat resigns (T-RESIGN)."""

    seat: int


@dataclass(frozen=True)
class TimeOut:
    """The turn clock runs out for ``seat`` (None: the one seat awaited)."""

    seat: int | None = None


@dataclass(frozen=True)
class PlayOut:
    """Until the game ends, the lowest seat with legal actions plays its
    first one (a test driver, not a rule)."""


Step = Act | Leave | TimeOut | PlayOut


@dataclass(frozen=True)
class Seen:
    """What a check may read."""

    events: list[Message]  # the public part of every event so far
    view: Message  # the game's view for a spectator
    finished: bool
    winners: tuple[int, ...]
    legal: dict[int, list[Message]]  # each seat's legal actions (no Resign)
    dealer: list[Message]  # the dealer's outcomes (the operator's audit log)

    def of(self, kind: type[Message]) -> list[Message]:
        return [e for e in self.events if isinstance(e, kind)]

    def after_leaving(self, seat: int) -> list[Message]:
        """The events after ``seat`` resigned."""
        for index, e in enumerate(self.events):
            if isinstance(e, tpb.SeatResigned) and e.seat == seat:
                return self.events[index + 1 :]
        raise AssertionError(f"seat {seat} never left")


Check = Callable[[Seen], None]


@dataclass(frozen=True)
class Stage:
    steps: tuple[Step, ...]
    checks: tuple[Check, ...] = ()


@dataclass(frozen=True)
class Scenario:
    name: str
    kind: str
    seats: int
    chance: tuple[Message, ...]
    stages: tuple[Stage, ...]
    options: Message | None = None

    @property
    def uses_clock(self) -> bool:
        return any(isinstance(s, TimeOut) for st in self.stages for s in st.steps)


SCENARIOS: list[Scenario] = []


def scenario(s: Scenario) -> Scenario:
    SCENARIOS.append(s)
    return s


# ----------------------------------------------------------------- checks


def finished_with(*winners: int) -> Check:
    def check(seen: Seen) -> None:
        assert seen.finished, "the game goes on"
        assert seen.winners == winners, seen.winners

    return check


def not_finished(seen: Seen) -> None:
    assert not seen.finished


def legal_is(seat: int, *commands: Message) -> Check:
    def check(seen: Seen) -> None:
        assert seen.legal[seat] == list(commands), seen.legal[seat]

    return check


def awaits(seat: int) -> Check:
    def check(seen: Seen) -> None:
        assert seen.legal[seat], f"seat {seat} is not awaited"
        assert not [s for s, legal in seen.legal.items() if legal and s != seat]

    return check


def last_of(kind: type[Message], expected: Message) -> Check:
    def check(seen: Seen) -> None:
        found = seen.of(kind)
        assert found and found[-1] == expected, found[-1:]

    return check


# -------------------------------------------------------- Smiles & Daggers

SD = "smiles-and-daggers"
S, D = sd.ORIENTATION_SMILE, sd.ORIENTATION_DAGGER
LORD, LADY, KNIGHT = sd.RANK_LORD, sd.RANK_LADY, sd.RANK_KNIGHT


def families(seats: int, start: int = 0) -> tuple[Step, ...]:
    return tuple(Act((start + k) % seats, sd.ChooseFamily(family=k + 1)) for k in range(seats))


def sd_turn(
    current: int,
    opponent: int,
    mine: tuple[int, int],
    theirs: tuple[int, int],
    passing: Sequence[int] = (),
) -> tuple[Step, ...]:
    """A challenge and both commitments, then ``passing`` bettors pass."""
    return (
        Act(current, sd.ChallengeOpponent(target=opponent)),
        Act(current, sd.CommitCard(rank=mine[0], orientation=mine[1])),
        Act(opponent, sd.CommitCard(rank=theirs[0], orientation=theirs[1])),
        *(Act(seat, sd.PassBet()) for seat in passing),
    )


def coins(*expected: int) -> Check:
    def check(seen: Seen) -> None:
        view = seen.view
        assert isinstance(view, sd.View)
        assert tuple(s.coins for s in view.seats) == expected, [s.coins for s in view.seats]

    return check


def sd_reason(reason: int) -> Check:
    def check(seen: Seen) -> None:
        [ended] = seen.of(sd.GameEnded)
        assert ended.reason == reason, ended

    return check


def seat_never_challenged_or_challenging(seat: int) -> Check:
    def check(seen: Seen) -> None:
        for e in seen.after_leaving(seat):
            if isinstance(e, sd.OpponentChallenged):
                assert seat not in (e.current_seat, e.opponent_seat), e
            if isinstance(e, sd.BettingOpened):
                assert seat not in e.bettors, e

    return check


def tile_skips(seat: int) -> Check:
    def check(seen: Seen) -> None:
        started = [e.seat for e in seen.after_leaving(seat) if isinstance(e, sd.TurnStarted)]
        assert started and seat not in started, started

    return check


def overtime_left(turns: int) -> Check:
    def check(seen: Seen) -> None:
        view = seen.view
        assert isinstance(view, sd.View)
        assert view.HasField("overtime_turns_left") and view.overtime_turns_left == turns, view

    return check


scenario(
    Scenario(
        name="SD-16, G-02 and G-03: the departed seat is never challenged and its coins do not win",
        kind=SD,
        seats=3,
        chance=(sd.ChooseStartSeat(seat=0),),
        stages=(
            Stage(
                (
                    *families(3),
                    *sd_turn(0, 2, (KNIGHT, S), (LADY, S), passing=[1]),
                    *sd_turn(1, 2, (LORD, S), (LORD, S), passing=[0]),
                ),
                (coins(0, 2, 3),),
            ),
            # Seat 2 leaves with 3 coins when the tile is its own: its turn passes.
            Stage(
                (Leave(2),),
                (
                    last_of(sd.TurnSkipped, sd.TurnSkipped(seat=2)),
                    legal_is(0, sd.ChallengeOpponent(target=1)),
                ),
            ),
            Stage(
                sd_turn(0, 1, (KNIGHT, S), (KNIGHT, S)),
                (
                    last_of(sd.BettingOpened, sd.BettingOpened(bettors=[])),
                    legal_is(1, sd.ChallengeOpponent(target=0)),
                ),
            ),
            # Knights smiling at each other change nothing: 2 x 2 quiet turns
            # (the skipped one included) end it, most coins among 0 and 1.
            Stage(
                (*sd_turn(1, 0, (KNIGHT, S), (KNIGHT, S)),),
                (not_finished,),
            ),
            Stage(
                sd_turn(0, 1, (KNIGHT, S), (KNIGHT, S)),
                (
                    finished_with(1),
                    coins(0, 2, 3),
                    sd_reason(sd.GAME_END_REASON_STALEMATE),
                    seat_never_challenged_or_challenging(2),
                    tile_skips(2),
                ),
            ),
        ),
    )
)

scenario(
    Scenario(
        name="SD-15(b): two players level at 9 and more end after the overtime, sharing the win",
        kind=SD,
        seats=2,
        options=sd.Options(allow_two_players=True),
        chance=(sd.ChooseStartSeat(seat=0),),
        stages=(
            Stage(
                (
                    *families(2),
                    *(
                        step
                        for turn in range(5)
                        for step in sd_turn(turn % 2, 1 - turn % 2, (LORD, S), (LORD, S))
                    ),
                ),
                (coins(10, 10), overtime_left(3), not_finished),
            ),
            Stage(
                tuple(
                    step
                    for turn in range(5, 8)
                    for step in sd_turn(turn % 2, 1 - turn % 2, (LORD, S), (LORD, S))
                ),
                (coins(16, 16), overtime_left(0), not_finished),
            ),
            Stage(
                sd_turn(0, 1, (LORD, S), (LORD, S)),
                (coins(18, 18), finished_with(0, 1), sd_reason(sd.GAME_END_REASON_OVERTIME)),
            ),
        ),
    )
)

scenario(
    Scenario(
        name="SD-15(a): six turns that change nothing end the game, most coins winning",
        kind=SD,
        seats=3,
        chance=(sd.ChooseStartSeat(seat=0),),
        stages=(
            Stage(
                (
                    *families(3),
                    *sd_turn(0, 1, (LORD, S), (LADY, S), passing=[2]),
                    *sd_turn(1, 2, (LADY, S), (LADY, S), passing=[0]),
                    *sd_turn(2, 0, (KNIGHT, S), (LORD, S), passing=[1]),
                ),
                (coins(4, 2, 1),),
            ),
            Stage(
                (
                    *sd_turn(0, 1, (KNIGHT, S), (KNIGHT, S), passing=[2]),
                    *sd_turn(1, 2, (KNIGHT, S), (KNIGHT, S), passing=[0]),
                    *sd_turn(2, 0, (KNIGHT, S), (KNIGHT, S), passing=[1]),
                    *sd_turn(0, 1, (KNIGHT, S), (KNIGHT, S), passing=[2]),
                    *sd_turn(1, 2, (KNIGHT, S), (KNIGHT, S), passing=[0]),
                ),
                (not_finished,),
            ),
            Stage(
                sd_turn(2, 0, (KNIGHT, S), (KNIGHT, S), passing=[1]),
                (coins(4, 2, 1), finished_with(0), sd_reason(sd.GAME_END_REASON_STALEMATE)),
            ),
        ),
    )
)


def challenged_by_the_dealer(seat: int, targets: Sequence[int]) -> Check:
    def check(seen: Seen) -> None:
        [*_, timed_out, challenged] = seen.events
        assert timed_out == tpb.SeatTimedOut(seat=seat)
        assert isinstance(challenged, sd.OpponentChallenged)
        assert challenged.current_seat == seat and challenged.opponent_seat in targets
        assert isinstance(seen.dealer[-1], tpb.DealerPick)

    return check


def after_the_last_time_out(seen: Seen) -> list[Message]:
    """The last SeatTimedOut and the events after it."""
    last = max(i for i, e in enumerate(seen.events) if isinstance(e, tpb.SeatTimedOut))
    return seen.events[last:]


def committed_by_the_dealer(seat: int) -> Check:
    def check(seen: Seen) -> None:
        timed_out, committed, *_ = after_the_last_time_out(seen)
        assert timed_out == tpb.SeatTimedOut(seat=seat)
        assert committed == sd.CardCommitted(seat=seat), after_the_last_time_out(seen)
        assert isinstance(seen.dealer[-1], tpb.DealerPick)

    return check


def committed_by_the_dealer_for_the_challenged(seen: Seen) -> None:
    [challenged] = seen.of(sd.OpponentChallenged)
    committed_by_the_dealer(challenged.opponent_seat)(seen)


def bettor_passed(seen: Seen) -> None:
    """The seat that timed out last passed its bet, and the challenge was
    resolved."""
    timed_out, passed, *_ = after_the_last_time_out(seen)
    seat = timed_out.seat  # type: ignore[attr-defined]
    assert passed == sd.BetPassed(seat=seat)
    assert seat not in {e.current_seat for e in seen.of(sd.OpponentChallenged)}
    assert seen.of(sd.CardsRevealed)


scenario(
    Scenario(
        name="SD-16: a timed-out seat takes the first free family, and the dealer draws its target "
        "and its card; it passes a bet",
        kind=SD,
        seats=3,
        chance=(sd.ChooseStartSeat(seat=0),),
        stages=(
            Stage(
                (TimeOut(0),),
                (last_of(sd.FamilyChosen, sd.FamilyChosen(seat=0, family=sd.FAMILY_DRAGON)),),
            ),
            Stage(
                (
                    Act(1, sd.ChooseFamily(family=sd.FAMILY_HYDRA)),
                    Act(2, sd.ChooseFamily(family=sd.FAMILY_KRAKEN)),
                )
            ),
            Stage((TimeOut(0),), (challenged_by_the_dealer(0, (1, 2)),)),
            Stage((TimeOut(0),), (committed_by_the_dealer(0),)),
            # The challenged seat's clock runs out too, then the bettor's.
            Stage((TimeOut(),), (committed_by_the_dealer_for_the_challenged,)),
            Stage((TimeOut(),), (bettor_passed,)),
        ),
    )
)


# -------------------------------------------------------- Smoke & Mirrors

SM = "smoke-and-mirrors"


def smc(pile: int, value: int) -> sm.Card:
    return sm.Card(pile=pile, value=value)


STAR1, SWIRL = smc(sm.PILE_STARS, 1), sm.PILE_SWIRLS
SKULL5 = smc(sm.PILE_SKULLS, 5)


def sm_deal(start: int, hands: Sequence[Sequence[sm.Card]]) -> sm.DealRound:
    """Seat k gets hands[k] (a star, a swirl, a skull); the rest follow."""
    piles = [
        [smc(sm.PILE_STARS, v) for v in (1, 1, 1, 1, 1, 0)],
        [smc(SWIRL, v) for v in (1, 2, 3, 4, 5, 0)],
        [smc(sm.PILE_SKULLS, v) for v in (5, 5, 5, 5, 5, 0)],
    ]
    for index, pile in enumerate(piles):
        fixed = [hand[index] for hand in hands]
        for card in fixed:
            pile.remove(card)
        piles[index] = fixed + pile
    return sm.DealRound(start_seat=start, stars=piles[0], swirls=piles[1], skulls=piles[2])


def round_dealt_to(*seats: int, start: int) -> Check:
    def check(seen: Seen) -> None:
        dealt = seen.of(sm.RoundDealt)[-1]
        assert (list(dealt.seats), dealt.start_seat) == (list(seats), start), dealt

    return check


def swirl_five_removed(seen: Seen) -> None:
    deal = seen.dealer[-1]
    assert isinstance(deal, sm.DealRound)
    assert len(deal.swirls) == 5 and smc(SWIRL, 5) not in deal.swirls


def next_claim(number: int, turn_seat: int) -> Check:
    def check(seen: Seen) -> None:
        view = seen.view
        assert isinstance(view, sm.View)
        assert (view.next_claim, view.turn_seat) == (number, turn_seat), view

    return check


scenario(
    Scenario(
        name="SM-11: a departed seat leaves the round at its next turn and is dealt no later round",
        kind=SM,
        seats=3,
        chance=(
            sm_deal(
                0,
                [
                    [STAR1, smc(SWIRL, 2), SKULL5],
                    [STAR1, smc(SWIRL, 3), SKULL5],
                    [STAR1, smc(SWIRL, 4), SKULL5],
                ],
            ),
        ),
        stages=(
            Stage((Act(0, sm.PerformAct(cards=[STAR1])), Leave(2))),
            # Seat 1 claims 2 with a 1; at seat 2's turn it leaves the round.
            Stage(
                (Act(1, sm.PerformAct(cards=[STAR1])),),
                (
                    last_of(sm.PlayerLeftRound, sm.PlayerLeftRound(seat=2, cards_removed=3)),
                    next_claim(3, 0),
                    awaits(0),
                ),
            ),
            # Seat 0 catches seat 1's bluff and wins the round; round 2 is
            # dealt to seats 0 and 1, without the Swirl 5, from seat 1.
            Stage(
                (Act(0, sm.Challenge()),),
                (
                    last_of(sm.RoundWon, sm.RoundWon(round=1, seat=0)),
                    round_dealt_to(0, 1, start=1),
                    swirl_five_removed,
                ),
            ),
            Stage((PlayOut(),), (lambda seen: finished_before(seen, {0, 1}),)),
        ),
    )
)


def finished_before(seen: Seen, among: set[int]) -> None:
    assert seen.finished and seen.winners and set(seen.winners) <= among, seen.winners


def took_break(seat: int) -> Check:
    def check(seen: Seen) -> None:
        [*_, timed_out, taken] = seen.events
        assert (timed_out, taken) == (tpb.SeatTimedOut(seat=seat), sm.BreakTaken(seat=seat))

    return check


def smallest_true_act(seat: int, claim: int, count: int) -> Check:
    def check(seen: Seen) -> None:
        [*_, timed_out, act] = seen.events
        assert timed_out == tpb.SeatTimedOut(seat=seat)
        assert act == sm.ActPerformed(seat=seat, claim=claim, card_count=count), act

    return check


scenario(
    Scenario(
        name="SM-11: a timed-out seat opens with its smallest true act, then takes its Break",
        kind=SM,
        seats=3,
        chance=(
            sm_deal(
                0,
                [
                    [STAR1, smc(SWIRL, 2), SKULL5],
                    [STAR1, smc(SWIRL, 3), SKULL5],
                    [STAR1, smc(SWIRL, 4), SKULL5],
                ],
            ),
        ),
        stages=(
            Stage((TimeOut(0),), (smallest_true_act(0, 1, 1),)),
            Stage((Act(1, sm.PerformAct(cards=[smc(SWIRL, 3)])),)),
            Stage((TimeOut(2),), (took_break(2),)),
        ),
    )
)


# ------------------------------------------------------------ Silver Dagger

SV = "silver-dagger"


def sv_deal() -> sv.DealRound:
    from tests.silver_dagger.scenarios import FLIP, HALF, MYSTIC, SEER, SENT, SPY, THIEF, deal

    return deal([[FLIP, FLIP, SENT, MYSTIC, THIEF]], deck=[SEER, SPY, SPY, HALF])


def village_sizes(*sizes: int) -> Check:
    def check(seen: Seen) -> None:
        view = seen.view
        assert isinstance(view, sv.View)
        assert tuple(len(s.village) for s in view.seats) == sizes, view

    return check


def drew_and_discarded(seat: int, card: int) -> Check:
    def check(seen: Seen) -> None:
        mine = seen.after_leaving(seat)
        drawn = [e for e in mine if isinstance(e, sv.CardDrawn) and e.seat == seat]
        assert len(drawn) == 1 and not drawn[0].private_deck
        [discarded] = [e for e in mine if isinstance(e, sv.HeldDiscarded) and e.seat == seat]
        assert discarded.card == card
        assert not [e for e in mine if isinstance(e, sv.VoteCalled)]

    return check


scenario(
    Scenario(
        name="SV-28: a departed seat with four cards draws a 2, discards it, does not call",
        kind=SV,
        seats=3,
        chance=(sv_deal(),),
        stages=(
            Stage(tuple(Act(s, sv.LookAtCards(first=0, second=1)) for s in range(3))),
            # Seat 0 exchanges its two Flippers for the Seer it draws: 4 cards.
            Stage(
                (
                    Act(0, sv.DrawCard()),
                    Act(0, sv.StartMultipleExchange()),
                    Act(0, sv.SelectCard(position=0)),
                    Act(0, sv.SelectCard(position=1)),
                    Act(0, sv.ConfirmExchange()),
                ),
                (village_sizes(4, 5, 5),),
            ),
            Stage(
                (
                    Leave(0),
                    Act(1, sv.DrawCard()),
                    Act(1, sv.DiscardDrawn()),
                    Act(2, sv.DrawCard()),
                    Act(2, sv.DiscardDrawn()),
                ),
                (drew_and_discarded(0, sv.CARD_HALFLING), village_sizes(4, 5, 5), awaits(1)),
            ),
        ),
    )
)


# --------------------------------------------------------------- Smile Life

SL = "smile-life"
SL_HANDS = (
    ["study_single"] * 5,
    ["malus_burn_out", "malus_illness", "malus_divorce", "malus_income_tax", "malus_dismissal"],
    [
        "malus_accident",
        "malus_repeated_year",
        "malus_illness",
        "malus_burn_out",
        "malus_divorce",
    ],
)


def sl_deal() -> sl.ShuffleDeck:
    from tests.smile_life.support import deck

    return deck(SL_HANDS, pile=["flirt_bar", "flirt_zoo", "study_single"])


def never_plays_again(seat: int) -> Check:
    def check(seen: Seen) -> None:
        after = seen.after_leaving(seat)
        for e in after:
            if isinstance(e, sl.CardDrawn | sl.CardPlayed | sl.DiscardTaken | sl.TurnStarted):
                assert e.seat != seat, e
        assert [e for e in after if isinstance(e, sl.TurnMissed) and e.seat == seat]
        assert seen.of(sl.GameEnded)

    return check


scenario(
    Scenario(
        name="SL-37 and G-02: a seat that departs holding an Accident never draws or plays again",
        kind=SL,
        seats=3,
        options=sl.Options(draw_pile_size=8),
        chance=(sl_deal(),),
        stages=(
            Stage((Leave(2),), (awaits(0),)),
            Stage(
                (PlayOut(),),
                (never_plays_again(2), lambda seen: finished_before(seen, {0, 1})),
            ),
        ),
    )
)


def discarded_what_it_drew(seat: int, card: str) -> Check:
    def check(seen: Seen) -> None:
        timed_out, played, *rest = after_the_last_time_out(seen)
        assert timed_out == tpb.SeatTimedOut(seat=seat)
        assert played == sl.CardPlayed(
            seat=seat, card=card, source=sl.SOURCE_HAND, destination=sl.DESTINATION_DISCARD
        ), played
        assert not [e for e in rest if isinstance(e, sl.CardPlayed)]

    return check


scenario(
    Scenario(
        name="SL-37: a timed-out seat draws, then discards the card it drew",
        kind=SL,
        seats=3,
        options=sl.Options(draw_pile_size=8),
        chance=(sl_deal(),),
        stages=(
            Stage((TimeOut(0),), (last_of(sl.CardDrawn, sl.CardDrawn(seat=0, for_turn=True)),)),
            Stage((TimeOut(0),), (discarded_what_it_drew(0, "flirt_bar"), awaits(1))),
        ),
    )
)
