"""The command the table names to continue a saved match is one the player can type
where he is."""

from __future__ import annotations

import os
from pathlib import Path

from adapters.console.words import resume_command, saved_farewell
from bot.views.i18n import translator


def installed(folder: Path) -> Path:
    program = folder / "domino-bot"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    return program


def test_make_run_names_make_run_when_domino_bot_is_not_on_the_path(tmp_path: Path) -> None:
    folder = tmp_path / ".venv" / "bin"
    folder.mkdir(parents=True)
    program = installed(folder)
    environ = {"PATH": "/usr/bin:/bin", "MAKELEVEL": "1"}
    assert resume_command([str(program)], environ) == 'make run ARGS="play --resume"'


def test_a_domino_bot_on_the_path_is_named_by_its_name(tmp_path: Path) -> None:
    program = installed(tmp_path)
    environ = {"PATH": f"/usr/bin{os.pathsep}{tmp_path}", "MAKELEVEL": "1"}
    assert resume_command([str(program)], environ) == "domino-bot play --resume"


def test_a_domino_bot_called_by_its_path_is_named_by_that_path(tmp_path: Path) -> None:
    program = installed(tmp_path)
    said = resume_command([".venv/bin/domino-bot"], {"PATH": "/usr/bin"})
    assert said == ".venv/bin/domino-bot play --resume"
    assert resume_command([str(program)], {"PATH": "/usr/bin"}) == f"{program} play --resume"


def test_python_dash_m_bot_is_named_as_such() -> None:
    said = resume_command(["/src/bot/__main__.py"], {"PATH": "/usr/bin"})
    assert said == "python -m bot play --resume"
    # Another program's __main__ (a test runner's, say) is not this one.
    other = resume_command(["/venv/lib/pytest/__main__.py"], {"PATH": "/usr/bin"})
    assert other == "domino-bot play --resume"


def test_the_farewell_names_the_command_in_the_tables_language() -> None:
    said = saved_farewell(translator("pl"))
    assert said.startswith("Partia zapisana: ") and "play --resume" in said
