"""The registry and presentation, for every registered game: it describes
itself, refuses the seat counts it is not played by, has a contract entry
here, a narrator of its own that tells every event to every viewer from
that viewer's own fold (naming its actors is checked over a corpus in
tests/presentation/test_narrators.py), a heuristic strategy, and a scene
for every viewer's view.

A narrator is handed no viewer, only the viewer's redacted event and fold,
so it has no second line: told with the full state, Silver Dagger's says
which cards a seat looked at to anyone. What it may tell rests on the
folds, which test_redaction holds to exactly what each viewer knows."""

from __future__ import annotations

import re

import pytest

from cardroom.domain import registry
from cardroom.domain.kernel import SPECTATOR, Actor, Event, MalformedCommand, RuleViolation
from cardroom.domain.presentation import PLAIN, narrator, strategy
from tests.contract.cases import KINDS, options_for, seat_counts
from tests.contract.games import CONTRACTS
from tests.contract.play import Played

NAMES = ("Ada", "Bo", "Cy", "Di", "Eve", "Flo")


@pytest.mark.parametrize("kind", KINDS)
def test_it_describes_itself(kind: str) -> None:
    game = registry.game(kind)
    package = type(game).__module__.split(".")[2]
    assert package == kind.replace("-", "_") and game.title
    assert re.fullmatch(rf"{re.escape(kind)}/\d+", game.rules_version), game.rules_version
    assert 2 <= game.min_seats <= game.max_seats
    proto = game.view_type.DESCRIPTOR.file
    for message in (game.options_type, *game.command_types, *game.chance_types):
        assert message.DESCRIPTOR.file is proto, f"{message} is not {kind}'s message"
    assert game.view_type.__name__ == "View" and game.options_type.__name__ == "Options"
    commands = set(game.command_types)
    assert len(commands) == len(game.command_types) and game.chance_types
    assert not commands & set(game.chance_types)
    assert kind in CONTRACTS, f"{kind} has no entry in tests/contract/games.py"
    version, least, most, chances, command_count = CONTRACTS[kind].describes
    assert (game.rules_version, game.min_seats, game.max_seats) == (version, least, most)
    assert {c.__name__ for c in game.chance_types} == chances
    assert len(game.command_types) == command_count


@pytest.mark.parametrize("kind", KINDS)
def test_it_refuses_the_seat_counts_it_is_not_played_by_naming_a_rule(kind: str) -> None:
    game = registry.game(kind)
    for seats in (0, game.min_seats - 1, game.max_seats + 1):
        with pytest.raises(RuleViolation) as caught:
            game.initial_state(game.options_type(), seats)
        assert caught.value.rule
    with pytest.raises(MalformedCommand):
        game.initial_state(game.view_type(), game.max_seats)


@pytest.mark.parametrize("kind", KINDS)
def test_a_seat_sends_no_chance_outcome(kind: str) -> None:
    game = registry.game(kind)
    seats = next(s for s in seat_counts(kind) if options_for(kind, s, 0) is not None)
    options = options_for(kind, seats, 0)
    assert options is not None
    state = game.initial_state(options, seats)
    for chance in game.chance_types:
        with pytest.raises((MalformedCommand, RuleViolation)):
            game.decide(state, Actor.of_seat(0), chance())


@pytest.mark.parametrize("kind", KINDS)
def test_it_has_a_narrator_and_a_strategy_of_its_own(kind: str) -> None:
    assert narrator(kind) is not PLAIN
    assert strategy(kind) is not None


@pytest.mark.parametrize("kind", KINDS)
def test_the_narrator_tells_every_event_to_every_viewer_from_its_fold(kind: str) -> None:
    """Every event reads (non-empty lines) to every viewer, told with its
    own fold and its own copy of the event; a spectator's copy, holding no
    secret, reads as the public message alone; every view draws as a scene."""
    told = narrator(kind)
    seats = seat_counts(kind)[-1]
    options = options_for(kind, seats, 11) or options_for(kind, seat_counts(kind)[0], 11)
    if options_for(kind, seats, 11) is None:
        seats = seat_counts(kind)[0]
    played = Played(kind, seats, 11, options)
    names = NAMES[:seats]
    compared = 0

    def narrate(played: Played, before: object, folds: dict, events: list[Event]) -> None:
        nonlocal compared
        for e in events:
            for viewer, fold in folds.items():
                mine = e.redact(viewer)
                lines = told.event(fold, mine, names)
                assert lines and all(line.strip() for line in lines), e.public
                if viewer.seat is None:
                    assert lines == told.event(fold, Event(e.public), names)
                compared += 1
            before = played.game.evolve(before, e)  # type: ignore[assignment]
            folds = {v: played.game.evolve(f, e.redact(v)) for v, f in folds.items()}

    while not played.over:
        before, folds, start = played.state, dict(played.folds), len(played.log)
        played.step()
        narrate(played, before, folds, played.log[start:])
    for viewer, fold in played.folds.items():
        scene = told.scene(played.game.view(fold, viewer), names, viewer.seat)
        assert scene.status and len(scene.seats) == seats
    assert compared > 0 and SPECTATOR in played.folds


@pytest.mark.parametrize("kind", KINDS)
def test_every_reveal_opens_an_earlier_secret(kind: str) -> None:
    """``reveals`` names, for each event, earlier secrets that exist: the
    latest earlier secret of its type that its match accepts."""
    seats = seat_counts(kind)[-1]
    options = options_for(kind, seats, 5)
    if options is None:
        seats = seat_counts(kind)[1]
        options = options_for(kind, seats, 5)
    played = Played(kind, seats, 5, options).play()
    opened = 0
    for index, e in enumerate(played.log):
        for reveal in played.game.reveals(e):
            earlier = [
                s.value
                for before in played.log[index::-1]
                for s in before.secrets
                if isinstance(s.value, reveal.kind) and reveal.match(s.value)
            ]
            assert earlier, (e.public, reveal.kind)
            opened += 1
    assert opened > 0 or kind != "silver-dagger"  # every Silver Dagger round opens looks
