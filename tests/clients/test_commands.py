"""The lobby and the plain-text commands, run as a person would: `cardroom
new` seats bots and says how to join, `cardroom games` lists the games, a
`cardroom bot` takes the free seat, `cardroom watch --plain` and `cardroom
replay --plain` tell the game in words."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardroom.cli import main
from tests.service.helpers import server_process

TIMEOUT = 120


def cardroom(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardroom.cli", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def test_a_game_is_made_joined_listed_watched_and_replayed_from_the_terminal(
    tmp_path: Path,
) -> None:
    with server_process(str(tmp_path / "cardroom.sqlite3")) as address:
        at = ["--address", address]
        # Given `cardroom new` with two bots, running until the game ends
        new = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cardroom.cli",
                "new",
                "smoke-and-mirrors",
                "--seats",
                "3",
                "--bots",
                "2",
                "--seed",
                "1",
                *at,
            ],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            assert new.stdout is not None
            said = [new.stdout.readline() for _ in range(5)]
            game_id = said[0].removeprefix("game id: ").strip()
            assert "2 heuristic bot(s) seated, 1 seat(s) free" in said[1]
            assert f"cardroom play --address {address} --game-id {game_id}" in said[2]
            # When the games are listed, the new one is open with a seat free
            listed = cardroom("games", *at)
            assert re.search(rf"{game_id}\s+Smoke & Mirrors\s+2/3\s+open", listed.stdout)
            # And a bot takes the free seat: the game is played to its end
            bot = cardroom("bot", *at, "--game-id", game_id, "--strategy", "random", "--quiet")
            assert bot.returncode == 0, bot.stderr
            assert f"game {game_id} is over; winner: " in bot.stdout
            token = re.search(r"--seat-token=(\S+)", bot.stderr).group(1)  # type: ignore[union-attr]
            assert new.wait(timeout=TIMEOUT) == 0
            assert "Game over: " in new.stdout.read()
        finally:
            new.kill()
            new.wait()
        finished = cardroom("games", *at, "--status", "finished")
        assert game_id in finished.stdout and "finished" in finished.stdout
        kinds = cardroom("games", *at, "--kinds")
        assert "smoke-and-mirrors" in kinds.stdout and "Smiles & Daggers" in kinds.stdout
        # Then the spectators' feed reads as words, from the first event to the last
        watched = cardroom("watch", *at, "--plain", game_id)
        lines = watched.stdout.splitlines()
        assert lines[0] == "#1    A game of Smoke & Mirrors for 3 players is set up."
        assert lines[-1].split(maxsplit=1)[1].startswith("Game over: ")
        assert not re.search(r"\[[★@☠][0-9M]\]", watched.stdout)  # no card, to a spectator
        # And a replay stops where it is asked to, drawn for the seat whose token it holds
        replayed = cardroom("replay", *at, "--plain", game_id, "--version", "6")
        assert [line[:3] for line in replayed.stdout.splitlines()[:6]] == [
            f"#{n} " for n in range(1, 7)
        ]
        # (--flag=value: a token may start with "-")
        as_seat = cardroom("replay", *at, "--plain", game_id, f"--seat-token={token}")
        assert "(you)" in as_seat.stdout and "Your hand" not in as_seat.stdout.split("Game over")[0]


def test_cardroom_play_says_when_no_server_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "play",
            "smoke-and-mirrors",
            "--address",
            "127.0.0.1:1",
            "--token-file",
            str(tmp_path / "seats.json"),
        ]
    )
    assert code == 2
    assert "no server answers at 127.0.0.1:1" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play"], "name a game to create"),
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "smoke-and-mirrors", "--bots", "5"], "played by 2 to 5 players, not 6"),
        (["play", "smoke-and-mirrors", "--game-id", "x"], "not both"),
        (["new", "smoke-and-mirrors", "--seats", "3", "--bots", "4"], "--bots must be between"),
        (["simulate", "--game", "smoke-and-mirrors", "--bots", "random"], "2 to 5 players"),
    ],
)
def test_a_command_given_wrong_arguments_says_why_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    flags = ["--token-file", str(tmp_path / "seats.json")] if args[0] == "play" else []
    assert main([*args, *flags, "--address", "127.0.0.1:1"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_cardroom_play_without_the_tui_extra_says_so_before_calling_a_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Only the client installed: textual cannot be imported.
    for module in [m for m in sys.modules if m.split(".")[0] == "textual"]:
        monkeypatch.setitem(sys.modules, module, None)
    monkeypatch.setitem(sys.modules, "textual", None)
    for module in [m for m in sys.modules if m.startswith("cardroom.tui")]:
        monkeypatch.delitem(sys.modules, module)
    flags = ["--token-file", str(tmp_path / "seats.json"), "--address", "127.0.0.1:1"]
    assert main(["play", "smoke-and-mirrors", "--bots", "2", *flags]) == 2
    err = capsys.readouterr().err
    # Said before any call: no game created, no bot seated (the server is
    # not even asked), nothing kept.
    assert "needs the tui extra" in err and "no server answers" not in err
    assert not (tmp_path / "seats.json").exists()


def test_no_help_text_shows_a_source_file_or_default_none() -> None:
    from cardroom.cli import COMMANDS, parser

    top = parser()
    commands = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    for module in COMMANDS:
        shown = commands.choices[module.NAME].format_help()
        assert "default None" not in " ".join(shown.split()), module.NAME
        assert not re.search(r"\w+/\w+\.py\b", shown), module.NAME
