"""Reading: each viewer's copies of the events, its view (now or at any
version), its legal actions, a replay step by step, and the full log and
signed record of a finished game. Every read is computed from what the
viewer's own redacted copies hold (docs/trust.md), folded from the nearest
checkpoint."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator

from google.protobuf.message import Message

from cardroom.domain import table as tables
from cardroom.domain.kernel import AUDITOR, Event, MalformedCommand, RuleViolation, Viewer
from cardroom.server.games.identity import Identity, horizon, token_hash
from cardroom.server.games.narration import Narrations, action_words, view_words
from cardroom.server.games.warming import Warmer
from cardroom.server.limits import MAX_RESPONSE_BYTES, TooBusy
from cardroom.server.storage.cache import GameCache, LoadedGame, unfoldable
from cardroom.server.table.deadlines import alarm_of
from cardroom.trust import chain, chance, commitments, keyring, record, signing
from cardroom.trust.envelopes import to_event
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb
from cardroom.v1 import trust_pb2 as trpb

VIEWER_KINDS = {
    "seat": gpb.VIEWER_KIND_SEAT,
    "spectator": gpb.VIEWER_KIND_SPECTATOR,
    "auditor": gpb.VIEWER_KIND_AUDITOR,
}


def serve(
    loaded: LoadedGame, index: int, viewer: Viewer, envelope: epb.EventEnvelope | None = None
) -> epb.EventEnvelope:
    """The viewer's copy of the stored event at ``index``, with its event
    hash. While the game runs, even auditors get only the seed's digest: the
    seed would tell every future deal. ``envelope``: the event as stored,
    when the caller holds it (a writer its batch), read only."""
    if envelope is None:
        envelope = loaded.envelope(index)
    copy = commitments.redact(envelope, viewer)
    if _seed_withheld(loaded, index, viewer):
        copy = _withhold_seed(copy)
    return chain.served(copy, loaded.stored[index])


def _seed_withheld(loaded: LoadedGame, index: int, viewer: Viewer) -> bool:
    """Whether the viewer's copy of event ``index`` lacks the chance seed:
    the first event's, for an auditor, until the game is finished."""
    return viewer.kind == "auditor" and index == 0 and not loaded.finished


# One response of GetAuditLog or ExportGameRecord: the server's send limit,
# less room for the message's own framing.
RESPONSE_BUDGET = MAX_RESPONSE_BYTES - 64 * 1024
# A page of GetAuditLog holds at most this many bytes of events (and at least
# one event), whatever its page_size, so that every page fits in a response.
PAGE_BYTES = 4 * 1024 * 1024
MAX_AUDIT_PAGE_SIZE = 10_000
AUDIT_TOKEN_PREFIX = "log:"
# The size of each StreamGameRecord message's chunk of the record (at most:
# never more than a response may carry).
RECORD_CHUNK_BYTES = 1024 * 1024


def record_chunk_bytes() -> int:
    return min(RECORD_CHUNK_BYTES, RESPONSE_BUDGET)


class TooLarge(TooBusy):
    """A whole answer larger than one response may be: the message names the
    paged or streamed form that serves it (RESOURCE_EXHAUSTED)."""


def encode_log_token(index: int) -> str:
    return base64.urlsafe_b64encode(f"{AUDIT_TOKEN_PREFIX}{index}".encode()).decode()


def decode_log_token(token: str) -> int:
    """The index (events before it already served) a GetAuditLog page token
    continues from; a token this server did not hand out is an invalid
    argument."""
    try:
        text = base64.urlsafe_b64decode(token.encode()).decode()
        if not text.startswith(AUDIT_TOKEN_PREFIX):
            raise ValueError
        index = int(text.removeprefix(AUDIT_TOKEN_PREFIX))
        if index < 0:
            raise ValueError
    except (ValueError, binascii.Error, UnicodeError):
        raise MalformedCommand("page_token is not one this server handed out") from None
    return index


def copies(
    loaded: LoadedGame, viewer: Viewer, after: int = 0, upto: int | None = None
) -> list[epb.EventEnvelope]:
    """The viewer's copies of events after..upto, within its horizon."""
    end = min(horizon(loaded, viewer), upto if upto is not None else loaded.version)
    return [serve(loaded, index, viewer) for index in range(after, end)]


def visible(loaded: LoadedGame, index: int, viewer: Viewer) -> Event:
    """``to_event(serve(loaded, index, viewer))``, made without the served
    copy: the rules fold the public event and the secrets the viewer may
    see, never the digests and event hash the copy also carries, so a fold
    does not make them. The same rule as ``redact``
    decides what is seen; tests/service/test_reads.py keeps the two equal
    for every event and viewer."""
    envelope = loaded.envelope(index)
    withheld: int | None = None  # the seed, as serve() withholds it
    if _seed_withheld(loaded, index, viewer):
        withheld = chance.seed_index(envelope)
    return to_event(
        envelope,
        lambda position, secret: position != withheld and viewer.may_see(secret.audience.seats),
    )


def visible_events(
    loaded: LoadedGame, viewer: Viewer, after: int, upto: int
) -> Iterator[tuple[int, Event]]:
    """(sequence, event) of what the viewer folds after..upto, within its
    horizon; an event that cannot be read makes the game CorruptGame."""
    for index in range(after, min(horizon(loaded, viewer), upto)):
        with unfoldable(loaded.game_id, index + 1):
            event = visible(loaded, index, viewer)
        yield index + 1, event


class Reads:
    def __init__(self, cache: GameCache, identity: Identity, key_ring: keyring.KeyRing):
        self.cache = cache
        self.identity = identity
        self.key_ring = key_ring
        self.signing_key = key_ring.current
        self.warmer = Warmer(self.fold)
        cache.on_checkpoint = self.warmer.later
        # Each viewer's events in words, told once (the narrate flags).
        self.narrations = Narrations()

    def fold(self, loaded: LoadedGame, viewer: Viewer, upto: int) -> tables.Table:
        return self.cache.fold(loaded, viewer, upto, visible_events)

    def events_for(
        self, game_id: str, token: str | None, after: int, as_spectator: bool = False
    ) -> tuple[list[epb.EventEnvelope], bool]:
        """The caller's events after a cursor, and whether nothing more will come."""
        loaded = self.cache.load(game_id)
        viewer = self.identity.viewer(loaded, token, as_spectator)
        events = copies(loaded, viewer, after)
        done = loaded.finished and (events[-1].sequence if events else after) >= loaded.version
        return events, done

    def view(
        self,
        game_id: str,
        token: str | None,
        version: int | None,
        as_spectator: bool = False,
        min_version: int = 0,
    ) -> gpb.GetViewResponse:
        loaded = self.cache.load(game_id, min_version=min_version)
        viewer = self.identity.viewer(loaded, token, as_spectator)
        visible = horizon(loaded, viewer)
        if version is not None and not 1 <= version <= visible:
            if visible < loaded.version:
                raise RuleViolation(
                    "T-SPECTATORS",
                    f"spectators of this game stay {loaded.policy.delay_events} events behind",
                )
            raise MalformedCommand(f"version must be between 1 and {visible}")
        upto = version if version is not None else visible
        if upto < 1:
            raise RuleViolation(
                "T-SPECTATORS",
                f"spectators of this game stay {loaded.policy.delay_events} events behind",
            )
        shown = post_mortem(loaded, viewer)
        response = view_response(self.fold(loaded, shown, upto), viewer, upto, shown)
        if upto == loaded.version:
            add_clocks(response, loaded)
        return response

    def replay_views(
        self,
        game_id: str,
        token: str | None,
        from_version: int,
        as_spectator: bool = False,
        narrate: bool = False,
    ) -> Iterator[gpb.ReplayViewsResponse]:
        """The caller's view after each event in turn, folded once and made
        step by step as the iterator is read (the caller is checked now);
        with ``narrate``, each event in words as the caller's feed tells it."""
        loaded = self.cache.load(game_id)
        viewer = self.identity.viewer(loaded, token, as_spectator)
        end = horizon(loaded, viewer)
        steps = self._replay(loaded, viewer, max(1, from_version), end)
        return self._narrated(loaded, viewer, steps) if narrate else steps

    def _narrated(
        self, loaded: LoadedGame, viewer: Viewer, steps: Iterator[gpb.ReplayViewsResponse]
    ) -> Iterator[gpb.ReplayViewsResponse]:
        for step in steps:
            index = step.event.sequence - 1
            step.narration.extend(self.narrations.lines(loaded, index, viewer, serve, step.event))
            step.view.words.CopyFrom(view_words(step.view))
            yield step

    def _replay(
        self, loaded: LoadedGame, viewer: Viewer, first: int, end: int
    ) -> Iterator[gpb.ReplayViewsResponse]:
        """Steps ``first``..``end``: from the viewer's fold at ``first - 1``
        (its nearest checkpoint helps), one event folded per step. A seat
        of a finished game steps through every card (``post_mortem``): its
        views are folded from the full events, each step's event stays its
        own copy."""
        if end < first:
            return
        shown = post_mortem(loaded, viewer)
        if first == 1:
            table = tables.initial(loaded.table.game, loaded.created)
            yield self._step(table, viewer, serve(loaded, 0, viewer), shown)
            first = 2
        else:
            table = self.fold(loaded, shown, first - 1)
        for version in range(first, end + 1):
            # Each step's event is the viewer's own copy (as its feed has
            # it); a post-mortem folds the full one for the view.
            envelope = serve(loaded, version - 1, viewer)
            folded = envelope if shown == viewer else serve(loaded, version - 1, shown)
            kind = envelope.event.type_url.rpartition("/")[2] or "?"
            with unfoldable(loaded.game_id, version, kind):
                table = tables.evolve(table, to_event(folded))
            yield self._step(table, viewer, envelope, shown)

    @staticmethod
    def _step(
        table: tables.Table, viewer: Viewer, envelope: epb.EventEnvelope, shown: Viewer
    ) -> gpb.ReplayViewsResponse:
        return gpb.ReplayViewsResponse(
            view=view_response(table, viewer, envelope.sequence, shown), event=envelope
        )

    def legal_actions(
        self, game_id: str, token: str | None, min_version: int = 0
    ) -> tuple[int, list[Message]]:
        loaded = self.cache.load(game_id, min_version=min_version)
        caller = self.identity.seat_caller(loaded, token)
        assert caller.viewer.seat is not None
        version = horizon(loaded, caller.viewer)
        table = self.fold(loaded, caller.viewer, version)
        return version, tables.legal_actions(table, caller.viewer.seat)

    def action_words(
        self, game_id: str, token: str | None, version: int, actions: list[Message]
    ) -> list[gpb.ActionWords]:
        """The seat's legal ``actions`` at ``version`` in words, with their
        warnings, from the seat's own view and feed."""
        loaded = self.cache.load(game_id, min_version=version)
        caller = self.identity.seat_caller(loaded, token)
        viewer = caller.viewer
        assert viewer.seat is not None
        table = self.fold(loaded, viewer, version)
        seen = [visible(loaded, index, viewer).public for index in range(version)]
        return action_words(table, viewer, actions, seen)

    def audit_log(self, game_id: str, token: str | None) -> list[epb.EventEnvelope]:
        """The whole full log, in process (no response limit applies)."""
        loaded = self.cache.load(game_id)
        self.identity.check_full_log_reader(loaded, token)
        return copies(loaded, AUDITOR)

    def audit_log_page(
        self, game_id: str, token: str | None, page_size: int = 0, page_token: str = ""
    ) -> gpb.GetAuditLogResponse:
        """A page of the full log (``page_size`` > 0: at most that many
        events and PAGE_BYTES, at least one), or the whole log from the token
        on (refused when larger than one response may be)."""
        if page_size > MAX_AUDIT_PAGE_SIZE:
            raise MalformedCommand(f"page_size must be at most {MAX_AUDIT_PAGE_SIZE}")
        start = decode_log_token(page_token) if page_token else 0
        loaded = self.cache.load(game_id)
        self.identity.check_full_log_reader(loaded, token)
        end = horizon(loaded, AUDITOR)
        if start > end:
            raise MalformedCommand("page_token is past the end of this game's log")
        response = gpb.GetAuditLogResponse()
        size = 0
        index = start
        while index < end and (page_size == 0 or index - start < page_size):
            envelope = serve(loaded, index, AUDITOR)
            grown = size + envelope.ByteSize() + 8
            if page_size and index > start and grown > PAGE_BYTES:
                break
            if not page_size and grown > RESPONSE_BUDGET:
                raise TooLarge(
                    f"this game's log is larger than the {MAX_RESPONSE_BYTES} bytes one "
                    "response may carry: read it a page at a time (GetAuditLog page_size "
                    "and page_token), or its signed record with StreamGameRecord"
                )
            response.events.append(envelope)
            size = grown
            index += 1
        if index < end:
            response.next_page_token = encode_log_token(index)
        return response

    def record_reader(self, game_id: str, token: str | None) -> tuple[LoadedGame, int | None]:
        """A finished game whose record the caller may read (T-LOG, the one
        rule ``Identity.check_full_log_reader`` that GetAuditLog and
        ExportGameRecord follow too), and the caller's seat in it (None:
        not one of its seats), for counting its stream."""
        loaded = self.cache.load(game_id)
        if not loaded.finished:
            raise RuleViolation("T-LOG", "only a finished game can be exported")
        self.identity.check_full_log_reader(loaded, token)
        seat = None
        if token and not self.identity.is_operator(token):
            seat = loaded.table.seat_of_token_hash(token_hash(token))
        return loaded, seat

    def record_key(self, loaded: LoadedGame) -> tuple[str, int, str]:
        """What a finished game's record depends on: the game, its length
        and the signing key (a record is built once per key)."""
        public = signing.public_key_bytes(self.signing_key)
        return loaded.game_id, loaded.version, signing.fingerprint(public)

    def _signed_record(self, game_id: str, token: str | None) -> trpb.GameRecord:
        loaded, _ = self.record_reader(game_id, token)
        return record.export_record(loaded.stored, self.signing_key)

    def export_record(self, game_id: str, token: str | None) -> trpb.GameRecord:
        signed = self._signed_record(game_id, token)
        if signed.ByteSize() > RESPONSE_BUDGET:
            raise TooLarge(
                f"this game's record is {signed.ByteSize()} bytes, more than the "
                f"{MAX_RESPONSE_BYTES} one response may carry: stream it with StreamGameRecord "
                "(cardroom export does)"
            )
        return signed

    def record_bytes(self, game_id: str, token: str | None) -> bytes:
        """StreamGameRecord: the serialized signed record, whatever its size
        (sent in chunks of RECORD_CHUNK_BYTES)."""
        return record.to_bytes(self._signed_record(game_id, token))

    def server_key(self) -> gpb.GetServerKeyResponse:
        public = signing.public_key_bytes(self.signing_key)
        return gpb.GetServerKeyResponse(
            public_key=public,
            fingerprint=signing.fingerprint(public),
            keys=self.key_ring.listed.to_proto(),
        )


def _withhold_seed(envelope: epb.EventEnvelope) -> epb.EventEnvelope:
    index = chance.seed_index(envelope)
    if index is None:
        return envelope
    copy = epb.EventEnvelope()
    copy.CopyFrom(envelope)
    secret = copy.secrets[index]
    secret.ClearField("value")
    secret.ClearField("salt")
    return copy


def add_clocks(response: gpb.GetViewResponse, loaded: LoadedGame) -> None:
    """The turn clocks of the latest version (T-CLOCK), from the events."""
    alarm = alarm_of(loaded)
    if alarm is None or alarm.version != response.version:
        return
    for seat in alarm.seats:
        clock = response.table.clocks.add(seat=seat)
        clock.deadline.FromDatetime(alarm.deadline)


def post_mortem(loaded: LoadedGame, viewer: Viewer) -> Viewer:
    """What a viewer's view and replay are computed from: once the game is
    over a seat sees every card (the post-mortem; the full log is already
    the seats' under either log policy), spectators what their policy says."""
    if viewer.kind == "seat" and loaded.finished:
        return AUDITOR
    return viewer


def view_response(
    table: tables.Table, viewer: Viewer, version: int, shown: Viewer | None = None
) -> gpb.GetViewResponse:
    """The view for ``viewer`` (its kind and seat), of the game as ``shown``
    sees it (``viewer`` itself unless a post-mortem shows more)."""
    response = gpb.GetViewResponse(
        version=version,
        viewer_kind=VIEWER_KINDS[viewer.kind],
        seat=viewer.seat or 0,
        table=gpb.TableView(
            kind=table.kind,
            seat_count=table.seat_count,
            player_names=[n or "" for n in table.player_names],
            player_keys=table.player_keys or [b""] * table.seat_count,
            started=table.started,
            finished=table.finished,
            winners=table.winners,
            set_deal=table.set_deal,
            resigned_seats=sorted(table.resigned),
            table_options=tpb.TableOptions(
                seconds_per_decision=table.seconds_per_decision,
                max_events=table.max_events,
                resign_after_timeouts=table.resign_after_timeouts,
                end_when_absent_seconds=table.end_when_absent_seconds,
            ),
        ),
    )
    response.game.Pack(tables.view(table, shown or viewer))
    return response
