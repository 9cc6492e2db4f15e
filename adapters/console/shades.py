"""The full-screen table's smaller pieces: its look, a move as a button, and the
screen that covers everything while the keyboard passes to another person."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Button, Static

from adapters.console.screens import Hand
from bot.i18n import Translator

TABLE_CSS = """
#title { background: $primary; color: $text; padding: 0 1; }
#main { height: 1fr; }
#left { width: 3fr; }
#right { width: 2fr; min-width: 30; }
#board { border: round $primary; padding: 0 1; height: auto; }
#hand { padding: 0 1; height: auto; }
#moves { grid-size: 4; grid-gutter: 1 2; height: auto; grid-rows: 1; padding: 0 1; }
#moves Button { width: 100%; min-width: 8; }
#status { padding: 0 1; color: $warning; height: auto; }
#log { border: round $secondary; height: 1fr; }
#panel { border: round $accent; height: 1fr; display: none; }
#panel.shown { display: block; }
"""


class MoveButton(Button):
    """One of the core's buttons: ``number`` is what the player may type for it (0:
    none), ``payload`` what a press sends (empty: leave the finished match)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,up", "app.step(-1)", "Previous", show=False),
        Binding("right,down", "app.step(1)", "Next", show=False),
        *(Binding(str(n), f"app.press_number({n})", f"Move {n}", show=False) for n in range(1, 10)),
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
        yield Static(
            _("Pass the keyboard to %(name)s and press Enter. ", name=self.player).strip()
            + "\n\n"
            + _("Only %(name)s should look at the screen now.", name=self.player),
            id="handover",
        )

    def action_taken(self) -> None:
        self.dismiss(None)


def tile_buttons(hand: Hand) -> list[MoveButton]:
    """The hand's buttons in the core's order: those that send a press are numbered
    as the line mode numbers them; the others (tiles that cannot go now) are shown
    greyed."""
    buttons = []
    number = 0
    for row in hand.screen.buttons:
        for button in row:
            if button.payload and button.enabled:
                number += 1
                buttons.append(MoveButton(number, button.label, button.payload))
            else:
                buttons.append(MoveButton(0, button.label, "", disabled=True))
    return buttons
