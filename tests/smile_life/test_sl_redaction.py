"""Hidden information: every secret goes to exactly the seats entitled to
it, public parts never name a hidden card, reveals open the secrets they
show, every fold agrees with the full state on public facts, and a card a
viewer has not seen changes nothing that viewer receives."""

from __future__ import annotations

import random

import pytest
from google.protobuf.message import Message

from cardroom.domain.kernel import SPECTATOR, Actor, Event, MalformedCommand, RuleViolation, Viewer
from cardroom.domain.smile_life import GAME
from cardroom.domain.smile_life.state import State
from cardroom.smile_life.v1 import smile_life_pb2 as pb

from .play import RandomGame
from .support import key
from .twins import PROBES, Played, decide, play_random, received, twin_shuffles


def audience_for(secret: Message) -> frozenset[int]:
    """Who may see each kind of secret (auditors always may)."""
    if isinstance(secret, (pb.DrawPile, pb.SetAside)):
        return frozenset()
    if isinstance(secret, pb.BarteredCards):
        return frozenset({secret.seat, secret.partner})
    seat = secret.seat  # type: ignore[attr-defined]
    return frozenset({seat})


HIDING = (
    pb.CardDrawn,
    pb.CasinoBetPlaced,
    pb.LuckCardsDrawn,
    pb.HandsShown,
    pb.PileShown,
    pb.BarterStarted,
    pb.CardsBartered,
    pb.HandsRedealt,
    pb.CardsDealt,
)


def all_events(seeds: range) -> list[Event]:
    found = []
    for seed in seeds:
        game = RandomGame(
            seed, folds=False, opts=pb.Options(draw_pile_size=60, river_variant=seed % 3 == 0)
        )
        game.play()
        found.extend(game.table.log)
    return found


EVENTS = all_events(range(100))


def test_the_games_sampled_show_every_kind_of_secret() -> None:
    kinds = {type(s.value) for e in EVENTS for s in e.secrets}
    assert kinds >= {
        pb.DealtCards,
        pb.DrawPile,
        pb.SetAside,
        pb.DrawnCard,
        pb.CasinoBet,
        pb.LuckCards,
        pb.ShownHands,
        pb.ShownPile,
        pb.BarteredCards,
        pb.RedealtCards,
    }


def test_every_secret_goes_to_exactly_the_seats_entitled_to_it() -> None:
    for e in EVENTS:
        for secret in e.secrets:
            assert secret.audience == audience_for(secret.value), (e.public, secret)


def test_public_parts_never_name_a_hidden_card() -> None:
    for e in EVENTS:
        if isinstance(e.public, HIDING):
            assert not any(
                isinstance(value, str) and value for _, value in e.public.ListFields()
            ), e.public


def test_each_reveal_opens_a_secret_holding_the_card_it_shows() -> None:
    opened = 0
    for index, e in enumerate(EVENTS):
        for reveal in GAME.reveals(e):  # type: ignore[attr-defined]
            earlier = [
                s.value
                for before in EVENTS[index::-1]
                for s in reversed(before.secrets)
                if isinstance(s.value, reveal.kind) and reveal.match(s.value)
            ]
            assert earlier, e.public
            shown = earlier[0]
            public = e.public
            if isinstance(public, pb.LuckCardChosen):
                assert sorted([public.card, *public.discarded]) == sorted(shown.cards)
            elif isinstance(public, pb.CasinoBetReturned):
                assert shown.card == public.card
            else:
                assert isinstance(public, pb.CasinoResolved)
                mine = public.first_card if shown.seat == public.first_seat else public.second_card
                assert shown.card == mine
            opened += 1
    assert opened > 10


def public_facts(state: State) -> tuple[object, ...]:
    return (
        state.phase,
        state.stage,
        state.current,
        state.turn,
        state.lives,
        state.discard,
        state.river,
        state.out_of_game,
        state.held,
        state.steps,
        [len(h) for h in state.hands],
        len(state.pile),
        len(state.luck),
        state.winners,
        None if state.casino is None else (state.casino.owner, state.casino.bettor),
    )


@pytest.mark.parametrize("seed", range(6))
def test_every_fold_agrees_with_the_full_state_on_public_facts(seed: int) -> None:
    game = RandomGame(seed, opts=pb.Options(draw_pile_size=50, river_variant=seed % 2 == 1))

    def check(game: RandomGame) -> None:
        table = game.table
        facts = public_facts(table.state)
        for viewer, fold in table.folds.items():
            assert public_facts(fold) == facts
            if viewer.seat is not None:
                assert fold.hands[viewer.seat] == table.state.hands[viewer.seat]
                assert None not in fold.hands[viewer.seat]
                view = GAME.view(fold, viewer)
                assert [s.hand_visible for s in view.seats] == [
                    s == viewer.seat for s in range(table.seat_count)
                ]

    game.play(check)


# ------------------------------------------------------- non-interference


def refusal(state: State, seat: int, command: Message) -> str:
    try:
        GAME.decide(state, Actor.of_seat(seat), command)
    except (RuleViolation, MalformedCommand) as error:
        return f"{type(error).__name__}: {error}"
    return "accepted"


def replay_both(a: Played, b_shuffle: pb.ShuffleDeck, viewer: Viewer) -> bool:
    """Replay A's commands in A and in B (B dealt ``b_shuffle``); every
    viewer-visible thing must agree. False when the twins never differed."""
    state_a = GAME.initial_state(a.options, a.seat_count)
    state_b = state_a
    fold_a = fold_b = state_a
    differed = False
    for index, (seat, command) in enumerate(a.steps):
        step_b = (None, b_shuffle) if index == 0 else (seat, command)
        events_a, events_b = decide(state_a, (seat, command)), decide(state_b, step_b)
        assert received(events_a, viewer) == received(events_b, viewer)
        differed |= [key(s.value) for e in events_a for s in e.secrets] != [
            key(s.value) for e in events_b for s in e.secrets
        ]
        for e_a, e_b in zip(events_a, events_b, strict=True):
            state_a, state_b = GAME.evolve(state_a, e_a), GAME.evolve(state_b, e_b)
            fold_a, fold_b = (
                GAME.evolve(fold_a, e_a.redact(viewer)),
                GAME.evolve(fold_b, e_b.redact(viewer)),
            )
        assert GAME.view(fold_a, viewer) == GAME.view(fold_b, viewer)
        if viewer.seat is not None:
            legal_a = GAME.legal_actions(fold_a, viewer.seat)
            assert [key(c) for c in legal_a] == [
                key(c) for c in GAME.legal_actions(fold_b, viewer.seat)
            ]
            assert [key(c) for c in legal_a] == [
                key(c) for c in GAME.legal_actions(state_a, viewer.seat)
            ]
            for probe in PROBES:
                assert refusal(state_a, viewer.seat, probe) == refusal(state_b, viewer.seat, probe)
    return differed


TWIN_GAMES = 40


def test_a_card_the_viewer_has_not_seen_changes_nothing_it_receives() -> None:
    """Every seat's and a spectator's view of many short games, each with
    one unseen card swapped (see ``twins``)."""
    tried = 0
    for seed in range(TWIN_GAMES):
        rng = random.Random(seed)
        seats = 2 + seed % 4
        options = pb.Options(draw_pile_size=rng.randint(8, 30), river_variant=seed % 5 == 0)
        played = play_random(seed, seats, options)
        for who in [*range(seats), None]:
            viewer = SPECTATOR if who is None else Viewer.of_seat(who)
            for shuffle in twin_shuffles(played, viewer, rng):
                assert replay_both(played, shuffle, viewer)
                tried += 1
                break
    assert tried >= 3 * TWIN_GAMES, tried
