"""Pictures written to files, for the terminal: one picture per deal's end of
a replay (``domino-bot replay FILE --png DIR``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import engine
from bot.model.table import position_table
from bot.picture import table_png
from bot.picture.status import status_lines
from bot.views.i18n import Translator
from bot.views.replay_story import seat_name
from engine import State


class CannotWrite(Exception):
    """A picture could not be written; the message names the file and why."""


class DealPictures:
    """Writes the table at each deal's end into ``folder`` as ``deal-01.png``, …,
    naming seats as the replay's story does (a replay file has no names)."""

    def __init__(self, translator: Translator, folder: Path) -> None:
        self.translator = translator
        self.folder = folder
        self.written: list[Path] = []

    def __call__(self, state: State[Any]) -> None:
        _ = self.translator
        names = [seat_name(_, seat) for seat in range(state.players)]
        seen = engine.public_view(state)
        table = position_table(seen, names)
        status = status_lines(_, table, names.__getitem__)
        path = self.folder / f"deal-{state.deal_number:02d}.png"
        picture = table_png(_, table, names, status, seen.revealed)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            path.write_bytes(picture)
        except OSError as exc:
            raise CannotWrite(f"{path}: {exc.strerror or exc}") from None
        self.written.append(path)
