"""Every game speaks: each event of every game, told to every viewer, names
the players it is about, and never shows a card the viewer may not see.

The played games (corpus.py) hold every event message of each game's
schema. Hidden cards are checked with the twins of the non-interference
tests: two games that differ only in cards a viewer may not see must be
told and drawn identically for that viewer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest
from google.protobuf.message import Message
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import SPECTATOR, Event, Viewer
from cardroom.domain.presentation import PLAIN, Story, is_seat_field, narrator, table_event
from cardroom.v1 import table_pb2 as tpb
from tests.presentation.corpus import TABLE_EVENTS, corpus, event_types, occurring
from tests.presentation.local import NAMES, LocalGame
from tests.smiles_and_daggers.twins import commitment_twins
from tests.smoke_and_mirrors.twins import Twins

SM = registry.game("smoke-and-mirrors")

KINDS = sorted(registry.games())


def seats_in(message: Message) -> set[int]:
    """Every seat a message names, in its own fields or nested messages."""
    found: set[int] = set()
    for fd in message.DESCRIPTOR.fields:
        value = getattr(message, fd.name)
        values = list(value) if fd.is_repeated else [value]
        if fd.message_type is not None:
            for nested in values:
                found |= seats_in(nested)
        elif is_seat_field(fd) and (
            fd.is_repeated or not fd.has_presence or message.HasField(fd.name)
        ):
            found.update(values)
    return found


def seats_named(event: Event) -> set[int]:
    return seats_in(event.public).union(*(seats_in(s.value) for s in event.secrets))


def viewers(game: LocalGame) -> list[Viewer]:
    return [*(Viewer.of_seat(s) for s in range(game.seats)), SPECTATOR]


def told(game: LocalGame, viewer: Viewer) -> Iterable[tuple[Event, list[str]]]:
    """Each event of the game as the viewer got it, and its words."""
    story = Story.of(game.kind)
    for e in game.log:
        mine = e.redact(viewer)
        yield mine, story.tell(mine)


@pytest.mark.parametrize("kind", KINDS)
def test_every_event_message_of_every_game_occurs_in_the_played_games(kind: str) -> None:
    wanted = event_types(registry.game(kind)) | TABLE_EVENTS
    assert wanted - occurring(corpus(kind)) == set()


@pytest.mark.parametrize("kind", KINDS)
def test_every_event_told_to_any_viewer_names_the_players_it_is_about(kind: str) -> None:
    checked: dict[str, set[int]] = {}
    for game in corpus(kind):
        for viewer in viewers(game):
            for event, lines in told(game, viewer):
                text = " ".join(lines)
                assert lines and all(line.strip() for line in lines), event
                for seat in seats_named(event):
                    name = NAMES[seat]
                    assert re.search(rf"\b{name}\b", text), f"{name} missing from {text!r}"
                    checked.setdefault(event.public.DESCRIPTOR.full_name, set()).add(seat)
    assert any(0 in seats for seats in checked.values()), checked


def zeroed(message: Message) -> Message:
    """A copy naming seat 0 wherever the message names a seat."""
    copy = type(message)()
    copy.CopyFrom(message)
    for fd in copy.DESCRIPTOR.fields:
        if fd.message_type is not None:
            for nested in getattr(copy, fd.name) if fd.is_repeated else [getattr(copy, fd.name)]:
                nested.CopyFrom(zeroed(nested))
        elif is_seat_field(fd):
            if fd.is_repeated:
                del getattr(copy, fd.name)[:]
                getattr(copy, fd.name).append(0)
            else:
                setattr(copy, fd.name, 0)
    return copy


@pytest.mark.parametrize("kind", KINDS)
def test_seat_zero_is_named_like_any_other_seat_in_every_kind_of_event(kind: str) -> None:
    """Protobuf leaves zeros out of its text: a narrator must not."""
    told_by, first = narrator(kind), {}
    for game in corpus(kind):
        for copies in game.seen:
            auditor = copies[0]  # seat 0's copy: it sees its own secrets
            first.setdefault(type(auditor.event.public), auditor)
    for kind_of_event, seen in first.items():
        if not seats_in(seen.event.public) or not seen.before.started:
            continue
        event = Event(zeroed(seen.event.public), seen.event.secrets)
        lines = table_event(event.public, NAMES) or told_by.event(
            seen.before.game_state, event, NAMES
        )
        words = " ".join(lines)
        assert re.search(r"\bAda\b", words), f"{kind_of_event.__name__}: {words!r}"


@pytest.mark.parametrize("kind", KINDS)
def test_every_viewer_s_table_and_choices_are_drawn_at_every_step(kind: str) -> None:
    told_narrator = narrator(kind)
    for game in corpus(kind)[:4]:
        for copies in game.seen:
            for seen in copies:
                table, viewer = seen.before, seen.viewer
                if not table.started:
                    continue
                view = tables.view(table, viewer)
                scene = told_narrator.scene(view, game.names, viewer.seat)
                assert scene.status and len(scene.seats) == game.seats
                if viewer.seat is None:
                    assert scene.hand == ""
                    continue
                legal = tables.legal_actions(table, viewer.seat)
                labels = [told_narrator.action(a, view, game.names) for a in legal]
                assert len(set(labels)) == len(labels), f"two choices read alike: {labels}"


def test_every_game_has_a_narrator_and_a_heuristic_strategy_of_its_own() -> None:
    for kind in KINDS:
        assert registry.part(kind, "narrate") is not None, (
            f"{kind}: no cardroom.domain.<game>.narrate"
        )
        assert registry.part(kind, "strategy") is not None, (
            f"{kind}: no cardroom.domain.<game>.strategy"
        )
        assert narrator(kind) is not PLAIN


# ------------------------------------------------------------ hidden cards

SM_CARD = re.compile(r"\[[★@☠][0-9M]\]")


def test_a_spectator_of_smoke_and_mirrors_is_never_shown_a_card() -> None:
    for game in corpus("smoke-and-mirrors"):
        for _, lines in told(game, SPECTATOR):
            assert not any(SM_CARD.search(line) for line in lines), lines
        for copies in game.seen:
            spectator = copies[-1]
            if spectator.before.started:
                view = tables.view(spectator.before, SPECTATOR)
                scene = narrator("smoke-and-mirrors").scene(view, game.names, None)
                assert not SM_CARD.search(" ".join(scene.seats + scene.table)), scene


class TellingTwins(Twins):
    """The Smoke & Mirrors twins, telling and drawing what the viewer gets
    in both games: the words and pictures must be the same."""

    def compare_events(self, new_a: list[Event], new_b: list[Event]) -> None:
        told_by, names = narrator(SM.kind), NAMES[: self.seats]
        before_a, before_b = self.fold_a, self.fold_b
        for ea, eb in zip(new_a, new_b, strict=True):
            seen_a, seen_b = ea.redact(self.viewer), eb.redact(self.viewer)
            words = told_by.event(before_a, seen_a, names)
            assert words == told_by.event(before_b, seen_b, names)
            if self.me is None:
                assert not any(SM_CARD.search(line) for line in words), words
            before_a, before_b = SM.evolve(before_a, seen_a), SM.evolve(before_b, seen_b)
        super().compare_events(new_a, new_b)

    def check_view(self) -> None:
        super().check_view()
        told_by, names = narrator(SM.kind), NAMES[: self.seats]
        view_a, view_b = SM.view(self.fold_a, self.viewer), SM.view(self.fold_b, self.viewer)
        assert told_by.scene(view_a, names, self.me) == told_by.scene(view_b, names, self.me)
        if self.me is not None:
            legal_a = SM.legal_actions(self.fold_a, self.me)
            legal_b = SM.legal_actions(self.fold_b, self.me)
            labels_a = [told_by.action(a, view_a, names) for a in legal_a]
            assert labels_a == [told_by.action(b, view_b, names) for b in legal_b]


@settings(max_examples=15, deadline=None)
@given(seats=st.integers(2, 5), seed=st.integers(0, 2**32 - 1), who=st.integers(0, 5))
def test_smoke_and_mirrors_twins_are_told_alike_to_whoever_cannot_tell_them_apart(
    seats: int, seed: int, who: int
) -> None:
    viewer = Viewer.of_seat(who) if who < seats else SPECTATOR
    TellingTwins(seats, viewer, seed).run(max_commands=120)


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("who", [0, 1, None])
def test_smiles_and_daggers_twins_are_told_alike_until_the_reveal(
    seats: int, who: int | None
) -> None:
    """Twins differing in a commitment the viewer may not see: the viewer's
    words, table and choices are the same in both until the cards are shown."""
    viewer = Viewer.of_seat(who) if who is not None else SPECTATOR
    told_by = narrator("smiles-and-daggers")
    compared = 0
    for seed in range(3):
        for step in commitment_twins(seats, viewer, seed):
            names = step.a.names
            for sa, sb in zip(step.seen_a, step.seen_b, strict=True):
                words = told_by.event(sa.before.game_state, sa.event, names)
                assert words == told_by.event(sb.before.game_state, sb.event, names)
            table_a, table_b = step.a.folds[viewer], step.b.folds[viewer]
            view_a, view_b = tables.view(table_a, viewer), tables.view(table_b, viewer)
            assert told_by.scene(view_a, names, viewer.seat) == told_by.scene(
                view_b, names, viewer.seat
            )
            if viewer.seat is not None:
                legal_a = tables.legal_actions(table_a, viewer.seat)
                legal_b = tables.legal_actions(table_b, viewer.seat)
                labels = [told_by.action(a, view_a, names) for a in legal_a]
                assert labels == [told_by.action(b, view_b, names) for b in legal_b]
            compared += 1
    assert compared > 0, "no commitment was hidden from this viewer"


def test_the_table_bounds_are_told() -> None:
    names = ("Ada", "Babbage")
    timed_out = tpb.SeatResigned(seat=1, reason=tpb.SeatResigned.REASON_TIMED_OUT)
    absent = tpb.SeatResigned(seat=0, reason=tpb.SeatResigned.REASON_ABSENT)
    limit = tpb.GameFinished(winners=[0], reason=tpb.GameFinished.REASON_LENGTH_LIMIT)
    assert table_event(timed_out, names) == [
        "Babbage timed out too many times in a row and leaves: "
        "the game makes their choices from now on."
    ]
    assert "Ada has been away too long" in " ".join(table_event(absent, names) or [])
    assert table_event(limit, names) == ["Game over at the table's length limit: Ada wins."]
    unstarted = tpb.GameFinished(reason=tpb.GameFinished.REASON_NEVER_STARTED)
    assert table_event(unstarted, names) == [
        "Nobody started the game for too long: it is closed, unplayed and unrated."
    ]
