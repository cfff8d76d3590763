"""The server tells each event in words, for each viewer from only what
that viewer was sent (``WatchEventsRequest.narrate``,
``ReplayViewsRequest.narrate``), and says each legal action and its warning
(``ListLegalActionsRequest.describe``): one voice for every frontend.

The words come from the same code the terminal uses
(:class:`cardroom.client.feed.Feed` over the game's narrator, and the
game's guide), so ``cardroom watch --plain`` and the web table print the
same sentence for the same event and viewer. A viewer's story folds that
viewer's own served copies, in order, and nothing else: twin games that
differ only in a card it did not see tell it the same words.

Stored events never change, so what a viewer was told of event N stays
true: each (game, viewer) keeps its lines so far and the fold to extend them
(a bounded LRU; an evicted story is folded again from the game's first
event). The lines are computed once per kind of viewer, as the feeds make
one copy per kind, not once per stream.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from google.protobuf.message import Message

from cardroom.client.feed import RESIGN_CHOICE, Feed
from cardroom.client.messages import unpack
from cardroom.domain import presentation
from cardroom.domain import table as tables
from cardroom.domain.kernel import Viewer
from cardroom.server.storage.cache import LoadedGame
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb
from cardroom.v1 import table_pb2 as tpb

# Stories kept (one per game and kind of viewer being narrated).
STORIES = 1024

Served = Callable[[LoadedGame, int, Viewer], epb.EventEnvelope]


@dataclass
class _Told:
    """One viewer's feed of one game, told up to ``len(lines)`` events."""

    feed: Feed = field(default_factory=Feed)
    lines: list[tuple[str, ...]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Narrations:
    """Each viewer's events in words, told once and kept."""

    def __init__(self, capacity: int = STORIES) -> None:
        self.capacity = capacity
        self._stories: OrderedDict[tuple[str, Viewer], _Told] = OrderedDict()
        self._lock = threading.Lock()

    def _story(self, game_id: str, viewer: Viewer) -> _Told:
        key = (game_id, viewer)
        with self._lock:
            told = self._stories.get(key)
            if told is None:
                told = self._stories[key] = _Told()
                while len(self._stories) > self.capacity:
                    self._stories.popitem(last=False)
            else:
                self._stories.move_to_end(key)
            return told

    def lines(
        self,
        loaded: LoadedGame,
        index: int,
        viewer: Viewer,
        served: Served,
        envelope: epb.EventEnvelope | None = None,
    ) -> tuple[str, ...]:
        """Event ``index`` (0-based) in words for ``viewer``, told from the
        viewer's copies of events 0..index (``served`` makes each;
        ``envelope``, when given, is the viewer's copy of event ``index``)."""
        told = self._story(loaded.game_id, viewer)
        with told.lock:
            while len(told.lines) <= index:
                at = len(told.lines)
                copy = served(loaded, at, viewer) if at != index or envelope is None else envelope
                told.lines.append(tuple(told.feed.tell(copy)))
            return told.lines[index]


def view_words(response: gpb.GetViewResponse) -> gpb.ViewWords:
    """A view in words, as the terminal's header says it, made from the
    response alone (what the viewer receives anyway)."""
    view = unpack(response.game)
    seat = response.seat if response.viewer_kind == gpb.VIEWER_KIND_SEAT else None
    names = tuple(response.table.player_names)
    if not response.table.started:
        taken = sum(1 for name in names if name)
        return gpb.ViewWords(status=f"Not started · {taken} of {len(names)} seats taken")
    scene = presentation.narrator(response.table.kind).scene(view, names, seat)
    return gpb.ViewWords(status=scene.status, table=list(scene.table))


def guide_of(kind: str) -> gpb.GameGuide | None:
    """The game's guide for ``ListGameKinds`` (None for a game without one)."""
    guide = presentation.guide(kind)
    if guide is None:
        return None
    return gpb.GameGuide(
        goal=guide.goal,
        rules=list(guide.rules),
        symbols=[gpb.GuideSymbol(symbol=s, meaning=m) for s, m in guide.symbols],
    )


def action_words(
    table: tables.Table,
    viewer: Viewer,
    actions: Sequence[Message],
    seen: Sequence[Message],
) -> list[gpb.ActionWords]:
    """Each legal action of the seat ``viewer`` as the terminal's menu says
    it, with the guide's warning before a costly one; from the seat's own
    ``table`` (its fold) and the public events of its feed (``seen``,
    oldest first) only."""
    kind = table.kind
    seat = viewer.seat
    assert seat is not None
    names = tuple(n or "" for n in table.player_names)
    view = tables.view(table, viewer)
    narrator = presentation.narrator(kind)
    guide = presentation.guide(kind)
    words = []
    for action in actions:
        if isinstance(action, tpb.Resign):
            words.append(gpb.ActionWords(label=RESIGN_CHOICE))
            continue
        warning = guide.caution(action, view, names, seat, seen) if guide is not None else ""
        words.append(gpb.ActionWords(label=narrator.action(action, view, names), warning=warning))
    return words
