import datetime

from cardroom.v1 import envelope_pb2 as _envelope_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ChanceSeed(_message.Message):
    __slots__ = ("seed",)
    SEED_FIELD_NUMBER: _ClassVar[int]
    seed: bytes
    def __init__(self, seed: _Optional[bytes] = ...) -> None: ...

class GameRecord(_message.Message):
    __slots__ = ("body", "public_key", "signature")
    BODY_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    body: bytes
    public_key: bytes
    signature: bytes
    def __init__(self, body: _Optional[bytes] = ..., public_key: _Optional[bytes] = ..., signature: _Optional[bytes] = ...) -> None: ...

class GameRecordBody(_message.Message):
    __slots__ = ("format", "game_id", "kind", "rules_version", "events", "chain_head", "openings", "exported_at", "key_id")
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    CHAIN_HEAD_FIELD_NUMBER: _ClassVar[int]
    OPENINGS_FIELD_NUMBER: _ClassVar[int]
    EXPORTED_AT_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    format: str
    game_id: str
    kind: str
    rules_version: str
    events: _containers.RepeatedScalarFieldContainer[bytes]
    chain_head: bytes
    openings: _containers.RepeatedCompositeFieldContainer[_envelope_pb2.SecretOpening]
    exported_at: _timestamp_pb2.Timestamp
    key_id: str
    def __init__(self, format: _Optional[str] = ..., game_id: _Optional[str] = ..., kind: _Optional[str] = ..., rules_version: _Optional[str] = ..., events: _Optional[_Iterable[bytes]] = ..., chain_head: _Optional[bytes] = ..., openings: _Optional[_Iterable[_Union[_envelope_pb2.SecretOpening, _Mapping]]] = ..., exported_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., key_id: _Optional[str] = ...) -> None: ...

class ServerKey(_message.Message):
    __slots__ = ("key_id", "public_key", "valid_from", "valid_until")
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_KEY_FIELD_NUMBER: _ClassVar[int]
    VALID_FROM_FIELD_NUMBER: _ClassVar[int]
    VALID_UNTIL_FIELD_NUMBER: _ClassVar[int]
    key_id: str
    public_key: bytes
    valid_from: _timestamp_pb2.Timestamp
    valid_until: _timestamp_pb2.Timestamp
    def __init__(self, key_id: _Optional[str] = ..., public_key: _Optional[bytes] = ..., valid_from: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., valid_until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class SignedHead(_message.Message):
    __slots__ = ("game_id", "sequence", "chain_head", "key_id", "signature")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    CHAIN_HEAD_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    sequence: int
    chain_head: bytes
    key_id: str
    signature: bytes
    def __init__(self, game_id: _Optional[str] = ..., sequence: _Optional[int] = ..., chain_head: _Optional[bytes] = ..., key_id: _Optional[str] = ..., signature: _Optional[bytes] = ...) -> None: ...
