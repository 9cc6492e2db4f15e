"""The full-screen table's smaller pieces: its look, a move as a button, and the
screen that covers everything while the keyboard passes to another person."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final

from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.events import Key, Paste
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, RichLog, Static

from adapters.console.draw import hanging
from adapters.console.screens import Hand
from bot.model.contract import isolated
from bot.views.i18n import Translator

MOVE_LOG_WIDTH: Final = 20  # the narrowest the log of moves is drawn
MOVE_ROWS: Final = 6  # moves one column of the move list holds before the next begins

TABLE_CSS = """
#title { background: $primary; color: $text; padding: 0 1; }
#main { height: 1fr; }
#left { width: 3fr; }
#right { width: 2fr; min-width: 30; }
#board { border: round $primary; padding: 0 1; height: auto; }
#hand { padding: 0 1; height: auto; }
#moves { grid-size: 1; grid-gutter: 0 2; height: auto; grid-rows: 1; padding: 0 1; }
#moves Button { width: 100%; min-width: 8; text-align: left; content-align: left middle; }
#status { padding: 0 1; color: $warning; height: auto; }
#log { border: round $secondary; height: 1fr; }
#panel { border: round $accent; height: 1fr; display: none; }
#panel.shown { display: block; }
"""


def bind_table_keys(bindings: BindingsMap, _: Translator) -> None:
    """The table's keys, their names in the footer in the table's language (which is
    why they are bound when the table is made, not declared on its class)."""
    for key in ("f1", "f2", "f3", "escape", "ctrl+q", "ctrl+c"):
        bindings.key_to_bindings.pop(key, None)  # Textual's own meaning of the key
    bindings.bind("f1", "panel('help')", _("Help"))
    bindings.bind("f2", "panel('rules')", _("Rules"))
    bindings.bind("f3", "panel('scores')", _("Scores"))
    bindings.bind("escape", "close_panel", _("Close panel"), show=False)
    bindings.bind("ctrl+q", "leave", _("Leave (saved)"), priority=True)
    bindings.bind("ctrl+c", "leave", _("Leave (saved)"), show=False, priority=True)


class MoveLog(RichLog):
    """The moves as they are made, one entry a line; an entry too long for the log
    wraps between words or tiles and stays indented under its first line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._told: list[str] = []  # the entries, to write again when the last is told anew

    def note(self, text: str) -> None:
        self._told.append(text)
        self._write(text)

    def renote(self, text: str) -> None:
        """Tell the last entry anew (a player's draws in a row grew by one)."""
        if not self._told:
            self.note(text)
            return
        self._told[-1] = text
        self.clear()
        for entry in self._told:
            self._write(entry)

    def _write(self, text: str) -> None:
        width = max(MOVE_LOG_WIDTH, self.scrollable_content_region.width)
        self.write("\n".join(part for line in text.split("\n") for part in hanging(line, width)))


class MoveButton(Button):
    """One of the core's buttons: ``number`` is what the player may type for it (0:
    none), ``payload`` what a press sends (empty: leave the finished match).

    A move is pressed by Enter, the mouse, or its number typed at the prompt; what
    is typed while a move has the keyboard is the prompt's (see
    ``TableApp.typed_on_a_move``), digits included, since a move written out begins
    with one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,up", "app.step(-1)", "Previous", show=False),
        Binding("right,down", "app.step(1)", "Next", show=False),
    ]

    def __init__(self, number: int, label: str, payload: str, *, disabled: bool = False) -> None:
        super().__init__(f"{number}) {label}" if number else label, compact=True, disabled=disabled)
        self.number = number
        self.payload = payload
        self.gone = False  # replaced by newer buttons, waiting to be removed

    def on_mount(self) -> None:
        # Mounted after the older buttons went: now the first move may take the keyboard.
        focus_first = getattr(self.app, "focus_first_move", None)
        if focus_first is not None:
            self.call_after_refresh(focus_first)

    def on_focus(self) -> None:
        # The player came back to the moves (Tab, the mouse): Enter is the move's again.
        came_back = getattr(self.app, "moves_have_the_keyboard", None)
        if came_back is not None:
            came_back()

    async def on_key(self, event: Key) -> None:
        typed = getattr(self.app, "typed_on_a_move", None)
        if typed is not None and await typed(event.key, event.character, event.is_printable):
            event.stop()
            event.prevent_default()

    async def on_paste(self, event: Paste) -> None:
        pasted = getattr(self.app, "pasted_on_a_move", None)
        if pasted is not None:
            event.stop()
            await pasted(event.text)


class HandOver(Screen[None]):
    """Nothing of the table but a request to pass the keyboard; Enter goes on."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "taken", "Go on")]
    CSS = """
    HandOver { align: center middle; }
#handover { width: auto; padding: 1 4; border: heavy $primary; }
"""

    def __init__(self, _: Translator, name: str) -> None:
        super().__init__()
        self._ = _
        self.player = name

    def compose(self) -> ComposeResult:
        _ = self._
        name = isolated(self.player)
        yield Static(
            _("Pass the keyboard to %(name)s and press Enter. ", name=name).strip()
            + "\n\n"
            + _("Only %(name)s should look at the screen now.", name=name),
            id="handover",
        )

    def action_taken(self) -> None:
        self.dismiss(None)


def tile_buttons(hand: Hand) -> list[MoveButton]:
    """The hand's moves in the core's order, numbered as the line mode numbers them.
    Tiles that cannot go now are not among them: the hand's own lines list every tile."""
    return [MoveButton(n, b.label, b.payload or "") for n, b in enumerate(hand.buttons, 1)]


def move_list(buttons: Sequence[Widget]) -> tuple[int, list[Widget]]:
    """The moves as a list read down its columns, a column holding at most
    :data:`MOVE_ROWS`: how many columns, and the cells in the grid's order (row by
    row), blank where the last column ends early."""
    columns = max(1, -(-len(buttons) // MOVE_ROWS))
    rows = -(-len(buttons) // columns)
    cells: list[Widget] = []
    for row in range(rows):
        for column in range(columns):
            index = column * rows + row
            cells.append(buttons[index] if index < len(buttons) else Static(""))
    return columns, cells
