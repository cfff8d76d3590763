from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Family(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FAMILY_UNSPECIFIED: _ClassVar[Family]
    FAMILY_DRAGON: _ClassVar[Family]
    FAMILY_KRAKEN: _ClassVar[Family]
    FAMILY_PEGACORN: _ClassVar[Family]
    FAMILY_HYDRA: _ClassVar[Family]
    FAMILY_CHIMERA: _ClassVar[Family]
    FAMILY_GRIFFIN: _ClassVar[Family]

class Rank(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RANK_UNSPECIFIED: _ClassVar[Rank]
    RANK_LORD: _ClassVar[Rank]
    RANK_LADY: _ClassVar[Rank]
    RANK_KNIGHT: _ClassVar[Rank]

class Orientation(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ORIENTATION_UNSPECIFIED: _ClassVar[Orientation]
    ORIENTATION_SMILE: _ClassVar[Orientation]
    ORIENTATION_DAGGER: _ClassVar[Orientation]

class BetShape(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BET_SHAPE_UNSPECIFIED: _ClassVar[BetShape]
    BET_SHAPE_SMILE_CURRENT: _ClassVar[BetShape]
    BET_SHAPE_DAGGER_CURRENT: _ClassVar[BetShape]
    BET_SHAPE_SMILE_OPPONENT: _ClassVar[BetShape]
    BET_SHAPE_DAGGER_OPPONENT: _ClassVar[BetShape]
    BET_SHAPE_SMILE_BOTH: _ClassVar[BetShape]
    BET_SHAPE_DAGGER_BOTH: _ClassVar[BetShape]
    BET_SHAPE_SMILE_CURRENT_DAGGER_OPPONENT: _ClassVar[BetShape]
    BET_SHAPE_DAGGER_CURRENT_SMILE_OPPONENT: _ClassVar[BetShape]

class GameEndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_END_REASON_UNSPECIFIED: _ClassVar[GameEndReason]
    GAME_END_REASON_NINE_COINS: _ClassVar[GameEndReason]
    GAME_END_REASON_NO_CHALLENGE_POSSIBLE: _ClassVar[GameEndReason]
    GAME_END_REASON_ALL_SKIPPED: _ClassVar[GameEndReason]
    GAME_END_REASON_NO_COINS_POSSIBLE: _ClassVar[GameEndReason]
    GAME_END_REASON_STALEMATE: _ClassVar[GameEndReason]
    GAME_END_REASON_OVERTIME: _ClassVar[GameEndReason]
    GAME_END_REASON_TURN_CAP: _ClassVar[GameEndReason]

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_START: _ClassVar[Phase]
    PHASE_FAMILIES: _ClassVar[Phase]
    PHASE_TURN: _ClassVar[Phase]
    PHASE_COMMIT: _ClassVar[Phase]
    PHASE_BETTING: _ClassVar[Phase]
    PHASE_OVER: _ClassVar[Phase]
FAMILY_UNSPECIFIED: Family
FAMILY_DRAGON: Family
FAMILY_KRAKEN: Family
FAMILY_PEGACORN: Family
FAMILY_HYDRA: Family
FAMILY_CHIMERA: Family
FAMILY_GRIFFIN: Family
RANK_UNSPECIFIED: Rank
RANK_LORD: Rank
RANK_LADY: Rank
RANK_KNIGHT: Rank
ORIENTATION_UNSPECIFIED: Orientation
ORIENTATION_SMILE: Orientation
ORIENTATION_DAGGER: Orientation
BET_SHAPE_UNSPECIFIED: BetShape
BET_SHAPE_SMILE_CURRENT: BetShape
BET_SHAPE_DAGGER_CURRENT: BetShape
BET_SHAPE_SMILE_OPPONENT: BetShape
BET_SHAPE_DAGGER_OPPONENT: BetShape
BET_SHAPE_SMILE_BOTH: BetShape
BET_SHAPE_DAGGER_BOTH: BetShape
BET_SHAPE_SMILE_CURRENT_DAGGER_OPPONENT: BetShape
BET_SHAPE_DAGGER_CURRENT_SMILE_OPPONENT: BetShape
GAME_END_REASON_UNSPECIFIED: GameEndReason
GAME_END_REASON_NINE_COINS: GameEndReason
GAME_END_REASON_NO_CHALLENGE_POSSIBLE: GameEndReason
GAME_END_REASON_ALL_SKIPPED: GameEndReason
GAME_END_REASON_NO_COINS_POSSIBLE: GameEndReason
GAME_END_REASON_STALEMATE: GameEndReason
GAME_END_REASON_OVERTIME: GameEndReason
GAME_END_REASON_TURN_CAP: GameEndReason
PHASE_UNSPECIFIED: Phase
PHASE_START: Phase
PHASE_FAMILIES: Phase
PHASE_TURN: Phase
PHASE_COMMIT: Phase
PHASE_BETTING: Phase
PHASE_OVER: Phase

class Options(_message.Message):
    __slots__ = ("allow_two_players", "optional_come_back", "recover_lost_bet_knights", "overtime_turns", "turn_cap")
    ALLOW_TWO_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONAL_COME_BACK_FIELD_NUMBER: _ClassVar[int]
    RECOVER_LOST_BET_KNIGHTS_FIELD_NUMBER: _ClassVar[int]
    OVERTIME_TURNS_FIELD_NUMBER: _ClassVar[int]
    TURN_CAP_FIELD_NUMBER: _ClassVar[int]
    allow_two_players: bool
    optional_come_back: bool
    recover_lost_bet_knights: bool
    overtime_turns: int
    turn_cap: int
    def __init__(self, allow_two_players: _Optional[bool] = ..., optional_come_back: _Optional[bool] = ..., recover_lost_bet_knights: _Optional[bool] = ..., overtime_turns: _Optional[int] = ..., turn_cap: _Optional[int] = ...) -> None: ...

class ChooseFamily(_message.Message):
    __slots__ = ("family",)
    FAMILY_FIELD_NUMBER: _ClassVar[int]
    family: Family
    def __init__(self, family: _Optional[_Union[Family, str]] = ...) -> None: ...

class RecoverCard(_message.Message):
    __slots__ = ("rank",)
    RANK_FIELD_NUMBER: _ClassVar[int]
    rank: Rank
    def __init__(self, rank: _Optional[_Union[Rank, str]] = ...) -> None: ...

class SkipTurn(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ChallengeOpponent(_message.Message):
    __slots__ = ("target",)
    TARGET_FIELD_NUMBER: _ClassVar[int]
    target: int
    def __init__(self, target: _Optional[int] = ...) -> None: ...

class CommitCard(_message.Message):
    __slots__ = ("rank", "orientation")
    RANK_FIELD_NUMBER: _ClassVar[int]
    ORIENTATION_FIELD_NUMBER: _ClassVar[int]
    rank: Rank
    orientation: Orientation
    def __init__(self, rank: _Optional[_Union[Rank, str]] = ..., orientation: _Optional[_Union[Orientation, str]] = ...) -> None: ...

class PlaceBet(_message.Message):
    __slots__ = ("shape",)
    SHAPE_FIELD_NUMBER: _ClassVar[int]
    shape: BetShape
    def __init__(self, shape: _Optional[_Union[BetShape, str]] = ...) -> None: ...

class PassBet(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ChooseStartSeat(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class StartSeatChosen(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class FamilyChosen(_message.Message):
    __slots__ = ("seat", "family")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FAMILY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    family: Family
    def __init__(self, seat: _Optional[int] = ..., family: _Optional[_Union[Family, str]] = ...) -> None: ...

class TurnStarted(_message.Message):
    __slots__ = ("seat", "turn")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    turn: int
    def __init__(self, seat: _Optional[int] = ..., turn: _Optional[int] = ...) -> None: ...

class CardRecovered(_message.Message):
    __slots__ = ("seat", "rank", "cost")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    seat: int
    rank: Rank
    cost: int
    def __init__(self, seat: _Optional[int] = ..., rank: _Optional[_Union[Rank, str]] = ..., cost: _Optional[int] = ...) -> None: ...

class TurnSkipped(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class OpponentChallenged(_message.Message):
    __slots__ = ("current_seat", "opponent_seat")
    CURRENT_SEAT_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_SEAT_FIELD_NUMBER: _ClassVar[int]
    current_seat: int
    opponent_seat: int
    def __init__(self, current_seat: _Optional[int] = ..., opponent_seat: _Optional[int] = ...) -> None: ...

class CardCommitted(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class CommittedCard(_message.Message):
    __slots__ = ("seat", "rank", "orientation")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    ORIENTATION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    rank: Rank
    orientation: Orientation
    def __init__(self, seat: _Optional[int] = ..., rank: _Optional[_Union[Rank, str]] = ..., orientation: _Optional[_Union[Orientation, str]] = ...) -> None: ...

class BettingOpened(_message.Message):
    __slots__ = ("bettors",)
    BETTORS_FIELD_NUMBER: _ClassVar[int]
    bettors: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, bettors: _Optional[_Iterable[int]] = ...) -> None: ...

class BetPlaced(_message.Message):
    __slots__ = ("seat", "shape")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SHAPE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    shape: BetShape
    def __init__(self, seat: _Optional[int] = ..., shape: _Optional[_Union[BetShape, str]] = ...) -> None: ...

class BetPassed(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class Play(_message.Message):
    __slots__ = ("seat", "rank", "orientation")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    ORIENTATION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    rank: Rank
    orientation: Orientation
    def __init__(self, seat: _Optional[int] = ..., rank: _Optional[_Union[Rank, str]] = ..., orientation: _Optional[_Union[Orientation, str]] = ...) -> None: ...

class CardsRevealed(_message.Message):
    __slots__ = ("current", "opponent")
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_FIELD_NUMBER: _ClassVar[int]
    current: Play
    opponent: Play
    def __init__(self, current: _Optional[_Union[Play, _Mapping]] = ..., opponent: _Optional[_Union[Play, _Mapping]] = ...) -> None: ...

class BetSettled(_message.Message):
    __slots__ = ("seat", "shape", "correct", "coins")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SHAPE_FIELD_NUMBER: _ClassVar[int]
    CORRECT_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    shape: BetShape
    correct: bool
    coins: int
    def __init__(self, seat: _Optional[int] = ..., shape: _Optional[_Union[BetShape, str]] = ..., correct: _Optional[bool] = ..., coins: _Optional[int] = ...) -> None: ...

class CardEliminated(_message.Message):
    __slots__ = ("seat", "rank")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    seat: int
    rank: Rank
    def __init__(self, seat: _Optional[int] = ..., rank: _Optional[_Union[Rank, str]] = ...) -> None: ...

class CoinsPaid(_message.Message):
    __slots__ = ("seat", "amount")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    amount: int
    def __init__(self, seat: _Optional[int] = ..., amount: _Optional[int] = ...) -> None: ...

class TurnEnded(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("winners", "reason")
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    reason: GameEndReason
    def __init__(self, winners: _Optional[_Iterable[int]] = ..., reason: _Optional[_Union[GameEndReason, str]] = ...) -> None: ...

class SeatView(_message.Message):
    __slots__ = ("seat", "family", "coins", "hand_count", "hand_visible", "hand", "eliminated", "lost")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FAMILY_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    HAND_COUNT_FIELD_NUMBER: _ClassVar[int]
    HAND_VISIBLE_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    LOST_FIELD_NUMBER: _ClassVar[int]
    seat: int
    family: Family
    coins: int
    hand_count: int
    hand_visible: bool
    hand: _containers.RepeatedScalarFieldContainer[Rank]
    eliminated: _containers.RepeatedScalarFieldContainer[Rank]
    lost: _containers.RepeatedScalarFieldContainer[Rank]
    def __init__(self, seat: _Optional[int] = ..., family: _Optional[_Union[Family, str]] = ..., coins: _Optional[int] = ..., hand_count: _Optional[int] = ..., hand_visible: _Optional[bool] = ..., hand: _Optional[_Iterable[_Union[Rank, str]]] = ..., eliminated: _Optional[_Iterable[_Union[Rank, str]]] = ..., lost: _Optional[_Iterable[_Union[Rank, str]]] = ...) -> None: ...

class CommitmentView(_message.Message):
    __slots__ = ("seat", "committed", "rank", "orientation", "eliminated")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COMMITTED_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    ORIENTATION_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    committed: bool
    rank: Rank
    orientation: Orientation
    eliminated: bool
    def __init__(self, seat: _Optional[int] = ..., committed: _Optional[bool] = ..., rank: _Optional[_Union[Rank, str]] = ..., orientation: _Optional[_Union[Orientation, str]] = ..., eliminated: _Optional[bool] = ...) -> None: ...

class BetView(_message.Message):
    __slots__ = ("seat", "passed", "shape", "settled", "correct")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    SHAPE_FIELD_NUMBER: _ClassVar[int]
    SETTLED_FIELD_NUMBER: _ClassVar[int]
    CORRECT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    passed: bool
    shape: BetShape
    settled: bool
    correct: bool
    def __init__(self, seat: _Optional[int] = ..., passed: _Optional[bool] = ..., shape: _Optional[_Union[BetShape, str]] = ..., settled: _Optional[bool] = ..., correct: _Optional[bool] = ...) -> None: ...

class ChallengeView(_message.Message):
    __slots__ = ("current", "opponent", "betting_opened", "bettors", "bets")
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_FIELD_NUMBER: _ClassVar[int]
    BETTING_OPENED_FIELD_NUMBER: _ClassVar[int]
    BETTORS_FIELD_NUMBER: _ClassVar[int]
    BETS_FIELD_NUMBER: _ClassVar[int]
    current: CommitmentView
    opponent: CommitmentView
    betting_opened: bool
    bettors: _containers.RepeatedScalarFieldContainer[int]
    bets: _containers.RepeatedCompositeFieldContainer[BetView]
    def __init__(self, current: _Optional[_Union[CommitmentView, _Mapping]] = ..., opponent: _Optional[_Union[CommitmentView, _Mapping]] = ..., betting_opened: _Optional[bool] = ..., bettors: _Optional[_Iterable[int]] = ..., bets: _Optional[_Iterable[_Union[BetView, _Mapping]]] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("phase", "start_seat", "current_seat", "turn", "awaiting", "seats", "challenge", "recovered_this_turn", "winners", "end_reason", "allow_two_players", "optional_come_back", "recover_lost_bet_knights", "overtime_turns_left", "departed")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    START_SEAT_FIELD_NUMBER: _ClassVar[int]
    CURRENT_SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    AWAITING_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    RECOVERED_THIS_TURN_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    ALLOW_TWO_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONAL_COME_BACK_FIELD_NUMBER: _ClassVar[int]
    RECOVER_LOST_BET_KNIGHTS_FIELD_NUMBER: _ClassVar[int]
    OVERTIME_TURNS_LEFT_FIELD_NUMBER: _ClassVar[int]
    DEPARTED_FIELD_NUMBER: _ClassVar[int]
    phase: Phase
    start_seat: int
    current_seat: int
    turn: int
    awaiting: _containers.RepeatedScalarFieldContainer[int]
    seats: _containers.RepeatedCompositeFieldContainer[SeatView]
    challenge: ChallengeView
    recovered_this_turn: bool
    winners: _containers.RepeatedScalarFieldContainer[int]
    end_reason: GameEndReason
    allow_two_players: bool
    optional_come_back: bool
    recover_lost_bet_knights: bool
    overtime_turns_left: int
    departed: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, phase: _Optional[_Union[Phase, str]] = ..., start_seat: _Optional[int] = ..., current_seat: _Optional[int] = ..., turn: _Optional[int] = ..., awaiting: _Optional[_Iterable[int]] = ..., seats: _Optional[_Iterable[_Union[SeatView, _Mapping]]] = ..., challenge: _Optional[_Union[ChallengeView, _Mapping]] = ..., recovered_this_turn: _Optional[bool] = ..., winners: _Optional[_Iterable[int]] = ..., end_reason: _Optional[_Union[GameEndReason, str]] = ..., allow_two_players: _Optional[bool] = ..., optional_come_back: _Optional[bool] = ..., recover_lost_bet_knights: _Optional[bool] = ..., overtime_turns_left: _Optional[int] = ..., departed: _Optional[_Iterable[int]] = ...) -> None: ...
