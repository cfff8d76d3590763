"""The rulebook's scoring examples (R1..R5) and the rulings' examples as
data: a set deal for every round a scenario reaches, the commands in stages,
and after each stage a check of what the views must show.

A scenario depends only on the generated protobuf module, so the same data
runs through the pure rules (test_sv_examples.py, test_sv_rulings.py) and
through the gRPC API on SQLite and PostgreSQL
(tests/service/test_silver_dagger_api.py), where every seat's and a
spectator's view is also compared with the pure rules' after every stage.

Seats are A=0, B=1, C=2, D=3; round 1 starts with A unless said otherwise.
Cards are named by their werewolves (``V[9]`` is a Mystic Seer; the
Halfling is ``HALF``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from google.protobuf.message import Message

from cardroom.silver_dagger.v1 import silver_dagger_pb2 as pb

V = {n: n + 1 for n in range(14)}  # werewolves -> pb.Card
DC, SPY, HALF, SENT, ZOMBIE = V[0], V[1], V[2], V[3], V[4]
APPROX, FLIP, SEER, MAGE, MYSTIC = V[5], V[6], V[7], V[8], V[9]
RENF, REV, THIEF, FURRY = V[10], V[11], V[12], V[13]
BACK = pb.CARD_UNSPECIFIED

DECK = Counter({card: 2 if card in (DC, FURRY) else 4 for card in range(DC, FURRY + 1)})
# Cards not named by a scenario fill the sets, the discard pile and the
# deck in this order: nothing special first, Zombies (never discarded)
# last, at the bottom of the deck.
FILL = [SENT, MYSTIC, FLIP, MAGE, THIEF, REV, SEER, RENF, APPROX, SPY, HALF, FURRY, DC, ZOMBIE]


def deal(
    sets: Sequence[Sequence[int]] = (),
    *,
    discard: int | None = None,
    deck: Sequence[int] = (),
    start: int = 0,
    bottom: Sequence[int] = (),
) -> pb.DealRound:
    """A full, legal deal. ``sets[j]`` fixes the first cards of set j (set j
    goes to seat start + j; sets past the players leave the round);
    ``discard`` the discard pile's card; ``deck`` the deck's top cards, top
    first; ``bottom`` its last cards. Other cards follow the FILL order."""
    rest = Counter(DECK)
    named = [c for s in sets for c in s] + [*deck, *bottom] + ([discard] if discard else [])
    for card in named:
        assert rest[card] > 0, f"the deck has no more {pb.Card.Name(card)}"
        rest[card] -= 1
    pool = [card for card in FILL for _ in range(rest[card])]
    order: list[int] = []
    for j in range(4):
        fixed = list(sets[j]) if j < len(sets) else []
        assert len(fixed) <= 5
        order += fixed + [pool.pop(0) for _ in range(5 - len(fixed))]
    order.append(discard if discard else pool.pop(0))
    order += [*deck, *pool, *bottom]
    assert len(order) == 52 and Counter(order) == DECK
    return pb.DealRound(order=order, start_seat=start)


# ------------------------------------------------------------------ views


@dataclass
class Views:
    """What every viewer's GetView shows: each seat's, a spectator's and an
    auditor's (the operator's) Silver Dagger view."""

    seats: list[pb.View]
    spectator: pb.View
    auditor: pb.View
    legal: list[list[Message]]  # each seat's legal actions

    @property
    def everyone(self) -> list[pb.View]:
        """Every seat's and the spectator's view (their public parts agree)."""
        return [*self.seats, self.spectator]


def cards(view: pb.View, seat: int) -> list[int]:
    return [c.card for c in view.seats[seat].village]


def faces(view: pb.View, seat: int) -> list[bool]:
    return [c.face_up for c in view.seats[seat].village]


def kinds(actions: list[Message]) -> set[str]:
    return {type(a).__name__ for a in actions}


def points(view: pb.View) -> list[int]:
    return [s.points for s in view.last_round.scores]


def sums(view: pb.View) -> list[int]:
    return [s.sum for s in view.last_round.scores]


Check = Callable[[Views], None]


@dataclass(frozen=True)
class Stage:
    name: str
    steps: tuple[tuple[int, Message], ...]
    check: Check | None = None


@dataclass(frozen=True)
class Scenario:
    name: str
    seat_count: int
    deals: tuple[pb.DealRound, ...]
    stages: tuple[Stage, ...]
    options: pb.Options = field(default_factory=pb.Options)


# ------------------------------------------------------------------ steps

Steps = list[tuple[int, Message]]


def looks(*positions: tuple[int, int]) -> Steps:
    """Every seat looks at two of its cards: seat s at positions[s]."""
    return [(s, pb.LookAtCards(first=a, second=b)) for s, (a, b) in enumerate(positions)]


def draw_discard(seat: int) -> Steps:
    return [(seat, pb.DrawCard()), (seat, pb.DiscardDrawn())]


def multiple(seat: int, *positions: int) -> Steps:
    """Exchange the held card with the cards at ``positions`` (left to right)."""
    return [
        (seat, pb.StartMultipleExchange()),
        *((seat, pb.SelectCard(position=p)) for p in positions),
        (seat, pb.ConfirmExchange()),
    ]


def take_multiple(seat: int, *positions: int) -> Steps:
    return [(seat, pb.TakeDiscard()), *multiple(seat, *positions)]


def draw_multiple(seat: int, *positions: int) -> Steps:
    return [(seat, pb.DrawCard()), *multiple(seat, *positions)]


def stage(name: str, *steps: Steps, check: Check | None = None) -> Stage:
    return Stage(name, tuple(step for part in steps for step in part), check)


def everyone(check: Callable[[pb.View], None]) -> Check:
    """A check every seat's and the spectator's view must pass."""

    def each(views: Views) -> None:
        for view in views.everyone:
            check(view)

    return each


def sizes(*counts: int) -> Check:
    """Every viewer sees villages of these sizes."""

    def check(view: pb.View) -> None:
        assert [len(s.village) for s in view.seats] == list(counts)

    return everyone(check)


def both(*checks: Check) -> Check:
    def all_of(views: Views) -> None:
        for check in checks:
            check(views)

    return all_of


# ------------------------------------------------- the rulebook's examples


def _r1(views: Views) -> None:
    for view in views.everyone:
        me = view.last_round.scores[0]
        assert (me.base, me.after_debt_collectors, me.points) == (15, 8, 8)
        assert view.last_round.caller == 2 and not view.last_round.call_succeeded
        assert cards(view, 0) == [DC, FLIP, MYSTIC] and faces(view, 0) == [True, False, False]
        assert [len(s.village) for s in view.seats] == [3, 4, 3]  # opponents: 7 cards
        assert view.dagger_seat == 0 and not view.dagger_usable


R1 = Scenario(
    "R1 Debt Collector",
    3,
    (
        deal(
            [
                [REV, REV, REV, FLIP, MYSTIC],
                [THIEF, THIEF, SENT, SENT, SENT],
                [MAGE] * 3 + [SPY] * 2,
            ],
            discard=DC,
            deck=[SEER, SEER, SEER, SEER, FLIP, FLIP],
        ),
    ),
    (
        stage("looks", looks((3, 4), (2, 3), (3, 4))),
        stage(
            "A takes the Debt Collector for its three 11s; B and C shrink",
            take_multiple(0, 0, 1, 2),
            draw_multiple(1, 0, 1),
            draw_multiple(2, 0, 1, 2),
            check=sizes(3, 4, 3),
        ),
        stage(
            "C calls, A and B take their last turns",
            draw_discard(0),
            draw_discard(1),
            [(2, pb.CallVote())],
            draw_discard(0),
            draw_discard(1),
            check=_r1,
        ),
    ),
)


def _r2(views: Views) -> None:
    for view in views.everyone:
        me = view.last_round.scores[0]
        assert cards(view, 0) == [APPROX, SPY, SEER, HALF] and faces(view, 0)[3]
        assert (me.base, me.after_halflings, me.points) == (13, 7, 7)


R2 = Scenario(
    "R2 Halfling",
    2,
    (
        deal(
            [[APPROX, SPY, SEER, REV, REV], [THIEF, THIEF, SENT, SENT, SENT]],
            discard=HALF,
            deck=[MAGE, MAGE, MAGE],
        ),
    ),
    (
        stage("looks", looks((0, 1), (3, 4))),
        stage(
            "A takes the Halfling for its two 11s, B shrinks and calls",
            take_multiple(0, 3, 4),
            draw_multiple(1, 0, 1),
            draw_discard(0),
            [(1, pb.CallVote())],
            draw_discard(0),
            check=_r2,
        ),
    ),
)


def _r3(views: Views) -> None:
    for view in views.everyone:
        me = view.last_round.scores[0]
        assert cards(view, 0) == [SPY, DC, HALF] and faces(view, 0) == [False, True, True]
        assert [len(s.village) for s in view.seats] == [3, 6, 4]  # opponents: 10 cards
        assert (me.after_debt_collectors, me.after_halflings, me.points) == (-9, -4, -4)


R3 = Scenario(
    "R3 Halfling, negative",
    3,
    (
        deal(
            [
                [SPY, REV, REV, REV, HALF],
                [THIEF, MAGE, SENT, SENT, SENT],
                [MYSTIC, MYSTIC, SPY, SPY, APPROX],
            ],
            discard=DC,
            deck=[FLIP, FLIP, SEER, FLIP, FLIP, RENF],
        ),
    ),
    (
        stage("looks", looks((0, 4), (0, 1), (0, 1))),
        stage(
            "A takes the Debt Collector, B fails an exchange, C shrinks",
            take_multiple(0, 1, 2, 3),
            draw_multiple(1, 0, 1),
            draw_multiple(2, 0, 1),
            check=sizes(3, 6, 4),
        ),
        stage(
            "A's Elusive Seer turns its Halfling face up; C calls",
            [(0, pb.DrawCard()), (0, pb.UseAbility()), (0, pb.ChooseCard(seat=0, position=2))],
            draw_discard(1),
            [(2, pb.CallVote())],
            draw_discard(0),
            draw_discard(1),
            check=_r3,
        ),
    ),
)


def _r4(views: Views) -> None:
    for view in views.everyone:
        assert view.last_round.reason == pb.ROUND_END_REASON_DECK_DEPLETED
        assert [s.after_halflings for s in view.last_round.scores] == [50, 20, 15]
        assert sums(view) == [0, 70, 65] and points(view) == [0, 70, 65]
        assert [s.jackpot for s in view.last_round.scores] == [True, False, False]


R4 = Scenario(
    "R4 Furry jackpot",
    3,
    (
        deal(
            [
                [RENF, MAGE, FURRY, SEER, THIEF],
                [SENT, SENT, SENT, SENT, MAGE],
                [SPY, SPY, SPY, SPY, REV],
                [ZOMBIE] * 4 + [FURRY],
            ],
        ),
    ),
    (
        stage("looks", looks((0, 1), (0, 1), (0, 1))),
        stage("31 turns draw and discard", *(draw_discard(t % 3) for t in range(31)), check=_r4),
    ),
)


def _r5(views: Views) -> None:
    for view in views.everyone:
        me = view.last_round.scores[0]
        assert cards(view, 0) == [THIEF, REV, THIEF, FURRY, HALF]
        assert (me.base, me.after_halflings, me.jackpot, me.points) == (48, 24, False, 24)


R5 = Scenario(
    "R5 Furry blocked by a Halfling",
    2,
    (
        deal(
            [[THIEF, REV, THIEF, FURRY, SENT], [MAGE, MAGE, SPY, SPY, SPY]],
            discard=HALF,
            deck=[FLIP, FLIP, FLIP],
        ),
    ),
    (
        stage("looks", looks((0, 1), (0, 1))),
        stage(
            "A takes the Halfling; B shrinks and calls",
            [(0, pb.TakeDiscard()), (0, pb.Exchange(position=4))],
            draw_multiple(1, 0, 1),
            draw_discard(0),
            [(1, pb.CallVote())],
            draw_discard(0),
            check=_r5,
        ),
    ),
)

EXAMPLES = (R1, R2, R3, R4, R5)


# -------------------------------------------------- the rulings' examples


def _sv01_dealt(view: pb.View) -> None:
    assert (view.deck_count, len(view.discard_pile), view.out_of_play) == (31, 1, 10)
    assert [len(s.village) for s in view.seats] == [5, 5]
    assert view.phase == pb.PHASE_LOOK and list(view.awaiting) == [0, 1]
    assert all(c.card == BACK for s in view.seats for c in s.village)


def _sv01_looked(views: Views) -> None:
    a, b = views.seats
    assert [c != BACK for c in cards(a, 0)] == [True, True, False, False, False]
    assert cards(a, 1) == [BACK] * 5
    assert [c != BACK for c in cards(b, 1)] == [False, False, False, True, True]
    assert all(c.card == BACK for s in views.spectator.seats for c in s.village)
    for view in views.everyone:  # who looked where is public
        assert [list(c.known_by) for c in view.seats[0].village] == [[0], [0], [], [], []]
        assert view.phase == pb.PHASE_TURN and view.current_seat == 0


SV01 = Scenario(
    "SV-01 two-player setup",
    2,
    (deal(),),
    (
        stage("dealt", check=everyone(_sv01_dealt)),
        stage("looked", looks((0, 1), (3, 4)), check=_sv01_looked),
    ),
)


def _sv02(view: pb.View) -> None:
    assert view.current_seat == 0 and view.turn == 2 and not view.clockwise
    assert view.discard_pile[-1] == REV


SV02 = Scenario(
    "SV-02 a Reverser in a two-player game skips the opponent",
    2,
    (deal(deck=[REV]),),
    (
        stage("looks", looks((0, 1), (0, 1))),
        stage(
            "A uses a Reverser", [(0, pb.DrawCard()), (0, pb.UseAbility())], check=everyone(_sv02)
        ),
    ),
)


def _sv03_steps() -> tuple[pb.DealRound, list[Stage]]:
    """3 players: B uses two Renfields (turns 2 and 5), A and B take the
    discard on turns 7 and 8 (no card drawn), everyone else draws and
    discards, so that A's turn 31 draws the deck's last card."""
    opening: Steps = [*draw_discard(0), (1, pb.DrawCard()), (1, pb.UseAbility())]
    opening += [*draw_discard(2), *draw_discard(0), (1, pb.DrawCard()), (1, pb.UseAbility())]
    opening += draw_discard(2)
    takes: Steps = [(s, m) for s in (0, 1) for m in (pb.TakeDiscard(), pb.Exchange(position=0))]
    plain = [step for t in range(22) for step in draw_discard((t + 2) % 3)]
    last: Steps = [(0, pb.DrawCard()), (0, pb.Exchange(position=0))]
    dealt = deal([[], [], [], [ZOMBIE] * 4], deck=[SENT, RENF, SENT, SENT, SENT, RENF])
    stages = [
        stage("looks", looks((0, 1), (0, 1), (0, 1))),
        stage("B's Renfields, then 22 turns", opening, takes, plain, check=_sv03_one_left),
        stage("A draws the last card and exchanges it", last, check=_sv03_empty),
        stage(
            "B plays from its private deck; at C's turn the round ends",
            [(1, pb.DrawCard(private_deck=True)), (1, pb.DiscardDrawn())],
            check=_sv03_over,
        ),
    ]
    return dealt, stages


def _sv03_one_left(views: Views) -> None:
    for view in views.everyone:
        assert view.deck_count == 1 and view.current_seat == 0
        assert [s.private_deck_count for s in view.seats] == [0, 2, 0]
    assert len(views.seats[1].seats[1].private_deck) == 2  # B sees its private deck
    assert all(c != BACK for c in views.seats[1].seats[1].private_deck)
    assert all(c == BACK for c in views.seats[0].seats[1].private_deck)


def _sv03_empty(views: Views) -> None:
    for view in views.everyone:
        assert view.deck_count == 0 and view.current_seat == 1 and view.phase == pb.PHASE_TURN
    assert kinds(views.legal[1]) >= {"DrawCard", "TakeDiscard"}
    assert pb.DrawCard() not in views.legal[1]  # only the private deck


def _sv03_over(views: Views) -> None:
    for view in views.everyone:
        assert view.last_round.round == 1
        assert view.last_round.reason == pb.ROUND_END_REASON_DECK_DEPLETED
        assert view.turn == 32  # C took no 33rd turn


_SV03_DEAL, _SV03_STAGES = _sv03_steps()
SV03 = Scenario("SV-03 a depleted deck", 3, (_SV03_DEAL,), tuple(_SV03_STAGES))


def _sv04_called(view: pb.View) -> None:
    assert view.caller == 0 and view.current_seat == 1


def _sv04_reversed(view: pb.View) -> None:
    assert view.current_seat == 1 and not view.clockwise


def _sv04_over(view: pb.View) -> None:
    assert view.last_round.round == 1 and view.last_round.caller == 0
    assert view.last_round.reason == pb.ROUND_END_REASON_CALL
    assert view.turn == 8  # B played twice after the call, D not at all


SV04 = Scenario(
    "SV-04 a Reverser after a call",
    4,
    (deal([[THIEF, THIEF]], deck=[SEER, SEER, SEER, SEER, FLIP, REV, FLIP]),),
    (
        stage("looks", looks((0, 1), (0, 1), (0, 1), (0, 1))),
        stage(
            "A shrinks, then calls",
            draw_multiple(0, 0, 1),
            draw_discard(1),
            draw_discard(2),
            draw_discard(3),
            [(0, pb.CallVote())],
            check=everyone(_sv04_called),
        ),
        stage(
            "B plays, C reverses",
            draw_discard(1),
            [(2, pb.DrawCard()), (2, pb.UseAbility())],
            check=everyone(_sv04_reversed),
        ),
        stage("B plays again; the round ends", draw_discard(1), check=everyone(_sv04_over)),
    ),
)


def _sv05_again(view: pb.View) -> None:
    assert view.current_seat == 1 and view.caller == 0


def _sv05_over(view: pb.View) -> None:
    assert view.last_round.caller == 0 and view.turn == 5


SV05 = Scenario(
    "SV-05 a Reverser after a call in a two-player game",
    2,
    (deal([[THIEF, THIEF]], deck=[SEER, SEER, REV, SEER]),),
    (
        stage("looks", looks((0, 1), (0, 1))),
        stage(
            "A shrinks and calls; B reverses",
            draw_multiple(0, 0, 1),
            draw_discard(1),
            [(0, pb.CallVote()), (1, pb.DrawCard()), (1, pb.UseAbility())],
            check=everyone(_sv05_again),
        ),
        stage(
            "B exchanges; the round ends",
            [(1, pb.DrawCard()), (1, pb.Exchange(position=0))],
            check=everyone(_sv05_over),
        ),
    ),
)

# SV-06: A's village [6 face up, 6, 7, 9, 9] (the ruling's [6u, 6d, 7d] and
# two more cards), holding a drawn Halfling ("a 2").
_SV06_DEAL = deal([[SENT, FLIP, SEER, MYSTIC, MYSTIC]], discard=FLIP, deck=[REV, HALF, THIEF])
_SV06_SETUP = (
    stage("looks", looks((3, 4), (0, 1))),
    stage(
        "A takes a 6 face up; B plays; A draws a Halfling",
        [(0, pb.TakeDiscard()), (0, pb.Exchange(position=0))],
        draw_discard(1),
        [(0, pb.DrawCard())],
    ),
)


def _sv06_failed(views: Views) -> None:
    truth = views.auditor
    assert cards(truth, 0) == [FLIP, FLIP, SEER, MYSTIC, MYSTIC, HALF, THIEF]
    assert faces(truth, 0) == [False] * 7
    assert cards(views.spectator, 0) == [FLIP, FLIP, SEER, BACK, BACK, BACK, BACK]
    assert cards(views.seats[0], 0) == [FLIP, FLIP, SEER, MYSTIC, MYSTIC, HALF, BACK]
    assert list(views.spectator.discard_pile) == [SENT, REV]  # nothing discarded


def _sv06_matched(views: Views) -> None:
    assert cards(views.auditor, 0) == [HALF, SEER, MYSTIC, MYSTIC]
    assert faces(views.auditor, 0) == [False] * 4
    assert cards(views.spectator, 0) == [BACK] * 4
    assert cards(views.seats[0], 0) == [HALF, BACK, MYSTIC, MYSTIC]
    assert list(views.spectator.discard_pile[-2:]) == [FLIP, FLIP]


SV06_MISMATCH = Scenario(
    "SV-06 three cards that do not match",
    2,
    (_SV06_DEAL,),
    (*_SV06_SETUP, stage("6u + 6d + 7d", multiple(0, 0, 1, 2), check=_sv06_failed)),
)
SV06_MATCH = Scenario(
    "SV-06 two cards that match",
    2,
    (_SV06_DEAL,),
    (*_SV06_SETUP, stage("6u + 6d", multiple(0, 0, 1), check=_sv06_matched)),
)


def _sv07_sv09(views: Views) -> None:
    for view in views.everyone:
        assert list(view.discard_pile[-3:]) == [MYSTIC, SPY, MAGE]  # lowest on top
        assert cards(view, 0)[0] == APPROX and faces(view, 0) == [True, False, False, False]
    assert kinds(views.legal[1]) == {"SwitchWith"}  # B's Magician on the Approximator


def _sv09_switched(views: Views) -> None:
    for view in views.everyone:
        assert cards(view, 1)[0] == APPROX and faces(view, 1)[0]
        assert not faces(view, 0)[0]
    assert cards(views.seats[1], 0)[0] == MAGE  # B knew its own card; it followed


SV07_SV09 = Scenario(
    "SV-07 and SV-09 the Approximator",
    2,
    (deal([[MYSTIC, SPY, SENT, SENT, SENT], [MAGE, SEER]], deck=[APPROX, MAGE]),),
    (
        stage("looks", looks((0, 1), (0, 1))),
        stage(
            "A's Approximator discards its 9 and 1; B's Magician turns the Approximator",
            [(0, pb.DrawCard()), (0, pb.UseAbility())],
            [(0, pb.SelectCard(position=0)), (0, pb.SelectCard(position=1))],
            [(1, pb.DrawCard()), (1, pb.UseAbility()), (1, pb.ChooseCard(seat=0, position=0))],
            check=_sv07_sv09,
        ),
        stage("B must switch", [(1, pb.SwitchWith(position=0))], check=_sv09_switched),
    ),
)


def _z3(views: Views) -> None:
    assert cards(views.spectator, 0) == [ZOMBIE, BACK, BACK, BACK, BACK, ZOMBIE]
    for view in views.everyone:
        assert faces(view, 0) == [False] * 5 + [True]
        assert list(view.discard_pile) == []


def _z2(views: Views) -> None:
    assert cards(views.spectator, 1) == [ZOMBIE, BACK, BACK, BACK, BACK, ZOMBIE]
    for view in views.everyone:
        assert faces(view, 1) == [False] * 6


def _z1(views: Views) -> None:
    for view in views.everyone:
        assert list(view.discard_pile) == [SEER] and len(view.seats[0].village) == 6
        assert faces(view, 0)[5]


def _z6(views: Views) -> None:
    for view in views.everyone:
        assert [len(s.village) for s in view.seats] == [5, 7]
        assert cards(view, 1)[6] == ZOMBIE and not faces(view, 1)[6]


SV08_ZOMBIES = Scenario(
    "SV-08 Zombies (Z1, Z2, Z3, Z6, Z7)",
    2,
    (
        deal(
            [[ZOMBIE, SENT, SENT, SENT, MYSTIC], [ZOMBIE, MAGE, MAGE, MAGE, MYSTIC]],
            discard=ZOMBIE,
            deck=[ZOMBIE, SEER, SEER],
        ),
    ),
    (
        stage("looks", looks((0, 1), (0, 1))),
        stage(
            "Z7, Z3: A takes the first discard, a Zombie, for its own Zombie",
            [(0, pb.TakeDiscard()), (0, pb.Exchange(position=0))],
            check=_z3,
        ),
        stage(
            "Z2: B draws a Zombie and offers its own Zombie",
            [(1, pb.DrawCard()), (1, pb.Exchange(position=0))],
            check=_z2,
        ),
        stage(
            "Z1: A offers its face-up Zombie for a drawn Seer",
            [(0, pb.DrawCard()), (0, pb.Exchange(position=5))],
            check=_z1,
        ),
        stage(
            "Z6: A gives its face-up Zombie to B",
            draw_discard(1),
            [(0, pb.GiveZombie(position=5))],
            check=_z6,
        ),
    ),
)


def _z5(views: Views) -> None:
    for view in views.everyone:
        assert list(view.discard_pile[-2:]) == [ZOMBIE, SPY]
        assert cards(view, 0)[0] == APPROX and faces(view, 0) == [True, False, False, False]
    assert cards(views.auditor, 0) == [APPROX, MYSTIC, SENT, SENT]


SV08_Z5 = Scenario(
    "SV-08 Z5 an Approximator discards a Zombie under a 1",
    2,
    (deal([[ZOMBIE, SENT, MYSTIC, SENT, SENT]], discard=SPY, deck=[SEER, APPROX]),),
    (
        stage("looks", looks((0, 2), (0, 1))),
        stage(
            "A takes the Spy face up; later its Approximator discards the Zombie and the Spy",
            [(0, pb.TakeDiscard()), (0, pb.Exchange(position=1))],
            draw_discard(1),
            [(0, pb.DrawCard()), (0, pb.UseAbility())],
            [(0, pb.SelectCard(position=0)), (0, pb.SelectCard(position=1))],
            check=_z5,
        ),
    ),
)


def _sv10(views: Views) -> None:
    for view in views.everyone:
        assert cards(view, 1)[:2] == [SENT, SENT] and faces(view, 1)[:2] == [True, True]
        assert view.current_seat == 1 and view.discard_pile[-1] == MAGE


SV10 = Scenario(
    "SV-10 a Magician turns a second Sentinel",
    2,
    (deal([[MYSTIC, SENT, SEER, SEER, SEER]], discard=SENT, deck=[MAGE], start=1),),
    (
        stage("looks", looks((0, 1), (0, 1))),
        stage(
            "B takes a Sentinel face up; A's Magician turns B's other Sentinel",
            [(1, pb.TakeDiscard()), (1, pb.Exchange(position=0))],
            [(0, pb.DrawCard()), (0, pb.UseAbility()), (0, pb.ChooseCard(seat=1, position=1))],
            check=_sv10,
        ),
    ),
)


def _sv11(views: Views) -> None:
    a, b, c = views.seats
    # X (B's looked-at 9) went to C's position 2; Y (C's looked-at 10) to B's 0.
    assert cards(views.auditor, 1)[0] == RENF and cards(views.auditor, 2)[2] == MYSTIC
    assert cards(a, 2)[2] == MYSTIC and cards(a, 1)[0] == BACK
    assert cards(b, 2)[2] == MYSTIC and cards(b, 1)[0] == BACK
    assert cards(c, 1)[0] == RENF and cards(c, 2)[2] == BACK
    assert cards(views.spectator, 1)[0] == BACK and cards(views.spectator, 2)[2] == BACK


SV11 = Scenario(
    "SV-11 the Master Thief views and switches",
    3,
    (deal([[], [MYSTIC, SENT], [SEER, SEER, RENF, SENT]], deck=[THIEF]),),
    (
        stage("looks", looks((0, 1), (0, 1), (2, 3))),
        stage(
            "A views B's 9 and switches it with C's 10",
            [(0, pb.DrawCard()), (0, pb.UseAbility())],
            [(0, pb.ChooseCard(seat=1, position=0)), (0, pb.ChooseCard(seat=2, position=2))],
            check=_sv11,
        ),
    ),
)


def _sv12(views: Views) -> None:
    for view in views.everyone:
        assert cards(view, 1)[2] == HALF and faces(view, 1)[2]
        assert view.current_seat == 1
    assert cards(views.seats[0], 1)[:3] == [REV, BACK, HALF]
    assert cards(views.spectator, 0) == [BACK] * 5


SV12 = Scenario(
    "SV-12 the Elusive Seer stops at a Halfling",
    2,
    (deal([[MAGE, MAGE, MYSTIC, MYSTIC, THIEF], [REV, REV, HALF, FLIP, FLIP]], deck=[SEER]),),
    (
        stage("looks", looks((3, 4), (3, 4))),
        stage(
            "A views an 8, an 11, then B's Halfling",
            [(0, pb.DrawCard()), (0, pb.UseAbility())],
            [(0, pb.ChooseCard(seat=0, position=0)), (0, pb.ChooseCard(seat=1, position=0))],
            [(0, pb.ChooseCard(seat=1, position=2))],
            check=_sv12,
        ),
    ),
)


def _sv13_grown(views: Views) -> None:
    for view in views.everyone:
        assert [s.private_deck_count for s in view.seats] == [1, 0]
    assert list(views.seats[0].seats[0].private_deck) == [FLIP]
    assert list(views.seats[1].seats[0].private_deck) == [BACK]
    assert list(views.spectator.seats[0].private_deck) == [BACK]


def _sv13_flipped(views: Views) -> None:
    for view in views.everyone:
        assert faces(view, 1) == [True] * 5 and BACK not in cards(view, 1)
        assert [s.private_deck_count for s in view.seats] == [0, 0]


SV13 = Scenario(
    "SV-13 Renfield and the private deck",
    2,
    (deal(deck=[RENF, FLIP, SEER]),),
    (
        stage("looks", looks((0, 1), (0, 1))),
        stage("A's Renfield", [(0, pb.DrawCard()), (0, pb.UseAbility())], check=_sv13_grown),
        stage(
            "A draws its private Flipper and flips B's village",
            draw_discard(1),
            [(0, pb.DrawCard(private_deck=True)), (0, pb.UseAbility())],
            [(0, pb.ChooseVillage(seat=1))],
            check=_sv13_flipped,
        ),
    ),
)


def _sv14(views: Views) -> None:
    assert cards(views.seats[0], 1)[4] == THIEF  # A peeked at B's last card
    assert cards(views.spectator, 1)[4] == BACK
    assert "SpyPeek" not in kinds(views.legal[0])  # one face-up Spy, one peek
    assert "CallVote" not in kinds(views.legal[0])
    for view in views.everyone:
        assert view.peeks_used == 1 and list(view.seats[1].village[4].known_by) == [0]


SV14 = Scenario(
    "SV-14 one peek per face-up Spy",
    2,
    (deal([[], [SENT, SENT, SENT, SENT, THIEF]], discard=SPY),),
    (
        stage("looks", looks((0, 1), (0, 1))),
        stage(
            "A takes a Spy face up; next turn it peeks",
            [(0, pb.TakeDiscard()), (0, pb.Exchange(position=0))],
            draw_discard(1),
            [(0, pb.SpyPeek(seat=1, position=4))],
            check=_sv14,
        ),
    ),
)


def _sv15(views: Views) -> None:
    assert cards(views.seats[0], 1)[1] == MYSTIC  # viewed, not switched
    for view in views.everyone:
        assert view.current_seat == 1 and view.discard_pile[-1] == THIEF


SV15 = Scenario(
    "SV-15 a Sentinel lets the Master Thief view but not switch",
    2,
    (deal([[SEER, MYSTIC]], discard=SENT, deck=[THIEF], start=1),),
    (
        stage("looks", looks((0, 1), (3, 4))),
        stage(
            "B takes a Sentinel face up; A's Master Thief views B's card",
            [(1, pb.TakeDiscard()), (1, pb.Exchange(position=0))],
            [(0, pb.DrawCard()), (0, pb.UseAbility()), (0, pb.ChooseCard(seat=1, position=1))],
            check=_sv15,
        ),
    ),
)


def _sv17(views: Views) -> None:
    for view in views.everyone:
        assert sums(view)[:2] == [-5, -3] and view.last_round.call_succeeded
        assert points(view)[:2] == [0, -3]
        assert view.dagger_seat == 1 and not view.dagger_usable


SV17 = Scenario(
    "SV-17 the fewest points take the dagger",
    3,
    (
        deal(
            [[REV, REV, REV, DC, SPY], [THIEF, THIEF, THIEF, DC, SENT], [MAGE, MAGE]],
            discard=SPY,
            deck=[SPY, FLIP, SEER, SEER, FLIP, FLIP, FLIP],
        ),
    ),
    (
        stage("looks", looks((3, 4), (3, 4), (0, 1))),
        stage(
            "A, B and C shrink",
            take_multiple(0, 0, 1, 2),
            draw_multiple(1, 0, 1, 2),
            draw_multiple(2, 0, 1),
            check=sizes(3, 3, 4),
        ),
        stage(
            "Elusive Seers turn A's and B's Debt Collectors face up; A calls",
            [(0, pb.DrawCard()), (0, pb.UseAbility()), (0, pb.ChooseCard(seat=0, position=1))],
            [(1, pb.DrawCard()), (1, pb.UseAbility()), (1, pb.ChooseCard(seat=1, position=1))],
            draw_discard(2),
            [(0, pb.CallVote())],
            draw_discard(1),
            draw_discard(2),
            check=_sv17,
        ),
    ),
)


def _sv18_usable(view: pb.View) -> None:
    assert view.round == 2 and view.dagger_seat == 0 and view.dagger_usable


def _sv18_cancel(views: Views) -> None:
    for view in views.everyone:
        assert view.current_seat == 1 and view.clockwise and view.dagger_used
    assert "TurnDagger" not in kinds(views.legal[0])


SV18 = Scenario(
    "SV-18 the dagger and a Reverser cancel out",
    2,
    (
        deal([[THIEF, THIEF, SPY, SPY, SPY]], deck=[SPY, SEER, SEER]),
        deal(deck=[REV]),
    ),
    (
        stage("looks", looks((0, 1), (0, 1))),
        stage(
            "A shrinks and calls successfully",
            draw_multiple(0, 0, 1),
            draw_discard(1),
            [(0, pb.CallVote())],
            draw_discard(1),
            looks((0, 1), (0, 1)),
            check=everyone(_sv18_usable),
        ),
        stage(
            "A turns the dagger, then uses a Reverser: B plays next",
            [(0, pb.TurnDagger()), (0, pb.DrawCard()), (0, pb.UseAbility())],
            check=_sv18_cancel,
        ),
    ),
)


def _sv20(views: Views) -> None:
    for view in views.everyone:
        assert list(view.discard_pile) == [] and len(view.seats[0].village) == 6
    assert "TakeDiscard" not in kinds(views.legal[1])


SV20 = Scenario(
    "SV-20 a failed exchange empties the discard pile",
    2,
    (deal([[SENT, MYSTIC]], discard=FLIP),),
    (
        stage("looks", looks((0, 1), (0, 1))),
        stage("A takes the only discard and fails", take_multiple(0, 0, 1), check=_sv20),
    ),
)


def _sv24_holding(views: Views) -> None:
    for view in views.everyone:
        assert view.deck_count == 0 and view.current_seat == 0
    assert "UseAbility" in kinds(views.legal[0])


def _sv24_used(views: Views) -> None:
    for view in views.everyone:
        assert list(view.discard_pile)[-1] == RENF
        assert [s.private_deck_count for s in view.seats] == [0, 0]
        assert view.last_round.reason == pb.ROUND_END_REASON_DECK_DEPLETED


SV24 = Scenario(
    "SV-24 the deck's last card is a Renfield, used without effect",
    2,
    # The Zombies wait in a set out of the round, the Renfield at the deck's bottom.
    (deal([[], [], [ZOMBIE] * 4], bottom=[RENF]),),
    (
        stage("looks", looks((0, 1), (0, 1))),
        stage(
            "30 turns, then A draws the last card",
            [step for t in range(30) for step in draw_discard(t % 2)],
            [(0, pb.DrawCard())],
            check=_sv24_holding,
        ),
        stage(
            "A uses the Renfield: the turn ends, then the round",
            [(0, pb.UseAbility())],
            check=_sv24_used,
        ),
    ),
)

RULINGS = (
    SV01,
    SV02,
    SV03,
    SV04,
    SV05,
    SV06_MISMATCH,
    SV06_MATCH,
    SV07_SV09,
    SV08_ZOMBIES,
    SV08_Z5,
    SV10,
    SV11,
    SV12,
    SV13,
    SV14,
    SV15,
    SV17,
    SV18,
    SV20,
    SV24,
)
SCENARIOS = EXAMPLES + RULINGS
