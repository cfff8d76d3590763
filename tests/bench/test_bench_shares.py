"""Every per-client share of ``cardroom serve`` and ``cardroom relay`` is
lifted for the benchmark's processes (bench/servers.py): the benchmark
loads a server from one address, and a share it does not lift fails its
full-scale rows (issue 33: "a stream failed 20 times")."""

from __future__ import annotations

import argparse

import pytest

from bench.servers import LIFTED_SHARES
from cardroom.cli import relay, serve


@pytest.mark.parametrize("command", [serve, relay], ids=["serve", "relay"])
def test_every_per_client_share_is_lifted_for_the_benchmark(command: object) -> None:
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)  # type: ignore[attr-defined]
    shares = {
        "CARDROOM_" + action.dest.upper()
        for action in parser._actions
        if "per_client" in action.dest
    }
    assert shares <= set(LIFTED_SHARES), sorted(shares - set(LIFTED_SHARES))
