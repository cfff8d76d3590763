"""The rulebook's worked examples E1 and E2 (DECISIONS.md section 1.5) as
data, for the pure-rules tests and for playing them through the gRPC API.

A ``Scenario`` is played like this:

1. create a game of ``kind`` with ``options`` and ``seat_count`` and the
   operator's set deal ``chance`` (one ``ChooseStartSeat``);
2. seat ``players[s]`` at seat ``s`` and start the game;
3. for each ``Stage`` in order, send every ``(seat, command)`` of its
   ``steps`` as that seat, then compare the game with its ``expect``.

Everything here is a plain protobuf message or number: it depends only on
the generated ``smiles_and_daggers_pb2``, not on the rules engine.

Seats are clockwise from 0. Bettors who do not bet send ``PassBet``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from google.protobuf.message import Message

from cardroom.smiles_and_daggers.v1 import smiles_and_daggers_pb2 as pb

KIND = "smiles-and-daggers"

Step = tuple[int, Message]


@dataclass(frozen=True)
class Expect:
    """The game after a stage (public facts: every viewer can check them)."""

    coins: tuple[int, ...]
    # The tile holder whose turn starts next; None once the game is over.
    current_seat: int | None
    # Cards out of the game per seat (eliminated challenge cards and lost
    # bet Knights), as sorted Rank values.
    out_of_game: tuple[tuple[int, ...], ...]
    hand_counts: tuple[int, ...]
    # None while the game goes on.
    winners: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Stage:
    label: str
    steps: tuple[Step, ...]
    expect: Expect


@dataclass(frozen=True)
class Scenario:
    name: str
    players: tuple[str, ...]
    options: pb.Options
    chance: tuple[Message, ...]
    stages: tuple[Stage, ...]
    kind: str = KIND

    @property
    def seat_count(self) -> int:
        return len(self.players)

    @property
    def steps(self) -> list[Step]:
        return [step for stage in self.stages for step in stage.steps]


# ------------------------------------------------------------- building


def families(seat_count: int, start: int) -> tuple[Step, ...]:
    """SD-14: families in clockwise order from the start player."""
    return tuple(
        ((start + k) % seat_count, pb.ChooseFamily(family=pb.Family.Value(name)))
        for k, name in enumerate(pb.Family.keys()[1 : seat_count + 1])
    )


@dataclass(frozen=True)
class Play:
    """One challenge: who, which cards, and the bets (seat -> BetShape)."""

    current: int
    opponent: int
    current_card: tuple[int, int]  # (Rank, Orientation)
    opponent_card: tuple[int, int]
    bets: dict[int, int] = field(default_factory=dict)


def turn(seat_count: int, play: Play) -> tuple[Step, ...]:
    """The commands of one turn. Bettors go clockwise from the current
    player's left, skipping both challengers (SD-06); in these scenarios
    everyone else still holds a Knight, so nobody is skipped for lacking one."""
    steps: list[Step] = [
        (play.current, pb.ChallengeOpponent(target=play.opponent)),
        (play.current, pb.CommitCard(rank=play.current_card[0], orientation=play.current_card[1])),
        (
            play.opponent,
            pb.CommitCard(rank=play.opponent_card[0], orientation=play.opponent_card[1]),
        ),
    ]
    for k in range(1, seat_count):
        seat = (play.current + k) % seat_count
        if seat in (play.current, play.opponent):
            continue
        shape = play.bets.get(seat)
        steps.append((seat, pb.PassBet() if shape is None else pb.PlaceBet(shape=shape)))
    return tuple(steps)


LORD, LADY, KNIGHT = pb.RANK_LORD, pb.RANK_LADY, pb.RANK_KNIGHT
SMILE, DAGGER = pb.ORIENTATION_SMILE, pb.ORIENTATION_DAGGER
PLAYERS = ("Luigi", "Giacomo", "Andrea", "Livio", "Gabriele", "Demis")
LUIGI, GIACOMO, ANDREA, LIVIO, GABRIELE, DEMIS = range(6)
NONE_OUT: tuple[tuple[int, ...], ...] = ((),) * 6


# ------------------------------------------------------------------- E1

E1 = Scenario(
    name="E1 gameplay example: Luigi challenges Andrea",
    players=PLAYERS,
    options=pb.Options(),
    chance=(pb.ChooseStartSeat(seat=LUIGI),),
    stages=(
        Stage(
            "families",
            families(6, LUIGI),
            Expect(coins=(0,) * 6, current_seat=LUIGI, out_of_game=NONE_OUT, hand_counts=(6,) * 6),
        ),
        Stage(
            "Luigi challenges Andrea",
            turn(
                6,
                Play(
                    LUIGI,
                    ANDREA,
                    (LADY, SMILE),
                    (KNIGHT, DAGGER),
                    bets={
                        GIACOMO: pb.BET_SHAPE_SMILE_CURRENT,
                        LIVIO: pb.BET_SHAPE_SMILE_CURRENT_DAGGER_OPPONENT,
                        DEMIS: pb.BET_SHAPE_SMILE_BOTH,
                    },
                ),
            ),
            Expect(
                coins=(1, 1, 0, 2, 0, 0),
                current_seat=GIACOMO,
                out_of_game=((), (), (), (), (), (KNIGHT,)),
                hand_counts=(6, 6, 6, 6, 6, 5),
            ),
        ),
    ),
)


# ------------------------------------------------------------------- E2
#
# The rulebook gives only the coins before T1 (8/8/8/5/4/3, tile with
# Luigi). These twelve earlier turns, two rounds of the table with no bets,
# reach them from a fresh game without anyone reaching 9 and keep the cards
# T1-T3 need (Luigi's Lord and Lady, Giacomo's Lord, Andrea's Ladies and a
# Knight). Two of them eliminate a card: Demis's Lord and Livio's Knight.

_EARLIER = (
    # round 1
    Play(LUIGI, GIACOMO, (LORD, SMILE), (LORD, SMILE)),  # L 2, G 2
    Play(GIACOMO, ANDREA, (LORD, SMILE), (LORD, SMILE)),  # G 4, A 2
    Play(ANDREA, LUIGI, (LORD, SMILE), (LORD, SMILE)),  # A 4, L 4
    Play(LIVIO, GABRIELE, (LORD, SMILE), (LADY, SMILE)),  # Li 2, Ga 1
    Play(GABRIELE, DEMIS, (LADY, SMILE), (LORD, SMILE)),  # Ga 2, D 2
    Play(DEMIS, LIVIO, (LADY, SMILE), (LADY, SMILE)),  # D 3, Li 3
    # round 2
    Play(LUIGI, GIACOMO, (LORD, SMILE), (LORD, SMILE)),  # L 6, G 6
    Play(GIACOMO, ANDREA, (LORD, SMILE), (LORD, SMILE)),  # G 8, A 6
    Play(ANDREA, LUIGI, (LORD, SMILE), (LORD, SMILE)),  # A 8, L 8
    Play(LIVIO, GABRIELE, (LORD, SMILE), (LORD, SMILE)),  # Li 5, Ga 4
    Play(GABRIELE, DEMIS, (KNIGHT, DAGGER), (LORD, SMILE)),  # Demis's Lord eliminated
    Play(DEMIS, LIVIO, (LADY, DAGGER), (KNIGHT, SMILE)),  # Livio's Knight eliminated
)

_E2_OUT = ((), (), (), (KNIGHT,), (), (LORD,))

E2 = Scenario(
    name="E2 endgame ties",
    players=PLAYERS,
    options=pb.Options(),
    chance=(pb.ChooseStartSeat(seat=LUIGI),),
    stages=(
        Stage(
            "families",
            families(6, LUIGI),
            Expect(coins=(0,) * 6, current_seat=LUIGI, out_of_game=NONE_OUT, hand_counts=(6,) * 6),
        ),
        Stage(
            "twelve earlier turns",
            tuple(step for play in _EARLIER for step in turn(6, play)),
            Expect(
                coins=(8, 8, 8, 5, 4, 3),
                current_seat=LUIGI,
                out_of_game=_E2_OUT,
                hand_counts=(6, 6, 6, 5, 6, 5),
            ),
        ),
        Stage(
            "T1: Luigi and Andrea tie at 9",
            turn(6, Play(LUIGI, ANDREA, (LADY, SMILE), (LADY, SMILE))),
            Expect(
                coins=(9, 8, 9, 5, 4, 3),
                current_seat=GIACOMO,
                out_of_game=_E2_OUT,
                hand_counts=(6, 6, 6, 5, 6, 5),
            ),
        ),
        Stage(
            "T2: Giacomo and Andrea tie at 10",
            turn(6, Play(GIACOMO, ANDREA, (LORD, SMILE), (LADY, SMILE))),
            Expect(
                coins=(9, 10, 10, 5, 4, 3),
                current_seat=ANDREA,
                out_of_game=_E2_OUT,
                hand_counts=(6, 6, 6, 5, 6, 5),
            ),
        ),
        Stage(
            "T3: Luigi wins with 11",
            turn(6, Play(ANDREA, LUIGI, (KNIGHT, SMILE), (LORD, SMILE))),
            Expect(
                coins=(11, 10, 10, 5, 4, 3),
                current_seat=None,
                out_of_game=_E2_OUT,
                hand_counts=(6, 6, 6, 5, 6, 5),
                winners=(LUIGI,),
            ),
        ),
    ),
)

SCENARIOS = (E1, E2)
