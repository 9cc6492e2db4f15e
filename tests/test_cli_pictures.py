"""Pictures at the terminal: ``table --png FILE`` at the prompt, and
``domino-bot replay FILE --png DIR``."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest
from PIL import Image

import bot.__main__ as cli

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


def run(argv: list[str], monkeypatch: pytest.MonkeyPatch, typed: str = "") -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    return cli.main(argv)


def _png(path: Path) -> Image.Image:
    image = Image.open(path)
    assert image.format == "PNG"
    return image


def test_replay_draws_each_deals_end_into_a_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["replay", str(GOLDEN)], monkeypatch) == 0
    plain = capsys.readouterr().out
    folder = tmp_path / "pictures"
    assert run(["replay", str(GOLDEN), "--png", str(folder)], monkeypatch) == 0
    out, err = capsys.readouterr()
    assert out == plain  # the story is told as before
    drawn = sorted(folder.iterdir())
    ends = len(re.findall(r"^Deal \d+ is over", plain, re.MULTILINE))
    assert ends >= 1
    assert [p.name for p in drawn] == [f"deal-{n:02d}.png" for n in range(1, ends + 1)]
    assert _png(drawn[0]).width == 800
    assert f"{ends} pictures in {folder}" in err


def test_replay_into_a_folder_it_cannot_write_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder should be")
    assert run(["replay", str(GOLDEN), "--png", str(blocked)], monkeypatch) == 1
    assert "cannot write" in capsys.readouterr().err


def test_table_png_writes_the_current_table(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = "table --png start.png\n1\ntable --png after.png\ntable --png\nquit\n"
    assert run(["play", "tyaga", "--seed", "5"], monkeypatch, typed) == 0
    out = capsys.readouterr().out
    assert "The table as a picture: start.png" in out
    assert "Write table --png FILE to save the table as a picture." in out
    first, second = _png(workdir / "start.png"), _png(workdir / "after.png")
    assert first.tobytes() != second.tobytes()  # a move was made in between
