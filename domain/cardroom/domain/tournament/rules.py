"""The tournament's decider: commands in, events out, or a refusal naming
the rule (docs/rules/tournaments.md). The service sends every command; it
checks each player's signature before RegisterPlayer and holds the seed,
which PairRound and FinishTournament carry (their command records are for
auditors only)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from google.protobuf.message import Message

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import Event, Game, MalformedCommand, RuleViolation, event, quote
from cardroom.domain.tournament import pairing, standings
from cardroom.domain.tournament.state import ROUND_ROBIN, SWISS, Tournament
from cardroom.v1 import tournament_pb2 as tnpb

KEY_BYTES = 32
SEED_BYTES = 32
MAX_NAME = 64
MAX_PLAYERS = 1024
MAX_ROUNDS = 64
# Ranks count by their order only (TN-POINTS): ratings rank a departed seat 3.
MAX_RANK = 64


def decide(
    state: Tournament,
    command: Message,
    *,
    resolve_game: Callable[[str], Game[Any]] = registry.game,
) -> list[Event]:
    """The events ``command`` causes now; RuleViolation (a TN-... rule) or
    MalformedCommand when it may not happen."""
    if isinstance(command, tnpb.CreateTournament):
        return _create(state, command, resolve_game)
    if state.created is None:
        raise RuleViolation("TN-STATE", "there is no tournament yet")
    if state.finished:
        raise RuleViolation("TN-STATE", "the tournament is finished")
    if isinstance(command, tnpb.RegisterPlayer):
        return _register(state, command)
    if isinstance(command, tnpb.WithdrawPlayer):
        return _withdraw(state, command)
    if isinstance(command, tnpb.CloseRegistration):
        return _close(state, command)
    if isinstance(command, tnpb.PairRound):
        return _pair(state, command)
    if isinstance(command, tnpb.RecordGame):
        return _record(state, command)
    if isinstance(command, tnpb.FinishTournament):
        return _finish(state, command)
    raise MalformedCommand(f"not a tournament command: {command.DESCRIPTOR.full_name}")


def _create(
    state: Tournament, command: tnpb.CreateTournament, resolve_game: Callable[[str], Game[Any]]
) -> list[Event]:
    if state.created is not None:
        raise RuleViolation("TN-STATE", "the tournament already exists")
    if not command.tournament_id or len(command.tournament_id) > 64:
        raise MalformedCommand("a tournament needs an id of 1 to 64 characters")
    try:
        game = resolve_game(command.kind)
    except KeyError as error:
        raise MalformedCommand(str(error.args[0])) from None
    if not game.min_seats <= command.table_size <= game.max_seats:
        raise RuleViolation(
            "TN-TABLE",
            f"{game.kind} is played at {game.min_seats} to {game.max_seats} seats, "
            f"not {command.table_size}",
        )
    given = command.options if command.HasField("options") else None
    options = tables.options_for_seats(game, given, command.table_size)  # T-VARIANT
    try:
        game.initial_state(options, command.table_size)
    except RuleViolation as error:
        raise RuleViolation(
            "TN-TABLE",
            f"{game.kind} is not played at {command.table_size} seats with these options "
            f"({error.rule}: {error.message})",
        ) from None
    if command.format not in (SWISS, ROUND_ROBIN):
        raise MalformedCommand("the format is SWISS or ROUND_ROBIN")
    if command.format == SWISS and not 1 <= command.rounds <= MAX_ROUNDS:
        raise RuleViolation("TN-ROUNDS", f"a Swiss plays 1 to {MAX_ROUNDS} rounds")
    if command.rounds > MAX_ROUNDS:
        raise RuleViolation("TN-ROUNDS", f"a tournament plays at most {MAX_ROUNDS} rounds")
    if len(command.name) > MAX_NAME:
        raise MalformedCommand(f"a tournament's name is at most {MAX_NAME} characters")
    created = tnpb.TournamentCreated(
        tournament_id=command.tournament_id,
        kind=command.kind,
        table_size=command.table_size,
        format=command.format,
        rounds=command.rounds,
        bye_half_points=command.bye_half_points or command.table_size - 1,
        name=command.name,
    )
    if command.HasField("options"):
        created.options.CopyFrom(command.options)
    if command.HasField("table_options"):  # TN-CLOCK: checked as a game checks them
        created.table_options.CopyFrom(tables.checked_table_options(command.table_options))
    return [event(created)]


def _register(state: Tournament, command: tnpb.RegisterPlayer) -> list[Event]:
    if not state.registration_open:
        raise RuleViolation("TN-REGISTER", "registration is closed")
    key = command.player.public_key
    if len(key) != KEY_BYTES:
        raise MalformedCommand(f"a player's public key is {KEY_BYTES} bytes, not {len(key)}")
    if len(command.player.display_name) > MAX_NAME:
        raise MalformedCommand(f"a display name is at most {MAX_NAME} characters")
    if key in state.keys and key not in state.withdrawn:
        raise RuleViolation("TN-REGISTER", "this player is registered already")
    if key in state.withdrawn:
        raise RuleViolation("TN-LEAVE", "a player who withdrew does not come back")
    if len(state.entrants) >= MAX_PLAYERS:
        raise RuleViolation("TN-REGISTER", f"the field is full ({MAX_PLAYERS} players)")
    return [event(tnpb.PlayerRegistered(player=command.player))]


def _withdraw(state: Tournament, command: tnpb.WithdrawPlayer) -> list[Event]:
    if command.public_key not in state.keys:
        raise RuleViolation("TN-LEAVE", "this player is not registered")
    if command.public_key in state.withdrawn:
        raise RuleViolation("TN-LEAVE", "this player has withdrawn already")
    return [event(tnpb.PlayerWithdrew(public_key=command.public_key))]


def _close(state: Tournament, command: tnpb.CloseRegistration) -> list[Event]:
    if not state.registration_open:
        raise RuleViolation("TN-STATE", "registration is closed already")
    if len(command.seed_commitment) != hashlib.sha256().digest_size:
        raise MalformedCommand("the seed commitment is a SHA-256 digest (32 bytes)")
    if len(state.active) < max(2, state.table_size):
        raise RuleViolation(
            "TN-FIELD",
            f"{len(state.active)} players cannot fill a table of {state.table_size}",
        )
    return [event(tnpb.RegistrationClosed(seed_commitment=command.seed_commitment))]


def _check_seed(state: Tournament, seed: bytes) -> None:
    if len(seed) != SEED_BYTES or hashlib.sha256(seed).digest() != state.seed_commitment:
        raise RuleViolation("TN-SEED", "the seed does not open the tournament's commitment")


def draw_round(state: Tournament, seed: bytes) -> tuple[pairing.Pairing, bytes]:
    """The next round's tables and byes, and the digest of the standings
    they were drawn from (TN-DRAW, TN-SWISS, TN-ROBIN). The service calls it
    to know how many games to name."""
    number = len(state.rounds) + 1
    table = standings.lines(state.field, state.withdrawn, state.rounds, state.bye_half_points)
    digest = standings.digest(table)
    key = pairing.round_key(seed, number, digest)
    size = state.table_size
    playing = state.playing
    if state.created is not None and state.created.format == ROUND_ROBIN and size == 2:
        full = pairing.circle(pairing.circle_order(seed, state.field), number)
        tables = tuple(t for t in full.tables if not set(t) & state.withdrawn)
        left = [k for t in full.tables if set(t) & state.withdrawn for k in t]
        byes = tuple(k for k in (*full.byes, *left) if k not in state.withdrawn)
        found = pairing.Pairing(tuple(pairing.seat_order(key, t) for t in tables), byes)
        return found, digest
    if state.created is not None and state.created.format == ROUND_ROBIN:
        ranked = sorted(playing, key=lambda k: pairing.draw(key, k))
    else:
        ranked = sorted(playing, key=lambda k: (table[k].sort_key(), pairing.draw(key, k)))
    met = pairing.meetings([t.seats for r in state.rounds for t in r.tables])
    byes_so_far = {k: line.byes for k, line in table.items()}
    return pairing.swiss(key, ranked, size, met, byes_so_far), digest


def _pair(state: Tournament, command: tnpb.PairRound) -> list[Event]:
    if state.registration_open or not state.seed_commitment:
        raise RuleViolation("TN-ROUND", "registration has not closed")
    current = state.current
    if current is not None and not current.completed:
        raise RuleViolation("TN-ROUND", f"round {current.number} is not complete")
    number = len(state.rounds) + 1
    if command.round != number:
        raise RuleViolation("TN-ROUND", f"the next round is {number}, not {command.round}")
    if number > state.planned_rounds:
        raise RuleViolation("TN-ROUND", f"the tournament plays {state.planned_rounds} rounds")
    _check_seed(state, command.seed)
    if len(state.playing) < state.table_size:
        raise RuleViolation("TN-FIELD", f"{len(state.playing)} players left cannot fill a table")
    drawn, digest = draw_round(state, command.seed)
    if command.game_ids and len(command.game_ids) != len(drawn.tables):
        raise MalformedCommand(
            f"round {number} has {len(drawn.tables)} tables, not {len(command.game_ids)} game ids"
        )
    if len(set(command.game_ids)) != len(command.game_ids) or any(
        not g or len(g) > 64 for g in command.game_ids
    ):
        raise MalformedCommand("every table's game id is distinct, of 1 to 64 characters")
    earlier = {t.game_id for r in state.rounds for t in r.tables if t.game_id}
    if earlier & set(command.game_ids):
        raise MalformedCommand("a game id names one table of the whole tournament")
    names = list(command.game_ids) or [""] * len(drawn.tables)
    paired = tnpb.RoundPaired(round=number, byes=drawn.byes, standings_digest=digest)
    for index, (seats, game_id) in enumerate(zip(drawn.tables, names, strict=True), 1):
        paired.tables.add(table=index, game_id=game_id, seats=seats)
    return [event(paired)]


def _record(state: Tournament, command: tnpb.RecordGame) -> list[Event]:
    current = state.current
    if current is None or current.number != command.round or current.completed:
        raise RuleViolation("TN-RESULT", f"round {command.round} is not being played")
    paired = current.table(command.table)
    if paired is None:
        raise RuleViolation("TN-RESULT", f"round {command.round} has no table {command.table}")
    if command.table in current.results:
        raise RuleViolation("TN-RESULT", f"table {command.table}'s result is recorded already")
    if command.game_id != paired.game_id:
        raise RuleViolation(
            "TN-RESULT", f"table {command.table} plays {quote(paired.game_id)}, not this game"
        )
    size = len(paired.seats)
    if len(command.ranks) != size or any(not 1 <= r <= MAX_RANK for r in command.ranks):
        raise MalformedCommand(f"a result ranks each of the {size} seats from 1 to {MAX_RANK}")
    if 1 not in command.ranks:
        raise MalformedCommand("a result ranks some seat first")
    out = [
        event(
            tnpb.GameRecorded(
                round=command.round,
                table=command.table,
                game_id=command.game_id,
                ranks=command.ranks,
            )
        )
    ]
    if len(current.results) + 1 == len(current.tables):
        results = {**current.results, command.table: tuple(command.ranks)}
        done = [*state.rounds[:-1], replace(current, results=results)]
        table = standings.lines(state.field, state.withdrawn, done, state.bye_half_points)
        ranked = standings.ordered(table, lambda k: k)
        out.append(
            event(tnpb.RoundCompleted(round=command.round, standings=standings.to_messages(ranked)))
        )
    return out


def _finish(state: Tournament, command: tnpb.FinishTournament) -> list[Event]:
    if not state.seed_commitment:
        raise RuleViolation("TN-FINISH", "registration has not closed")
    current = state.current
    if current is not None and not current.completed:
        raise RuleViolation("TN-FINISH", f"round {current.number} is not complete")
    if len(state.rounds) < state.planned_rounds and len(state.playing) >= state.table_size:
        raise RuleViolation(
            "TN-FINISH", f"{len(state.rounds)} of {state.planned_rounds} rounds are played"
        )
    _check_seed(state, command.seed)
    return [event(final_standings(state, command.seed))]


def final_standings(state: Tournament, seed: bytes) -> tnpb.TournamentFinished:
    """TN-TIEBREAK: the tie-breaks, then the draw of round 0 (the final one)."""
    table = standings.lines(state.field, state.withdrawn, state.rounds, state.bye_half_points)
    key = pairing.round_key(seed, 0, standings.digest(table))
    ranked = standings.ordered(table, lambda k: pairing.draw(key, k))
    return tnpb.TournamentFinished(standings=standings.to_messages(ranked), seed=seed)
