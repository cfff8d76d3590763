"""Checkpoints are derived data: views folded from them are exactly the
views folded from the events, deleting them all changes nothing anyone
receives, and a checkpoint that names anything but a rules class, or was
written by other code, is never used."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardroom.domain import registry
from cardroom.domain import table as tables
from cardroom.domain.kernel import AUDITOR, SPECTATOR, Viewer
from cardroom.domain.table import pack
from cardroom.server.games.application import Games
from cardroom.server.storage import checkpoints as cp
from cardroom.server.storage.checkpoints import CheckpointError, decode, encode
from cardroom.server.storage.indexes import Indexes
from cardroom.server.storage.log import GameLog
from cardroom.smile_life.v1 import smile_life_pb2 as sl_pb
from cardroom.v1 import envelope_pb2 as epb
from tests.bounded import steps
from tests.conftest import OPERATOR_TOKEN
from tests.trust.live import Rows

EVERY = 8  # small, so that short games cross many checkpoints


def play(games: Games, kind: str, seed: int) -> tuple[str, list[str]]:
    """A complete random game through the service."""
    game = registry.game(kind)
    seats = max(game.min_seats, 3) if kind != "smiles-and-daggers" else 3
    # Smile Life from a pile of 60: still hundreds of events, a third the work.
    options = pack(sl_pb.Options(draw_pile_size=60)) if kind == "smile-life" else None
    game_id = games.create_game(kind, options, seats)
    tokens = [games.join(game_id, None, f"P{i}")[1] for i in range(seats)]
    games.start(game_id, tokens[0])
    rng = random.Random(seed)
    for number in steps(20_000, "the game"):
        if games.load(game_id).finished:
            break
        movers = [(t, a) for t in tokens if (a := games.legal_actions(game_id, t)[1])]
        token, actions = rng.choice(movers)
        games.submit(game_id, token, pack(rng.choice(actions)), f"c{number}", None)
    return game_id, tokens


def everything_seen(games: Games, game_id: str, tokens: list[str]) -> Iterator[bytes]:
    """Every view of every viewer at every version, and the replays."""
    version = games.version(game_id)
    stride = max(3, version // 120)  # about 120 versions a viewer, spread over the game
    for token in [None, OPERATOR_TOKEN, *tokens]:
        for at in range(1, version + 1, stride):
            yield games.view(game_id, token, at).SerializeToString(deterministic=True)
        yield games.view(game_id, token, None).SerializeToString(deterministic=True)
        for step in games.replay_views(game_id, token, 1):
            yield step.SerializeToString(deterministic=True)
        if token not in (None, OPERATOR_TOKEN):
            _, actions = games.legal_actions(game_id, token)
            yield b"".join(a.SerializeToString(deterministic=True) for a in actions)


def snapshot_rows(database: Path) -> int:
    with sqlite3.connect(database) as db:
        return int(db.execute("SELECT COUNT(*) FROM stored_snapshots").fetchone()[0])


@pytest.mark.parametrize("kind", sorted(registry.games()))
def test_views_from_checkpoints_are_the_views_from_the_events(tmp_path: Path, kind: str) -> None:
    database = tmp_path / "cardroom.sqlite3"
    log = GameLog(str(database))
    try:
        games = Games(log, operator_token=OPERATOR_TOKEN)
        games.checkpoints.every = EVERY
        game_id, tokens = play(games, kind, seed=3)
        list(everything_seen(games, game_id, tokens))  # folds write checkpoints too
        games.checkpoints.flush()
        assert snapshot_rows(database) > 2 * (games.version(game_id) // EVERY)

        games.cache.clear()  # as after a restart: load from checkpoints
        from_checkpoints = list(everything_seen(games, game_id, tokens))
        assert games.checkpoints.used > 0

        with sqlite3.connect(database) as db:
            db.execute("DELETE FROM stored_snapshots")
        games.cache.clear()
        from_events = list(everything_seen(games, game_id, tokens))
        assert from_checkpoints == from_events

        without = Games(log, operator_token=OPERATOR_TOKEN, checkpoints=False)
        assert list(everything_seen(without, game_id, tokens)) == from_events
        games.close()
    finally:
        log.close()


def test_a_game_reloaded_from_its_checkpoint_keeps_its_command_ids(tmp_path: Path) -> None:
    """The idempotency index travels in the checkpoint: an old command id
    repeated after a restart returns the first outcome and writes nothing."""
    log = GameLog(str(tmp_path / "cardroom.sqlite3"))
    try:
        games = Games(log, operator_token=OPERATOR_TOKEN)
        games.checkpoints.every = EVERY
        game_id, tokens = play(games, "smoke-and-mirrors", seed=5)
        first = games.audit_log(game_id, OPERATOR_TOKEN)
        early = next(e for e in first if e.command.command_id == "c1")
        seat = early.command.actor.seat
        games.checkpoints.flush()
        games.cache.clear()
        version, events = games.submit(game_id, tokens[seat], early.command.command, "c1", None)
        assert events[0].sequence == early.sequence and version < len(first)
        assert games.version(game_id) == len(first)
        games.close()
    finally:
        log.close()


def test_the_codec_rebuilds_only_rules_classes() -> None:
    assert decode(encode((1, "a", b"x", frozenset({2}), None))) == (
        1,
        "a",
        b"x",
        frozenset({2}),
        None,
    )
    evil = {"dc": "subprocess:Popen", "f": {}}
    with pytest.raises(CheckpointError, match="rules classes"):
        decode(evil)
    with pytest.raises(CheckpointError):
        decode({"e": "os:environ", "v": 1})
    with pytest.raises(CheckpointError, match="cannot checkpoint"):
        encode(object())


def test_a_checkpoint_written_by_other_code_is_not_used(tmp_path: Path) -> None:
    log = GameLog(str(tmp_path / "cardroom.sqlite3"))
    try:
        games = Games(log, operator_token=OPERATOR_TOKEN)
        games.checkpoints.every = EVERY
        game_id, tokens = play(games, "smiles-and-daggers", seed=2)
        expected = [games.view(game_id, t, None) for t in tokens]
        games.checkpoints.flush()
        with sqlite3.connect(tmp_path / "cardroom.sqlite3") as db:
            db.execute("UPDATE stored_snapshots SET topic = 'other-code'")
        games.cache.clear()
        assert [games.view(game_id, t, None) for t in tokens] == expected
        with sqlite3.connect(tmp_path / "cardroom.sqlite3") as db:
            db.execute(
                "UPDATE stored_snapshots SET topic = ?, state = ?",
                (cp.fingerprint(), json.dumps({"dc": "subprocess:Popen", "f": {}}).encode()),
            )
        games.cache.clear()
        assert [games.view(game_id, t, None) for t in tokens] == expected
        games.close()
    finally:
        log.close()


def test_viewers_are_keyed_apart() -> None:
    keys = {cp.viewer_key(v) for v in (SPECTATOR, AUDITOR, Viewer.of_seat(0), Viewer.of_seat(1))}
    assert len(keys) == 4


def test_a_cold_load_starts_from_the_tables_checkpoint_with_its_indexes(tmp_path: Path) -> None:
    """The table's checkpoint (the auditor's fold and the command indexes)
    is readable by the code that wrote it: a game loaded after a restart
    starts from it, and knows the same commands as one folded from event one."""
    log = GameLog(str(tmp_path / "cardroom.sqlite3"))
    try:
        games = Games(log, operator_token=OPERATOR_TOKEN)
        games.checkpoints.every = EVERY
        game_id, _ = play(games, "smoke-and-mirrors", seed=7)
        games.close()  # everything written
        from_events = Games(log, operator_token=OPERATOR_TOKEN, checkpoints=False).load(game_id)

        restarted = Games(log, operator_token=OPERATOR_TOKEN)
        restarted.checkpoints.every = EVERY
        loaded = restarted.load(game_id)
        assert restarted.checkpoints.used == 1
        assert loaded.indexes == from_events.indexes
        assert loaded.table == from_events.table
        restarted.close()
    finally:
        log.close()


def test_every_viewer_is_checkpointed_in_the_background_though_nobody_looked(
    tmp_path: Path,
) -> None:
    """A game nobody watched: after a restart, the spectator's first view
    starts from a checkpoint near the end (the warmed folds), and every view
    is the view folded from the events."""
    log = GameLog(str(tmp_path / "cardroom.sqlite3"))
    try:
        games = Games(log, operator_token=OPERATOR_TOKEN)
        games.checkpoints.every = EVERY
        game_id, tokens = play(games, "smoke-and-mirrors", seed=8)
        games.close()
        cold = Games(log, operator_token=OPERATOR_TOKEN, checkpoints=False)
        expected = [cold.view(game_id, token, None) for token in [None, *tokens]]

        restarted = Games(log, operator_token=OPERATOR_TOKEN)
        restarted.checkpoints.every = EVERY
        restarted.load(game_id)
        used = restarted.checkpoints.used
        assert [restarted.view(game_id, token, None) for token in [None, *tokens]] == expected
        # The spectator's view starts from its checkpoint; the seats' views of
        # a finished game are the full table (the post-mortem), which the load
        # already brought from the table's checkpoint.
        assert restarted.checkpoints.used == used + 1
        restarted.close()
    finally:
        log.close()


class Reads:
    """Counts what a Games reads from its store and folds."""

    def __init__(self, log: GameLog, monkeypatch: pytest.MonkeyPatch) -> None:
        self.rows = 0
        self.evolved = 0
        self.indexes_built = 0
        read_raw, read_ends = log.read_raw, log.read_first_and_after
        evolve, from_plain = tables.evolve, Indexes.from_plain

        def counted_read(game_id: str, **at: int | None) -> list[bytes]:
            found = read_raw(game_id, **at)
            self.rows += len(found)
            return found

        def counted_ends(game_id: str, after: int) -> list[bytes]:
            found = read_ends(game_id, after)
            self.rows += len(found)
            return found

        def counted_evolve(*args: Any) -> Any:
            self.evolved += 1
            return evolve(*args)

        def counted_from_plain(plain: Any) -> Indexes:
            self.indexes_built += 1
            return from_plain(plain)

        monkeypatch.setattr(log, "read_raw", counted_read)
        monkeypatch.setattr(log, "read_first_and_after", counted_ends)
        monkeypatch.setattr(tables, "evolve", counted_evolve)
        monkeypatch.setattr(Indexes, "from_plain", counted_from_plain)


def test_a_finished_games_first_views_after_a_restart_read_two_events_and_fold_none(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The event that finishes a game is checkpointed for the table and
    every viewer. After a restart, every viewer's first view reads the first
    event and the last one, folds nothing, and leaves the command indexes
    unbuilt; whatever needs the events in between (the full log, a replay)
    reads them once. Everything served is what the events alone give."""
    log = GameLog(database)
    try:
        games = Games(log, operator_token=OPERATOR_TOKEN)
        game_id, tokens = play(games, "smoke-and-mirrors", seed=4)
        version = games.version(game_id)
        games.close()  # its background checkpoints written
        from_events = Games(log, operator_token=OPERATOR_TOKEN, checkpoints=False)
        viewers = [None, OPERATOR_TOKEN, *tokens]
        expected = [from_events.view(game_id, token, None) for token in viewers]
        full_log = from_events.audit_log(game_id, OPERATOR_TOKEN)
        assert version % cp.EVERY != 0  # so the last checkpoint is the finishing one

        restarted = Games(log, operator_token=OPERATOR_TOKEN)
        reads = Reads(log, monkeypatch)
        assert [restarted.view(game_id, token, None) for token in viewers] == expected
        assert (reads.rows, reads.evolved, reads.indexes_built) == (2, 0, 0)

        assert restarted.audit_log(game_id, OPERATOR_TOKEN) == full_log
        assert reads.rows == version  # the other events, once
        assert restarted.audit_log(game_id, OPERATOR_TOKEN) == full_log
        assert reads.rows == version
        restarted.close()
    finally:
        log.close()


def new_recorded_at(raw: bytes) -> bytes:
    """The same event recorded a second later: still in its place, not the
    event a checkpoint folded."""
    envelope = epb.EventEnvelope.FromString(raw)
    envelope.recorded_at.seconds += 1
    return envelope.SerializeToString(deterministic=True)


@pytest.mark.parametrize("change", ["rewritten", "deleted"])
def test_a_checkpoint_the_stored_events_no_longer_match_is_not_used(
    database: str, change: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The table's checkpoint holds the hash of the event it folded last;
    if that event is not stored there any more (rewritten, or gone), the
    game is folded from its first event, as if there were no checkpoint."""
    log = GameLog(database)
    try:
        games = Games(log, operator_token=OPERATOR_TOKEN)
        game_id, tokens = play(games, "smoke-and-mirrors", seed=6)
        version = games.version(game_id)
        games.close()
        rows = Rows(database, game_id)
        if change == "rewritten":
            rows.set_state(version, new_recorded_at(rows.states()[-1]))
        else:
            rows.delete(version)
        without = Games(log, operator_token=OPERATOR_TOKEN, checkpoints=False)
        expected = [without.view(game_id, token, None) for token in [None, *tokens]]

        restarted = Games(log, operator_token=OPERATOR_TOKEN)
        with caplog.at_level(logging.WARNING, logger="cardroom.server.storage.cache"):
            assert [restarted.view(game_id, t, None) for t in [None, *tokens]] == expected
        assert f"the checkpoint at {version} does not match the stored events" in caplog.text
        assert restarted.load(game_id).stored.unread == 0
        restarted.close()
    finally:
        log.close()


def test_an_unstarted_games_checkpoints_do_not_grow_with_its_invitations(tmp_path: Path) -> None:
    """The invitation flood's database was 85% checkpoints, growing as the
    square of its events: every checkpoint of the table carried the index of
    every credential so far (which nothing ever opens). Now each is as large
    as the first."""
    database = tmp_path / "cardroom.sqlite3"
    log = GameLog(str(database))
    try:
        games = Games(log, operator_token=OPERATOR_TOKEN)
        games.checkpoints.every = EVERY
        game_id = games.create_game("smoke-and-mirrors", None, 5)
        token = games.join(game_id, None, "Ada")[1]
        for _ in range(tables.MAX_INVITATIONS_PER_SEAT * 5):
            games.invite(game_id, token, 1)
        games.checkpoints.flush()
        with sqlite3.connect(database) as db:
            sizes = [
                length
                for (length,) in db.execute(
                    "SELECT LENGTH(state) FROM stored_snapshots WHERE originator_id = ? "
                    "ORDER BY originator_version",
                    (cp.stream_id(game_id, "table").hex,),
                )
            ]
        assert len(sizes) >= 4
        assert max(sizes) - min(sizes) <= 8, sizes
    finally:
        log.close()
