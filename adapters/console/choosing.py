"""Which match the full-screen table sits down to: the saved match asked for,
or a choice among the saved ones, or a new match. Nothing here deletes a saved
match: leaving the choice (Escape) keeps them all."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from adapters.console.saved import Saved
from adapters.console.seating import TableRequest, Tables
from adapters.console.words import others_saved
from bot.views.i18n import Translator

NEW = "new"


async def choose_match(
    app: App[Any],
    _: Translator,
    request: TableRequest,
    tables: Tables,
    note: Callable[[str], None],
) -> Saved | str | None:
    """The saved match to continue, :data:`NEW` for a new one, ``None`` to leave;
    ``note`` tells the player what he should know on the way."""
    saved = tables.saved
    if request.resume:
        if len(saved) == 1:
            return saved[0]
        if saved:
            return await app.push_screen_wait(Choose(_, _("Saved matches:"), saved, new=False))
        note(_("There is no saved match: a new one begins."))
        return NEW
    like = tables.like(request)
    if like is not None:
        return await app.push_screen_wait(Choose(_, _("Saved matches:"), (like,), new=True))
    if saved:
        note(others_saved(_, len(saved)))
    return NEW


class Choose(ModalScreen[Saved | str | None]):
    """Continue one of the saved matches, start a new one, or leave (Escape)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "leave", "Leave"),
        # The arrows walk the choices as Tab does (Down must not leave Continue focused).
        Binding("down,right", "app.focus_next", show=False),
        Binding("up,left", "app.focus_previous", show=False),
    ]
    CSS = """
    Choose { align: center middle; }
#choose { width: 80%; max-width: 100; height: auto; padding: 1 2; border: heavy $primary; }
#choose Button { width: 100%; }
"""

    def __init__(self, _: Translator, title: str, saved: Sequence[Saved], *, new: bool) -> None:
        super().__init__()
        self._ = _
        self.heading = title
        self.saved = tuple(saved)
        self.new = new

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="choose"):
            yield Static(self.heading)
            for number, saved in enumerate(self.saved, 1):
                label = self._("Continue: %(match)s", match=saved.title(self._.lang))
                yield Button(label, id=f"saved-{number}", compact=True)
            if self.new:
                label = self._("Start a new match (the saved one stays)")
                yield Button(label, id=NEW, compact=True)
            yield Static(self._("Escape leaves; nothing is deleted."))

    @on(Button.Pressed)
    def chosen(self, event: Button.Pressed) -> None:
        pressed = event.button.id or ""
        if pressed == NEW:
            self.dismiss(NEW)
        else:
            self.dismiss(self.saved[int(pressed.removeprefix("saved-")) - 1])

    def action_leave(self) -> None:
        self.dismiss(None)
