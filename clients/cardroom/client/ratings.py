"""Players' names with their ratings beside them (docs/rules/table.md,
T-RATING), written one way on every terminal screen: "Ada (27.3)"."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cardroom.client.connection import Client
from cardroom.client.errors import CardroomError


def rated_name(name: str, rating: float | None) -> str:
    """``name``, with ``rating`` (mu - 3 sigma) after it when there is one."""
    return name if rating is None or not name else f"{name} ({rating:.1f})"


def rated_names(
    names: Sequence[str], keys: Sequence[bytes], ratings: Mapping[bytes, float]
) -> list[str]:
    """Each seat's name with its player's rating, where the seat carries a
    key that has one (an anonymous seat, or a free one, stays as it is)."""
    keyed = list(keys) + [b""] * (len(names) - len(keys))
    return [
        rated_name(name, ratings.get(bytes(key))) for name, key in zip(names, keyed, strict=False)
    ]


async def ratings_of(client: Client, kind: str, keys: Sequence[bytes]) -> dict[bytes, float]:
    """The ratings in ``kind`` of the players ``keys`` (one ListRatings);
    empty from a server that keeps none (it predates ratings)."""
    wanted = sorted({bytes(k) for k in keys if k})[:1000]
    if not wanted:
        return {}
    try:
        found = await client.ratings(kind, public_keys=wanted)
    except CardroomError as error:
        if error.code.name == "UNIMPLEMENTED":
            return {}
        raise
    return {bytes(r.public_key): r.rating for r in found}
