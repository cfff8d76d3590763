"""What a frontend needs to know of each game this server plays: its kind,
player counts and the protobuf message types of its options, commands,
chance outcomes and view, the bots it can seat, and its guide for a
newcomer (``ListGameKinds``)."""

from __future__ import annotations

from functools import cache

from cardroom.client.bots import bot_kinds_for
from cardroom.domain import registry
from cardroom.server.games.narration import guide_of
from cardroom.v1 import game_service_pb2 as gpb


@cache
def game_kinds() -> gpb.ListGameKindsResponse:
    return gpb.ListGameKindsResponse(
        kinds=[
            gpb.GameKind(
                kind=game.kind,
                title=game.title,
                rules_version=game.rules_version,
                min_seats=game.min_seats,
                max_seats=game.max_seats,
                options_type=game.options_type.DESCRIPTOR.full_name,
                command_types=[t.DESCRIPTOR.full_name for t in game.command_types],
                chance_types=[t.DESCRIPTOR.full_name for t in game.chance_types],
                view_type=game.view_type.DESCRIPTOR.full_name,
                bot_strategies=bot_kinds_for(game.kind),
                guide=guide_of(game.kind),
            )
            for game in registry.games().values()
        ]
    )
