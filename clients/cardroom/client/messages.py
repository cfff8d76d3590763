"""Packing and unpacking ``google.protobuf.Any`` (every generated message
module is imported once, so any payload the server sends can be decoded),
and the client's decoded views."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

from google.protobuf import any_pb2, descriptor_pool, message_factory
from google.protobuf.message import Message

import cardroom
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb


def _load_generated_modules() -> None:
    """Import every generated ``*_pb2`` module: ``cardroom.v1`` and each
    game's ``cardroom.<game>.v1``. Only those folders are read, never the
    rest of the ``cardroom`` namespace (the server may not be installed)."""
    for root in map(Path, cardroom.__path__):
        for module in sorted(root.glob("v1/*_pb2.py")) + sorted(root.glob("*/v1/*_pb2.py")):
            parts = module.relative_to(root).with_suffix("").parts
            importlib.import_module(".".join(("cardroom", *parts)))


_load_generated_modules()


def pack(message: Message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


def unpack(packed: any_pb2.Any) -> Message:
    descriptor = descriptor_pool.Default().FindMessageTypeByName(packed.TypeName())
    message = message_factory.GetMessageClass(descriptor)()
    packed.Unpack(message)
    return message


@dataclass(frozen=True)
class View:
    version: int
    table: gpb.TableView
    game: Message
    response: gpb.GetViewResponse


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay: the view right after ``event``."""

    view: View
    event: epb.EventEnvelope


def view_of(response: gpb.GetViewResponse) -> View:
    return View(response.version, response.table, unpack(response.game), response)
