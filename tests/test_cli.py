"""The ``domino-bot`` command called in-process: what each subcommand runs, on which store,
and what it answers."""

from __future__ import annotations

import io
import json
import re
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import bot.__main__ as cli
from bot.app.embedded_redis import EmbeddedRedis

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "engine" / "golden" / "tyaga_block_win.json"
NO_STORE_SETTINGS = ("REDIS_URL", "TELEGRAM_TOKEN", "DISCORD_TOKEN", "LOG_LEVEL", "LOG_FORMAT")


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clean directory with no .env, no tokens, no REDIS_URL, and quick computers."""
    monkeypatch.chdir(tmp_path)
    for name in NO_STORE_SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPUTER_DELAY", "0")
    monkeypatch.setenv("NEXT_DEAL_DELAY", "0")
    return tmp_path


def run(argv: Sequence[str], monkeypatch: pytest.MonkeyPatch, typed: str = "") -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    return cli.main(list(argv))


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# -- choosing what runs ------------------------------------------------------------


def test_no_command_and_no_token_opens_the_terminal_table_on_an_embedded_redis(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run([], monkeypatch) == 0
    out, err = capsys.readouterr()
    assert err.splitlines()[0] == (
        "Tyaga (Draw) at the terminal. Type help to see what you can type, and quit to "
        "leave: an unfinished match is kept."
    )
    assert "Redis" not in err
    assert "┌─ Tyaga (Draw) · table " in out
    assert "» End of input." in out
    assert (workdir / "data" / "domino.aof").exists()


def test_verbose_says_first_where_the_games_are_kept(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["play", "kozel", "--verbose"], monkeypatch) == 0
    technical, told, *_rest = capsys.readouterr().err.splitlines()
    assert technical == (
        f"domino-bot: terminal table on an embedded Redis at {workdir}/data/domino.aof"
    )
    assert told.startswith("Kozel (the goat) at the terminal. Type help")


def test_without_data_dir_the_games_are_kept_in_the_users_data_folder_not_here(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(workdir / "xdg"))
    assert run(["play"], monkeypatch) == 0
    assert (workdir / "xdg" / "domino-bot" / "domino.aof").exists()
    assert not (workdir / "data").exists()


@pytest.mark.parametrize(
    ("tokens", "platforms", "first_line"),
    [
        ({"TELEGRAM_TOKEN": "1:x"}, ("telegram",), "Telegram"),
        ({"DISCORD_TOKEN": "x"}, ("discord",), "Discord"),
        (
            {"TELEGRAM_TOKEN": "1:x", "DISCORD_TOKEN": "x"},
            ("telegram", "discord"),
            "Telegram + Discord",
        ),
    ],
)
def test_no_command_runs_every_chat_bot_that_has_a_token(
    workdir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tokens: dict[str, str],
    platforms: tuple[str, ...],
    first_line: str,
) -> None:
    started: list[Sequence[str]] = []

    async def fake_bots(settings: Any, wanted: Sequence[str], _: Any) -> int:
        started.append(tuple(wanted))
        return 0

    monkeypatch.setattr(cli, "run_bots", fake_bots)
    for name, value in tokens.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("REDIS_URL", "redis://:secret@redis.example:6379/0")
    assert run([], monkeypatch) == 0
    assert started == [platforms]
    first = capsys.readouterr().err.splitlines()[0]
    assert first == f"domino-bot: {first_line} on redis://:***@redis.example:6379/0"


def test_serve_without_a_token_says_which_to_set(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["serve"], monkeypatch) == 2
    assert "TELEGRAM_TOKEN or DISCORD_TOKEN" in capsys.readouterr().err


def test_a_platform_command_needs_that_platforms_token(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TELEGRAM_TOKEN", "1:x")
    assert run(["discord"], monkeypatch) == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err


def test_a_bad_setting_is_named_before_anything_runs(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LOG_FORMAT", "xml")
    assert run(["play"], monkeypatch) == 2
    assert "LOG_FORMAT" in capsys.readouterr().err
    assert not (workdir / "data").exists()


def test_more_people_than_seats_is_refused(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["play", "--players", "2", "--humans", "3"], monkeypatch) == 2
    assert "--humans" in capsys.readouterr().err


def test_a_table_bigger_than_the_game_is_refused_by_its_size(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["play", "kozel", "--players", "0"], monkeypatch) == 2
    said = "domino-bot play: Kozel (the goat) is played by 2 to 4 players, not 0.\n"
    assert capsys.readouterr().err == said


def test_the_terminal_speaks_the_language_of_the_environment(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.delenv("LANGUAGE", raising=False)
    assert run(["play", "kozel", "--players", "7"], monkeypatch) == 2
    assert "Kozioł" in capsys.readouterr().err
    assert run(["play", "kozel", "--players", "7", "--lang", "en"], monkeypatch) == 2
    assert "Kozel (the goat)" in capsys.readouterr().err


# -- the terminal table, export and replay ------------------------------------------


def test_a_game_played_at_the_terminal_exports_and_replays_to_the_same_result(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["play", "tyaga", "target=10", "--seed", "5"], monkeypatch, "1\n" * 500) == 0
    played = capsys.readouterr().out
    # The terminal's one player is told "You won." where the table says "Won by You.".
    won = re.findall(r"The match is over\. (?:Won by (.+)|You won)\.", played)[-1] or "You"
    # The terminal deals the next deal when the player asks, so it promises no time.
    assert "Deal 1 is over." in played and "The next deal starts" not in played

    assert run(["export", "-o", "game.json"], monkeypatch) == 0
    exported = json.loads((workdir / "game.json").read_text())
    assert exported["variant"] == "tyaga" and exported["deals"]

    capsys.readouterr()
    assert run(["replay", "game.json"], monkeypatch) == 0
    told = capsys.readouterr().out
    seats = {"You": "Seat 1", "Computer 1": "Seat 2"}
    assert told.rstrip().endswith(f"The match is over. Won by {seats[won]}.")
    assert len(re.findall(r"^ +\d+\. Seat \d ", told, re.MULTILINE)) == len(exported["moves"])


def test_export_with_no_game_says_so(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["export", "--chat", "tg:-100"], monkeypatch) == 1
    assert "There is no game to export yet." in capsys.readouterr().err


def test_replay_stops_at_the_first_illegal_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    replay = json.loads(GOLDEN.read_text())
    seat, _ = replay["moves"][2]
    replay["moves"] = [*replay["moves"][:3], [seat, "draw"]]  # the same seat again
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(replay))
    assert run(["replay", str(path)], monkeypatch) == 1
    out, err = capsys.readouterr()
    assert len(re.findall(r"^ +\d+\. ", out, re.MULTILINE)) == 3
    assert "stopped at move 4" in err


@pytest.mark.parametrize(
    ("content", "complaint"),
    [
        ('{"variant": "chess", "players": 2}', "chess"),
        ("not json", "not valid JSON"),
        (None, "cannot read"),
    ],
)
def test_replay_of_a_file_that_is_not_a_replay_exits_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    content: str | None,
    complaint: str,
) -> None:
    path = tmp_path / "file.json"
    if content is not None:
        path.write_text(content)
    assert run(["replay", str(path)], monkeypatch) == 2
    assert complaint in capsys.readouterr().err


# -- health --------------------------------------------------------------------------


def test_health_is_0_when_the_store_answers(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with EmbeddedRedis(workdir / "redis", persist=False) as server:
        monkeypatch.setenv("REDIS_URL", server.url)
        assert run(["health"], monkeypatch) == 0
    assert capsys.readouterr().out.startswith("ok:")


def test_health_is_1_when_redis_does_not_answer(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{closed_port()}/0")
    assert run(["health"], monkeypatch) == 1


def test_health_asks_the_embedded_redis_but_never_starts_one(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(["health"], monkeypatch) == 1
    assert not (workdir / "data" / "domino.aof").exists()
