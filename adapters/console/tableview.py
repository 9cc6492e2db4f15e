"""The table on the terminal screen, and the core behind it.

What is in view is drawn here: the table read by :class:`TableReader`, the log
of moves, the hand of whoever has the keyboard as move buttons, and the hand-over
screen between two people at one keyboard. Presses and commands go to the core
one at a time, and what comes back is shown: answers below the hand, notices in
the log, longer replies in the side panel.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

from textual.app import App, ComposeResult
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Footer, Input, Static

from adapters.console.draw import screen_lines
from adapters.console.marks import hand_text, held_lines, wrapped
from adapters.console.reading import TableReader, read_table
from adapters.console.saved import CHAT
from adapters.console.screens import Hand, pressable
from adapters.console.seating import Core, Table, TableRequest, Tables
from adapters.console.shades import (
    MOVE_LOG_WIDTH,
    TABLE_CSS,
    HandOver,
    MoveButton,
    MoveLog,
    bind_table_keys,
    move_list,
    tile_buttons,
)
from adapters.console.words import export_file
from bot.model.contract import Answer, Document, Notice, Outbound, Response, UserRef
from bot.model.hand import HandView
from bot.views.i18n import N_, translator

PROMPT: Final = N_("a move's number, 6-4@L, draw, hint, help …")


class TableView(App[int]):
    CSS = TABLE_CSS
    # Textual's command palette speaks English only and offers nothing of the table's
    # own (its keys are in the footer, its words at the prompt): the table has none.
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        core: Core,
        request: TableRequest,
        tables: Tables,
        *,
        poll: float = 0.5,
        clock: Callable[[], float] = time.time,
        export_dir: Path = Path("exports"),
        log_file: Path | None = None,
    ) -> None:
        """``log_file``: where log records go while the table is up (see
        :mod:`adapters.console.logfile`), to name when one is worth a look."""
        super().__init__()
        self.table = Table(core, CHAT)
        self.request = request
        self.tables = tables
        self.poll = poll
        self.clock = clock
        self.export_dir = export_dir
        self.log_file = log_file
        self.farewell = ""  # what to say once the screen is gone
        self.keyboard: UserRef | None = None  # who has the keyboard now
        self._ = _ = translator(request.lang or "en")
        bind_table_keys(self._bindings, _)
        self._busy = asyncio.Lock()
        self._reader = TableReader(_)
        self._hand_models: dict[str, HandView | None] = {}  # as each hand was last drawn
        self._handing_over = False
        self._started = False
        self._poller: Timer | None = None  # lets the core's timers move the computers
        self.leaving = False  # the player left: the core is asked nothing more
        self._typing = False  # keys that reached a move went to the prompt; more may follow
        # What the hand area shows: whose hand in which version, the next-deal button,
        # whether the match is over; it is drawn again only when one of them changes.
        self._drawn: tuple[tuple[str, int] | None, str | None, bool] | None = None

    def speak(self, lang: str) -> None:
        """Say what the table says around the core's screens in ``lang``."""
        self._ = _ = translator(lang)
        self._reader = TableReader(_)
        bind_table_keys(self._bindings, _)
        self.refresh_bindings()
        self.query_one("#prompt", Input).placeholder = _(PROMPT)
        self.title_parts()

    def title_parts(self) -> None:
        _ = self._
        self.query_one("#board").border_title = _("Table")
        self.query_one("#log").border_title = _("Moves")
        self.query_one("#panel").border_title = _("Esc closes")

    # -- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static("", id="title")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static("", id="board")
                yield Static("", id="hand")
                yield Grid(id="moves")
                yield Static("", id="status")
                # Not selected on focus: the letter that moved the focus here stays as typed.
                yield Input(
                    placeholder=self._(PROMPT),
                    id="prompt",
                    select_on_focus=False,
                )
            with Vertical(id="right"):
                yield MoveLog(id="log", wrap=True, markup=False, min_width=MOVE_LOG_WIDTH)
                with VerticalScroll(id="panel"):
                    yield Static("", id="panel-text")
        yield Footer()

    # -- the core ---------------------------------------------------------------------

    async def _tick(self) -> None:
        """Let the core's timers move the computers (and deal) while no person must act."""
        if self._busy.locked() or self._handing_over or self.leaving:
            return
        screens = self.table.screens
        if screens.to_move() is not None or screens.over():
            return
        async with self._busy:
            if not self.leaving:
                self._carry_out(await self.table.tick())

    async def press(self, payload: str) -> None:
        user = self.keyboard or self.table.host
        async with self._busy:
            self._carry_out(await self.table.press(user, payload))

    async def _command(self, name: str, *args: str) -> list[Outbound]:
        user = self.keyboard or self.table.host
        async with self._busy:
            return await self.table.command(user, name, *args)

    def _carry_out(self, replies: list[Outbound]) -> None:
        for reply in replies:
            if isinstance(reply, Answer) and reply.text:
                self._status(reply.text)
            elif isinstance(reply, Notice) and reply.screen.picture is None:
                # A picture's caption only names it; the table shows the deal's end.
                self._note(" ".join(screen_lines(reply.screen, self.clock(), 10_000)))
            elif isinstance(reply, Response):
                self._panel("\n".join(screen_lines(reply.screen, self.clock(), 10_000)))
            elif isinstance(reply, Document):
                self._status(export_file(self.export_dir, reply, self._))
        self._draw()

    # -- drawing ----------------------------------------------------------------------

    def _draw(self) -> None:
        screens = self.table.screens
        if screens.table is not None:
            reading = read_table(self._reader, self.table, self.clock())
            self.query_one("#title", Static).update(reading.title)
            for number, note in enumerate(reading.notes):
                if number == 0 and reading.regrown:
                    self.query_one("#log", MoveLog).renote(note)
                else:
                    self._note(note)
            board = self.query_one("#board", Static)
            board.update(wrapped(reading.board, board.content_region.width))
        mover = screens.to_move()
        several = len(self.table.users) > 1
        if (
            mover is not None
            and several
            and (self.keyboard is None or mover.user.key != self.keyboard.key)
        ):
            self._hand_over(mover.user)
            return
        if mover is not None:
            self.keyboard = mover.user
        elif self.keyboard is None:
            self.keyboard = self.table.host
        hand = screens.hands.get(self.keyboard.key)
        if several and mover is None:
            hand = None  # between two people's turns the screen shows nobody's tiles
        self._draw_hand(hand)

    def _draw_hand(self, hand: Hand | None) -> None:
        screens = self.table.screens
        shown = (hand.user.key, hand.version) if hand is not None else None
        next_deal = screens.next_deal()
        over = screens.over()
        key = (shown, next_deal, over)
        if key == self._drawn:
            return
        self._drawn = key
        text = self.query_one("#hand", Static)
        grid = self.query_one("#moves", Grid)
        self._clear_moves()
        if hand is None:
            text.update("")
        else:
            lines = screen_lines(hand.screen, self.clock(), 10_000)[1:]
            held = hand.model
            shown_lines = held_lines(lines, held) if next_deal is not None or over else lines
            text.update(hand_text(shown_lines, held, self._hand_models.get(hand.user.key)))
            self._hand_models[hand.user.key] = held
        buttons = tile_buttons(hand) if hand is not None else []
        if next_deal is not None and screens.table is not None:
            label = next(b.label for b in pressable(screens.table) if b.payload == next_deal)
            buttons.append(MoveButton(0, label, next_deal))
        elif over:
            # Leave alone, where the keyboard lands: the hand's Review my play is the
            # review command here, which help lists, and no key or click asks it by chance.
            # That the match is over the table says, with who won.
            buttons = [MoveButton(0, self._("Leave"), "")]
        columns, cells = move_list(buttons)
        grid.styles.grid_size_columns = columns
        grid.mount_all(cells)

    def _clear_moves(self) -> None:
        for button in self.query(MoveButton):
            button.gone = True  # removal happens later; it must not take the keyboard
        self.query_one("#moves", Grid).remove_children()

    def focus_first_move(self) -> None:
        """The first move takes the keyboard, unless the player is typing at the prompt."""
        buttons = [b for b in self.query(MoveButton) if not (b.disabled or b.gone)]
        prompt = self.query_one("#prompt", Input)
        if buttons and self.focused not in buttons and not (prompt.has_focus and prompt.value):
            buttons[0].focus()

    def _hand_over(self, user: UserRef) -> None:
        """Hide the hand that was showing and wait until the next person says he is there."""
        if self._handing_over:
            return
        self._handing_over = True
        self.query_one("#hand", Static).update("")
        self._clear_moves()
        self._drawn = None
        self.query_one("#prompt", Input).value = ""

        def taken(_: None) -> None:
            self._handing_over = False
            self.keyboard = user
            self._draw()

        self.push_screen(HandOver(self._, user.name), taken)

    def logged(self) -> None:
        """A record of WARNING or above was logged: say where to read it."""
        if self.log_file is not None and self.is_running:
            self._status(
                self._("Something went wrong; the log says what: %(path)s", path=str(self.log_file))
            )

    def _note(self, text: str) -> None:
        self.query_one("#log", MoveLog).note(text)

    def _status(self, text: str) -> None:
        self.query_one("#status", Static).update(text)

    def _panel(self, text: str) -> None:
        self.query_one("#panel-text", Static).update(text)
        self.query_one("#panel").add_class("shown")
