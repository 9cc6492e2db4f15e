"""The README's terminal session is what the terminal table prints for the same words.

Up to the first move of the person at the keyboard, a match of a given seed is dealt
and led the same way on every machine; the computers' later moves depend on how long
they may think, so the session shown stops there."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

from tests.test_cli import run, workdir  # noqa: F401  (workdir: a fixture)

README = Path(__file__).resolve().parent.parent / "README.md"
# Run in a clean folder (tmp_path) with no .env, no tokens and an embedded Redis.
pytestmark = pytest.mark.usefixtures("workdir")
ELIDED = re.compile(r"^\s+\(… .* …\)$")


def session() -> tuple[list[str], str, list[list[str]]]:
    """The README's session: the command after ``make run``, the words typed at the
    prompt, and the runs of lines it shows between the ones marked as left out."""
    block = re.search(r'^```\n\$ make run ARGS="(.+)"\n(.*?)^```', README.read_text(), re.M | re.S)
    assert block is not None, "the README shows no terminal session"
    lines = block.group(2).splitlines()
    typed = "".join(line.removeprefix("You> ") + "\n" for line in lines if line.startswith("You> "))
    runs: list[list[str]] = [[]]
    for line in lines:
        if ELIDED.match(line):
            runs.append([])
        else:
            runs[-1].append(line)
    return shlex.split(block.group(1)), typed, [r for r in runs if r]


def test_the_readmes_terminal_session_is_what_the_table_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv, typed, runs = session()
    assert argv[0] == "play" and "--seed" in argv and typed
    # Started by make from the project's folder, as the README starts it, the table
    # names make run as the way to continue.
    monkeypatch.setattr(sys, "argv", [str(tmp_path / "domino-bot")])
    monkeypatch.setenv("MAKELEVEL", "1")
    assert run([*argv, "--plain"], monkeypatch, typed=typed + "quit\n") == 0
    out, err = capsys.readouterr()
    # Names come wrapped in invisible bidi isolates (U+2068 ... U+2069), which a page
    # cannot show: the README shows what a reader sees.
    printed = (err + out).replace("\u2068", "").replace("\u2069", "")
    at = 0
    for shown in runs:
        text = "\n".join(shown).strip("\n")
        found = printed.find(text, at)
        assert found >= 0, f"not printed (in this order):\n{text}"
        at = found + len(text)
