"""The service's own errors, named for what went wrong; api/status.py maps
them (and the rules' errors) to gRPC status codes."""

from __future__ import annotations


class GameNotFound(LookupError):
    pass


class Unauthenticated(Exception):
    pass


class PermissionDenied(Exception):
    pass


class ExpectedVersionMismatch(Exception):
    pass


class CorruptGame(Exception):
    """The stored stream cannot be folded: it was changed outside the
    service (``cardroom audit`` says how)."""


class FellBehind(Exception):
    """A live stream's reader fell too far behind its game."""
