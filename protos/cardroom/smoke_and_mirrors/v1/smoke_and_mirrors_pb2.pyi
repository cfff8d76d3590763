from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Pile(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PILE_UNSPECIFIED: _ClassVar[Pile]
    PILE_STARS: _ClassVar[Pile]
    PILE_SWIRLS: _ClassVar[Pile]
    PILE_SKULLS: _ClassVar[Pile]

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_DEALING: _ClassVar[Phase]
    PHASE_TURN: _ClassVar[Phase]
    PHASE_SWAP: _ClassVar[Phase]
    PHASE_OVER: _ClassVar[Phase]
    PHASE_SWAP_GIVE: _ClassVar[Phase]
PILE_UNSPECIFIED: Pile
PILE_STARS: Pile
PILE_SWIRLS: Pile
PILE_SKULLS: Pile
PHASE_UNSPECIFIED: Phase
PHASE_DEALING: Phase
PHASE_TURN: Phase
PHASE_SWAP: Phase
PHASE_OVER: Phase
PHASE_SWAP_GIVE: Phase

class Card(_message.Message):
    __slots__ = ("pile", "value")
    PILE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    pile: Pile
    value: int
    def __init__(self, pile: _Optional[_Union[Pile, str]] = ..., value: _Optional[int] = ...) -> None: ...

class Options(_message.Message):
    __slots__ = ("rounds_to_win", "turn_cap", "two_player_remove_swirl5")
    ROUNDS_TO_WIN_FIELD_NUMBER: _ClassVar[int]
    TURN_CAP_FIELD_NUMBER: _ClassVar[int]
    TWO_PLAYER_REMOVE_SWIRL5_FIELD_NUMBER: _ClassVar[int]
    rounds_to_win: int
    turn_cap: int
    two_player_remove_swirl5: bool
    def __init__(self, rounds_to_win: _Optional[int] = ..., turn_cap: _Optional[int] = ..., two_player_remove_swirl5: _Optional[bool] = ...) -> None: ...

class Challenge(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PerformAct(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class TakeBreak(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Swap(_message.Message):
    __slots__ = ("give",)
    GIVE_FIELD_NUMBER: _ClassVar[int]
    give: Card
    def __init__(self, give: _Optional[_Union[Card, _Mapping]] = ...) -> None: ...

class DeclineSwap(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TakeBlind(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GiveCard(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: Card
    def __init__(self, card: _Optional[_Union[Card, _Mapping]] = ...) -> None: ...

class LeaveRound(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DealRound(_message.Message):
    __slots__ = ("start_seat", "stars", "swirls", "skulls")
    START_SEAT_FIELD_NUMBER: _ClassVar[int]
    STARS_FIELD_NUMBER: _ClassVar[int]
    SWIRLS_FIELD_NUMBER: _ClassVar[int]
    SKULLS_FIELD_NUMBER: _ClassVar[int]
    start_seat: int
    stars: _containers.RepeatedCompositeFieldContainer[Card]
    swirls: _containers.RepeatedCompositeFieldContainer[Card]
    skulls: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, start_seat: _Optional[int] = ..., stars: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., swirls: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., skulls: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class BlindPick(_message.Message):
    __slots__ = ("index",)
    INDEX_FIELD_NUMBER: _ClassVar[int]
    index: int
    def __init__(self, index: _Optional[int] = ...) -> None: ...

class RoundDealt(_message.Message):
    __slots__ = ("round", "start_seat", "seats", "set_aside_count")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    START_SEAT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SET_ASIDE_COUNT_FIELD_NUMBER: _ClassVar[int]
    round: int
    start_seat: int
    seats: _containers.RepeatedScalarFieldContainer[int]
    set_aside_count: int
    def __init__(self, round: _Optional[int] = ..., start_seat: _Optional[int] = ..., seats: _Optional[_Iterable[int]] = ..., set_aside_count: _Optional[int] = ...) -> None: ...

class HandDealt(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class CardsSetAside(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class ActPerformed(_message.Message):
    __slots__ = ("seat", "claim", "card_count")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CLAIM_FIELD_NUMBER: _ClassVar[int]
    CARD_COUNT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    claim: int
    card_count: int
    def __init__(self, seat: _Optional[int] = ..., claim: _Optional[int] = ..., card_count: _Optional[int] = ...) -> None: ...

class ActCards(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class BreakTaken(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class ActChallenged(_message.Message):
    __slots__ = ("challenger", "actor", "claim", "act_was_true", "eliminated")
    CHALLENGER_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    CLAIM_FIELD_NUMBER: _ClassVar[int]
    ACT_WAS_TRUE_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    challenger: int
    actor: int
    claim: int
    act_was_true: bool
    eliminated: int
    def __init__(self, challenger: _Optional[int] = ..., actor: _Optional[int] = ..., claim: _Optional[int] = ..., act_was_true: _Optional[bool] = ..., eliminated: _Optional[int] = ...) -> None: ...

class ActRevealed(_message.Message):
    __slots__ = ("actor", "cards")
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    actor: int
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, actor: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class SwapOffered(_message.Message):
    __slots__ = ("seat", "eliminated")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    eliminated: int
    def __init__(self, seat: _Optional[int] = ..., eliminated: _Optional[int] = ...) -> None: ...

class SwapChoice(_message.Message):
    __slots__ = ("seat", "give")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GIVE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    give: Card
    def __init__(self, seat: _Optional[int] = ..., give: _Optional[_Union[Card, _Mapping]] = ...) -> None: ...

class SwapDeclined(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class CardsSwapped(_message.Message):
    __slots__ = ("seat", "eliminated")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    eliminated: int
    def __init__(self, seat: _Optional[int] = ..., eliminated: _Optional[int] = ...) -> None: ...

class SwapDetail(_message.Message):
    __slots__ = ("taken", "given")
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    GIVEN_FIELD_NUMBER: _ClassVar[int]
    taken: Card
    given: Card
    def __init__(self, taken: _Optional[_Union[Card, _Mapping]] = ..., given: _Optional[_Union[Card, _Mapping]] = ...) -> None: ...

class SwapStarted(_message.Message):
    __slots__ = ("seat", "eliminated")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    eliminated: int
    def __init__(self, seat: _Optional[int] = ..., eliminated: _Optional[int] = ...) -> None: ...

class BlindCardTaken(_message.Message):
    __slots__ = ("seat", "eliminated")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    eliminated: int
    def __init__(self, seat: _Optional[int] = ..., eliminated: _Optional[int] = ...) -> None: ...

class TakenCard(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, _Mapping]] = ...) -> None: ...

class CardGiven(_message.Message):
    __slots__ = ("seat", "eliminated")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    eliminated: int
    def __init__(self, seat: _Optional[int] = ..., eliminated: _Optional[int] = ...) -> None: ...

class GivenCard(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, _Mapping]] = ...) -> None: ...

class PlayerEliminated(_message.Message):
    __slots__ = ("seat", "cards_removed")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_REMOVED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards_removed: int
    def __init__(self, seat: _Optional[int] = ..., cards_removed: _Optional[int] = ...) -> None: ...

class PlayerLeftRound(_message.Message):
    __slots__ = ("seat", "cards_removed")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_REMOVED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards_removed: int
    def __init__(self, seat: _Optional[int] = ..., cards_removed: _Optional[int] = ...) -> None: ...

class RoundWon(_message.Message):
    __slots__ = ("round", "seat")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    round: int
    seat: int
    def __init__(self, round: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...

class SeatView(_message.Message):
    __slots__ = ("seat", "active", "round_wins", "break_used", "hand_count", "hand", "act_count", "act", "act_claim")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    ROUND_WINS_FIELD_NUMBER: _ClassVar[int]
    BREAK_USED_FIELD_NUMBER: _ClassVar[int]
    HAND_COUNT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    ACT_COUNT_FIELD_NUMBER: _ClassVar[int]
    ACT_FIELD_NUMBER: _ClassVar[int]
    ACT_CLAIM_FIELD_NUMBER: _ClassVar[int]
    seat: int
    active: bool
    round_wins: int
    break_used: bool
    hand_count: int
    hand: _containers.RepeatedCompositeFieldContainer[Card]
    act_count: int
    act: _containers.RepeatedCompositeFieldContainer[Card]
    act_claim: int
    def __init__(self, seat: _Optional[int] = ..., active: _Optional[bool] = ..., round_wins: _Optional[int] = ..., break_used: _Optional[bool] = ..., hand_count: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., act_count: _Optional[int] = ..., act: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., act_claim: _Optional[int] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("round", "phase", "turn_seat", "start_seat", "next_claim", "last_actor", "challenged_this_turn", "swapper", "seats", "set_aside_count", "winner", "swap_taken", "awaiting")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_SEAT_FIELD_NUMBER: _ClassVar[int]
    START_SEAT_FIELD_NUMBER: _ClassVar[int]
    NEXT_CLAIM_FIELD_NUMBER: _ClassVar[int]
    LAST_ACTOR_FIELD_NUMBER: _ClassVar[int]
    CHALLENGED_THIS_TURN_FIELD_NUMBER: _ClassVar[int]
    SWAPPER_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SET_ASIDE_COUNT_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    SWAP_TAKEN_FIELD_NUMBER: _ClassVar[int]
    AWAITING_FIELD_NUMBER: _ClassVar[int]
    round: int
    phase: Phase
    turn_seat: int
    start_seat: int
    next_claim: int
    last_actor: int
    challenged_this_turn: bool
    swapper: int
    seats: _containers.RepeatedCompositeFieldContainer[SeatView]
    set_aside_count: int
    winner: int
    swap_taken: Card
    awaiting: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, round: _Optional[int] = ..., phase: _Optional[_Union[Phase, str]] = ..., turn_seat: _Optional[int] = ..., start_seat: _Optional[int] = ..., next_claim: _Optional[int] = ..., last_actor: _Optional[int] = ..., challenged_this_turn: _Optional[bool] = ..., swapper: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatView, _Mapping]]] = ..., set_aside_count: _Optional[int] = ..., winner: _Optional[int] = ..., swap_taken: _Optional[_Union[Card, _Mapping]] = ..., awaiting: _Optional[_Iterable[int]] = ...) -> None: ...
