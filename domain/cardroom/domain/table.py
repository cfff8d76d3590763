"""The table around every game: seats, start and finish, composed with the
game's own decider.

The table is itself a pure decider. It owns what all games share (taking a
seat, starting when every seat is taken, announcing the winners) and hands
every other command to the game, so the service only ever talks to a table.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from google.protobuf import any_pb2
from google.protobuf.message import DecodeError, Message

from cardroom.domain.frozen import Record
from cardroom.domain.kernel import (
    CLOCK,
    Actor,
    DealersPick,
    Event,
    Forbidden,
    Game,
    MalformedCommand,
    RuleViolation,
    Viewer,
    event,
    quote,
)
from cardroom.v1 import table_pb2 as tpb


@dataclass(frozen=True)
class Table(Record):
    game: Game[Any]
    options: Message
    seat_count: int
    set_deal: bool
    game_state: Any
    player_names: tuple[str | None, ...]
    # SHA-256 of each seat's token; None where the viewer may not see it.
    token_hashes: tuple[bytes | None, ...]
    started: bool = False
    finished: bool = False
    winners: tuple[int, ...] = ()
    # Seats that left the game (SeatResigned): the game's default choice
    # makes their decisions.
    resigned: frozenset[int] = frozenset()
    # The number of events folded (GameCreated is 1): what ClockExpired names.
    version: int = 1
    # Seconds per decision of the turn clock; 0: no clock (TableOptions).
    seconds_per_decision: int = 0
    # The seat whose clock just ran out while its default choice, a dealer's
    # pick, is still to be drawn (T-CLOCK, T-PICK); None otherwise.
    timed_out: int | None = None
    # The game length limit in events (T-LENGTH); 0: none.
    max_events: int = 0
    # Timeouts in a row that make a seat leave (T-TIMEOUTS); 0: never.
    resign_after_timeouts: int = 0
    # Seconds with every seat absent and nothing recorded before the game
    # ends (T-ABSENT); 0: never.
    end_when_absent_seconds: int = 0
    # Each seat's clock expiries since its last decision of its own.
    timeouts_in_a_row: tuple[int, ...] = ()
    # Each seat's player key (SeatTaken.player, T-PLAYER); b"" for an anonymous
    # seat; () until a seat is taken.
    player_keys: tuple[bytes, ...] = ()
    # Seats an invitation holds (InvitationIssued), taken or not, and the
    # SHA-256 of each one's latest code; None where the viewer may not see it.
    invited: frozenset[int] = frozenset()
    invitation_hashes: tuple[bytes | None, ...] = ()
    # Invitations issued so far (T-INVITE bounds them before the start).
    invitations: int = 0
    # The strategy of the server's bot in each seat ("" for none; AddBot).
    bot_strategies: tuple[str, ...] = ()
    # T-ENTROPY: each seat's public commitment to its entropy (b"" for none:
    # games from before seats added entropy), the seats whose entropy the
    # server drew, each seat's entropy where this fold holds it (a server
    # seat's from its SeatEntropy secret, any seat's once revealed; None
    # otherwise), and the seats whose entropy is revealed.
    entropy_commitments: tuple[bytes, ...] = ()
    entropy_by_server: frozenset[int] = frozenset()
    entropies: tuple[bytes | None, ...] = ()
    entropy_revealed: frozenset[int] = frozenset()

    @property
    def kind(self) -> str:
        return self.game.kind

    def seat_of_token_hash(self, digest: bytes) -> int | None:
        found = None
        for seat, h in enumerate(self.token_hashes):  # compare every seat, in constant time
            if h is not None and hmac.compare_digest(h, digest):
                found = seat
        return found

    @property
    def seats_taken(self) -> int:
        return sum(name is not None for name in self.player_names)

    @property
    def held(self) -> frozenset[int]:
        """Free seats an invitation holds (T-INVITE)."""
        return frozenset(s for s in self.invited if self.player_names[s] is None)

    def bot_strategy(self, seat: int) -> str:
        return self.bot_strategies[seat] if seat < len(self.bot_strategies) else ""

    @property
    def entropy_due(self) -> frozenset[int]:
        """Seats the table awaits a RevealEntropy from (T-ENTROPY): once the
        game has started, every seat still playing that committed to its own
        entropy and has not revealed it. Until none is left, no chance
        outcome is drawn."""
        if not self.started or self.finished:
            return frozenset()
        return frozenset(
            s
            for s, c in enumerate(self.entropy_commitments)
            if c
            and s not in self.entropy_by_server
            and s not in self.entropy_revealed
            and s not in self.resigned
        )

    def revealed_entropies(self) -> list[tuple[int, bytes]]:
        """(seat, entropy) of every revealed seat, in seat order: what the
        chance key is derived from (docs/trust.md, "Chance outcomes").
        Complete on the full fold only (a server seat's entropy is a secret
        of its SeatTaken); raises if this fold lacks one."""
        out = []
        for seat in sorted(self.entropy_revealed):
            entropy = self.entropies[seat]
            if entropy is None:
                raise ValueError(f"this fold does not hold seat {seat}'s entropy")
            out.append((seat, entropy))
        return out

    def seat_of_invitation(self, digest: bytes) -> int | None:
        found = None
        for seat, h in enumerate(self.invitation_hashes):  # every seat, in constant time
            if h is not None and hmac.compare_digest(h, digest):
                found = seat
        return found


# The only type URL prefix accepted in an Any (docs/design.md): protobuf's
# default, which every message the server writes carries.
TYPE_URL_PREFIX = "type.googleapis.com/"


def pack(message: Message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


def type_name(type_url: str) -> str | None:
    """The full message name a type URL names, or None unless it is
    ``type.googleapis.com/<name>``: another host (``example.com/...``) or
    scheme would be accepted by protobuf's ``Unpack`` but stored as sent."""
    if not type_url.startswith(TYPE_URL_PREFIX):
        return None
    name = type_url[len(TYPE_URL_PREFIX) :]
    return name if name and "/" not in name else None


def unpack_options(game: Game[Any], options: any_pb2.Any | None) -> Message:
    """The game's options message from an Any, exactly (defaults when
    unset); fields the schema does not know are dropped."""
    message = game.options_type()
    if options is None or (not options.type_url and not options.value):
        return message
    name = message.DESCRIPTOR.full_name
    if type_name(options.type_url) != name:
        raise MalformedCommand(
            f"options must be {name} (type_url '{TYPE_URL_PREFIX}{name}'), "
            f"not {quote(options.type_url)}"
        )
    try:
        unpacked = options.Unpack(message)
    except DecodeError:
        raise MalformedCommand(f"options: could not decode {name}: malformed bytes") from None
    if not unpacked:  # pragma: no cover - the type URL was checked above
        raise MalformedCommand(f"options: could not unpack {name}")
    message.DiscardUnknownFields()
    return message


def seat_variant(game: Game[Any], seat_count: int) -> Message | None:
    """The options of the variant the game needs to seat ``seat_count``
    (its optional ``seat_variants``), or None: it plays them as it is."""
    variants: Mapping[int, Message] = getattr(game, "seat_variants", {})
    return variants.get(seat_count)


def options_for_seats(game: Game[Any], options: any_pb2.Any | None, seat_count: int) -> Message:
    """T-VARIANT: the game's options as the creator gave them; when they
    gave none, the variant this seat count needs where the game has one (its
    ``seat_variants``: Smiles & Daggers at 2 seats, SD-12; Smile Life at 6,
    DECISIONS 3.1). A creator who asks for that many seats asks for the
    variant that plays them; options given are kept as given."""
    if options is None or (not options.type_url and not options.value):
        variant = seat_variant(game, seat_count)
        if variant is not None:
            chosen = game.options_type()
            chosen.CopyFrom(variant)
            return chosen
    return unpack_options(game, options)


ENTROPY_BYTES = 32
ENTROPY_DOMAIN = b"cardroom.v1.seat-entropy\x00"


def entropy_commitment(entropy: bytes) -> bytes:
    """A seat's public commitment to its 32 bytes of entropy (T-ENTROPY):
    SHA-256("cardroom.v1.seat-entropy" || 0x00 || entropy). The entropy is
    32 uniformly random bytes, so the commitment hides it without a salt."""
    if len(entropy) != ENTROPY_BYTES:
        raise MalformedCommand(f"entropy must be {ENTROPY_BYTES} bytes")
    return hashlib.sha256(ENTROPY_DOMAIN + entropy).digest()


MAX_SEATS = 64  # no game seats more; checked before a game allocates per seat
# Invitations a game may issue before its start, per seat (T-INVITE): room to
# replace a lost code a few times, and a bound on an unstarted game's events.
MAX_INVITATIONS_PER_SEAT = 8


MAX_SECONDS_PER_DECISION = 7 * 24 * 3600
# The shortest game length limit a game may be created with: room for the
# seats, the start and the first deals of every game.
MIN_MAX_EVENTS = 100


def checked_table_options(
    options: tpb.TableOptions | None,
    *,
    max_events: int = 0,
    resign_after_timeouts: int = 0,
    end_when_absent_seconds: int = 0,
) -> tpb.TableOptions:
    """The table options as recorded: known fields only, within bounds, with
    the server's limits where the request leaves a field 0: ``max_events``
    (T-LENGTH; 0: none; a request may lower it, never raise it),
    ``resign_after_timeouts`` (T-TIMEOUTS, with a clock; 0: never) and
    ``end_when_absent_seconds`` (T-ABSENT; 0: never)."""
    options = options or tpb.TableOptions()
    for name in ("seconds_per_decision", "end_when_absent_seconds"):
        if getattr(options, name) > MAX_SECONDS_PER_DECISION:
            raise MalformedCommand(f"{name} must be at most {MAX_SECONDS_PER_DECISION} (a week)")
    if max_events and options.max_events > max_events:
        raise MalformedCommand(f"max_events must be at most {max_events}, the server's limit")
    if options.max_events and options.max_events < MIN_MAX_EVENTS:
        raise MalformedCommand(f"max_events must be 0 (the server's limit) or {MIN_MAX_EVENTS}+")
    recorded = tpb.TableOptions(
        seconds_per_decision=options.seconds_per_decision,
        max_events=options.max_events or max_events,
        end_when_absent_seconds=options.end_when_absent_seconds or end_when_absent_seconds,
    )
    if options.seconds_per_decision:
        recorded.resign_after_timeouts = options.resign_after_timeouts or resign_after_timeouts
    return recorded


def create(game: Game[Any], options: Message, seat_count: int, *, set_deal: bool) -> Event:
    """The first event of a game, after checking the game accepts the options
    and the seat count (the game's own rule names the range it plays)."""
    if not 0 < seat_count <= MAX_SEATS:
        raise RuleViolation(
            "T-SEATS",
            f"{game.title} is played by {game.min_seats} to {game.max_seats} players, "
            f"not {seat_count}",
        )
    game.initial_state(options, seat_count)
    if not game.min_seats <= seat_count <= game.max_seats:
        raise RuleViolation(
            "T-SEATS",
            f"{game.title} is played by {game.min_seats} to {game.max_seats} players, "
            f"not {seat_count}",
        )
    return event(
        tpb.GameCreated(
            kind=game.kind,
            options=pack(options),
            seat_count=seat_count,
            set_deal=set_deal,
            rules_version=game.rules_version,
        )
    )


def decide(table: Table, actor: Actor, command: Message) -> list[Event]:
    return [e for e, _ in decide_steps(table, actor, command)]


Step = tuple[Event, Table]


def decide_steps(table: Table, actor: Actor, command: Message) -> list[Step]:
    """:func:`decide`'s events, each with the table it leads to: deciding
    folds them already (to find the default choices and the end that
    follow), so a writer takes these tables rather than folding again."""
    if table.finished and not table.started:  # T-ABSENT ended it: no seat, start or invitation
        raise RuleViolation("T-PLAY", "the game is over: nobody started it")
    if isinstance(command, tpb.TakeSeat):
        return _folded(table, _within_length(table, _take_seat(table, command)))
    if isinstance(command, tpb.StartGame):
        return _folded(table, _within_length(table, _start(table, actor)))
    if isinstance(command, tpb.IssueInvitation):
        return _folded(table, _within_length(table, _invite(table, actor, command)))
    if isinstance(command, tpb.NeverStarted):
        return _folded(table, _never_started(table, actor, command))
    if table.finished:
        raise RuleViolation("T-PLAY", "the game is over")
    if not table.started:
        raise RuleViolation("T-PLAY", "the game has not started")
    if isinstance(command, tpb.DealerPick):
        events = _dealer_pick(table, actor, command)
    elif isinstance(command, tpb.RevealEntropy):
        events = _reveal_entropy(table, actor, command)
    elif isinstance(command, tpb.Resign):
        events = _resign(table, actor)
    elif isinstance(command, tpb.RemoveSeat):
        events = _remove(table, actor, command)
    elif isinstance(command, tpb.ClockExpired):
        events = _expire(table, actor, command)
    elif isinstance(command, tpb.SeatsAbsent):
        events = _all_absent(table, actor, command)
    else:
        _check_sender(table, actor, command)
        if actor.seat is not None and actor.seat in table.resigned:
            raise RuleViolation("T-RESIGN", f"seat {actor.seat} has left the game")
        if table.entropy_due:
            seats = ", ".join(str(s) for s in sorted(table.entropy_due))
            raise RuleViolation("T-ENTROPY", f"play waits for the entropy of seat(s) {seats}")
        events = table.game.decide(table.game_state, actor, command)
    if actor.kind == "seat" and events:  # the seat decided itself (T-TIMEOUTS)
        events = [replace(events[0], by_seat=actor.seat), *events[1:]]
    return _carry_on(table, events)


# A rules bug that has default choices answer each other forever fails the
# command instead of hanging the server.
MAX_DEFAULT_CHOICES = 10_000


def _folded(table: Table, events: list[Event]) -> list[Step]:
    steps = []
    for e in events:
        table = evolve(table, e)
        steps.append((e, table))
    return steps


def _carry_on(table: Table, events: list[Event]) -> list[Step]:
    """After a command's events: the default choices of the resigned seats
    the game then awaits (until it awaits an active seat or a chance
    outcome), and the end of the game when its rules or T-RESIGN end it."""
    steps = _folded(table, events)
    after = steps[-1][1] if steps else table
    for _ in range(MAX_DEFAULT_CHOICES):
        game_winners = after.game.winners(after.game_state)
        if game_winners is not None:
            end = event(tpb.GameFinished(winners=_winners(after, game_winners)))
            return [*steps, *_folded(after, [end])]
        active = [s for s in range(after.seat_count) if s not in after.resigned]
        if len(active) < 2:
            return [*steps, *_folded(after, [event(tpb.GameFinished(winners=active))])]
        if after.max_events and after.version + 1 >= after.max_events:
            return [*steps, *_folded(after, [_length_limit_reached(after)])]
        if chance_needed(after) is not None:
            return steps  # the dealer draws next (a dealer's pick included)
        departed = _departed_awaited(after)
        if departed is None:
            return steps
        seat, choice = departed
        assert not isinstance(choice, DealersPick)  # chance_needed names those
        chosen = _folded(after, after.game.decide(after.game_state, Actor.of_seat(seat), choice))
        steps.extend(chosen)
        if chosen:
            after = chosen[-1][1]
    raise RuntimeError(f"default choices did not stop after {MAX_DEFAULT_CHOICES}")


def _within_length(table: Table, events: list[Event]) -> list[Event]:
    """T-LENGTH before the start, where the table cannot end the game: a
    table command is refused when its events, with one per free seat and
    the start still to come, would pass the game's limit. So an unstarted
    game never outgrows its limit, and its seats can still be taken."""
    if not table.max_events:
        return events
    free = sum(name is None for name in table.player_names)
    taken = sum(isinstance(e.public, tpb.SeatTaken) for e in events)
    starts = any(isinstance(e.public, tpb.GameStarted) for e in events)
    to_come = free - taken + (0 if starts else 1)
    if table.version + len(events) + to_come > table.max_events:
        raise RuleViolation(
            "T-LENGTH",
            f"the game holds {table.version} events; with {len(events)} more it would leave no "
            f"room within its limit of {table.max_events} for its free seats and its start",
        )
    return events


def _length_limit_reached(table: Table) -> Event:
    """T-LENGTH: the game ends; the winners are the best-placed seats still
    playing under the game's own ranking (G-03), where the game ranks a
    game in progress (``leaders``), else every seat still playing."""
    leaders = getattr(table.game, "leaders", None)
    ranked = leaders(table.game_state) if leaders is not None else range(table.seat_count)
    return event(
        tpb.GameFinished(
            winners=_winners(table, ranked), reason=tpb.GameFinished.REASON_LENGTH_LIMIT
        )
    )


def _departed_awaited(table: Table) -> tuple[int, Message | DealersPick] | None:
    """The first departed seat the game awaits (lowest seat number), with
    its default choice; None when the game awaits none."""
    for seat in sorted(table.resigned):
        if table.game.legal_actions(table.game_state, seat):
            return seat, default_action(table, seat)
    return None


def _pick_due(table: Table) -> tuple[int, DealersPick] | None:
    """The dealer's pick the table waits for (T-PICK): the timed-out seat's
    default choice, else a departed seat's, when it is a DealersPick."""
    if table.timed_out is not None:
        found: tuple[int, Message | DealersPick] | None = (
            table.timed_out,
            default_action(table, table.timed_out),
        )
    else:
        found = _departed_awaited(table)
    if found is None or not isinstance(found[1], DealersPick):
        return None
    return found[0], found[1]


def _winners(table: Table, game_winners: Sequence[int]) -> list[int]:
    """The game's winners without the seats that left it (T-RESIGN), unless
    every seat left."""
    if len(table.resigned) == table.seat_count:
        return sorted(game_winners)
    return sorted(w for w in game_winners if w not in table.resigned)


def default_action(table: Table, seat: int) -> Message | DealersPick:
    """The game's default choice for ``seat`` now (DECISIONS G-02): as a
    departed seat's if it left the game, else as a timed-out seat's. It
    reads only what the seat may see (the contract of ``legal_actions``).
    A dealer's pick with one option is that option: nothing to draw."""
    choice = table.game.default_action(table.game_state, seat, departed=seat in table.resigned)
    if isinstance(choice, DealersPick) and len(choice.options) == 1:
        return choice.options[0]
    return choice


def _dealer_pick(table: Table, actor: Actor, command: tpb.DealerPick) -> list[Event]:
    """T-PICK: the dealer's draw among the options of the default choice
    the table waits for, played as that seat's command."""
    if actor.kind != "dealer":
        raise Forbidden("only the dealer may send cardroom.v1.DealerPick")
    if table.game.chance_needed(table.game_state) is not None:
        raise RuleViolation("T-CHANCE", "the game waits for its own chance outcome")
    due = _pick_due(table)
    if due is None:
        raise RuleViolation("T-CHANCE", "no dealer's pick is due now")
    seat, pick = due
    if command.index >= len(pick.options):
        raise RuleViolation(
            "T-PICK", f"the pick is among {len(pick.options)} options, not index {command.index}"
        )
    return table.game.decide(table.game_state, Actor.of_seat(seat), pick.options[command.index])


def awaited(table: Table) -> list[int]:
    """The seats the game waits for now (each has legal actions, or owes its
    entropy, T-ENTROPY); none while a chance outcome is due or outside
    play. Call on the full fold."""
    if not table.started or table.finished or chance_needed(table) is not None:
        return []
    if table.entropy_due:
        return sorted(table.entropy_due)
    return [
        s
        for s in range(table.seat_count)
        if s not in table.resigned and table.game.legal_actions(table.game_state, s)
    ]


def _resign(table: Table, actor: Actor) -> list[Event]:
    if actor.kind != "seat" or actor.seat is None:
        raise Forbidden("only a seated player may resign (the operator removes a seat)")
    if actor.seat in table.resigned:
        raise RuleViolation("T-RESIGN", f"seat {actor.seat} has already left the game")
    reason = tpb.SeatResigned.REASON_RESIGNED
    return [event(tpb.SeatResigned(seat=actor.seat, reason=reason))]


def _remove(table: Table, actor: Actor, command: tpb.RemoveSeat) -> list[Event]:
    if actor.kind != "operator":
        raise Forbidden("only the operator may remove a seat")
    if command.seat >= table.seat_count:
        raise MalformedCommand(f"seat must be below {table.seat_count}")
    if command.seat in table.resigned:
        raise RuleViolation("T-REMOVE", f"seat {command.seat} has already left the game")
    reason = tpb.SeatResigned.REASON_REMOVED
    if command.absent:
        reason = tpb.SeatResigned.REASON_ABSENT
    return [event(tpb.SeatResigned(seat=command.seat, reason=reason))]


def _expire(table: Table, actor: Actor, command: tpb.ClockExpired) -> list[Event]:
    """The clock's deadline for an awaited seat passed (the service checked
    the time against the recording times of the events; the audit checks it
    again): the seat's default choice for the decision."""
    if actor != CLOCK:
        raise Forbidden("only the table's clock may send ClockExpired")
    if not table.seconds_per_decision:
        raise RuleViolation("T-CLOCK", "this game has no turn clock")
    if command.version != table.version:
        raise RuleViolation(
            "T-CLOCK",
            f"the clock expired at version {command.version}; the game is at {table.version}",
        )
    if command.seat not in awaited(table):
        raise RuleViolation("T-CLOCK", f"the game does not wait for seat {command.seat}")
    timed_out = event(tpb.SeatTimedOut(seat=command.seat))
    if command.seat in table.entropy_due:
        # T-ENTROPY: nobody may choose a seat's entropy for it, so a seat
        # that lets its reveal time out leaves the game (T-RESIGN) and its
        # entropy takes no part in the deal.
        reason = tpb.SeatResigned.REASON_TIMED_OUT
        return [timed_out, event(tpb.SeatResigned(seat=command.seat, reason=reason))]
    in_a_row = table.timeouts_in_a_row[command.seat] + 1 if table.timeouts_in_a_row else 1
    if table.resign_after_timeouts and in_a_row >= table.resign_after_timeouts:
        # T-TIMEOUTS: the seat leaves; its departed default plays on.
        reason = tpb.SeatResigned.REASON_TIMED_OUT
        return [timed_out, event(tpb.SeatResigned(seat=command.seat, reason=reason))]
    choice = default_action(table, command.seat)
    if isinstance(choice, DealersPick):
        return [timed_out]  # the dealer draws it next (T-PICK)
    chosen = table.game.decide(table.game_state, Actor.of_seat(command.seat), choice)
    return [timed_out, *chosen]


def _all_absent(table: Table, actor: Actor, command: tpb.SeatsAbsent) -> list[Event]:
    """T-ABSENT: every seat still playing was absent and nothing was recorded
    for the game's seconds (the service checks the time when it writes,
    ``cardroom audit`` again; absence itself is the server's fact, like the
    operator's judgment in T-REMOVE): each of them leaves, and the game ends
    (T-RESIGN)."""
    if actor != CLOCK:
        raise Forbidden("only the table's clock may send SeatsAbsent")
    if not table.end_when_absent_seconds:
        raise RuleViolation("T-ABSENT", "this game does not end when its seats are absent")
    if command.version != table.version:
        raise RuleViolation(
            "T-ABSENT",
            f"the seats were absent at version {command.version}; the game is at {table.version}",
        )
    reason = tpb.SeatResigned.REASON_ABSENT
    return [
        event(tpb.SeatResigned(seat=seat, reason=reason))
        for seat in range(table.seat_count)
        if seat not in table.resigned
    ]


def _never_started(table: Table, actor: Actor, command: tpb.NeverStarted) -> list[Event]:
    """T-ABSENT for an open game: nobody started it and nothing was
    recorded for the game's seconds (the service checks the time when it
    writes, ``cardroom audit`` again): it ends without winners. The seats
    taken never played, so none resigns; the game is not rated (T-RATING)."""
    if actor != CLOCK:
        raise Forbidden("only the table's clock may send NeverStarted")
    if table.started:
        raise RuleViolation("T-ABSENT", "the game has started (its seats' absence ends it)")
    if not table.end_when_absent_seconds:
        raise RuleViolation("T-ABSENT", "this game does not end when nobody starts it")
    if command.version != table.version:
        raise RuleViolation(
            "T-ABSENT",
            f"nobody had started the game at version {command.version}; it is at {table.version}",
        )
    return [event(tpb.GameFinished(reason=tpb.GameFinished.REASON_NEVER_STARTED))]


def _reveal_entropy(table: Table, actor: Actor, command: tpb.RevealEntropy) -> list[Event]:
    """T-ENTROPY: a seat opens the entropy it committed to when it took its
    seat, after the start and before the first chance outcome."""
    if actor.kind != "seat" or actor.seat is None:
        raise Forbidden("only a seated player may reveal its entropy")
    seat = actor.seat
    if seat not in table.entropy_due:
        if seat in table.entropy_by_server:
            raise RuleViolation("T-ENTROPY", f"seat {seat} owes no entropy: the server drew it")
        if seat in table.entropy_revealed:
            raise RuleViolation("T-ENTROPY", f"seat {seat} has already revealed its entropy")
        raise RuleViolation("T-ENTROPY", f"seat {seat} owes no entropy now")
    if entropy_commitment(command.entropy) != table.entropy_commitments[seat]:
        raise RuleViolation(
            "T-ENTROPY", f"the entropy does not match seat {seat}'s commitment (SeatTaken)"
        )
    return [event(tpb.SeatEntropyRevealed(seat=seat, entropy=command.entropy))]


def _check_sender(table: Table, actor: Actor, command: Message) -> None:
    """Seats send the game's commands; only the dealer sends chance outcomes."""
    name = command.DESCRIPTOR.full_name
    if isinstance(command, table.game.chance_types):
        if actor.kind != "dealer":
            raise Forbidden(f"only the dealer may send {name}")
    elif isinstance(command, table.game.command_types):
        if actor.kind != "seat":
            raise Forbidden(f"only a seated player may send {name}")
    elif command.DESCRIPTOR.GetOptions().deprecated:
        raise MalformedCommand(
            f"{name} is no longer accepted by {table.game.rules_version} (its .proto comment "
            "names what replaces it)"
        )
    else:
        raise MalformedCommand(f"{name} is not a {table.kind} command")


def _take_seat(table: Table, command: tpb.TakeSeat) -> list[Event]:
    if table.started:
        raise RuleViolation("T-JOIN", "the game has already started")
    if not command.player_name.strip():
        raise MalformedCommand("player_name must not be empty")
    if len(command.token_sha256) != 32:
        raise MalformedCommand("token_sha256 must be 32 bytes")
    free = [s for s, name in enumerate(table.player_names) if name is None]
    held = table.held
    if command.invitation_sha256:
        seat = _invited_seat(table, command)
    elif command.HasField("seat"):
        if command.seat >= table.seat_count:
            raise MalformedCommand(f"seat must be below {table.seat_count}")
        if command.seat not in free:
            raise RuleViolation("T-JOIN", f"seat {command.seat} is taken")
        if command.seat in held:
            raise RuleViolation("T-INVITE", f"seat {command.seat} is held for an invitation")
        seat = command.seat
    elif [s for s in free if s not in held]:
        seat = next(s for s in free if s not in held)
    elif free:
        raise RuleViolation("T-INVITE", "every free seat is held for an invitation")
    else:
        raise RuleViolation("T-JOIN", "every seat is taken")
    taken = tpb.SeatTaken(
        seat=seat, player_name=command.player_name, bot_strategy=command.bot_strategy
    )
    if command.HasField("player"):
        # The service checked the signature; the table checks that it covers this seat.
        if not command.HasField("seat"):
            raise MalformedCommand("a player proof needs the seat it signs for")
        taken.player.CopyFrom(command.player)
    hidden: list[tuple[Iterable[int], Message]] = [
        ((), tpb.SeatCredential(token_sha256=command.token_sha256))
    ]
    if command.server_entropy:
        if command.entropy_commitment:
            raise MalformedCommand("a seat's entropy is the client's or the server's, not both")
        taken.entropy_commitment = entropy_commitment(command.server_entropy)
        taken.entropy_by_server = True
        hidden.append(((seat,), tpb.SeatEntropy(seat=seat, entropy=command.server_entropy)))
    elif command.entropy_commitment:
        if len(command.entropy_commitment) != 32:
            raise MalformedCommand("entropy_commitment must be 32 bytes (SHA-256)")
        if command.entropy_commitment in table.entropy_commitments:
            # A copy of another seat's public commitment could only ever be
            # opened by replaying that seat's reveal: no entropy of its own.
            raise RuleViolation(
                "T-ENTROPY", "this commitment is another seat's (SeatTaken): commit to your own"
            )
        taken.entropy_commitment = command.entropy_commitment
    return [event(taken, *hidden)]


def _invited_seat(table: Table, command: tpb.TakeSeat) -> int:
    """The seat the invitation whose code hashes to ``invitation_sha256``
    holds, if it is still free (T-INVITE: one invitation seats one player,
    once)."""
    seat = table.seat_of_invitation(command.invitation_sha256)
    if seat is None:
        raise RuleViolation("T-INVITE", "no invitation of this game has this code")
    if command.HasField("seat") and command.seat != seat:
        raise MalformedCommand(f"this invitation holds seat {seat}, not {command.seat}")
    if table.player_names[seat] is not None:
        raise RuleViolation("T-INVITE", f"this invitation was used: seat {seat} is taken")
    return seat


def _invite(table: Table, actor: Actor, command: tpb.IssueInvitation) -> list[Event]:
    """T-INVITE: a seat (or the operator) holds a free seat for whoever
    presents the code; a new invitation for a held seat replaces the old."""
    if actor.kind not in ("seat", "operator"):
        raise Forbidden("only a seated player or the operator may invite")
    if table.started:
        raise RuleViolation("T-INVITE", "the game has already started")
    if len(command.code_sha256) != 32:
        raise MalformedCommand("code_sha256 must be 32 bytes")
    free = [s for s, name in enumerate(table.player_names) if name is None]
    if command.HasField("seat"):
        if command.seat >= table.seat_count:
            raise MalformedCommand(f"seat must be below {table.seat_count}")
        if command.seat not in free:
            raise RuleViolation("T-INVITE", f"seat {command.seat} is taken")
        seat = command.seat
    else:
        if not free:
            raise RuleViolation("T-INVITE", "every seat is taken")
        unheld = [s for s in free if s not in table.held]
        if not unheld:
            raise RuleViolation("T-INVITE", "every free seat is already held for an invitation")
        seat = unheld[0]
    if table.invitations >= MAX_INVITATIONS_PER_SEAT * table.seat_count:
        raise RuleViolation(
            "T-INVITE",
            f"the game has had its {table.invitations} invitations before the start "
            f"({MAX_INVITATIONS_PER_SEAT} per seat)",
        )
    by = actor.seat if actor.seat is not None else 0
    return [
        event(
            tpb.InvitationIssued(seat=seat, by_seat=by),
            ((), tpb.InvitationCredential(code_sha256=command.code_sha256)),
        )
    ]


def _start(table: Table, actor: Actor) -> list[Event]:
    if actor.kind not in ("seat", "operator"):
        raise RuleViolation("T-START", "only a seated player or the operator may start")
    if table.started:
        raise RuleViolation("T-START", "the game has already started")
    if table.seats_taken < table.seat_count:
        raise RuleViolation(
            "T-START",
            f"{table.seat_count - table.seats_taken} seat(s) are still free",
        )
    return [event(tpb.GameStarted())]


def initial(game: Game[Any], created: tpb.GameCreated) -> Table:
    options = unpack_options(game, created.options)
    return Table(
        seconds_per_decision=created.table_options.seconds_per_decision,
        max_events=created.table_options.max_events,
        resign_after_timeouts=created.table_options.resign_after_timeouts,
        end_when_absent_seconds=created.table_options.end_when_absent_seconds,
        timeouts_in_a_row=(0,) * created.seat_count,
        game=game,
        options=options,
        seat_count=created.seat_count,
        set_deal=created.set_deal,
        game_state=game.initial_state(options, created.seat_count),
        player_names=(None,) * created.seat_count,
        token_hashes=(None,) * created.seat_count,
        invitation_hashes=(None,) * created.seat_count,
        bot_strategies=("",) * created.seat_count,
    )


def evolve(table: Table, e: Event) -> Table:
    public = e.public
    table = table.replace(version=table.version + 1)
    if e.by_seat is not None and table.timeouts_in_a_row:
        streaks = list(table.timeouts_in_a_row)
        if 0 <= e.by_seat < len(streaks) and streaks[e.by_seat]:
            streaks[e.by_seat] = 0
            table = table.replace(timeouts_in_a_row=tuple(streaks))
    if isinstance(public, tpb.SeatTaken):
        credential = e.secret(tpb.SeatCredential)
        names = list(table.player_names)
        hashes = list(table.token_hashes)
        names[public.seat] = public.player_name
        hashes[public.seat] = credential.token_sha256 if credential else None
        bots = list(table.bot_strategies or ("",) * table.seat_count)
        bots[public.seat] = public.bot_strategy
        keys = list(table.player_keys or (b"",) * table.seat_count)
        keys[public.seat] = bytes(public.player.public_key)  # T-PLAYER; b"": anonymous
        table = table.replace(
            player_names=tuple(names),
            token_hashes=tuple(hashes),
            bot_strategies=tuple(bots),
            player_keys=tuple(keys),
        )
        if not public.entropy_commitment:
            return table
        commitments = list(table.entropy_commitments or (b"",) * table.seat_count)
        commitments[public.seat] = public.entropy_commitment
        table = table.replace(entropy_commitments=tuple(commitments))
        if public.entropy_by_server:
            drawn = e.secret(tpb.SeatEntropy)
            table = _with_entropy(table, public.seat, drawn.entropy if drawn else None)
            table = table.replace(entropy_by_server=table.entropy_by_server | {public.seat})
        return table
    if isinstance(public, tpb.SeatEntropyRevealed):
        table = _with_entropy(table, public.seat, public.entropy)
        return table.replace(entropy_revealed=table.entropy_revealed | {public.seat})
    if isinstance(public, tpb.InvitationIssued):
        code = e.secret(tpb.InvitationCredential)
        codes = list(table.invitation_hashes or (None,) * table.seat_count)
        codes[public.seat] = code.code_sha256 if code else None
        return table.replace(
            invited=table.invited | {public.seat},
            invitation_hashes=tuple(codes),
            invitations=table.invitations + 1,
        )
    if isinstance(public, tpb.GameStarted):
        # The server opens the entropy it drew for seats (T-ENTROPY).
        return table.replace(
            started=True, entropy_revealed=table.entropy_revealed | table.entropy_by_server
        )
    if isinstance(public, tpb.GameFinished):
        return table.replace(finished=True, winners=tuple(public.winners))
    if isinstance(public, tpb.SeatResigned):
        # The game learns it too: its rules make the seat inert (G-02(d)).
        return table.replace(
            resigned=table.resigned | {public.seat},
            game_state=table.game.evolve(table.game_state, e),
        )
    if isinstance(public, tpb.SeatTimedOut):
        streaks = list(table.timeouts_in_a_row)
        if public.seat < len(streaks):
            streaks[public.seat] += 1
        return table.replace(timed_out=public.seat, timeouts_in_a_row=tuple(streaks))
    return table.replace(game_state=table.game.evolve(table.game_state, e), timed_out=None)


def _with_entropy(table: Table, seat: int, entropy: bytes | None) -> Table:
    entropies = list(table.entropies or (None,) * table.seat_count)
    entropies[seat] = entropy
    return table.replace(entropies=tuple(entropies))


def chance_needed(table: Table) -> type[Message] | None:
    """The chance outcome the table waits for: the game's own, else a
    dealer's pick of a default choice (T-PICK); none while a seat owes its
    entropy (T-ENTROPY). Call on the full fold."""
    if not table.started or table.finished or table.entropy_due:
        return None
    needed = table.game.chance_needed(table.game_state)
    if needed is None and _pick_due(table) is not None:
        return tpb.DealerPick
    return needed


def sample_chance(table: Table, rng: random.Random) -> Message:
    """A random outcome of the chance the table waits for: the game's
    ``sample_chance``, or the dealer's uniform pick (T-PICK). Only the
    service calls this, with the committed seed's generator."""
    if table.game.chance_needed(table.game_state) is None:
        due = _pick_due(table)
        if due is not None:
            return tpb.DealerPick(index=rng.randrange(len(due[1].options)))
    return table.game.sample_chance(table.game_state, rng)


def legal_actions(table: Table, seat: int) -> list[Message]:
    """The commands ``seat`` may send now: the game's, or while the table
    awaits its entropy (T-ENTROPY) ``RevealEntropy`` with ``entropy`` left
    empty (only the seat's client holds it, and must fill it in). Resign,
    which a seat may send at any time, is not listed here; the service
    adds it wherever this lists anything."""
    if not table.started or table.finished or seat in table.resigned:
        return []
    if table.entropy_due:
        return [tpb.RevealEntropy()] if seat in table.entropy_due else []
    return table.game.legal_actions(table.game_state, seat)


def view(table: Table, viewer: Viewer) -> Message:
    return table.game.view(table.game_state, viewer)


def replay(game: Game[Any], events: Sequence[Event]) -> Table:
    """Fold a game's events (full or redacted), starting with GameCreated."""
    first = events[0].public
    if not isinstance(first, tpb.GameCreated):
        raise ValueError("a game's stream starts with GameCreated")
    table = initial(game, first)
    for e in events[1:]:
        table = evolve(table, e)
    return table
