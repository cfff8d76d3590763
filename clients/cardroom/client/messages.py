"""Packing and unpacking ``google.protobuf.Any``: every generated message
module is imported once, so any payload the server sends can be decoded."""

from __future__ import annotations

import importlib
from pathlib import Path

from google.protobuf import any_pb2, descriptor_pool, message_factory
from google.protobuf.message import Message

import cardroom


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
