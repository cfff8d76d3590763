from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Card(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CARD_UNSPECIFIED: _ClassVar[Card]
    CARD_DEBT_COLLECTOR: _ClassVar[Card]
    CARD_SPY: _ClassVar[Card]
    CARD_HALFLING: _ClassVar[Card]
    CARD_SENTINEL: _ClassVar[Card]
    CARD_ZOMBIE: _ClassVar[Card]
    CARD_APPROXIMATOR: _ClassVar[Card]
    CARD_FLIPPER: _ClassVar[Card]
    CARD_ELUSIVE_SEER: _ClassVar[Card]
    CARD_MAGICIAN: _ClassVar[Card]
    CARD_MYSTIC_SEER: _ClassVar[Card]
    CARD_RENFIELD: _ClassVar[Card]
    CARD_REVERSER: _ClassVar[Card]
    CARD_MASTER_THIEF: _ClassVar[Card]
    CARD_FURRY: _ClassVar[Card]

class ViewReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VIEW_REASON_UNSPECIFIED: _ClassVar[ViewReason]
    VIEW_REASON_SPY: _ClassVar[ViewReason]
    VIEW_REASON_ELUSIVE_SEER: _ClassVar[ViewReason]
    VIEW_REASON_MYSTIC_SEER: _ClassVar[ViewReason]
    VIEW_REASON_MASTER_THIEF: _ClassVar[ViewReason]

class AddedFrom(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ADDED_FROM_UNSPECIFIED: _ClassVar[AddedFrom]
    ADDED_FROM_HELD: _ClassVar[AddedFrom]
    ADDED_FROM_DECK: _ClassVar[AddedFrom]

class RoundEndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROUND_END_REASON_UNSPECIFIED: _ClassVar[RoundEndReason]
    ROUND_END_REASON_CALL: _ClassVar[RoundEndReason]
    ROUND_END_REASON_DECK_DEPLETED: _ClassVar[RoundEndReason]

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_DEAL: _ClassVar[Phase]
    PHASE_LOOK: _ClassVar[Phase]
    PHASE_TURN: _ClassVar[Phase]
    PHASE_HOLDING: _ClassVar[Phase]
    PHASE_SELECTING: _ClassVar[Phase]
    PHASE_ABILITY: _ClassVar[Phase]
    PHASE_ROUND_OVER: _ClassVar[Phase]
    PHASE_OVER: _ClassVar[Phase]

class AbilityStep(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ABILITY_STEP_UNSPECIFIED: _ClassVar[AbilityStep]
    ABILITY_STEP_APPROXIMATOR_SELECT: _ClassVar[AbilityStep]
    ABILITY_STEP_FLIPPER_VILLAGE: _ClassVar[AbilityStep]
    ABILITY_STEP_ELUSIVE_SEER_VIEW: _ClassVar[AbilityStep]
    ABILITY_STEP_MYSTIC_SEER_VIEW: _ClassVar[AbilityStep]
    ABILITY_STEP_MASTER_THIEF_VIEW: _ClassVar[AbilityStep]
    ABILITY_STEP_MASTER_THIEF_SWITCH: _ClassVar[AbilityStep]
    ABILITY_STEP_MAGICIAN_TARGET: _ClassVar[AbilityStep]
    ABILITY_STEP_MAGICIAN_CHOICE: _ClassVar[AbilityStep]
CARD_UNSPECIFIED: Card
CARD_DEBT_COLLECTOR: Card
CARD_SPY: Card
CARD_HALFLING: Card
CARD_SENTINEL: Card
CARD_ZOMBIE: Card
CARD_APPROXIMATOR: Card
CARD_FLIPPER: Card
CARD_ELUSIVE_SEER: Card
CARD_MAGICIAN: Card
CARD_MYSTIC_SEER: Card
CARD_RENFIELD: Card
CARD_REVERSER: Card
CARD_MASTER_THIEF: Card
CARD_FURRY: Card
VIEW_REASON_UNSPECIFIED: ViewReason
VIEW_REASON_SPY: ViewReason
VIEW_REASON_ELUSIVE_SEER: ViewReason
VIEW_REASON_MYSTIC_SEER: ViewReason
VIEW_REASON_MASTER_THIEF: ViewReason
ADDED_FROM_UNSPECIFIED: AddedFrom
ADDED_FROM_HELD: AddedFrom
ADDED_FROM_DECK: AddedFrom
ROUND_END_REASON_UNSPECIFIED: RoundEndReason
ROUND_END_REASON_CALL: RoundEndReason
ROUND_END_REASON_DECK_DEPLETED: RoundEndReason
PHASE_UNSPECIFIED: Phase
PHASE_DEAL: Phase
PHASE_LOOK: Phase
PHASE_TURN: Phase
PHASE_HOLDING: Phase
PHASE_SELECTING: Phase
PHASE_ABILITY: Phase
PHASE_ROUND_OVER: Phase
PHASE_OVER: Phase
ABILITY_STEP_UNSPECIFIED: AbilityStep
ABILITY_STEP_APPROXIMATOR_SELECT: AbilityStep
ABILITY_STEP_FLIPPER_VILLAGE: AbilityStep
ABILITY_STEP_ELUSIVE_SEER_VIEW: AbilityStep
ABILITY_STEP_MYSTIC_SEER_VIEW: AbilityStep
ABILITY_STEP_MASTER_THIEF_VIEW: AbilityStep
ABILITY_STEP_MASTER_THIEF_SWITCH: AbilityStep
ABILITY_STEP_MAGICIAN_TARGET: AbilityStep
ABILITY_STEP_MAGICIAN_CHOICE: AbilityStep

class Options(_message.Message):
    __slots__ = ("mismatch_penalty_threshold", "furry_sequential_plus50")
    MISMATCH_PENALTY_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    FURRY_SEQUENTIAL_PLUS50_FIELD_NUMBER: _ClassVar[int]
    mismatch_penalty_threshold: int
    furry_sequential_plus50: bool
    def __init__(self, mismatch_penalty_threshold: _Optional[int] = ..., furry_sequential_plus50: _Optional[bool] = ...) -> None: ...

class LookAtCards(_message.Message):
    __slots__ = ("first", "second")
    FIRST_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    first: int
    second: int
    def __init__(self, first: _Optional[int] = ..., second: _Optional[int] = ...) -> None: ...

class DrawCard(_message.Message):
    __slots__ = ("private_deck",)
    PRIVATE_DECK_FIELD_NUMBER: _ClassVar[int]
    private_deck: bool
    def __init__(self, private_deck: _Optional[bool] = ...) -> None: ...

class TakeDiscard(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class CallVote(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GiveZombie(_message.Message):
    __slots__ = ("position",)
    POSITION_FIELD_NUMBER: _ClassVar[int]
    position: int
    def __init__(self, position: _Optional[int] = ...) -> None: ...

class SpyPeek(_message.Message):
    __slots__ = ("seat", "position")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    position: int
    def __init__(self, seat: _Optional[int] = ..., position: _Optional[int] = ...) -> None: ...

class TurnDagger(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DiscardDrawn(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class UseAbility(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Exchange(_message.Message):
    __slots__ = ("position",)
    POSITION_FIELD_NUMBER: _ClassVar[int]
    position: int
    def __init__(self, position: _Optional[int] = ...) -> None: ...

class StartMultipleExchange(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SelectCard(_message.Message):
    __slots__ = ("position",)
    POSITION_FIELD_NUMBER: _ClassVar[int]
    position: int
    def __init__(self, position: _Optional[int] = ...) -> None: ...

class ConfirmExchange(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ChooseVillage(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class ChooseCard(_message.Message):
    __slots__ = ("seat", "position")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    position: int
    def __init__(self, seat: _Optional[int] = ..., position: _Optional[int] = ...) -> None: ...

class SwitchWith(_message.Message):
    __slots__ = ("position",)
    POSITION_FIELD_NUMBER: _ClassVar[int]
    position: int
    def __init__(self, position: _Optional[int] = ...) -> None: ...

class StopViewing(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DealRound(_message.Message):
    __slots__ = ("order", "start_seat")
    ORDER_FIELD_NUMBER: _ClassVar[int]
    START_SEAT_FIELD_NUMBER: _ClassVar[int]
    order: _containers.RepeatedScalarFieldContainer[Card]
    start_seat: int
    def __init__(self, order: _Optional[_Iterable[_Union[Card, str]]] = ..., start_seat: _Optional[int] = ...) -> None: ...

class SlotCard(_message.Message):
    __slots__ = ("slot", "card")
    SLOT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    slot: int
    card: Card
    def __init__(self, slot: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ...) -> None: ...

class RoundDealt(_message.Message):
    __slots__ = ("round", "start_seat", "first_slot", "discard")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    START_SEAT_FIELD_NUMBER: _ClassVar[int]
    FIRST_SLOT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    round: int
    start_seat: int
    first_slot: int
    discard: Card
    def __init__(self, round: _Optional[int] = ..., start_seat: _Optional[int] = ..., first_slot: _Optional[int] = ..., discard: _Optional[_Union[Card, str]] = ...) -> None: ...

class CardsLooked(_message.Message):
    __slots__ = ("seat", "positions")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POSITIONS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    positions: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., positions: _Optional[_Iterable[int]] = ...) -> None: ...

class CardViewed(_message.Message):
    __slots__ = ("seat", "target", "position", "reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    target: int
    position: int
    reason: ViewReason
    def __init__(self, seat: _Optional[int] = ..., target: _Optional[int] = ..., position: _Optional[int] = ..., reason: _Optional[_Union[ViewReason, str]] = ...) -> None: ...

class DaggerTurned(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class CardDrawn(_message.Message):
    __slots__ = ("seat", "private_deck", "from_slot", "slot")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_DECK_FIELD_NUMBER: _ClassVar[int]
    FROM_SLOT_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    private_deck: bool
    from_slot: int
    slot: int
    def __init__(self, seat: _Optional[int] = ..., private_deck: _Optional[bool] = ..., from_slot: _Optional[int] = ..., slot: _Optional[int] = ...) -> None: ...

class DiscardTaken(_message.Message):
    __slots__ = ("seat", "card", "slot")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    slot: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ..., slot: _Optional[int] = ...) -> None: ...

class VoteCalled(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class ZombieGiven(_message.Message):
    __slots__ = ("seat", "position", "target", "slot")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    position: int
    target: int
    slot: int
    def __init__(self, seat: _Optional[int] = ..., position: _Optional[int] = ..., target: _Optional[int] = ..., slot: _Optional[int] = ...) -> None: ...

class HeldDiscarded(_message.Message):
    __slots__ = ("seat", "card", "revealed_slots")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    REVEALED_SLOTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    revealed_slots: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ..., revealed_slots: _Optional[_Iterable[int]] = ...) -> None: ...

class AbilityStarted(_message.Message):
    __slots__ = ("seat", "card", "via_magician", "revealed_slots", "no_effect")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    VIA_MAGICIAN_FIELD_NUMBER: _ClassVar[int]
    REVEALED_SLOTS_FIELD_NUMBER: _ClassVar[int]
    NO_EFFECT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    via_magician: bool
    revealed_slots: _containers.RepeatedScalarFieldContainer[int]
    no_effect: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ..., via_magician: _Optional[bool] = ..., revealed_slots: _Optional[_Iterable[int]] = ..., no_effect: _Optional[bool] = ...) -> None: ...

class CardExchanged(_message.Message):
    __slots__ = ("seat", "position", "discarded", "slot", "face_up", "placed", "revealed_slots")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_FIELD_NUMBER: _ClassVar[int]
    PLACED_FIELD_NUMBER: _ClassVar[int]
    REVEALED_SLOTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    position: int
    discarded: Card
    slot: int
    face_up: bool
    placed: Card
    revealed_slots: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., position: _Optional[int] = ..., discarded: _Optional[_Union[Card, str]] = ..., slot: _Optional[int] = ..., face_up: _Optional[bool] = ..., placed: _Optional[_Union[Card, str]] = ..., revealed_slots: _Optional[_Iterable[int]] = ...) -> None: ...

class MultipleExchangeStarted(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class CardSelected(_message.Message):
    __slots__ = ("seat", "position")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    position: int
    def __init__(self, seat: _Optional[int] = ..., position: _Optional[int] = ...) -> None: ...

class CardsShown(_message.Message):
    __slots__ = ("seat", "positions", "cards", "revealed_slots")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POSITIONS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    REVEALED_SLOTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    positions: _containers.RepeatedScalarFieldContainer[int]
    cards: _containers.RepeatedScalarFieldContainer[Card]
    revealed_slots: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., positions: _Optional[_Iterable[int]] = ..., cards: _Optional[_Iterable[_Union[Card, str]]] = ..., revealed_slots: _Optional[_Iterable[int]] = ...) -> None: ...

class CardsDiscarded(_message.Message):
    __slots__ = ("seat", "positions")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POSITIONS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    positions: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., positions: _Optional[_Iterable[int]] = ...) -> None: ...

class CardsTurnedDown(_message.Message):
    __slots__ = ("seat", "positions")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POSITIONS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    positions: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., positions: _Optional[_Iterable[int]] = ...) -> None: ...

class CardAdded(_message.Message):
    __slots__ = ("seat", "position", "slot", "face_up", "card", "source", "revealed_slots")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    REVEALED_SLOTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    position: int
    slot: int
    face_up: bool
    card: Card
    source: AddedFrom
    revealed_slots: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., position: _Optional[int] = ..., slot: _Optional[int] = ..., face_up: _Optional[bool] = ..., card: _Optional[_Union[Card, str]] = ..., source: _Optional[_Union[AddedFrom, str]] = ..., revealed_slots: _Optional[_Iterable[int]] = ...) -> None: ...

class VillageFlipped(_message.Message):
    __slots__ = ("seat", "target", "cards", "revealed_slots")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    REVEALED_SLOTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    target: int
    cards: _containers.RepeatedScalarFieldContainer[Card]
    revealed_slots: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., target: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[Card, str]]] = ..., revealed_slots: _Optional[_Iterable[int]] = ...) -> None: ...

class CardTurnedUp(_message.Message):
    __slots__ = ("seat", "target", "position", "card", "revealed_slots")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    REVEALED_SLOTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    target: int
    position: int
    card: Card
    revealed_slots: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., target: _Optional[int] = ..., position: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ..., revealed_slots: _Optional[_Iterable[int]] = ...) -> None: ...

class MagicianTargeted(_message.Message):
    __slots__ = ("seat", "target", "position", "card", "revealed_slots")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    REVEALED_SLOTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    target: int
    position: int
    card: Card
    revealed_slots: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., target: _Optional[int] = ..., position: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ..., revealed_slots: _Optional[_Iterable[int]] = ...) -> None: ...

class CardsSwitched(_message.Message):
    __slots__ = ("seat", "first_seat", "first_position", "first_slot", "first_card", "second_seat", "second_position", "second_slot", "second_card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    FIRST_POSITION_FIELD_NUMBER: _ClassVar[int]
    FIRST_SLOT_FIELD_NUMBER: _ClassVar[int]
    FIRST_CARD_FIELD_NUMBER: _ClassVar[int]
    SECOND_SEAT_FIELD_NUMBER: _ClassVar[int]
    SECOND_POSITION_FIELD_NUMBER: _ClassVar[int]
    SECOND_SLOT_FIELD_NUMBER: _ClassVar[int]
    SECOND_CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    first_seat: int
    first_position: int
    first_slot: int
    first_card: Card
    second_seat: int
    second_position: int
    second_slot: int
    second_card: Card
    def __init__(self, seat: _Optional[int] = ..., first_seat: _Optional[int] = ..., first_position: _Optional[int] = ..., first_slot: _Optional[int] = ..., first_card: _Optional[_Union[Card, str]] = ..., second_seat: _Optional[int] = ..., second_position: _Optional[int] = ..., second_slot: _Optional[int] = ..., second_card: _Optional[_Union[Card, str]] = ...) -> None: ...

class PrivateDeckGrown(_message.Message):
    __slots__ = ("seat", "from_slot", "slot")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FROM_SLOT_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    from_slot: int
    slot: int
    def __init__(self, seat: _Optional[int] = ..., from_slot: _Optional[int] = ..., slot: _Optional[int] = ...) -> None: ...

class DirectionReversed(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class ViewingStopped(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class RoundEnded(_message.Message):
    __slots__ = ("round", "reason")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    round: int
    reason: RoundEndReason
    def __init__(self, round: _Optional[int] = ..., reason: _Optional[_Union[RoundEndReason, str]] = ...) -> None: ...

class VillageCards(_message.Message):
    __slots__ = ("seat", "cards", "face_up")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[Card]
    face_up: _containers.RepeatedScalarFieldContainer[bool]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[Card, str]]] = ..., face_up: _Optional[_Iterable[bool]] = ...) -> None: ...

class VillagesRevealed(_message.Message):
    __slots__ = ("villages", "revealed_slots")
    VILLAGES_FIELD_NUMBER: _ClassVar[int]
    REVEALED_SLOTS_FIELD_NUMBER: _ClassVar[int]
    villages: _containers.RepeatedCompositeFieldContainer[VillageCards]
    revealed_slots: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, villages: _Optional[_Iterable[_Union[VillageCards, _Mapping]]] = ..., revealed_slots: _Optional[_Iterable[int]] = ...) -> None: ...

class SeatScore(_message.Message):
    __slots__ = ("seat", "base", "after_debt_collectors", "after_halflings", "jackpot", "sum", "points", "total")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BASE_FIELD_NUMBER: _ClassVar[int]
    AFTER_DEBT_COLLECTORS_FIELD_NUMBER: _ClassVar[int]
    AFTER_HALFLINGS_FIELD_NUMBER: _ClassVar[int]
    JACKPOT_FIELD_NUMBER: _ClassVar[int]
    SUM_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    base: int
    after_debt_collectors: int
    after_halflings: int
    jackpot: bool
    sum: int
    points: int
    total: int
    def __init__(self, seat: _Optional[int] = ..., base: _Optional[int] = ..., after_debt_collectors: _Optional[int] = ..., after_halflings: _Optional[int] = ..., jackpot: _Optional[bool] = ..., sum: _Optional[int] = ..., points: _Optional[int] = ..., total: _Optional[int] = ...) -> None: ...

class RoundScored(_message.Message):
    __slots__ = ("round", "scores", "caller", "call_succeeded", "reason")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    CALLER_FIELD_NUMBER: _ClassVar[int]
    CALL_SUCCEEDED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    round: int
    scores: _containers.RepeatedCompositeFieldContainer[SeatScore]
    caller: int
    call_succeeded: bool
    reason: RoundEndReason
    def __init__(self, round: _Optional[int] = ..., scores: _Optional[_Iterable[_Union[SeatScore, _Mapping]]] = ..., caller: _Optional[int] = ..., call_succeeded: _Optional[bool] = ..., reason: _Optional[_Union[RoundEndReason, str]] = ...) -> None: ...

class DaggerPassed(_message.Message):
    __slots__ = ("seat", "usable")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    USABLE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    usable: bool
    def __init__(self, seat: _Optional[int] = ..., usable: _Optional[bool] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("winners", "totals")
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, winners: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class CardView(_message.Message):
    __slots__ = ("card", "face_up", "slot", "known_by", "public")
    CARD_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    KNOWN_BY_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_FIELD_NUMBER: _ClassVar[int]
    card: Card
    face_up: bool
    slot: int
    known_by: _containers.RepeatedScalarFieldContainer[int]
    public: bool
    def __init__(self, card: _Optional[_Union[Card, str]] = ..., face_up: _Optional[bool] = ..., slot: _Optional[int] = ..., known_by: _Optional[_Iterable[int]] = ..., public: _Optional[bool] = ...) -> None: ...

class SeatView(_message.Message):
    __slots__ = ("seat", "village", "private_deck_count", "private_deck", "looked", "total", "round_points")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VILLAGE_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_DECK_COUNT_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_DECK_FIELD_NUMBER: _ClassVar[int]
    LOOKED_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    ROUND_POINTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    village: _containers.RepeatedCompositeFieldContainer[CardView]
    private_deck_count: int
    private_deck: _containers.RepeatedScalarFieldContainer[Card]
    looked: bool
    total: int
    round_points: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., village: _Optional[_Iterable[_Union[CardView, _Mapping]]] = ..., private_deck_count: _Optional[int] = ..., private_deck: _Optional[_Iterable[_Union[Card, str]]] = ..., looked: _Optional[bool] = ..., total: _Optional[int] = ..., round_points: _Optional[_Iterable[int]] = ...) -> None: ...

class AbilityView(_message.Message):
    __slots__ = ("card", "step", "viewed_slots", "target_seat", "target_position", "via_magician")
    CARD_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    VIEWED_SLOTS_FIELD_NUMBER: _ClassVar[int]
    TARGET_SEAT_FIELD_NUMBER: _ClassVar[int]
    TARGET_POSITION_FIELD_NUMBER: _ClassVar[int]
    VIA_MAGICIAN_FIELD_NUMBER: _ClassVar[int]
    card: Card
    step: AbilityStep
    viewed_slots: _containers.RepeatedScalarFieldContainer[int]
    target_seat: int
    target_position: int
    via_magician: bool
    def __init__(self, card: _Optional[_Union[Card, str]] = ..., step: _Optional[_Union[AbilityStep, str]] = ..., viewed_slots: _Optional[_Iterable[int]] = ..., target_seat: _Optional[int] = ..., target_position: _Optional[int] = ..., via_magician: _Optional[bool] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("phase", "round", "start_seat", "current_seat", "turn", "awaiting", "clockwise", "dagger_seat", "dagger_usable", "dagger_used", "caller", "seats", "deck_count", "discard_pile", "holding", "held", "held_from_private_deck", "held_from_discard", "selected", "ability", "peeks_used", "out_of_play", "last_round", "winners", "mismatch_penalty_threshold", "furry_sequential_plus50")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    START_SEAT_FIELD_NUMBER: _ClassVar[int]
    CURRENT_SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    AWAITING_FIELD_NUMBER: _ClassVar[int]
    CLOCKWISE_FIELD_NUMBER: _ClassVar[int]
    DAGGER_SEAT_FIELD_NUMBER: _ClassVar[int]
    DAGGER_USABLE_FIELD_NUMBER: _ClassVar[int]
    DAGGER_USED_FIELD_NUMBER: _ClassVar[int]
    CALLER_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    DECK_COUNT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_PILE_FIELD_NUMBER: _ClassVar[int]
    HOLDING_FIELD_NUMBER: _ClassVar[int]
    HELD_FIELD_NUMBER: _ClassVar[int]
    HELD_FROM_PRIVATE_DECK_FIELD_NUMBER: _ClassVar[int]
    HELD_FROM_DISCARD_FIELD_NUMBER: _ClassVar[int]
    SELECTED_FIELD_NUMBER: _ClassVar[int]
    ABILITY_FIELD_NUMBER: _ClassVar[int]
    PEEKS_USED_FIELD_NUMBER: _ClassVar[int]
    OUT_OF_PLAY_FIELD_NUMBER: _ClassVar[int]
    LAST_ROUND_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    MISMATCH_PENALTY_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    FURRY_SEQUENTIAL_PLUS50_FIELD_NUMBER: _ClassVar[int]
    phase: Phase
    round: int
    start_seat: int
    current_seat: int
    turn: int
    awaiting: _containers.RepeatedScalarFieldContainer[int]
    clockwise: bool
    dagger_seat: int
    dagger_usable: bool
    dagger_used: bool
    caller: int
    seats: _containers.RepeatedCompositeFieldContainer[SeatView]
    deck_count: int
    discard_pile: _containers.RepeatedScalarFieldContainer[Card]
    holding: bool
    held: Card
    held_from_private_deck: bool
    held_from_discard: bool
    selected: _containers.RepeatedScalarFieldContainer[int]
    ability: AbilityView
    peeks_used: int
    out_of_play: int
    last_round: RoundScored
    winners: _containers.RepeatedScalarFieldContainer[int]
    mismatch_penalty_threshold: int
    furry_sequential_plus50: bool
    def __init__(self, phase: _Optional[_Union[Phase, str]] = ..., round: _Optional[int] = ..., start_seat: _Optional[int] = ..., current_seat: _Optional[int] = ..., turn: _Optional[int] = ..., awaiting: _Optional[_Iterable[int]] = ..., clockwise: _Optional[bool] = ..., dagger_seat: _Optional[int] = ..., dagger_usable: _Optional[bool] = ..., dagger_used: _Optional[bool] = ..., caller: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatView, _Mapping]]] = ..., deck_count: _Optional[int] = ..., discard_pile: _Optional[_Iterable[_Union[Card, str]]] = ..., holding: _Optional[bool] = ..., held: _Optional[_Union[Card, str]] = ..., held_from_private_deck: _Optional[bool] = ..., held_from_discard: _Optional[bool] = ..., selected: _Optional[_Iterable[int]] = ..., ability: _Optional[_Union[AbilityView, _Mapping]] = ..., peeks_used: _Optional[int] = ..., out_of_play: _Optional[int] = ..., last_round: _Optional[_Union[RoundScored, _Mapping]] = ..., winners: _Optional[_Iterable[int]] = ..., mismatch_penalty_threshold: _Optional[int] = ..., furry_sequential_plus50: _Optional[bool] = ...) -> None: ...
