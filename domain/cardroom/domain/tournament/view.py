"""What anyone may see of a tournament: everything but the seed, which
TournamentFinished reveals (TN-SEED). Every viewer sees the same."""

from __future__ import annotations

from cardroom.domain.tournament.standings import lines, ordered, to_messages
from cardroom.domain.tournament.state import Tournament
from cardroom.v1 import tournament_pb2 as tnpb


def view(state: Tournament) -> tnpb.TournamentView:
    out = tnpb.TournamentView(
        registration_open=state.registration_open,
        seed_commitment=state.seed_commitment,
        finished=state.finished,
        seed=state.seed,  # empty until TournamentFinished
        withdrawn=sorted(state.withdrawn),
    )
    if state.created is not None:
        out.created.CopyFrom(state.created)
    for entrant in state.entrants:
        out.players.add(public_key=entrant.public_key, display_name=entrant.display_name)
    for played in state.rounds:
        paired = out.rounds.add(
            round=played.number, byes=played.byes, standings_digest=played.standings_digest
        )
        for table in played.tables:
            paired.tables.add(table=table.number, game_id=table.game_id, seats=table.seats)
            ranks = played.results.get(table.number)
            if ranks is not None:
                out.results.add(
                    round=played.number, table=table.number, game_id=table.game_id, ranks=ranks
                )
    if state.finished:
        out.standings.extend(state.final_standings)
    elif state.field:
        totals = lines(state.field, state.withdrawn, state.rounds, state.bye_half_points)
        out.standings.extend(to_messages(ordered(totals, lambda k: k)))
    return out
