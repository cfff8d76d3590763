"""A game's stored events with a gap (the events a cold load from a
checkpoint skipped) read as the plain list of every event would: by index,
from the end, by slice, in order; the gap is read from the store once, the
first time anything reaches into it, however many threads ask at once."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.server.storage.stored_events import StoredEvents


def rows(n: int) -> list[bytes]:
    return [f"event {i + 1}".encode() for i in range(n)]


class Store:
    """Serves the gap's rows from a full list, counting the reads."""

    def __init__(self, every: list[bytes]) -> None:
        self.every = every
        self.reads: list[tuple[int, int]] = []

    def read(self, start: int, stop: int) -> list[bytes]:
        self.reads.append((start, stop))
        return self.every[start:stop]


def with_gap(every: list[bytes], stop: int) -> tuple[StoredEvents, Store]:
    """Only the first event and those from index ``stop`` on in memory."""
    store = Store(every)
    stored = StoredEvents([every[0], *every[stop:]], gap=range(1, stop), read_gap=store.read)
    return stored, store


def test_what_is_in_memory_is_served_without_reading_the_gap() -> None:
    every = rows(100)
    stored, store = with_gap(every, 90)
    assert len(stored) == 100 and stored.unread == 89
    assert stored[0] == every[0] and stored[-1] == every[-1] and stored[95] == every[95]
    assert stored[90:] == every[90:]
    assert store.reads == []


def test_the_gap_is_read_once_when_first_reached() -> None:
    every = rows(100)
    stored, store = with_gap(every, 90)
    assert stored[45] == every[45]
    assert list(stored) == every and stored[:] == every and stored.unread == 0
    assert store.reads == [(1, 90)]


def test_appends_go_after_the_last_event() -> None:
    every = rows(40)
    stored, store = with_gap(every, 33)
    stored.append(b"event 41")
    stored.extend([b"event 42", b"event 43"])
    assert len(stored) == 43 and stored[-1] == b"event 43" and stored[40] == b"event 41"
    assert store.reads == []
    assert list(stored) == [*every, b"event 41", b"event 42", b"event 43"]


def test_threads_reaching_into_the_gap_at_once_read_it_once() -> None:
    every = rows(500)
    store = Store(every)
    release = threading.Event()

    def slow_read(start: int, stop: int) -> list[bytes]:
        release.wait(timeout=10)  # the other threads queue behind this read
        return store.read(start, stop)

    stored = StoredEvents([every[0], *every[480:]], gap=range(1, 480), read_gap=slow_read)
    with ThreadPoolExecutor(8) as pool:
        futures = [pool.submit(stored.__getitem__, i) for i in range(1, 9)]
        release.set()
        assert [f.result() for f in futures] == every[1:9]
    assert store.reads == [(1, 480)]


def test_an_index_past_either_end_is_an_index_error() -> None:
    stored, _ = with_gap(rows(50), 40)
    with pytest.raises(IndexError):
        stored[50]
    with pytest.raises(IndexError):
        stored[-51]


def test_a_gap_needs_the_first_event_and_a_reader() -> None:
    with pytest.raises(ValueError):
        StoredEvents([], gap=range(1, 5), read_gap=lambda start, stop: [])
    with pytest.raises(ValueError):
        StoredEvents(rows(3), gap=range(1, 5))


@given(
    length=st.integers(1, 80),
    gap_end=st.integers(1, 80),
    index=st.integers(-90, 90),
    sliced=st.tuples(st.integers(-90, 90) | st.none(), st.integers(-90, 90) | st.none()),
)
def test_it_reads_as_the_list_of_every_event(
    length: int, gap_end: int, index: int, sliced: tuple[int | None, int | None]
) -> None:
    every = rows(length)
    stop = min(gap_end, length)
    stored, _ = with_gap(every, stop) if stop > 1 else (StoredEvents(every), None)
    assert len(stored) == len(every)
    if -length <= index < length:
        assert stored[index] == every[index]
    else:
        with pytest.raises(IndexError):
            stored[index]
    assert stored[slice(*sliced)] == every[slice(*sliced)]
    assert list(stored) == every
