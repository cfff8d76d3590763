import datetime

from cardroom.v1 import envelope_pb2 as _envelope_pb2
from cardroom.v1 import table_pb2 as _table_pb2
from cardroom.v1 import trust_pb2 as _trust_pb2
from google.protobuf import any_pb2 as _any_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ViewerKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VIEWER_KIND_UNSPECIFIED: _ClassVar[ViewerKind]
    VIEWER_KIND_SEAT: _ClassVar[ViewerKind]
    VIEWER_KIND_SPECTATOR: _ClassVar[ViewerKind]
    VIEWER_KIND_AUDITOR: _ClassVar[ViewerKind]

class GameStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_STATUS_UNSPECIFIED: _ClassVar[GameStatus]
    GAME_STATUS_OPEN: _ClassVar[GameStatus]
    GAME_STATUS_RUNNING: _ClassVar[GameStatus]
    GAME_STATUS_FINISHED: _ClassVar[GameStatus]
VIEWER_KIND_UNSPECIFIED: ViewerKind
VIEWER_KIND_SEAT: ViewerKind
VIEWER_KIND_SPECTATOR: ViewerKind
VIEWER_KIND_AUDITOR: ViewerKind
GAME_STATUS_UNSPECIFIED: GameStatus
GAME_STATUS_OPEN: GameStatus
GAME_STATUS_RUNNING: GameStatus
GAME_STATUS_FINISHED: GameStatus

class CreateInvitationRequest(_message.Message):
    __slots__ = ("game_id", "seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class CreateInvitationResponse(_message.Message):
    __slots__ = ("seat", "code", "version")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    code: str
    version: int
    def __init__(self, seat: _Optional[int] = ..., code: _Optional[str] = ..., version: _Optional[int] = ...) -> None: ...

class AcceptInvitationRequest(_message.Message):
    __slots__ = ("game_id", "code", "player_name", "entropy_commitment", "player", "seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAME_FIELD_NUMBER: _ClassVar[int]
    ENTROPY_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    code: str
    player_name: str
    entropy_commitment: bytes
    player: _table_pb2.PlayerProof
    seat: int
    def __init__(self, game_id: _Optional[str] = ..., code: _Optional[str] = ..., player_name: _Optional[str] = ..., entropy_commitment: _Optional[bytes] = ..., player: _Optional[_Union[_table_pb2.PlayerProof, _Mapping]] = ..., seat: _Optional[int] = ...) -> None: ...

class AcceptInvitationResponse(_message.Message):
    __slots__ = ("seat", "seat_token", "version", "entropy_generated_by_server", "server_entropy")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    ENTROPY_GENERATED_BY_SERVER_FIELD_NUMBER: _ClassVar[int]
    SERVER_ENTROPY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    seat_token: str
    version: int
    entropy_generated_by_server: bool
    server_entropy: bytes
    def __init__(self, seat: _Optional[int] = ..., seat_token: _Optional[str] = ..., version: _Optional[int] = ..., entropy_generated_by_server: _Optional[bool] = ..., server_entropy: _Optional[bytes] = ...) -> None: ...

class AddBotRequest(_message.Message):
    __slots__ = ("game_id", "strategy", "seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    STRATEGY_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    strategy: str
    seat: int
    def __init__(self, game_id: _Optional[str] = ..., strategy: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class AddBotResponse(_message.Message):
    __slots__ = ("seat", "player_name", "version")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    player_name: str
    version: int
    def __init__(self, seat: _Optional[int] = ..., player_name: _Optional[str] = ..., version: _Optional[int] = ...) -> None: ...

class CreateGameRequest(_message.Message):
    __slots__ = ("kind", "options", "seat_count", "set_deal", "spectator_policy", "log_policy", "table_options")
    KIND_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEAT_COUNT_FIELD_NUMBER: _ClassVar[int]
    SET_DEAL_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_POLICY_FIELD_NUMBER: _ClassVar[int]
    LOG_POLICY_FIELD_NUMBER: _ClassVar[int]
    TABLE_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    options: _any_pb2.Any
    seat_count: int
    set_deal: _containers.RepeatedCompositeFieldContainer[_any_pb2.Any]
    spectator_policy: _table_pb2.SpectatorPolicy
    log_policy: _table_pb2.LogPolicy
    table_options: _table_pb2.TableOptions
    def __init__(self, kind: _Optional[str] = ..., options: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., seat_count: _Optional[int] = ..., set_deal: _Optional[_Iterable[_Union[_any_pb2.Any, _Mapping]]] = ..., spectator_policy: _Optional[_Union[_table_pb2.SpectatorPolicy, _Mapping]] = ..., log_policy: _Optional[_Union[_table_pb2.LogPolicy, _Mapping]] = ..., table_options: _Optional[_Union[_table_pb2.TableOptions, _Mapping]] = ...) -> None: ...

class CreateGameResponse(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class JoinGameRequest(_message.Message):
    __slots__ = ("game_id", "seat", "player_name", "entropy_commitment", "player")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAME_FIELD_NUMBER: _ClassVar[int]
    ENTROPY_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    player_name: str
    entropy_commitment: bytes
    player: _table_pb2.PlayerProof
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ..., player_name: _Optional[str] = ..., entropy_commitment: _Optional[bytes] = ..., player: _Optional[_Union[_table_pb2.PlayerProof, _Mapping]] = ...) -> None: ...

class JoinGameResponse(_message.Message):
    __slots__ = ("seat", "seat_token", "version", "entropy_generated_by_server", "server_entropy")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    ENTROPY_GENERATED_BY_SERVER_FIELD_NUMBER: _ClassVar[int]
    SERVER_ENTROPY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    seat_token: str
    version: int
    entropy_generated_by_server: bool
    server_entropy: bytes
    def __init__(self, seat: _Optional[int] = ..., seat_token: _Optional[str] = ..., version: _Optional[int] = ..., entropy_generated_by_server: _Optional[bool] = ..., server_entropy: _Optional[bytes] = ...) -> None: ...

class StartGameRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class StartGameResponse(_message.Message):
    __slots__ = ("version",)
    VERSION_FIELD_NUMBER: _ClassVar[int]
    version: int
    def __init__(self, version: _Optional[int] = ...) -> None: ...

class SubmitCommandRequest(_message.Message):
    __slots__ = ("game_id", "command", "command_id", "expected_version")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    COMMAND_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    command: _any_pb2.Any
    command_id: str
    expected_version: int
    def __init__(self, game_id: _Optional[str] = ..., command: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., command_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class SubmitCommandResponse(_message.Message):
    __slots__ = ("version", "events", "signed_head")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    SIGNED_HEAD_FIELD_NUMBER: _ClassVar[int]
    version: int
    events: _containers.RepeatedCompositeFieldContainer[_envelope_pb2.EventEnvelope]
    signed_head: _trust_pb2.SignedHead
    def __init__(self, version: _Optional[int] = ..., events: _Optional[_Iterable[_Union[_envelope_pb2.EventEnvelope, _Mapping]]] = ..., signed_head: _Optional[_Union[_trust_pb2.SignedHead, _Mapping]] = ...) -> None: ...

class ListLegalActionsRequest(_message.Message):
    __slots__ = ("game_id", "min_version", "describe")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    MIN_VERSION_FIELD_NUMBER: _ClassVar[int]
    DESCRIBE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    min_version: int
    describe: bool
    def __init__(self, game_id: _Optional[str] = ..., min_version: _Optional[int] = ..., describe: _Optional[bool] = ...) -> None: ...

class ListLegalActionsResponse(_message.Message):
    __slots__ = ("version", "actions", "words")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    WORDS_FIELD_NUMBER: _ClassVar[int]
    version: int
    actions: _containers.RepeatedCompositeFieldContainer[_any_pb2.Any]
    words: _containers.RepeatedCompositeFieldContainer[ActionWords]
    def __init__(self, version: _Optional[int] = ..., actions: _Optional[_Iterable[_Union[_any_pb2.Any, _Mapping]]] = ..., words: _Optional[_Iterable[_Union[ActionWords, _Mapping]]] = ...) -> None: ...

class ActionWords(_message.Message):
    __slots__ = ("label", "warning")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    WARNING_FIELD_NUMBER: _ClassVar[int]
    label: str
    warning: str
    def __init__(self, label: _Optional[str] = ..., warning: _Optional[str] = ...) -> None: ...

class GetViewRequest(_message.Message):
    __slots__ = ("game_id", "version", "as_spectator", "min_version", "describe")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    AS_SPECTATOR_FIELD_NUMBER: _ClassVar[int]
    MIN_VERSION_FIELD_NUMBER: _ClassVar[int]
    DESCRIBE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    version: int
    as_spectator: bool
    min_version: int
    describe: bool
    def __init__(self, game_id: _Optional[str] = ..., version: _Optional[int] = ..., as_spectator: _Optional[bool] = ..., min_version: _Optional[int] = ..., describe: _Optional[bool] = ...) -> None: ...

class GetViewResponse(_message.Message):
    __slots__ = ("version", "viewer_kind", "seat", "table", "game", "words", "signed_head")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    VIEWER_KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    WORDS_FIELD_NUMBER: _ClassVar[int]
    SIGNED_HEAD_FIELD_NUMBER: _ClassVar[int]
    version: int
    viewer_kind: ViewerKind
    seat: int
    table: TableView
    game: _any_pb2.Any
    words: ViewWords
    signed_head: _trust_pb2.SignedHead
    def __init__(self, version: _Optional[int] = ..., viewer_kind: _Optional[_Union[ViewerKind, str]] = ..., seat: _Optional[int] = ..., table: _Optional[_Union[TableView, _Mapping]] = ..., game: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., words: _Optional[_Union[ViewWords, _Mapping]] = ..., signed_head: _Optional[_Union[_trust_pb2.SignedHead, _Mapping]] = ...) -> None: ...

class ViewWords(_message.Message):
    __slots__ = ("status", "table")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    status: str
    table: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, status: _Optional[str] = ..., table: _Optional[_Iterable[str]] = ...) -> None: ...

class TableView(_message.Message):
    __slots__ = ("kind", "seat_count", "player_names", "started", "finished", "winners", "set_deal", "resigned_seats", "clocks", "absent_seats", "table_options", "player_keys")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_COUNT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAMES_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    SET_DEAL_FIELD_NUMBER: _ClassVar[int]
    RESIGNED_SEATS_FIELD_NUMBER: _ClassVar[int]
    CLOCKS_FIELD_NUMBER: _ClassVar[int]
    ABSENT_SEATS_FIELD_NUMBER: _ClassVar[int]
    TABLE_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_KEYS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    seat_count: int
    player_names: _containers.RepeatedScalarFieldContainer[str]
    started: bool
    finished: bool
    winners: _containers.RepeatedScalarFieldContainer[int]
    set_deal: bool
    resigned_seats: _containers.RepeatedScalarFieldContainer[int]
    clocks: _containers.RepeatedCompositeFieldContainer[SeatClock]
    absent_seats: _containers.RepeatedScalarFieldContainer[int]
    table_options: _table_pb2.TableOptions
    player_keys: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, kind: _Optional[str] = ..., seat_count: _Optional[int] = ..., player_names: _Optional[_Iterable[str]] = ..., started: _Optional[bool] = ..., finished: _Optional[bool] = ..., winners: _Optional[_Iterable[int]] = ..., set_deal: _Optional[bool] = ..., resigned_seats: _Optional[_Iterable[int]] = ..., clocks: _Optional[_Iterable[_Union[SeatClock, _Mapping]]] = ..., absent_seats: _Optional[_Iterable[int]] = ..., table_options: _Optional[_Union[_table_pb2.TableOptions, _Mapping]] = ..., player_keys: _Optional[_Iterable[bytes]] = ...) -> None: ...

class SeatClock(_message.Message):
    __slots__ = ("seat", "deadline")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    deadline: _timestamp_pb2.Timestamp
    def __init__(self, seat: _Optional[int] = ..., deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class WatchEventsRequest(_message.Message):
    __slots__ = ("game_id", "after_sequence", "as_spectator", "narrate")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    AS_SPECTATOR_FIELD_NUMBER: _ClassVar[int]
    NARRATE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    after_sequence: int
    as_spectator: bool
    narrate: bool
    def __init__(self, game_id: _Optional[str] = ..., after_sequence: _Optional[int] = ..., as_spectator: _Optional[bool] = ..., narrate: _Optional[bool] = ...) -> None: ...

class WatchEventsResponse(_message.Message):
    __slots__ = ("event", "signed_head", "narration")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    SIGNED_HEAD_FIELD_NUMBER: _ClassVar[int]
    NARRATION_FIELD_NUMBER: _ClassVar[int]
    event: _envelope_pb2.EventEnvelope
    signed_head: _trust_pb2.SignedHead
    narration: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, event: _Optional[_Union[_envelope_pb2.EventEnvelope, _Mapping]] = ..., signed_head: _Optional[_Union[_trust_pb2.SignedHead, _Mapping]] = ..., narration: _Optional[_Iterable[str]] = ...) -> None: ...

class GetAuditLogRequest(_message.Message):
    __slots__ = ("game_id", "page_size", "page_token")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    page_size: int
    page_token: str
    def __init__(self, game_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class GetAuditLogResponse(_message.Message):
    __slots__ = ("events", "next_page_token", "signed_head")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SIGNED_HEAD_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[_envelope_pb2.EventEnvelope]
    next_page_token: str
    signed_head: _trust_pb2.SignedHead
    def __init__(self, events: _Optional[_Iterable[_Union[_envelope_pb2.EventEnvelope, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., signed_head: _Optional[_Union[_trust_pb2.SignedHead, _Mapping]] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "kind", "status", "open_seats_only")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OPEN_SEATS_ONLY_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    kind: str
    status: GameStatus
    open_seats_only: bool
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., kind: _Optional[str] = ..., status: _Optional[_Union[GameStatus, str]] = ..., open_seats_only: _Optional[bool] = ...) -> None: ...

class GameSummary(_message.Message):
    __slots__ = ("game_id", "kind", "seat_count", "seats_taken", "started", "finished", "version", "player_names", "awaited_seats", "awaited_since", "bot_seats", "player_keys")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_COUNT_FIELD_NUMBER: _ClassVar[int]
    SEATS_TAKEN_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAMES_FIELD_NUMBER: _ClassVar[int]
    AWAITED_SEATS_FIELD_NUMBER: _ClassVar[int]
    AWAITED_SINCE_FIELD_NUMBER: _ClassVar[int]
    BOT_SEATS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_KEYS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    kind: str
    seat_count: int
    seats_taken: int
    started: bool
    finished: bool
    version: int
    player_names: _containers.RepeatedScalarFieldContainer[str]
    awaited_seats: _containers.RepeatedScalarFieldContainer[int]
    awaited_since: _timestamp_pb2.Timestamp
    bot_seats: _containers.RepeatedScalarFieldContainer[int]
    player_keys: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, game_id: _Optional[str] = ..., kind: _Optional[str] = ..., seat_count: _Optional[int] = ..., seats_taken: _Optional[int] = ..., started: _Optional[bool] = ..., finished: _Optional[bool] = ..., version: _Optional[int] = ..., player_names: _Optional[_Iterable[str]] = ..., awaited_seats: _Optional[_Iterable[int]] = ..., awaited_since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., bot_seats: _Optional[_Iterable[int]] = ..., player_keys: _Optional[_Iterable[bytes]] = ...) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games", "next_page_token")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameSummary]
    next_page_token: str
    def __init__(self, games: _Optional[_Iterable[_Union[GameSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListGameKindsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GameKind(_message.Message):
    __slots__ = ("kind", "title", "rules_version", "min_seats", "max_seats", "options_type", "command_types", "chance_types", "view_type", "bot_strategies", "guide")
    KIND_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    MIN_SEATS_FIELD_NUMBER: _ClassVar[int]
    MAX_SEATS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_TYPE_FIELD_NUMBER: _ClassVar[int]
    COMMAND_TYPES_FIELD_NUMBER: _ClassVar[int]
    CHANCE_TYPES_FIELD_NUMBER: _ClassVar[int]
    VIEW_TYPE_FIELD_NUMBER: _ClassVar[int]
    BOT_STRATEGIES_FIELD_NUMBER: _ClassVar[int]
    GUIDE_FIELD_NUMBER: _ClassVar[int]
    kind: str
    title: str
    rules_version: str
    min_seats: int
    max_seats: int
    options_type: str
    command_types: _containers.RepeatedScalarFieldContainer[str]
    chance_types: _containers.RepeatedScalarFieldContainer[str]
    view_type: str
    bot_strategies: _containers.RepeatedScalarFieldContainer[str]
    guide: GameGuide
    def __init__(self, kind: _Optional[str] = ..., title: _Optional[str] = ..., rules_version: _Optional[str] = ..., min_seats: _Optional[int] = ..., max_seats: _Optional[int] = ..., options_type: _Optional[str] = ..., command_types: _Optional[_Iterable[str]] = ..., chance_types: _Optional[_Iterable[str]] = ..., view_type: _Optional[str] = ..., bot_strategies: _Optional[_Iterable[str]] = ..., guide: _Optional[_Union[GameGuide, _Mapping]] = ...) -> None: ...

class GameGuide(_message.Message):
    __slots__ = ("goal", "rules", "symbols")
    GOAL_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    SYMBOLS_FIELD_NUMBER: _ClassVar[int]
    goal: str
    rules: _containers.RepeatedScalarFieldContainer[str]
    symbols: _containers.RepeatedCompositeFieldContainer[GuideSymbol]
    def __init__(self, goal: _Optional[str] = ..., rules: _Optional[_Iterable[str]] = ..., symbols: _Optional[_Iterable[_Union[GuideSymbol, _Mapping]]] = ...) -> None: ...

class GuideSymbol(_message.Message):
    __slots__ = ("symbol", "meaning")
    SYMBOL_FIELD_NUMBER: _ClassVar[int]
    MEANING_FIELD_NUMBER: _ClassVar[int]
    symbol: str
    meaning: str
    def __init__(self, symbol: _Optional[str] = ..., meaning: _Optional[str] = ...) -> None: ...

class ListGameKindsResponse(_message.Message):
    __slots__ = ("kinds",)
    KINDS_FIELD_NUMBER: _ClassVar[int]
    kinds: _containers.RepeatedCompositeFieldContainer[GameKind]
    def __init__(self, kinds: _Optional[_Iterable[_Union[GameKind, _Mapping]]] = ...) -> None: ...

class ReplayViewsRequest(_message.Message):
    __slots__ = ("game_id", "from_version", "as_spectator", "narrate")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_VERSION_FIELD_NUMBER: _ClassVar[int]
    AS_SPECTATOR_FIELD_NUMBER: _ClassVar[int]
    NARRATE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    from_version: int
    as_spectator: bool
    narrate: bool
    def __init__(self, game_id: _Optional[str] = ..., from_version: _Optional[int] = ..., as_spectator: _Optional[bool] = ..., narrate: _Optional[bool] = ...) -> None: ...

class ReplayViewsResponse(_message.Message):
    __slots__ = ("view", "event", "signed_head", "narration")
    VIEW_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    SIGNED_HEAD_FIELD_NUMBER: _ClassVar[int]
    NARRATION_FIELD_NUMBER: _ClassVar[int]
    view: GetViewResponse
    event: _envelope_pb2.EventEnvelope
    signed_head: _trust_pb2.SignedHead
    narration: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, view: _Optional[_Union[GetViewResponse, _Mapping]] = ..., event: _Optional[_Union[_envelope_pb2.EventEnvelope, _Mapping]] = ..., signed_head: _Optional[_Union[_trust_pb2.SignedHead, _Mapping]] = ..., narration: _Optional[_Iterable[str]] = ...) -> None: ...

class GetServerKeyRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetServerKeyResponse(_message.Message):
    __slots__ = ("public_key", "fingerprint", "keys")
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    FINGERPRINT_FIELD_NUMBER: _ClassVar[int]
    KEYS_FIELD_NUMBER: _ClassVar[int]
    public_key: bytes
    fingerprint: str
    keys: _containers.RepeatedCompositeFieldContainer[_trust_pb2.ServerKey]
    def __init__(self, public_key: _Optional[bytes] = ..., fingerprint: _Optional[str] = ..., keys: _Optional[_Iterable[_Union[_trust_pb2.ServerKey, _Mapping]]] = ...) -> None: ...

class ExportGameRecordRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class ExportGameRecordResponse(_message.Message):
    __slots__ = ("record",)
    RECORD_FIELD_NUMBER: _ClassVar[int]
    record: _trust_pb2.GameRecord
    def __init__(self, record: _Optional[_Union[_trust_pb2.GameRecord, _Mapping]] = ...) -> None: ...

class StreamGameRecordRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class StreamGameRecordResponse(_message.Message):
    __slots__ = ("chunk", "total_bytes")
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    TOTAL_BYTES_FIELD_NUMBER: _ClassVar[int]
    chunk: bytes
    total_bytes: int
    def __init__(self, chunk: _Optional[bytes] = ..., total_bytes: _Optional[int] = ...) -> None: ...
