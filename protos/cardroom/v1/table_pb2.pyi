from google.protobuf import any_pb2 as _any_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GameCreated(_message.Message):
    __slots__ = ("kind", "options", "seat_count", "set_deal", "rules_version", "spectator_policy", "log_policy", "table_options")
    KIND_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEAT_COUNT_FIELD_NUMBER: _ClassVar[int]
    SET_DEAL_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_POLICY_FIELD_NUMBER: _ClassVar[int]
    LOG_POLICY_FIELD_NUMBER: _ClassVar[int]
    TABLE_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    options: _any_pb2.Any
    seat_count: int
    set_deal: bool
    rules_version: str
    spectator_policy: SpectatorPolicy
    log_policy: LogPolicy
    table_options: TableOptions
    def __init__(self, kind: _Optional[str] = ..., options: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., seat_count: _Optional[int] = ..., set_deal: _Optional[bool] = ..., rules_version: _Optional[str] = ..., spectator_policy: _Optional[_Union[SpectatorPolicy, _Mapping]] = ..., log_policy: _Optional[_Union[LogPolicy, _Mapping]] = ..., table_options: _Optional[_Union[TableOptions, _Mapping]] = ...) -> None: ...

class TableOptions(_message.Message):
    __slots__ = ("seconds_per_decision", "max_events", "resign_after_timeouts", "end_when_absent_seconds")
    SECONDS_PER_DECISION_FIELD_NUMBER: _ClassVar[int]
    MAX_EVENTS_FIELD_NUMBER: _ClassVar[int]
    RESIGN_AFTER_TIMEOUTS_FIELD_NUMBER: _ClassVar[int]
    END_WHEN_ABSENT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    seconds_per_decision: int
    max_events: int
    resign_after_timeouts: int
    end_when_absent_seconds: int
    def __init__(self, seconds_per_decision: _Optional[int] = ..., max_events: _Optional[int] = ..., resign_after_timeouts: _Optional[int] = ..., end_when_absent_seconds: _Optional[int] = ...) -> None: ...

class SpectatorPolicy(_message.Message):
    __slots__ = ("kind", "delay_events")
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[SpectatorPolicy.Kind]
        KIND_PUBLIC: _ClassVar[SpectatorPolicy.Kind]
        KIND_DELAYED: _ClassVar[SpectatorPolicy.Kind]
        KIND_OMNISCIENT_AFTER_END: _ClassVar[SpectatorPolicy.Kind]
    KIND_UNSPECIFIED: SpectatorPolicy.Kind
    KIND_PUBLIC: SpectatorPolicy.Kind
    KIND_DELAYED: SpectatorPolicy.Kind
    KIND_OMNISCIENT_AFTER_END: SpectatorPolicy.Kind
    KIND_FIELD_NUMBER: _ClassVar[int]
    DELAY_EVENTS_FIELD_NUMBER: _ClassVar[int]
    kind: SpectatorPolicy.Kind
    delay_events: int
    def __init__(self, kind: _Optional[_Union[SpectatorPolicy.Kind, str]] = ..., delay_events: _Optional[int] = ...) -> None: ...

class LogPolicy(_message.Message):
    __slots__ = ("kind",)
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[LogPolicy.Kind]
        KIND_PLAYERS: _ClassVar[LogPolicy.Kind]
        KIND_PUBLIC_AFTER_END: _ClassVar[LogPolicy.Kind]
    KIND_UNSPECIFIED: LogPolicy.Kind
    KIND_PLAYERS: LogPolicy.Kind
    KIND_PUBLIC_AFTER_END: LogPolicy.Kind
    KIND_FIELD_NUMBER: _ClassVar[int]
    kind: LogPolicy.Kind
    def __init__(self, kind: _Optional[_Union[LogPolicy.Kind, str]] = ...) -> None: ...

class SeatTaken(_message.Message):
    __slots__ = ("seat", "player_name", "bot_strategy", "entropy_commitment", "entropy_by_server", "player")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_STRATEGY_FIELD_NUMBER: _ClassVar[int]
    ENTROPY_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    ENTROPY_BY_SERVER_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    player_name: str
    bot_strategy: str
    entropy_commitment: bytes
    entropy_by_server: bool
    player: PlayerProof
    def __init__(self, seat: _Optional[int] = ..., player_name: _Optional[str] = ..., bot_strategy: _Optional[str] = ..., entropy_commitment: _Optional[bytes] = ..., entropy_by_server: _Optional[bool] = ..., player: _Optional[_Union[PlayerProof, _Mapping]] = ...) -> None: ...

class PlayerProof(_message.Message):
    __slots__ = ("public_key", "signature", "display_name")
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    public_key: bytes
    signature: bytes
    display_name: str
    def __init__(self, public_key: _Optional[bytes] = ..., signature: _Optional[bytes] = ..., display_name: _Optional[str] = ...) -> None: ...

class SeatEntropy(_message.Message):
    __slots__ = ("seat", "entropy")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ENTROPY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    entropy: bytes
    def __init__(self, seat: _Optional[int] = ..., entropy: _Optional[bytes] = ...) -> None: ...

class RevealEntropy(_message.Message):
    __slots__ = ("entropy",)
    ENTROPY_FIELD_NUMBER: _ClassVar[int]
    entropy: bytes
    def __init__(self, entropy: _Optional[bytes] = ...) -> None: ...

class SeatEntropyRevealed(_message.Message):
    __slots__ = ("seat", "entropy")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ENTROPY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    entropy: bytes
    def __init__(self, seat: _Optional[int] = ..., entropy: _Optional[bytes] = ...) -> None: ...

class SeatCredential(_message.Message):
    __slots__ = ("token_sha256",)
    TOKEN_SHA256_FIELD_NUMBER: _ClassVar[int]
    token_sha256: bytes
    def __init__(self, token_sha256: _Optional[bytes] = ...) -> None: ...

class GameStarted(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GameFinished(_message.Message):
    __slots__ = ("winners", "reason")
    class Reason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        REASON_UNSPECIFIED: _ClassVar[GameFinished.Reason]
        REASON_LENGTH_LIMIT: _ClassVar[GameFinished.Reason]
        REASON_NEVER_STARTED: _ClassVar[GameFinished.Reason]
    REASON_UNSPECIFIED: GameFinished.Reason
    REASON_LENGTH_LIMIT: GameFinished.Reason
    REASON_NEVER_STARTED: GameFinished.Reason
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    reason: GameFinished.Reason
    def __init__(self, winners: _Optional[_Iterable[int]] = ..., reason: _Optional[_Union[GameFinished.Reason, str]] = ...) -> None: ...

class TakeSeat(_message.Message):
    __slots__ = ("seat", "player_name", "token_sha256", "invitation_sha256", "bot_strategy", "entropy_commitment", "server_entropy", "player")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAME_FIELD_NUMBER: _ClassVar[int]
    TOKEN_SHA256_FIELD_NUMBER: _ClassVar[int]
    INVITATION_SHA256_FIELD_NUMBER: _ClassVar[int]
    BOT_STRATEGY_FIELD_NUMBER: _ClassVar[int]
    ENTROPY_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    SERVER_ENTROPY_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    player_name: str
    token_sha256: bytes
    invitation_sha256: bytes
    bot_strategy: str
    entropy_commitment: bytes
    server_entropy: bytes
    player: PlayerProof
    def __init__(self, seat: _Optional[int] = ..., player_name: _Optional[str] = ..., token_sha256: _Optional[bytes] = ..., invitation_sha256: _Optional[bytes] = ..., bot_strategy: _Optional[str] = ..., entropy_commitment: _Optional[bytes] = ..., server_entropy: _Optional[bytes] = ..., player: _Optional[_Union[PlayerProof, _Mapping]] = ...) -> None: ...

class IssueInvitation(_message.Message):
    __slots__ = ("seat", "code_sha256")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CODE_SHA256_FIELD_NUMBER: _ClassVar[int]
    seat: int
    code_sha256: bytes
    def __init__(self, seat: _Optional[int] = ..., code_sha256: _Optional[bytes] = ...) -> None: ...

class InvitationIssued(_message.Message):
    __slots__ = ("seat", "by_seat")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BY_SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    by_seat: int
    def __init__(self, seat: _Optional[int] = ..., by_seat: _Optional[int] = ...) -> None: ...

class InvitationCredential(_message.Message):
    __slots__ = ("code_sha256",)
    CODE_SHA256_FIELD_NUMBER: _ClassVar[int]
    code_sha256: bytes
    def __init__(self, code_sha256: _Optional[bytes] = ...) -> None: ...

class StartGame(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Resign(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RemoveSeat(_message.Message):
    __slots__ = ("seat", "absent")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ABSENT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    absent: bool
    def __init__(self, seat: _Optional[int] = ..., absent: _Optional[bool] = ...) -> None: ...

class ClockExpired(_message.Message):
    __slots__ = ("seat", "version")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    version: int
    def __init__(self, seat: _Optional[int] = ..., version: _Optional[int] = ...) -> None: ...

class SeatsAbsent(_message.Message):
    __slots__ = ("version",)
    VERSION_FIELD_NUMBER: _ClassVar[int]
    version: int
    def __init__(self, version: _Optional[int] = ...) -> None: ...

class NeverStarted(_message.Message):
    __slots__ = ("version",)
    VERSION_FIELD_NUMBER: _ClassVar[int]
    version: int
    def __init__(self, version: _Optional[int] = ...) -> None: ...

class SeatResigned(_message.Message):
    __slots__ = ("seat", "reason")
    class Reason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        REASON_UNSPECIFIED: _ClassVar[SeatResigned.Reason]
        REASON_RESIGNED: _ClassVar[SeatResigned.Reason]
        REASON_REMOVED: _ClassVar[SeatResigned.Reason]
        REASON_TIMED_OUT: _ClassVar[SeatResigned.Reason]
        REASON_ABSENT: _ClassVar[SeatResigned.Reason]
    REASON_UNSPECIFIED: SeatResigned.Reason
    REASON_RESIGNED: SeatResigned.Reason
    REASON_REMOVED: SeatResigned.Reason
    REASON_TIMED_OUT: SeatResigned.Reason
    REASON_ABSENT: SeatResigned.Reason
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    reason: SeatResigned.Reason
    def __init__(self, seat: _Optional[int] = ..., reason: _Optional[_Union[SeatResigned.Reason, str]] = ...) -> None: ...

class SeatTimedOut(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class DealerPick(_message.Message):
    __slots__ = ("index",)
    INDEX_FIELD_NUMBER: _ClassVar[int]
    index: int
    def __init__(self, index: _Optional[int] = ...) -> None: ...

class SetDeal(_message.Message):
    __slots__ = ("outcomes",)
    OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    outcomes: _containers.RepeatedCompositeFieldContainer[_any_pb2.Any]
    def __init__(self, outcomes: _Optional[_Iterable[_Union[_any_pb2.Any, _Mapping]]] = ...) -> None: ...
