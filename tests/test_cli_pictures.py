"""Pictures at the terminal: ``table --png FILE`` at the prompt, and
``domino-bot replay FILE --png DIR``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image

from tests.test_cli import GOLDEN, run, workdir  # noqa: F401 (a fixture)


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
    assert f"{ends} {'picture' if ends == 1 else 'pictures'} in {folder}" in err


def test_replay_into_a_folder_it_cannot_write_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder should be")
    assert run(["replay", str(GOLDEN), "--png", str(blocked)], monkeypatch) == 1
    assert "cannot write" in capsys.readouterr().err


def test_table_png_writes_the_current_table(
    workdir: Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    typed = "table --png start.png\n1\ntable --png after.png\ntable --png\nquit\n"
    assert run(["play", "tyaga", "--seed", "5"], monkeypatch, typed) == 0
    out = capsys.readouterr().out
    assert "The table as a picture: start.png" in out
    assert "Write table --png FILE to save the table as a picture." in out
    first, second = _png(workdir / "start.png"), _png(workdir / "after.png")
    assert first.tobytes() != second.tobytes()  # a move was made in between
