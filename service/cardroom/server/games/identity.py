"""Who is calling, and what they may see: bearer tokens resolved against a
game (a seat, the operator, or no token: a spectator), the spectator and log
policies recorded at creation, and the spectators' horizon."""

from __future__ import annotations

import hashlib
import hmac
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from cardroom.domain.kernel import (
    AUDITOR,
    OPERATOR,
    SPECTATOR,
    Actor,
    MalformedCommand,
    RuleViolation,
    Viewer,
    quote,
)
from cardroom.server.errors import PermissionDenied, Unauthenticated
from cardroom.server.storage.cache import LoadedGame
from cardroom.v1 import table_pb2 as tpb

Policy = tpb.SpectatorPolicy


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def parse_game_id(game_id: str) -> str:
    try:
        return str(uuid.UUID(game_id))
    except ValueError:
        raise MalformedCommand(f"game_id {quote(game_id)} is not a UUID") from None


@dataclass(frozen=True)
class Caller:
    """Who is calling, as far as one game is concerned."""

    actor: Actor | None  # None for a spectator
    viewer: Viewer


class Identity:
    def __init__(
        self,
        operator_token: str | None,
        seen: Callable[[str, int], None] = lambda game_id, seat: None,
    ) -> None:
        self.operator_token = operator_token or None
        # Told of each call made with a seat token (cardroom.server.table.presence).
        self.seen = seen

    def is_operator(self, token: str | None) -> bool:
        return bool(
            token
            and self.operator_token
            and hmac.compare_digest(token.encode(), self.operator_token.encode())
        )

    def caller(self, loaded: LoadedGame, token: str | None) -> Caller:
        """A bearer token resolved against one game: its seat, the operator,
        or (no token) a spectator. A token that is neither is refused."""
        if not token:
            return Caller(None, SPECTATOR)
        if self.is_operator(token):
            return Caller(OPERATOR, AUDITOR)
        seat = loaded.table.seat_of_token_hash(token_hash(token))
        if seat is None:
            raise Unauthenticated("the token is not a seat token of this game")
        self.seen(loaded.game_id, seat)
        return Caller(Actor.of_seat(seat), Viewer.of_seat(seat))

    def seat_caller(self, loaded: LoadedGame, token: str | None) -> Caller:
        if not token:
            raise Unauthenticated("this call needs a seat token")
        caller = self.caller(loaded, token)
        if caller.actor is None or caller.actor.kind != "seat":
            raise PermissionDenied("this call needs a seat token, not the operator token")
        return caller

    def viewer(self, loaded: LoadedGame, token: str | None, as_spectator: bool = False) -> Viewer:
        """The viewer a read is computed for, after the spectator policy.

        A seat asking for the spectators' view of its own game is refused (no
        ghosting); the operator asking for it gets exactly what spectators get.
        """
        caller = self.caller(loaded, token)
        if as_spectator:
            if caller.viewer.kind == "seat":
                raise PermissionDenied(
                    "no ghosting: a seated player cannot watch its own game as a spectator"
                )
            caller = Caller(None, SPECTATOR)
        return effective(loaded, caller.viewer)

    def check_full_log_reader(self, loaded: LoadedGame, token: str | None) -> None:
        """The full log is the operator's at any time; once the game is over
        it is also its seats' (or anyone's, under the public log policy)."""
        if self.is_operator(token):
            return
        if not loaded.finished:
            raise RuleViolation(
                "T-LOG", "the full log opens once the game is over (the operator may read it now)"
            )
        if loaded.log_is_public:
            return
        if not token:
            raise Unauthenticated(
                "this game's full log is for its seats and the operator: "
                "pass a seat token or the operator token"
            )
        self.seat_caller(loaded, token)


def effective(loaded: LoadedGame, viewer: Viewer) -> Viewer:
    """A spectator of a finished game under the omniscient-after-end policy
    sees everything; every other viewer sees what it is."""
    if (
        viewer.kind == "spectator"
        and loaded.finished
        and loaded.policy.kind == Policy.KIND_OMNISCIENT_AFTER_END
    ):
        return AUDITOR
    return viewer


def horizon(loaded: LoadedGame, viewer: Viewer) -> int:
    """How many events the viewer may see now (the spectator delay)."""
    if (
        viewer.kind == "spectator"
        and loaded.policy.kind == Policy.KIND_DELAYED
        and not loaded.finished
    ):
        return max(0, loaded.version - loaded.policy.delay_events)
    return loaded.version
