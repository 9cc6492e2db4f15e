"""The full-screen table with computers thinking in worker processes, as ``domino-bot
play`` runs it: the workers serve a whole match, and log records go to a file the
table names, never onto the terminal."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from adapters.console import TableRequest, look_around
from adapters.console.fullscreen import TableApp
from adapters.console.logfile import logs_into
from adapters.console.shades import MoveButton
from bot.ai import Allowance
from bot.ai.thinker import Thinker
from bot.app.logging_setup import setup_logging
from bot.storage.store import Store
from bot.table.sessions import Sessions
from tests.adapters.console.test_fullscreen import QUICK_CORE, SIZE, table_app, text_of, until

STRONG = TableRequest("tyaga", level="strong", options=("target=10",))


async def test_a_match_against_strong_computers_in_workers_logs_no_problem(
    store: Store, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    thinker = Thinker(1, Allowance(seconds=0.02))
    thinker.start()  # as domino-bot play does, before the screen is taken
    try:
        sessions = Sessions(store, QUICK_CORE, rng=random.Random(7), thinker=thinker)
        tables = await look_around(store)
        log_file = tmp_path / "terminal.log"
        app = TableApp(sessions, STRONG, tables, poll=0.01, log_file=log_file)
        with logs_into(log_file, app.logged):
            async with app.run_test(size=SIZE) as pilot:
                while app.is_running:
                    await until(lambda: isinstance(app.focused, MoveButton) or not app.is_running)
                    if app.is_running:
                        await pilot.press("enter")
    finally:
        thinker.close()
    problems = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert problems == [], [r.getMessage() for r in problems]
    assert app.return_value == 0


async def test_a_log_record_goes_to_the_file_the_table_names_and_not_to_the_terminal(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    handler = setup_logging("text", "INFO")  # onto standard error, as the command sets it up
    try:
        app = await table_app(store, STRONG, tmp_path)
        app.log_file = tmp_path / "logs" / "terminal.log"
        with logs_into(app.log_file, app.logged):
            async with app.run_test(size=SIZE) as pilot:
                await until(lambda: isinstance(app.focused, MoveButton))
                logging.getLogger("bot.somewhere").error("the table must not show this")
                await until(lambda: str(app.log_file) in text_of(app, "#status"))
                await pilot.press("ctrl+q")
        logging.getLogger("bot.somewhere").error("after the table")
    finally:
        logging.getLogger().removeHandler(handler)
    assert "the table must not show this" in app.log_file.read_text()
    err = capsys.readouterr().err
    assert "the table must not show this" not in err
    assert "after the table" in err  # standard error has its handler back
