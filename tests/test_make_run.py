"""``make run`` with no tokens and no REDIS_URL: the terminal table on an embedded Redis,
whose first line tells the player what is played and how to get help or leave, left
cleanly at the end of input."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNSET = ("REDIS_URL", "TELEGRAM_TOKEN", "DISCORD_TOKEN", "LOG_LEVEL", "MAKEFLAGS", "MAKELEVEL")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.skipif((ROOT / ".env").exists(), reason="a .env file could hand the bot tokens")
def test_make_run_without_tokens_opens_the_terminal_table(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    env.update(DATA_DIR=str(tmp_path / "data"), COMPUTER_DELAY="0")
    # As after a fresh clone: the project's domino-bot is not on PATH.
    bin_dir = str(ROOT / ".venv" / "bin")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != bin_dir)
    # -o: the virtualenv is taken as installed; this test is about what `run` starts.
    done = subprocess.run(
        ["make", "--no-print-directory", "-o", ".venv/.installed", "run"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
    )
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stdout
    assert lines[0] == (
        "Tyaga (Draw) at the terminal. Type help to see what you can type, and quit to "
        "leave: an unfinished match is kept."
    )
    assert "┌─ Tyaga (Draw) · table " in done.stdout
    assert "You> " in done.stdout  # the table's prompt was reached
    assert lines[-1] == (
        '» End of input. The match is saved: make run ARGS="play --resume" continues it.'
    )
    assert (tmp_path / "data" / "domino.aof").exists()
