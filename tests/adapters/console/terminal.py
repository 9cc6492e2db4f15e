"""A terminal for tests: typed lines in, the transcript out, time moved by the table's
own waits (a computer's pause costs no real time)."""

from __future__ import annotations

import asyncio
import io
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adapters.console import CHAT, ConsoleAdapter, StreamLines, TableRequest, look_around
from bot.model.contract import ChatRef
from bot.model.game_state import build_state
from bot.model.gamedoc import GameDoc, from_json
from bot.storage.store import Store
from bot.table.painter import Painter
from bot.table.sessions import Sessions
from engine import State
from tests.bot import driver
from tests.bot.driver import SETTINGS

LINE = re.compile(r"^│ Line: (.*)$", re.MULTILINE)
WAIT = "\0wait"  # a reactive answer that types nothing, ever


class Clock(driver.Clock):
    """The core tests' hand-moved clock, which the table's own waits also move."""

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)  # let a test's timeout fire if the table never stops


class Reactive:
    """Lines chosen while the game runs: ``respond`` sees the transcript so far and
    returns the next line, ``None`` to end the input, or :data:`WAIT` to type nothing."""

    def __init__(self, out: io.StringIO, respond: Callable[[str], str | None]) -> None:
        self._out = out
        self._respond = respond

    async def readline(self) -> str | None:
        line = self._respond(self._out.getvalue())
        if line == WAIT:
            await asyncio.Event().wait()
        return line

    def close(self) -> None:
        pass


@dataclass
class Terminal:
    store: Store
    clock: Clock
    folder: Path
    seed: int = 1
    painter: Painter = field(default_factory=Painter)  # counts the pictures asked of it

    async def play(
        self,
        typed: Sequence[str] | Callable[[str], str | None],
        request: TableRequest,
        *,
        stop: asyncio.Event | None = None,
        clear_screen: bool = False,
    ) -> tuple[int, str]:
        """Run ``domino-bot play`` as the CLI would (resuming from the store); the exit
        status and the transcript, typed lines included."""
        sessions = Sessions(
            self.store,
            SETTINGS,
            clock=self.clock,
            rng=random.Random(self.seed),
            painter=self.painter,
        )
        tables = await look_around(self.store)
        out = io.StringIO()
        lines: Any
        if callable(typed):
            lines = Reactive(out, typed)
        else:
            lines = StreamLines(io.StringIO("".join(f"{line}\n" for line in typed)))
        console = ConsoleAdapter(
            sessions,
            lines,
            out,
            stop=stop,
            clock=self.clock,
            sleep=self.clock.sleep,
            echo=True,
            clear_screen=clear_screen,
            export_dir=self.folder,
        )
        status = await asyncio.wait_for(console.run(request, tables), 60)
        return status, out.getvalue()

    async def game(self, chat: ChatRef = CHAT) -> tuple[GameDoc, State[Any]] | None:
        stored = await self.store.load(chat)
        if stored is None:
            return None
        doc = from_json(stored.doc)
        return doc, build_state(doc)


def last_line(transcript: str) -> str:
    """The line of tiles on the last table printed."""
    found = LINE.findall(transcript)
    return found[-1] if found else ""


def always(line: str, times: int = 2000) -> list[str]:
    return [line] * times
