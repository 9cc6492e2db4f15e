"""``domino-bot play`` and ``export`` as a newcomer types them, and the failures a
person can fix told in one line."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import bot.__main__ as cli
from bot.app.cli import parse
from bot.app.failures import plain_failure
from bot.views import catalog
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.test_cli import NO_STORE_SETTINGS as UNSET
from tests.test_cli import closed_port, run, workdir  # noqa: F401  (workdir: a fixture)

ROOT = Path(__file__).resolve().parent.parent
# Every test here runs in a clean folder with no .env, no tokens and quick computers.
pytestmark = pytest.mark.usefixtures("workdir")


# -- the words of `play` ------------------------------------------------------------


def test_options_may_follow_flags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["play", "kozel", "--players", "4", "teams=on", "--seed", "2"], monkeypatch) == 0
    out = capsys.readouterr().out
    assert "┌─ Kozel (the goat)" in out
    assert len(re.findall(r"^│ [▶•] Computer \d: ", out, re.MULTILINE)) >= 3
    args = parse(["play", "--resume", "target=50", "--level", "greedy", "kozel", "--plain"])
    assert (args.variant, args.options, args.level, args.resume, args.plain) == (
        "kozel",
        ["target=50"],
        "greedy",
        True,
        True,
    )


def test_play_help_lists_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for info in catalog.variants():
        assert info.name in out
    assert "--plain" in out


def test_export_writes_into_exports_or_the_folder_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Played to 1,000 points, the match cannot end in the 60 moves it is given below.
    assert run(["play", "tyaga", "target=1000", "--seed", "4"], monkeypatch, "1\n1\nquit\n") == 0
    capsys.readouterr()
    assert run(["export"], monkeypatch) == 1  # the first deal is in play: it stays hidden
    assert "Nothing to export until the first deal is over." in capsys.readouterr().err
    assert not (tmp_path / "exports").exists()
    played = "1\n" * 60 + "quit\n"
    assert run(["play", "--resume", "tyaga", "hand_size=3"], monkeypatch, played) == 0
    capsys.readouterr()
    assert run(["export"], monkeypatch) == 0
    (written,) = (tmp_path / "exports").glob("domino-*.json")
    assert f"The replay file is written: exports/{written.name}\n" in capsys.readouterr().err
    (tmp_path / "mine").mkdir()
    assert run(["export", "-o", "mine"], monkeypatch) == 0
    assert (tmp_path / "mine" / written.name).read_bytes() == written.read_bytes()
    # The finished deals and their moves, and no seed: the match goes on.
    data = json.loads(written.read_text())
    assert data["moves"] and data["deals"]
    assert "seed" not in data and data["format"] == 2


def test_a_pipe_gets_plain_lines_with_ascii_arrows_when_the_encoding_lacks_them(
    tmp_path: Path,
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    env.update(
        DATA_DIR=str(tmp_path / "data"),
        COMPUTER_DELAY="0",
        PYTHONPATH=str(ROOT),
        PYTHONIOENCODING="ascii",
    )
    done = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--seed", "3"],
        env=env,
        cwd=tmp_path,
        input=b"hint\nquit\n",
        capture_output=True,
        timeout=120,
        check=False,
    )
    out = done.stdout.decode("ascii")
    assert done.returncode == 0, done.stderr
    assert "\x1b[" not in out  # no full screen in a pipe
    assert "+- Tyaga (Draw) - table " in out and "| * Computer 1: " in out
    assert re.search(r"\d\) (< \[\d\|\d\]|\[\d\|\d\] >)", out)
    assert "?" not in re.sub(r"\[Y/n\]|\? ", "", out.split("You> ")[0])


# -- failures in one line ---------------------------------------------------------


def test_a_redis_that_does_not_answer_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"redis://127.0.0.1:{closed_port()}/0"
    monkeypatch.setenv("REDIS_URL", url)
    assert run(["play", "--plain"], monkeypatch) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"domino-bot: Redis at {url} does not answer")
    assert len(err) == 2  # the banner, then the failure
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")
    with pytest.raises(Exception, match=r"(?i)connect"):
        run(["play", "--plain"], monkeypatch)


@pytest.mark.parametrize(
    ("token", "reachable", "said"),
    [
        ("7000:WRONG", True, "Telegram rejected TELEGRAM_TOKEN"),
        ("7000:TESTTOKEN", False, "Telegram cannot be reached"),
    ],
)
async def test_a_telegram_failure_is_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    token: str,
    reachable: bool,
    said: str,
) -> None:
    fake = FakeBotApi()
    base = await fake.start()
    try:
        if not reachable:
            base = f"http://127.0.0.1:{closed_port()}/bot"
        monkeypatch.setenv("TELEGRAM_TOKEN", token)
        monkeypatch.setenv("TELEGRAM_BASE_URL", base)
        status = await asyncio.to_thread(cli.main, ["telegram"])
    finally:
        await fake.close()
    err = capsys.readouterr().err
    err = err[err.index("domino-bot: Telegram on ") :]  # what the command wrote
    assert status == 1
    assert "Traceback" not in err
    failure = [line for line in err.splitlines() if line.startswith("domino-bot: ")][-1]
    assert failure.startswith(f"domino-bot: {said}")


def test_discords_own_failures_are_told_in_one_line() -> None:
    import aiohttp
    import discord

    rejected = plain_failure(discord.LoginFailure("Improper token has been passed."), "x")
    assert rejected is not None and rejected.startswith("Discord rejected DISCORD_TOKEN")
    key = aiohttp.client_reqrep.ConnectionKey("discord.com", 443, True, True, None, None, None)
    down = aiohttp.ClientConnectorError(key, OSError(111, "Connection refused"))
    unreachable = plain_failure(down, "x")
    assert unreachable is not None and unreachable.startswith("Discord cannot be reached")
    assert plain_failure(ValueError("a bug"), "x") is None  # a bug keeps its traceback
