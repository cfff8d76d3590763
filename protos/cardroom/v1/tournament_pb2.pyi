import datetime

from cardroom.v1 import table_pb2 as _table_pb2
from google.protobuf import any_pb2 as _any_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TournamentFormat(_message.Message):
    __slots__ = ()
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[TournamentFormat.Kind]
        KIND_SWISS: _ClassVar[TournamentFormat.Kind]
        KIND_ROUND_ROBIN: _ClassVar[TournamentFormat.Kind]
    KIND_UNSPECIFIED: TournamentFormat.Kind
    KIND_SWISS: TournamentFormat.Kind
    KIND_ROUND_ROBIN: TournamentFormat.Kind
    def __init__(self) -> None: ...

class TournamentCreated(_message.Message):
    __slots__ = ("tournament_id", "kind", "table_size", "format", "rounds", "options", "bye_half_points", "name", "table_options")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TABLE_SIZE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    BYE_HALF_POINTS_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TABLE_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    kind: str
    table_size: int
    format: TournamentFormat.Kind
    rounds: int
    options: _any_pb2.Any
    bye_half_points: int
    name: str
    table_options: _table_pb2.TableOptions
    def __init__(self, tournament_id: _Optional[str] = ..., kind: _Optional[str] = ..., table_size: _Optional[int] = ..., format: _Optional[_Union[TournamentFormat.Kind, str]] = ..., rounds: _Optional[int] = ..., options: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., bye_half_points: _Optional[int] = ..., name: _Optional[str] = ..., table_options: _Optional[_Union[_table_pb2.TableOptions, _Mapping]] = ...) -> None: ...

class PlayerRegistered(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: _table_pb2.PlayerProof
    def __init__(self, player: _Optional[_Union[_table_pb2.PlayerProof, _Mapping]] = ...) -> None: ...

class PlayerWithdrew(_message.Message):
    __slots__ = ("public_key",)
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    public_key: bytes
    def __init__(self, public_key: _Optional[bytes] = ...) -> None: ...

class RegistrationClosed(_message.Message):
    __slots__ = ("seed_commitment",)
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    seed_commitment: bytes
    def __init__(self, seed_commitment: _Optional[bytes] = ...) -> None: ...

class TournamentTable(_message.Message):
    __slots__ = ("table", "game_id", "seats")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    table: int
    game_id: str
    seats: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, table: _Optional[int] = ..., game_id: _Optional[str] = ..., seats: _Optional[_Iterable[bytes]] = ...) -> None: ...

class RoundPaired(_message.Message):
    __slots__ = ("round", "tables", "byes", "standings_digest")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    BYES_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_DIGEST_FIELD_NUMBER: _ClassVar[int]
    round: int
    tables: _containers.RepeatedCompositeFieldContainer[TournamentTable]
    byes: _containers.RepeatedScalarFieldContainer[bytes]
    standings_digest: bytes
    def __init__(self, round: _Optional[int] = ..., tables: _Optional[_Iterable[_Union[TournamentTable, _Mapping]]] = ..., byes: _Optional[_Iterable[bytes]] = ..., standings_digest: _Optional[bytes] = ...) -> None: ...

class GameRecorded(_message.Message):
    __slots__ = ("round", "table", "game_id", "ranks")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    round: int
    table: int
    game_id: str
    ranks: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, round: _Optional[int] = ..., table: _Optional[int] = ..., game_id: _Optional[str] = ..., ranks: _Optional[_Iterable[int]] = ...) -> None: ...

class RoundCompleted(_message.Message):
    __slots__ = ("round", "standings")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    round: int
    standings: _containers.RepeatedCompositeFieldContainer[Standing]
    def __init__(self, round: _Optional[int] = ..., standings: _Optional[_Iterable[_Union[Standing, _Mapping]]] = ...) -> None: ...

class TournamentFinished(_message.Message):
    __slots__ = ("standings", "seed")
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    standings: _containers.RepeatedCompositeFieldContainer[Standing]
    seed: bytes
    def __init__(self, standings: _Optional[_Iterable[_Union[Standing, _Mapping]]] = ..., seed: _Optional[bytes] = ...) -> None: ...

class Standing(_message.Message):
    __slots__ = ("public_key", "place", "half_points", "buchholz_half_points", "wins", "games", "byes", "withdrawn")
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    HALF_POINTS_FIELD_NUMBER: _ClassVar[int]
    BUCHHOLZ_HALF_POINTS_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    BYES_FIELD_NUMBER: _ClassVar[int]
    WITHDRAWN_FIELD_NUMBER: _ClassVar[int]
    public_key: bytes
    place: int
    half_points: int
    buchholz_half_points: int
    wins: int
    games: int
    byes: int
    withdrawn: bool
    def __init__(self, public_key: _Optional[bytes] = ..., place: _Optional[int] = ..., half_points: _Optional[int] = ..., buchholz_half_points: _Optional[int] = ..., wins: _Optional[int] = ..., games: _Optional[int] = ..., byes: _Optional[int] = ..., withdrawn: _Optional[bool] = ...) -> None: ...

class CreateTournament(_message.Message):
    __slots__ = ("tournament_id", "kind", "table_size", "format", "rounds", "options", "bye_half_points", "name", "table_options")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TABLE_SIZE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    BYE_HALF_POINTS_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TABLE_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    kind: str
    table_size: int
    format: TournamentFormat.Kind
    rounds: int
    options: _any_pb2.Any
    bye_half_points: int
    name: str
    table_options: _table_pb2.TableOptions
    def __init__(self, tournament_id: _Optional[str] = ..., kind: _Optional[str] = ..., table_size: _Optional[int] = ..., format: _Optional[_Union[TournamentFormat.Kind, str]] = ..., rounds: _Optional[int] = ..., options: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., bye_half_points: _Optional[int] = ..., name: _Optional[str] = ..., table_options: _Optional[_Union[_table_pb2.TableOptions, _Mapping]] = ...) -> None: ...

class RegisterPlayer(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: _table_pb2.PlayerProof
    def __init__(self, player: _Optional[_Union[_table_pb2.PlayerProof, _Mapping]] = ...) -> None: ...

class WithdrawPlayer(_message.Message):
    __slots__ = ("public_key", "signature")
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    public_key: bytes
    signature: bytes
    def __init__(self, public_key: _Optional[bytes] = ..., signature: _Optional[bytes] = ...) -> None: ...

class CloseRegistration(_message.Message):
    __slots__ = ("seed_commitment",)
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    seed_commitment: bytes
    def __init__(self, seed_commitment: _Optional[bytes] = ...) -> None: ...

class PairRound(_message.Message):
    __slots__ = ("round", "seed", "game_ids")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    GAME_IDS_FIELD_NUMBER: _ClassVar[int]
    round: int
    seed: bytes
    game_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, round: _Optional[int] = ..., seed: _Optional[bytes] = ..., game_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class RecordGame(_message.Message):
    __slots__ = ("round", "table", "game_id", "ranks")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    round: int
    table: int
    game_id: str
    ranks: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, round: _Optional[int] = ..., table: _Optional[int] = ..., game_id: _Optional[str] = ..., ranks: _Optional[_Iterable[int]] = ...) -> None: ...

class FinishTournament(_message.Message):
    __slots__ = ("seed",)
    SEED_FIELD_NUMBER: _ClassVar[int]
    seed: bytes
    def __init__(self, seed: _Optional[bytes] = ...) -> None: ...

class TournamentView(_message.Message):
    __slots__ = ("created", "players", "withdrawn", "registration_open", "seed_commitment", "rounds", "results", "standings", "finished", "seed")
    CREATED_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    WITHDRAWN_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_OPEN_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    created: TournamentCreated
    players: _containers.RepeatedCompositeFieldContainer[_table_pb2.PlayerProof]
    withdrawn: _containers.RepeatedScalarFieldContainer[bytes]
    registration_open: bool
    seed_commitment: bytes
    rounds: _containers.RepeatedCompositeFieldContainer[RoundPaired]
    results: _containers.RepeatedCompositeFieldContainer[GameRecorded]
    standings: _containers.RepeatedCompositeFieldContainer[Standing]
    finished: bool
    seed: bytes
    def __init__(self, created: _Optional[_Union[TournamentCreated, _Mapping]] = ..., players: _Optional[_Iterable[_Union[_table_pb2.PlayerProof, _Mapping]]] = ..., withdrawn: _Optional[_Iterable[bytes]] = ..., registration_open: _Optional[bool] = ..., seed_commitment: _Optional[bytes] = ..., rounds: _Optional[_Iterable[_Union[RoundPaired, _Mapping]]] = ..., results: _Optional[_Iterable[_Union[GameRecorded, _Mapping]]] = ..., standings: _Optional[_Iterable[_Union[Standing, _Mapping]]] = ..., finished: _Optional[bool] = ..., seed: _Optional[bytes] = ...) -> None: ...

class TournamentRecord(_message.Message):
    __slots__ = ("body", "public_key", "signature")
    BODY_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    body: bytes
    public_key: bytes
    signature: bytes
    def __init__(self, body: _Optional[bytes] = ..., public_key: _Optional[bytes] = ..., signature: _Optional[bytes] = ...) -> None: ...

class TournamentRecordBody(_message.Message):
    __slots__ = ("format", "tournament_id", "kind", "events", "chain_head", "exported_at", "key_id")
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    CHAIN_HEAD_FIELD_NUMBER: _ClassVar[int]
    EXPORTED_AT_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    format: str
    tournament_id: str
    kind: str
    events: _containers.RepeatedScalarFieldContainer[bytes]
    chain_head: bytes
    exported_at: _timestamp_pb2.Timestamp
    key_id: str
    def __init__(self, format: _Optional[str] = ..., tournament_id: _Optional[str] = ..., kind: _Optional[str] = ..., events: _Optional[_Iterable[bytes]] = ..., chain_head: _Optional[bytes] = ..., exported_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., key_id: _Optional[str] = ...) -> None: ...
