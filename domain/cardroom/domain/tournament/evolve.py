"""Folding a tournament's events into its state."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from cardroom.domain.kernel import Event
from cardroom.domain.tournament.state import Entrant, Round, Table, Tournament
from cardroom.v1 import tournament_pb2 as tnpb


def evolve(state: Tournament, e: Event) -> Tournament:
    """The state after one event. Never mutates ``state``."""
    public = e.public
    if isinstance(public, tnpb.TournamentCreated):
        created = tnpb.TournamentCreated()
        created.CopyFrom(public)
        return replace(state, created=created, registration_open=True)
    if isinstance(public, tnpb.PlayerRegistered):
        entrant = Entrant(public.player.public_key, public.player.display_name)
        return replace(state, entrants=(*state.entrants, entrant))
    if isinstance(public, tnpb.PlayerWithdrew):
        return replace(state, withdrawn=state.withdrawn | {public.public_key})
    if isinstance(public, tnpb.RegistrationClosed):
        return replace(
            state,
            registration_open=False,
            seed_commitment=public.seed_commitment,
            field=state.active,
        )
    if isinstance(public, tnpb.RoundPaired):
        tables = tuple(Table(t.table, t.game_id, tuple(t.seats)) for t in public.tables)
        paired = Round(public.round, tables, tuple(public.byes), public.standings_digest)
        return replace(state, rounds=(*state.rounds, paired))
    if isinstance(public, tnpb.GameRecorded):
        current = state.rounds[-1]
        results = {**current.results, public.table: tuple(public.ranks)}
        return replace(state, rounds=(*state.rounds[:-1], replace(current, results=results)))
    if isinstance(public, tnpb.RoundCompleted):
        current = replace(state.rounds[-1], completed=True)
        return replace(state, rounds=(*state.rounds[:-1], current))
    if isinstance(public, tnpb.TournamentFinished):
        return replace(
            state, finished=True, seed=public.seed, final_standings=tuple(public.standings)
        )
    raise ValueError(f"not a tournament event: {public.DESCRIPTOR.full_name}")


def replay(events: Iterable[Event]) -> Tournament:
    state = Tournament()
    for e in events:
        state = evolve(state, e)
    return state
