"""A relay's live feeds without a network: which broker messages a watcher
takes (only the next one after its cursor), when it must go back to the
store (a gap), and when it is ended (too far behind, or the game over)."""

from __future__ import annotations

from cardroom.domain.kernel import SPECTATOR
from cardroom.server.live.feeds import Outgoing
from cardroom.server.relay.feeds import RelayFeeds, RelayWatch, Topic
from cardroom.v1 import envelope_pb2 as epb
from cardroom.v1 import game_service_pb2 as gpb

GAME = "00000000-0000-0000-0000-000000000001"


def item(sequence: int) -> Outgoing:
    return Outgoing.of(gpb.WatchEventsResponse(event=epb.EventEnvelope(sequence=sequence)))


def watching(cursor: int, backlog: int = 4) -> tuple[RelayFeeds, Topic, RelayWatch]:
    feeds = RelayFeeds(broker=None, max_backlog=backlog)  # type: ignore[arg-type]
    topic = Topic("cardroom.events.x.spectator", copies=True)
    watch = RelayWatch(GAME, SPECTATOR, loaded=None, cursor=cursor)  # type: ignore[arg-type]
    topic.watches.add(watch)
    return feeds, topic, watch


def sequences(watch: RelayWatch) -> list[int]:
    return [o.response.event.sequence for o in watch.queue]


async def test_a_live_watcher_takes_each_next_event_once() -> None:
    feeds, topic, watch = watching(cursor=5)
    feeds.go_live(watch)
    for sequence in (4, 5, 6, 6, 7):  # old ones and a repeat are skipped
        feeds.deliver(topic, sequence, item(sequence), final=False)
    assert sequences(watch) == [6, 7]
    assert watch.cursor == 7 and not watch.gap


async def test_a_gap_sends_the_watcher_back_to_the_store() -> None:
    feeds, topic, watch = watching(cursor=5)
    feeds.go_live(watch)
    feeds.deliver(topic, 6, item(6), final=False)
    feeds.deliver(topic, 8, item(8), final=False)  # 7 never came
    feeds.deliver(topic, 9, item(9), final=False)
    assert sequences(watch) == [6]
    assert watch.gap and watch.cursor == 6


async def test_messages_heard_while_catching_up_wait_and_then_follow_the_cursor() -> None:
    feeds, topic, watch = watching(cursor=2)
    for sequence in (3, 4, 5):
        feeds.deliver(topic, sequence, item(sequence), final=sequence == 5)
    assert not watch.queue
    watch.cursor = 3  # the store gave it 3 meanwhile
    feeds.go_live(watch)
    assert sequences(watch) == [4, 5]
    assert watch.finished  # 5 was the game's last event


async def test_a_reader_too_far_behind_is_ended() -> None:
    feeds, topic, watch = watching(cursor=0, backlog=3)
    feeds.go_live(watch)
    for sequence in range(1, 6):
        feeds.deliver(topic, sequence, item(sequence), final=False)
    assert sequences(watch) == [1, 2, 3]
    assert watch.fell_behind


async def test_an_auditors_topic_only_wakes_its_watchers_for_the_store() -> None:
    feeds, topic, watch = watching(cursor=0)
    topic.copies = False
    feeds.go_live(watch)
    feeds.deliver(topic, 1, item(1), final=False)
    assert not watch.queue and watch.gap and watch.ready.is_set()
