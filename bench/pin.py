"""``--pin``: the writer's server on a core of its own, everything else on the others.

On a machine of a few cores, a relay row measured with the relays, the
watcher processes and the writer's server all sharing the cores says
nothing about a deployment where they run on separate hosts. Pinned, the
benchmark's process takes every CPU but the first (so do its workers,
relays and broker: children inherit the affinity), and every ``cardroom
serve`` it starts is run under ``taskset -c`` on the first.
"""

from __future__ import annotations

import os


class CannotPin(RuntimeError):
    """Fewer than two CPUs to choose from."""


def pin() -> str:
    """Move this process to every allowed CPU but the first, and return the
    first (taskset's list syntax) for the writer's server. Call it before
    any thread or worker starts: the affinity set here is inherited."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        raise CannotPin(f"--pin needs at least 2 CPUs; this process may use {cpus}")
    os.sched_setaffinity(0, cpus[1:])
    return str(cpus[0])


def described(writer: str | None) -> str:
    if writer is None:
        return "unpinned (every process on every core)"
    others = ",".join(str(c) for c in sorted(os.sched_getaffinity(0)))
    return (
        f"pinned: the writer's server on CPU {writer}; the benchmark, watchers, relays and "
        f"broker on {others}"
    )
