"""The command indexes' checkpoint JSON, written incrementally
(Indexes.to_json), is exactly the JSON of their plain form at every step."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.server.storage.indexes import Indexes
from cardroom.v1 import envelope_pb2 as epb

SECRET_TYPES = ["cardroom.smoke_and_mirrors.v1.Hand", "cardroom.v1.ChanceSeed", "x.Y"]

# One absorbed event: who sent its command (None: no command; 9: the dealer),
# its command id (a small pool, so ids repeat), and the types of its secrets.
events = st.lists(
    st.tuples(
        st.one_of(st.none(), st.integers(0, 3), st.just(9)),
        st.sampled_from(["a", "b", "c", "d", "e", ""]),
        st.lists(st.sampled_from(SECRET_TYPES), max_size=3),
    ),
    max_size=60,
)


def envelope(seat: int | None, command_id: str, secrets: list[str]) -> epb.EventEnvelope:
    made = epb.EventEnvelope()
    if seat is not None:
        made.command.command_id = command_id
        if seat == 9:
            made.command.actor.kind = epb.Actor.KIND_DEALER
        else:
            made.command.actor.kind = epb.Actor.KIND_SEAT
            made.command.actor.seat = seat
    for name in secrets:
        made.secrets.add().value.type_url = f"type.googleapis.com/{name}"
    return made


@settings(max_examples=200, deadline=None)
@given(events, st.sets(st.integers(0, 59)))
def test_the_incremental_json_is_the_plain_forms_at_every_checkpoint(
    absorbed: list[tuple[int | None, str, list[str]]], checkpoints: set[int]
) -> None:
    indexes = Indexes()
    for index, (seat, command_id, secrets) in enumerate(absorbed):
        indexes.absorb(index, envelope(seat, command_id, secrets))
        if index in checkpoints:
            text = indexes.to_json()
            assert text == json.dumps(indexes.plain(), separators=(",", ":"))
            again = Indexes.from_plain(json.loads(text))
            assert again == indexes
            assert again.to_json() == text
    assert indexes.to_json() == json.dumps(indexes.plain(), separators=(",", ":"))
