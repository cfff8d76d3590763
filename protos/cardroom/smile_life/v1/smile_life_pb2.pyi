from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class StartTiebreak(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    START_TIEBREAK_UNSPECIFIED: _ClassVar[StartTiebreak]
    START_TIEBREAK_LOWEST_SEAT: _ClassVar[StartTiebreak]

class Destination(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DESTINATION_UNSPECIFIED: _ClassVar[Destination]
    DESTINATION_LIFE: _ClassVar[Destination]
    DESTINATION_MALUS: _ClassVar[Destination]
    DESTINATION_DISCARD: _ClassVar[Destination]
    DESTINATION_CASINO: _ClassVar[Destination]

class Source(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SOURCE_UNSPECIFIED: _ClassVar[Source]
    SOURCE_HAND: _ClassVar[Source]
    SOURCE_HELD: _ClassVar[Source]

class Zone(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ZONE_UNSPECIFIED: _ClassVar[Zone]
    ZONE_HAND: _ClassVar[Zone]
    ZONE_JOB: _ClassVar[Zone]
    ZONE_STUDIES: _ClassVar[Zone]
    ZONE_SALARIES: _ClassVar[Zone]
    ZONE_MARRIAGE: _ClassVar[Zone]
    ZONE_ADULTERY: _ClassVar[Zone]
    ZONE_CHILDREN: _ClassVar[Zone]
    ZONE_MALUSES: _ClassVar[Zone]

class Step(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STEP_UNSPECIFIED: _ClassVar[Step]
    STEP_PLAY_HELD: _ClassVar[Step]
    STEP_RAINBOW: _ClassVar[Step]
    STEP_CASINO_BET: _ClassVar[Step]
    STEP_LUCK: _ClassVar[Step]
    STEP_SHOOTING_STAR: _ClassVar[Step]
    STEP_ASTRONAUT: _ClassVar[Step]
    STEP_PISTON: _ClassVar[Step]
    STEP_BARTER: _ClassVar[Step]
    STEP_MANAGER_BARTER: _ClassVar[Step]
    STEP_BARTER_DRAW: _ClassVar[Step]
    STEP_TSUNAMI: _ClassVar[Step]
    STEP_REVENGE: _ClassVar[Step]
    STEP_BIRTHDAY_GIFT: _ClassVar[Step]
    STEP_RESEARCHER_DISCARD: _ClassVar[Step]
    STEP_JOURNALIST: _ClassVar[Step]

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_SETUP: _ClassVar[Phase]
    PHASE_TURN: _ClassVar[Phase]
    PHASE_OVER: _ClassVar[Phase]

class Stage(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STAGE_UNSPECIFIED: _ClassVar[Stage]
    STAGE_START: _ClassVar[Stage]
    STAGE_PLAY: _ClassVar[Stage]
    STAGE_DONE: _ClassVar[Stage]
START_TIEBREAK_UNSPECIFIED: StartTiebreak
START_TIEBREAK_LOWEST_SEAT: StartTiebreak
DESTINATION_UNSPECIFIED: Destination
DESTINATION_LIFE: Destination
DESTINATION_MALUS: Destination
DESTINATION_DISCARD: Destination
DESTINATION_CASINO: Destination
SOURCE_UNSPECIFIED: Source
SOURCE_HAND: Source
SOURCE_HELD: Source
ZONE_UNSPECIFIED: Zone
ZONE_HAND: Zone
ZONE_JOB: Zone
ZONE_STUDIES: Zone
ZONE_SALARIES: Zone
ZONE_MARRIAGE: Zone
ZONE_ADULTERY: Zone
ZONE_CHILDREN: Zone
ZONE_MALUSES: Zone
STEP_UNSPECIFIED: Step
STEP_PLAY_HELD: Step
STEP_RAINBOW: Step
STEP_CASINO_BET: Step
STEP_LUCK: Step
STEP_SHOOTING_STAR: Step
STEP_ASTRONAUT: Step
STEP_PISTON: Step
STEP_BARTER: Step
STEP_MANAGER_BARTER: Step
STEP_BARTER_DRAW: Step
STEP_TSUNAMI: Step
STEP_REVENGE: Step
STEP_BIRTHDAY_GIFT: Step
STEP_RESEARCHER_DISCARD: Step
STEP_JOURNALIST: Step
PHASE_UNSPECIFIED: Phase
PHASE_SETUP: Phase
PHASE_TURN: Phase
PHASE_OVER: Phase
STAGE_UNSPECIFIED: Stage
STAGE_START: Stage
STAGE_PLAY: Stage
STAGE_DONE: Stage

class Options(_message.Message):
    __slots__ = ("allow_six_players", "river_variant", "architect_free_houses", "start_tiebreak", "grand_prof_salary_max", "draw_pile_size")
    ALLOW_SIX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    RIVER_VARIANT_FIELD_NUMBER: _ClassVar[int]
    ARCHITECT_FREE_HOUSES_FIELD_NUMBER: _ClassVar[int]
    START_TIEBREAK_FIELD_NUMBER: _ClassVar[int]
    GRAND_PROF_SALARY_MAX_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_SIZE_FIELD_NUMBER: _ClassVar[int]
    allow_six_players: bool
    river_variant: bool
    architect_free_houses: int
    start_tiebreak: StartTiebreak
    grand_prof_salary_max: int
    draw_pile_size: int
    def __init__(self, allow_six_players: _Optional[bool] = ..., river_variant: _Optional[bool] = ..., architect_free_houses: _Optional[int] = ..., start_tiebreak: _Optional[_Union[StartTiebreak, str]] = ..., grand_prof_salary_max: _Optional[int] = ..., draw_pile_size: _Optional[int] = ...) -> None: ...

class Payment(_message.Message):
    __slots__ = ("salary_levels", "inheritance", "free")
    SALARY_LEVELS_FIELD_NUMBER: _ClassVar[int]
    INHERITANCE_FIELD_NUMBER: _ClassVar[int]
    FREE_FIELD_NUMBER: _ClassVar[int]
    salary_levels: _containers.RepeatedScalarFieldContainer[int]
    inheritance: bool
    free: bool
    def __init__(self, salary_levels: _Optional[_Iterable[int]] = ..., inheritance: _Optional[bool] = ..., free: _Optional[bool] = ...) -> None: ...

class HandCards(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class DrawCard(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TakeDiscard(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TakeRiverCard(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class PlayCard(_message.Message):
    __slots__ = ("card", "destination", "target", "payment", "steal_from")
    CARD_FIELD_NUMBER: _ClassVar[int]
    DESTINATION_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    PAYMENT_FIELD_NUMBER: _ClassVar[int]
    STEAL_FROM_FIELD_NUMBER: _ClassVar[int]
    card: str
    destination: Destination
    target: int
    payment: Payment
    steal_from: int
    def __init__(self, card: _Optional[str] = ..., destination: _Optional[_Union[Destination, str]] = ..., target: _Optional[int] = ..., payment: _Optional[_Union[Payment, _Mapping]] = ..., steal_from: _Optional[int] = ...) -> None: ...

class Resign(_message.Message):
    __slots__ = ("discard",)
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    discard: str
    def __init__(self, discard: _Optional[str] = ...) -> None: ...

class Divorce(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class StopAdultery(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class MissTurn(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Decline(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ChooseLuckCard(_message.Message):
    __slots__ = ("card", "top_discard")
    CARD_FIELD_NUMBER: _ClassVar[int]
    TOP_DISCARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    top_discard: str
    def __init__(self, card: _Optional[str] = ..., top_discard: _Optional[str] = ...) -> None: ...

class TakeFromDiscard(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class ChooseBarterPartner(_message.Message):
    __slots__ = ("partner", "protect")
    PARTNER_FIELD_NUMBER: _ClassVar[int]
    PROTECT_FIELD_NUMBER: _ClassVar[int]
    partner: int
    protect: str
    def __init__(self, partner: _Optional[int] = ..., protect: _Optional[str] = ...) -> None: ...

class TakeRevenge(_message.Message):
    __slots__ = ("malus", "target")
    MALUS_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    malus: str
    target: int
    def __init__(self, malus: _Optional[str] = ..., target: _Optional[int] = ...) -> None: ...

class GiveSalary(_message.Message):
    __slots__ = ("level",)
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    level: int
    def __init__(self, level: _Optional[int] = ...) -> None: ...

class DiscardFromHand(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class Announce(_message.Message):
    __slots__ = ("seat", "card", "holds")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    HOLDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    holds: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., holds: _Optional[bool] = ...) -> None: ...

class ShuffleDeck(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class RedealHands(_message.Message):
    __slots__ = ("hands",)
    HANDS_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedCompositeFieldContainer[HandCards]
    def __init__(self, hands: _Optional[_Iterable[_Union[HandCards, _Mapping]]] = ...) -> None: ...

class PickBarterCards(_message.Message):
    __slots__ = ("from_initiator", "from_partner")
    FROM_INITIATOR_FIELD_NUMBER: _ClassVar[int]
    FROM_PARTNER_FIELD_NUMBER: _ClassVar[int]
    from_initiator: str
    from_partner: str
    def __init__(self, from_initiator: _Optional[str] = ..., from_partner: _Optional[str] = ...) -> None: ...

class CardsDealt(_message.Message):
    __slots__ = ("hand_size", "draw_pile_count", "set_aside_count")
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_COUNT_FIELD_NUMBER: _ClassVar[int]
    SET_ASIDE_COUNT_FIELD_NUMBER: _ClassVar[int]
    hand_size: int
    draw_pile_count: int
    set_aside_count: int
    def __init__(self, hand_size: _Optional[int] = ..., draw_pile_count: _Optional[int] = ..., set_aside_count: _Optional[int] = ...) -> None: ...

class DealtCards(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class DrawPile(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class SetAside(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class RiverCardDealt(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class RiverDiscarded(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TurnStarted(_message.Message):
    __slots__ = ("seat", "turn")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    turn: int
    def __init__(self, seat: _Optional[int] = ..., turn: _Optional[int] = ...) -> None: ...

class TurnMissed(_message.Message):
    __slots__ = ("seat", "remaining")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REMAINING_FIELD_NUMBER: _ClassVar[int]
    seat: int
    remaining: int
    def __init__(self, seat: _Optional[int] = ..., remaining: _Optional[int] = ...) -> None: ...

class TurnEnded(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class CardDrawn(_message.Message):
    __slots__ = ("seat", "for_turn")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FOR_TURN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    for_turn: bool
    def __init__(self, seat: _Optional[int] = ..., for_turn: _Optional[bool] = ...) -> None: ...

class DrawnCard(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class DiscardTaken(_message.Message):
    __slots__ = ("seat", "card", "index")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    index: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., index: _Optional[int] = ...) -> None: ...

class RiverCardTaken(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class CardPlayed(_message.Message):
    __slots__ = ("seat", "card", "source", "destination", "target", "by_piston")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    DESTINATION_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    BY_PISTON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    source: Source
    destination: Destination
    target: int
    by_piston: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., source: _Optional[_Union[Source, str]] = ..., destination: _Optional[_Union[Destination, str]] = ..., target: _Optional[int] = ..., by_piston: _Optional[bool] = ...) -> None: ...

class CasinoBetPlaced(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class CasinoBet(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class CasinoResolved(_message.Message):
    __slots__ = ("first_seat", "first_card", "second_seat", "second_card", "winner")
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    FIRST_CARD_FIELD_NUMBER: _ClassVar[int]
    SECOND_SEAT_FIELD_NUMBER: _ClassVar[int]
    SECOND_CARD_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    first_seat: int
    first_card: str
    second_seat: int
    second_card: str
    winner: int
    def __init__(self, first_seat: _Optional[int] = ..., first_card: _Optional[str] = ..., second_seat: _Optional[int] = ..., second_card: _Optional[str] = ..., winner: _Optional[int] = ...) -> None: ...

class CasinoBetReturned(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class FlirtStolen(_message.Message):
    __slots__ = ("seat", "from_seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FROM_SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    from_seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., from_seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class AcquisitionPaid(_message.Message):
    __slots__ = ("seat", "card", "salary_levels", "inheritance", "free")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    SALARY_LEVELS_FIELD_NUMBER: _ClassVar[int]
    INHERITANCE_FIELD_NUMBER: _ClassVar[int]
    FREE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    salary_levels: _containers.RepeatedScalarFieldContainer[int]
    inheritance: bool
    free: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., salary_levels: _Optional[_Iterable[int]] = ..., inheritance: _Optional[bool] = ..., free: _Optional[bool] = ...) -> None: ...

class CardDiscarded(_message.Message):
    __slots__ = ("seat", "card", "zone", "index", "under_top")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    ZONE_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    UNDER_TOP_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    zone: Zone
    index: int
    under_top: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., zone: _Optional[_Union[Zone, str]] = ..., index: _Optional[int] = ..., under_top: _Optional[bool] = ...) -> None: ...

class PrizeTurnedOver(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class CardRemovedFromGame(_message.Message):
    __slots__ = ("seat", "card", "zone", "index")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    ZONE_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    zone: Zone
    index: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., zone: _Optional[_Union[Zone, str]] = ..., index: _Optional[int] = ...) -> None: ...

class TurnsToMiss(_message.Message):
    __slots__ = ("seat", "count")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    count: int
    def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class MalusMoved(_message.Message):
    __slots__ = ("seat", "target", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    target: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., target: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class HandsShown(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class ShownHands(_message.Message):
    __slots__ = ("seat", "hands")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hands: _containers.RepeatedCompositeFieldContainer[HandCards]
    def __init__(self, seat: _Optional[int] = ..., hands: _Optional[_Iterable[_Union[HandCards, _Mapping]]] = ...) -> None: ...

class JournalistAnnounced(_message.Message):
    __slots__ = ("seat", "about", "card", "holds")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ABOUT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    HOLDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    about: int
    card: str
    holds: bool
    def __init__(self, seat: _Optional[int] = ..., about: _Optional[int] = ..., card: _Optional[str] = ..., holds: _Optional[bool] = ...) -> None: ...

class PileShown(_message.Message):
    __slots__ = ("seat", "count")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    count: int
    def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class ShownPile(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class LuckCardsDrawn(_message.Message):
    __slots__ = ("seat", "count")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    count: int
    def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class LuckCards(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class LuckCardChosen(_message.Message):
    __slots__ = ("seat", "card", "discarded")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    discarded: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., discarded: _Optional[_Iterable[str]] = ...) -> None: ...

class BarterStarted(_message.Message):
    __slots__ = ("seat", "partner", "protected")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PARTNER_FIELD_NUMBER: _ClassVar[int]
    PROTECTED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    partner: int
    protected: bool
    def __init__(self, seat: _Optional[int] = ..., partner: _Optional[int] = ..., protected: _Optional[bool] = ...) -> None: ...

class ProtectedCard(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class CardsBartered(_message.Message):
    __slots__ = ("seat", "partner")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PARTNER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    partner: int
    def __init__(self, seat: _Optional[int] = ..., partner: _Optional[int] = ...) -> None: ...

class BarteredCards(_message.Message):
    __slots__ = ("seat", "partner", "to_seat", "to_partner")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PARTNER_FIELD_NUMBER: _ClassVar[int]
    TO_SEAT_FIELD_NUMBER: _ClassVar[int]
    TO_PARTNER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    partner: int
    to_seat: str
    to_partner: str
    def __init__(self, seat: _Optional[int] = ..., partner: _Optional[int] = ..., to_seat: _Optional[str] = ..., to_partner: _Optional[str] = ...) -> None: ...

class HandsRedealt(_message.Message):
    __slots__ = ("counts",)
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    counts: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, counts: _Optional[_Iterable[int]] = ...) -> None: ...

class RedealtCards(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class SalaryGiven(_message.Message):
    __slots__ = ("seat", "to_seat", "level")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TO_SEAT_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    to_seat: int
    level: int
    def __init__(self, seat: _Optional[int] = ..., to_seat: _Optional[int] = ..., level: _Optional[int] = ...) -> None: ...

class StepOpened(_message.Message):
    __slots__ = ("step", "seat", "other_seat", "may_discard")
    STEP_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OTHER_SEAT_FIELD_NUMBER: _ClassVar[int]
    MAY_DISCARD_FIELD_NUMBER: _ClassVar[int]
    step: Step
    seat: int
    other_seat: int
    may_discard: bool
    def __init__(self, step: _Optional[_Union[Step, str]] = ..., seat: _Optional[int] = ..., other_seat: _Optional[int] = ..., may_discard: _Optional[bool] = ...) -> None: ...

class StepClosed(_message.Message):
    __slots__ = ("step", "seat")
    STEP_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    step: Step
    seat: int
    def __init__(self, step: _Optional[_Union[Step, str]] = ..., seat: _Optional[int] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("smiles", "winners")
    SMILES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    smiles: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, smiles: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ...) -> None: ...

class StudyCard(_message.Message):
    __slots__ = ("card", "protected", "counts_for_jobs")
    CARD_FIELD_NUMBER: _ClassVar[int]
    PROTECTED_FIELD_NUMBER: _ClassVar[int]
    COUNTS_FOR_JOBS_FIELD_NUMBER: _ClassVar[int]
    card: str
    protected: bool
    counts_for_jobs: bool
    def __init__(self, card: _Optional[str] = ..., protected: _Optional[bool] = ..., counts_for_jobs: _Optional[bool] = ...) -> None: ...

class SalaryCard(_message.Message):
    __slots__ = ("card", "invested")
    CARD_FIELD_NUMBER: _ClassVar[int]
    INVESTED_FIELD_NUMBER: _ClassVar[int]
    card: str
    invested: bool
    def __init__(self, card: _Optional[str] = ..., invested: _Optional[bool] = ...) -> None: ...

class Life(_message.Message):
    __slots__ = ("studies", "job", "job_by_piston", "free_houses_used", "prize_active", "salaries", "flirts", "adultery_flirts", "kept_flirts", "marriage", "adultery", "children", "pets", "trips", "houses", "distinctions", "specials", "maluses", "inheritance", "missed_turns", "was_bandit", "attacker", "study_levels", "salary_max", "job_since_turn", "prize_jobs")
    STUDIES_FIELD_NUMBER: _ClassVar[int]
    JOB_FIELD_NUMBER: _ClassVar[int]
    JOB_BY_PISTON_FIELD_NUMBER: _ClassVar[int]
    FREE_HOUSES_USED_FIELD_NUMBER: _ClassVar[int]
    PRIZE_ACTIVE_FIELD_NUMBER: _ClassVar[int]
    SALARIES_FIELD_NUMBER: _ClassVar[int]
    FLIRTS_FIELD_NUMBER: _ClassVar[int]
    ADULTERY_FLIRTS_FIELD_NUMBER: _ClassVar[int]
    KEPT_FLIRTS_FIELD_NUMBER: _ClassVar[int]
    MARRIAGE_FIELD_NUMBER: _ClassVar[int]
    ADULTERY_FIELD_NUMBER: _ClassVar[int]
    CHILDREN_FIELD_NUMBER: _ClassVar[int]
    PETS_FIELD_NUMBER: _ClassVar[int]
    TRIPS_FIELD_NUMBER: _ClassVar[int]
    HOUSES_FIELD_NUMBER: _ClassVar[int]
    DISTINCTIONS_FIELD_NUMBER: _ClassVar[int]
    SPECIALS_FIELD_NUMBER: _ClassVar[int]
    MALUSES_FIELD_NUMBER: _ClassVar[int]
    INHERITANCE_FIELD_NUMBER: _ClassVar[int]
    MISSED_TURNS_FIELD_NUMBER: _ClassVar[int]
    WAS_BANDIT_FIELD_NUMBER: _ClassVar[int]
    ATTACKER_FIELD_NUMBER: _ClassVar[int]
    STUDY_LEVELS_FIELD_NUMBER: _ClassVar[int]
    SALARY_MAX_FIELD_NUMBER: _ClassVar[int]
    JOB_SINCE_TURN_FIELD_NUMBER: _ClassVar[int]
    PRIZE_JOBS_FIELD_NUMBER: _ClassVar[int]
    studies: _containers.RepeatedCompositeFieldContainer[StudyCard]
    job: str
    job_by_piston: bool
    free_houses_used: int
    prize_active: bool
    salaries: _containers.RepeatedCompositeFieldContainer[SalaryCard]
    flirts: _containers.RepeatedScalarFieldContainer[str]
    adultery_flirts: _containers.RepeatedScalarFieldContainer[str]
    kept_flirts: _containers.RepeatedScalarFieldContainer[str]
    marriage: str
    adultery: str
    children: _containers.RepeatedScalarFieldContainer[str]
    pets: _containers.RepeatedScalarFieldContainer[str]
    trips: _containers.RepeatedScalarFieldContainer[str]
    houses: _containers.RepeatedScalarFieldContainer[str]
    distinctions: _containers.RepeatedScalarFieldContainer[str]
    specials: _containers.RepeatedScalarFieldContainer[str]
    maluses: _containers.RepeatedScalarFieldContainer[str]
    inheritance: int
    missed_turns: int
    was_bandit: bool
    attacker: bool
    study_levels: int
    salary_max: int
    job_since_turn: int
    prize_jobs: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, studies: _Optional[_Iterable[_Union[StudyCard, _Mapping]]] = ..., job: _Optional[str] = ..., job_by_piston: _Optional[bool] = ..., free_houses_used: _Optional[int] = ..., prize_active: _Optional[bool] = ..., salaries: _Optional[_Iterable[_Union[SalaryCard, _Mapping]]] = ..., flirts: _Optional[_Iterable[str]] = ..., adultery_flirts: _Optional[_Iterable[str]] = ..., kept_flirts: _Optional[_Iterable[str]] = ..., marriage: _Optional[str] = ..., adultery: _Optional[str] = ..., children: _Optional[_Iterable[str]] = ..., pets: _Optional[_Iterable[str]] = ..., trips: _Optional[_Iterable[str]] = ..., houses: _Optional[_Iterable[str]] = ..., distinctions: _Optional[_Iterable[str]] = ..., specials: _Optional[_Iterable[str]] = ..., maluses: _Optional[_Iterable[str]] = ..., inheritance: _Optional[int] = ..., missed_turns: _Optional[int] = ..., was_bandit: _Optional[bool] = ..., attacker: _Optional[bool] = ..., study_levels: _Optional[int] = ..., salary_max: _Optional[int] = ..., job_since_turn: _Optional[int] = ..., prize_jobs: _Optional[_Iterable[str]] = ...) -> None: ...

class SeatView(_message.Message):
    __slots__ = ("seat", "hand_count", "hand_visible", "hand", "known_cards", "life", "smiles", "hand_size")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_COUNT_FIELD_NUMBER: _ClassVar[int]
    HAND_VISIBLE_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    KNOWN_CARDS_FIELD_NUMBER: _ClassVar[int]
    LIFE_FIELD_NUMBER: _ClassVar[int]
    SMILES_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand_count: int
    hand_visible: bool
    hand: _containers.RepeatedScalarFieldContainer[str]
    known_cards: _containers.RepeatedScalarFieldContainer[str]
    life: Life
    smiles: int
    hand_size: int
    def __init__(self, seat: _Optional[int] = ..., hand_count: _Optional[int] = ..., hand_visible: _Optional[bool] = ..., hand: _Optional[_Iterable[str]] = ..., known_cards: _Optional[_Iterable[str]] = ..., life: _Optional[_Union[Life, _Mapping]] = ..., smiles: _Optional[int] = ..., hand_size: _Optional[int] = ...) -> None: ...

class DiscardView(_message.Message):
    __slots__ = ("card", "discarded_by")
    CARD_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_BY_FIELD_NUMBER: _ClassVar[int]
    card: str
    discarded_by: int
    def __init__(self, card: _Optional[str] = ..., discarded_by: _Optional[int] = ...) -> None: ...

class KnownPileCard(_message.Message):
    __slots__ = ("position", "card")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    position: int
    card: str
    def __init__(self, position: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class CasinoView(_message.Message):
    __slots__ = ("open", "owner", "open_to_all", "has_bet", "bettor", "bet_card", "has_second_bet", "second_bettor", "second_bet_card")
    OPEN_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    OPEN_TO_ALL_FIELD_NUMBER: _ClassVar[int]
    HAS_BET_FIELD_NUMBER: _ClassVar[int]
    BETTOR_FIELD_NUMBER: _ClassVar[int]
    BET_CARD_FIELD_NUMBER: _ClassVar[int]
    HAS_SECOND_BET_FIELD_NUMBER: _ClassVar[int]
    SECOND_BETTOR_FIELD_NUMBER: _ClassVar[int]
    SECOND_BET_CARD_FIELD_NUMBER: _ClassVar[int]
    open: bool
    owner: int
    open_to_all: bool
    has_bet: bool
    bettor: int
    bet_card: str
    has_second_bet: bool
    second_bettor: int
    second_bet_card: str
    def __init__(self, open: _Optional[bool] = ..., owner: _Optional[int] = ..., open_to_all: _Optional[bool] = ..., has_bet: _Optional[bool] = ..., bettor: _Optional[int] = ..., bet_card: _Optional[str] = ..., has_second_bet: _Optional[bool] = ..., second_bettor: _Optional[int] = ..., second_bet_card: _Optional[str] = ...) -> None: ...

class StepView(_message.Message):
    __slots__ = ("step", "seat", "other_seat", "may_discard", "played")
    STEP_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OTHER_SEAT_FIELD_NUMBER: _ClassVar[int]
    MAY_DISCARD_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    step: Step
    seat: int
    other_seat: int
    may_discard: bool
    played: int
    def __init__(self, step: _Optional[_Union[Step, str]] = ..., seat: _Optional[int] = ..., other_seat: _Optional[int] = ..., may_discard: _Optional[bool] = ..., played: _Optional[int] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("phase", "stage", "current_seat", "turn", "start_seat", "awaiting", "seats", "draw_pile_count", "known_pile", "set_aside_count", "discard_pile", "river", "river_idle_turns", "casino", "out_of_game", "held_card", "luck_count", "luck_cards", "steps", "winners", "options")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    START_SEAT_FIELD_NUMBER: _ClassVar[int]
    AWAITING_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_COUNT_FIELD_NUMBER: _ClassVar[int]
    KNOWN_PILE_FIELD_NUMBER: _ClassVar[int]
    SET_ASIDE_COUNT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_PILE_FIELD_NUMBER: _ClassVar[int]
    RIVER_FIELD_NUMBER: _ClassVar[int]
    RIVER_IDLE_TURNS_FIELD_NUMBER: _ClassVar[int]
    CASINO_FIELD_NUMBER: _ClassVar[int]
    OUT_OF_GAME_FIELD_NUMBER: _ClassVar[int]
    HELD_CARD_FIELD_NUMBER: _ClassVar[int]
    LUCK_COUNT_FIELD_NUMBER: _ClassVar[int]
    LUCK_CARDS_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    phase: Phase
    stage: Stage
    current_seat: int
    turn: int
    start_seat: int
    awaiting: _containers.RepeatedScalarFieldContainer[int]
    seats: _containers.RepeatedCompositeFieldContainer[SeatView]
    draw_pile_count: int
    known_pile: _containers.RepeatedCompositeFieldContainer[KnownPileCard]
    set_aside_count: int
    discard_pile: _containers.RepeatedCompositeFieldContainer[DiscardView]
    river: _containers.RepeatedScalarFieldContainer[str]
    river_idle_turns: int
    casino: CasinoView
    out_of_game: _containers.RepeatedScalarFieldContainer[str]
    held_card: str
    luck_count: int
    luck_cards: _containers.RepeatedScalarFieldContainer[str]
    steps: _containers.RepeatedCompositeFieldContainer[StepView]
    winners: _containers.RepeatedScalarFieldContainer[int]
    options: Options
    def __init__(self, phase: _Optional[_Union[Phase, str]] = ..., stage: _Optional[_Union[Stage, str]] = ..., current_seat: _Optional[int] = ..., turn: _Optional[int] = ..., start_seat: _Optional[int] = ..., awaiting: _Optional[_Iterable[int]] = ..., seats: _Optional[_Iterable[_Union[SeatView, _Mapping]]] = ..., draw_pile_count: _Optional[int] = ..., known_pile: _Optional[_Iterable[_Union[KnownPileCard, _Mapping]]] = ..., set_aside_count: _Optional[int] = ..., discard_pile: _Optional[_Iterable[_Union[DiscardView, _Mapping]]] = ..., river: _Optional[_Iterable[str]] = ..., river_idle_turns: _Optional[int] = ..., casino: _Optional[_Union[CasinoView, _Mapping]] = ..., out_of_game: _Optional[_Iterable[str]] = ..., held_card: _Optional[str] = ..., luck_count: _Optional[int] = ..., luck_cards: _Optional[_Iterable[str]] = ..., steps: _Optional[_Iterable[_Union[StepView, _Mapping]]] = ..., winners: _Optional[_Iterable[int]] = ..., options: _Optional[_Union[Options, _Mapping]] = ...) -> None: ...
