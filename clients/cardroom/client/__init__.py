"""cardroom's Python client: a typed asyncio client for GameService
(:class:`Client`), the errors it raises, and around it a viewer's feed told in
words (``Client.story``, :mod:`cardroom.client.feed`), following a game
through disconnects (:mod:`cardroom.client.follow`), kept seats
(:mod:`cardroom.client.sessions`) and bots that play through the API
(:mod:`cardroom.client.bots`).

Needs only ``pip install cardroom-games`` (no server dependencies)."""

from cardroom.client.connection import (
    MAX_MESSAGE_BYTES,
    Client,
    Invitation,
    ReplayStep,
    SeatHandle,
    View,
)
from cardroom.client.errors import (
    CardroomError,
    Conflict,
    DataLoss,
    GameNotFound,
    InvalidArgument,
    PermissionDenied,
    RuleBroken,
    Unauthenticated,
    error_from,
)
from cardroom.client.messages import pack, unpack

__all__ = [
    "MAX_MESSAGE_BYTES",
    "CardroomError",
    "Client",
    "Conflict",
    "DataLoss",
    "GameNotFound",
    "InvalidArgument",
    "Invitation",
    "PermissionDenied",
    "ReplayStep",
    "RuleBroken",
    "SeatHandle",
    "Unauthenticated",
    "View",
    "error_from",
    "pack",
    "unpack",
]
