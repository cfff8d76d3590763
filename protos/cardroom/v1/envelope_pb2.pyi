import datetime

from google.protobuf import any_pb2 as _any_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Audience(_message.Message):
    __slots__ = ("seats",)
    SEATS_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seats: _Optional[_Iterable[int]] = ...) -> None: ...

class Secret(_message.Message):
    __slots__ = ("audience", "value", "salt", "digest")
    AUDIENCE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    SALT_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    audience: Audience
    value: _any_pb2.Any
    salt: bytes
    digest: bytes
    def __init__(self, audience: _Optional[_Union[Audience, _Mapping]] = ..., value: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., salt: _Optional[bytes] = ..., digest: _Optional[bytes] = ...) -> None: ...

class Actor(_message.Message):
    __slots__ = ("kind", "seat")
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[Actor.Kind]
        KIND_SEAT: _ClassVar[Actor.Kind]
        KIND_DEALER: _ClassVar[Actor.Kind]
        KIND_OPERATOR: _ClassVar[Actor.Kind]
        KIND_GUEST: _ClassVar[Actor.Kind]
        KIND_CLOCK: _ClassVar[Actor.Kind]
    KIND_UNSPECIFIED: Actor.Kind
    KIND_SEAT: Actor.Kind
    KIND_DEALER: Actor.Kind
    KIND_OPERATOR: Actor.Kind
    KIND_GUEST: Actor.Kind
    KIND_CLOCK: Actor.Kind
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    kind: Actor.Kind
    seat: int
    def __init__(self, kind: _Optional[_Union[Actor.Kind, str]] = ..., seat: _Optional[int] = ...) -> None: ...

class CommandRecord(_message.Message):
    __slots__ = ("audience", "command_id", "actor", "command", "salt", "digest")
    AUDIENCE_FIELD_NUMBER: _ClassVar[int]
    COMMAND_ID_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    SALT_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    audience: Audience
    command_id: str
    actor: Actor
    command: _any_pb2.Any
    salt: bytes
    digest: bytes
    def __init__(self, audience: _Optional[_Union[Audience, _Mapping]] = ..., command_id: _Optional[str] = ..., actor: _Optional[_Union[Actor, _Mapping]] = ..., command: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., salt: _Optional[bytes] = ..., digest: _Optional[bytes] = ...) -> None: ...

class SecretOpening(_message.Message):
    __slots__ = ("sequence", "index", "salt", "value")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SALT_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    index: int
    salt: bytes
    value: _any_pb2.Any
    def __init__(self, sequence: _Optional[int] = ..., index: _Optional[int] = ..., salt: _Optional[bytes] = ..., value: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...

class EventEnvelope(_message.Message):
    __slots__ = ("game_id", "sequence", "recorded_at", "event", "secrets", "command", "previous_hash", "openings", "event_hash")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    RECORDED_AT_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    SECRETS_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_HASH_FIELD_NUMBER: _ClassVar[int]
    OPENINGS_FIELD_NUMBER: _ClassVar[int]
    EVENT_HASH_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    sequence: int
    recorded_at: _timestamp_pb2.Timestamp
    event: _any_pb2.Any
    secrets: _containers.RepeatedCompositeFieldContainer[Secret]
    command: CommandRecord
    previous_hash: bytes
    openings: _containers.RepeatedCompositeFieldContainer[SecretOpening]
    event_hash: bytes
    def __init__(self, game_id: _Optional[str] = ..., sequence: _Optional[int] = ..., recorded_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., event: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., secrets: _Optional[_Iterable[_Union[Secret, _Mapping]]] = ..., command: _Optional[_Union[CommandRecord, _Mapping]] = ..., previous_hash: _Optional[bytes] = ..., openings: _Optional[_Iterable[_Union[SecretOpening, _Mapping]]] = ..., event_hash: _Optional[bytes] = ...) -> None: ...
