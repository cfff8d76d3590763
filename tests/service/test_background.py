"""The background queue behind checkpoints and warming: work is done in
order off the caller's thread, a flush waits for it, a full queue drops
(the work is derived), and nothing is taken after close (the store may be
closing behind it)."""

from __future__ import annotations

import threading

from cardroom.server.storage.background import Background


def test_work_is_done_in_order_and_a_flush_waits_for_it() -> None:
    done: list[int] = []
    work = Background("test", done.append)
    assert all(work.submit(n) for n in range(100))
    work.flush()
    assert done == list(range(100))
    work.close()


def test_a_full_queue_drops_and_a_failure_does_not_stop_the_thread() -> None:
    started, release, done = threading.Event(), threading.Event(), []

    def handle(n: int) -> None:
        started.set()
        release.wait(timeout=30)
        if n == 1:
            raise ValueError("derived work failed")
        done.append(n)

    work = Background("test", handle, maxsize=2)
    work.submit(0)
    assert started.wait(timeout=30)  # the thread holds item 0: the queue has room for 2
    assert work.submit(1) and work.submit(2)
    assert not work.submit(3)  # full: dropped
    release.set()
    work.flush()
    assert done == [0, 2]
    work.close()


def test_nothing_is_taken_after_close() -> None:
    done: list[int] = []
    work = Background("test", done.append)
    work.submit(1)
    work.close()
    assert not work.submit(2)
    assert done == [1]
