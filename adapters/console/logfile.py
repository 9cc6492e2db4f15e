"""Log records while the full-screen table is up: into a file, never over the table.

A log handler that writes to standard error writes straight onto the terminal,
across whatever the table drew there. While the table is up, such handlers write
into a file instead, and a record of WARNING or above is told on the table's
status line, naming the file.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TextIO

#: The file the full-screen table's log records go to, in the data folder.
LOG_FILE = "terminal.log"


class Telling(logging.Handler):
    """Calls ``tell`` on the event loop for each record at WARNING or above, from
    whichever thread logged it."""

    def __init__(self, tell: Callable[[], None], loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(logging.WARNING)
        self._tell = tell
        self._loop = loop

    def emit(self, record: logging.LogRecord) -> None:
        if not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._tell)


@contextmanager
def logs_into(path: Path, tell: Callable[[], None]) -> Iterator[None]:
    """Inside the block, the handlers that write to standard error write into
    ``path`` (made if missing, appended to), and ``tell`` is called on the running
    event loop whenever a record of WARNING or above is logged."""
    root = logging.getLogger()
    terminal = (sys.stderr, sys.__stderr__)
    moved = [
        h for h in root.handlers if isinstance(h, logging.StreamHandler) and h.stream in terminal
    ]
    telling = Telling(tell, asyncio.get_running_loop())
    with ExitStack() as stack:
        path.parent.mkdir(parents=True, exist_ok=True)
        file: TextIO = stack.enter_context(path.open("a", encoding="utf-8"))
        olds = [(handler, handler.setStream(file)) for handler in moved]
        root.addHandler(telling)
        try:
            yield
        finally:
            root.removeHandler(telling)
            for handler, old in olds:
                if old is not None:
                    handler.setStream(old)
