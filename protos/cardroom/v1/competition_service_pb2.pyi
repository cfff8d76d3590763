from cardroom.v1 import table_pb2 as _table_pb2
from cardroom.v1 import tournament_pb2 as _tournament_pb2
from google.protobuf import any_pb2 as _any_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class PlayerRating(_message.Message):
    __slots__ = ("player_id", "public_key", "display_name", "kind", "mu", "sigma", "rating", "games")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    public_key: bytes
    display_name: str
    kind: str
    mu: float
    sigma: float
    rating: float
    games: int
    def __init__(self, player_id: _Optional[str] = ..., public_key: _Optional[bytes] = ..., display_name: _Optional[str] = ..., kind: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., rating: _Optional[float] = ..., games: _Optional[int] = ...) -> None: ...

class ListRatingsRequest(_message.Message):
    __slots__ = ("kind", "page_size", "page_token", "public_keys")
    KIND_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_KEYS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    page_size: int
    page_token: str
    public_keys: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, kind: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., public_keys: _Optional[_Iterable[bytes]] = ...) -> None: ...

class ListRatingsResponse(_message.Message):
    __slots__ = ("ratings", "next_page_token", "first_place")
    RATINGS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLACE_FIELD_NUMBER: _ClassVar[int]
    ratings: _containers.RepeatedCompositeFieldContainer[PlayerRating]
    next_page_token: str
    first_place: int
    def __init__(self, ratings: _Optional[_Iterable[_Union[PlayerRating, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., first_place: _Optional[int] = ...) -> None: ...

class GetPlayerRequest(_message.Message):
    __slots__ = ("player_id", "public_key", "page_size", "page_token")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    public_key: bytes
    page_size: int
    page_token: str
    def __init__(self, player_id: _Optional[str] = ..., public_key: _Optional[bytes] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class RatedGame(_message.Message):
    __slots__ = ("game_id", "kind", "seat", "rank", "rating_after")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    RATING_AFTER_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    kind: str
    seat: int
    rank: int
    rating_after: PlayerRating
    def __init__(self, game_id: _Optional[str] = ..., kind: _Optional[str] = ..., seat: _Optional[int] = ..., rank: _Optional[int] = ..., rating_after: _Optional[_Union[PlayerRating, _Mapping]] = ...) -> None: ...

class GetPlayerResponse(_message.Message):
    __slots__ = ("player_id", "public_key", "display_name", "ratings", "games", "next_page_token")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    RATINGS_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    public_key: bytes
    display_name: str
    ratings: _containers.RepeatedCompositeFieldContainer[PlayerRating]
    games: _containers.RepeatedCompositeFieldContainer[RatedGame]
    next_page_token: str
    def __init__(self, player_id: _Optional[str] = ..., public_key: _Optional[bytes] = ..., display_name: _Optional[str] = ..., ratings: _Optional[_Iterable[_Union[PlayerRating, _Mapping]]] = ..., games: _Optional[_Iterable[_Union[RatedGame, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class CreateTournamentRequest(_message.Message):
    __slots__ = ("kind", "table_size", "format", "rounds", "options", "bye_half_points", "name", "table_options")
    KIND_FIELD_NUMBER: _ClassVar[int]
    TABLE_SIZE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    BYE_HALF_POINTS_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TABLE_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    table_size: int
    format: _tournament_pb2.TournamentFormat.Kind
    rounds: int
    options: _any_pb2.Any
    bye_half_points: int
    name: str
    table_options: _table_pb2.TableOptions
    def __init__(self, kind: _Optional[str] = ..., table_size: _Optional[int] = ..., format: _Optional[_Union[_tournament_pb2.TournamentFormat.Kind, str]] = ..., rounds: _Optional[int] = ..., options: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., bye_half_points: _Optional[int] = ..., name: _Optional[str] = ..., table_options: _Optional[_Union[_table_pb2.TableOptions, _Mapping]] = ...) -> None: ...

class CreateTournamentResponse(_message.Message):
    __slots__ = ("tournament_id", "organizer_token")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ORGANIZER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    organizer_token: str
    def __init__(self, tournament_id: _Optional[str] = ..., organizer_token: _Optional[str] = ...) -> None: ...

class RegisterPlayerRequest(_message.Message):
    __slots__ = ("tournament_id", "player")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    player: _table_pb2.PlayerProof
    def __init__(self, tournament_id: _Optional[str] = ..., player: _Optional[_Union[_table_pb2.PlayerProof, _Mapping]] = ...) -> None: ...

class RegisterPlayerResponse(_message.Message):
    __slots__ = ("players",)
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    players: int
    def __init__(self, players: _Optional[int] = ...) -> None: ...

class WithdrawPlayerRequest(_message.Message):
    __slots__ = ("tournament_id", "public_key", "signature")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    public_key: bytes
    signature: bytes
    def __init__(self, tournament_id: _Optional[str] = ..., public_key: _Optional[bytes] = ..., signature: _Optional[bytes] = ...) -> None: ...

class WithdrawPlayerResponse(_message.Message):
    __slots__ = ("players_left",)
    PLAYERS_LEFT_FIELD_NUMBER: _ClassVar[int]
    players_left: int
    def __init__(self, players_left: _Optional[int] = ...) -> None: ...

class StartTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class StartTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: _tournament_pb2.TournamentView
    def __init__(self, tournament: _Optional[_Union[_tournament_pb2.TournamentView, _Mapping]] = ...) -> None: ...

class GetTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class GetTournamentResponse(_message.Message):
    __slots__ = ("tournament", "version")
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    tournament: _tournament_pb2.TournamentView
    version: int
    def __init__(self, tournament: _Optional[_Union[_tournament_pb2.TournamentView, _Mapping]] = ..., version: _Optional[int] = ...) -> None: ...

class WatchTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "after")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    after: int
    def __init__(self, tournament_id: _Optional[str] = ..., after: _Optional[int] = ...) -> None: ...

class WatchTournamentResponse(_message.Message):
    __slots__ = ("sequence", "event", "tournament")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    event: _any_pb2.Any
    tournament: _tournament_pb2.TournamentView
    def __init__(self, sequence: _Optional[int] = ..., event: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., tournament: _Optional[_Union[_tournament_pb2.TournamentView, _Mapping]] = ...) -> None: ...

class ExportTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class ExportTournamentResponse(_message.Message):
    __slots__ = ("record", "game_ids")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    GAME_IDS_FIELD_NUMBER: _ClassVar[int]
    record: _tournament_pb2.TournamentRecord
    game_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, record: _Optional[_Union[_tournament_pb2.TournamentRecord, _Mapping]] = ..., game_ids: _Optional[_Iterable[str]] = ...) -> None: ...
