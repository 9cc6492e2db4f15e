"""The full-screen terminal table, drawn with Textual.

The table stays in place and changes as the game goes: the line of play with the
last move marked, the seats, whose turn it is, a log of recent moves, and the
hand of the person at the keyboard as buttons (click one, or move with the
arrows and press Enter, or press its number). The prompt below takes the same
words as the line mode (``6-4@L``, ``draw``, ``hint``, ``export`` …); F1, F2
and F3 show the help, the rules and the scoreboard. With several people at one
keyboard, a hand-over screen covers everything between two of them.

As in the line mode, which moves exist is never decided here: the buttons are
the core's, and computers move through the core's timers, ticked while nobody
else has to act.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from textual import on, work
from textual.app import App, ComposeResult
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.events import Key
from textual.widgets import Button, Footer, Input, Static

from adapters.console.choosing import choose_match
from adapters.console.draw import line_text, screen_lines
from adapters.console.marks import hand_text, wrapped
from adapters.console.reading import TableReader
from adapters.console.saved import CHAT, Saved
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
from adapters.console.words import (
    HELP,
    QUIT_WORDS,
    Refusal,
    export_file,
    help_word,
    obey,
    press_for,
    saved_farewell,
    tables_taken,
)
from bot.contract import Answer, Document, Notice, Outbound, Response, UserRef
from bot.i18n import translator


class TableApp(App[int]):
    CSS = TABLE_CSS

    def __init__(
        self,
        core: Core,
        request: TableRequest,
        tables: Tables,
        *,
        poll: float = 0.5,
        clock: Callable[[], float] = time.time,
        export_dir: Path = Path("exports"),
    ) -> None:
        super().__init__()
        self.table = Table(core, CHAT)
        self.request = request
        self.tables = tables
        self.poll = poll
        self.clock = clock
        self.export_dir = export_dir
        self.farewell = ""  # what to say once the screen is gone
        self.keyboard: UserRef | None = None  # who has the keyboard now
        self._ = _ = translator(request.lang or "en")
        bind_table_keys(self._bindings, _)
        self._busy = asyncio.Lock()
        self._reader = TableReader(_)
        self._hands: dict[str, list[str]] = {}
        self._handing_over = False
        self._started = False
        # What the hand area shows: whose hand in which version, the next-deal button,
        # whether the match is over; it is drawn again only when one of them changes.
        self._drawn: tuple[tuple[str, int] | None, str | None, bool] | None = None

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
                    placeholder=self._("a move's number, 6-4@L, draw, hint, help …"),
                    id="prompt",
                    select_on_focus=False,
                )
            with Vertical(id="right"):
                yield MoveLog(id="log", wrap=True, markup=False, min_width=MOVE_LOG_WIDTH)
                with VerticalScroll(id="panel"):
                    yield Static("", id="panel-text")
        yield Footer()

    async def play(self, stop: asyncio.Event | None = None) -> int:
        """Run full screen until the match ends, the player leaves or ``stop`` is set
        (SIGTERM); the exit status. What the player should still read (the match is
        saved …) is printed after."""
        stopping = asyncio.create_task((stop or asyncio.Event()).wait())
        stopping.add_done_callback(lambda _: self.action_leave())
        try:
            status = await self.run_async()
        finally:
            stopping.cancel()
        if self.farewell:
            print(self.farewell)
        return status if status is not None else 0

    # -- sitting down -----------------------------------------------------------------

    def on_mount(self) -> None:
        self.query_one("#board").border_title = self._("Table")
        self.query_one("#log").border_title = self._("Moves")
        self.query_one("#panel").border_title = self._("Esc closes")
        self.sit_down()

    @work(exclusive=True, group="sit")
    async def sit_down(self) -> None:
        chosen = await choose_match(self, self._, self.request, self.tables, self._note)
        if isinstance(chosen, Saved):
            self._note(
                self._("Continuing the saved match: %(match)s.", match=chosen.title(self._.lang))
            )
            self._carry_out(self.table.resume(chosen))
        elif chosen is None:
            self._leave(0, "")
            return
        elif self.tables.free is None:
            self._leave(2, tables_taken(self._, len(self.tables.saved)))
            return
        else:
            self.table.chat, stale_lobby = self.tables.free
            problem = await self.table.open(self.request, stale_lobby)
            if problem is not None:
                self._leave(2, problem)
                return
            self._carry_out([])
        self._started = True
        self.set_interval(self.poll, self._tick)

    # -- the core ---------------------------------------------------------------------

    async def _tick(self) -> None:
        """Let the core's timers move the computers (and deal) while no person must act."""
        if self._busy.locked() or self._handing_over:
            return
        screens = self.table.screens
        if screens.to_move() is not None or screens.over():
            return
        async with self._busy:
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
            lines = screen_lines(screens.table, self.clock(), 10_000)
            ended = screens.next_deal() is not None or screens.over()
            card = screens.table.card
            moves = [line_text(line, self.clock()) for line in card.moves] if card else []
            reading = self._reader.read(lines, ended, moves, *self._you_and_hand())
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

    def _you_and_hand(self) -> tuple[str | None, tuple[list[str], list[str]]]:
        """The one player's name, and his hand's lines now and as last shown."""
        you = self.table.you
        hand = self.table.screens.hands.get(you.key) if you is not None else None
        if you is None or hand is None:
            return None, ([], [])
        now = screen_lines(hand.screen, self.clock(), 10_000)[1:]
        return you.name, (now, self._hands.get(you.key, []))

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
            text.update(hand_text(lines, self._hands.get(hand.user.key, [])))
            self._hands[hand.user.key] = lines
        buttons = tile_buttons(hand) if hand is not None else []
        if next_deal is not None and screens.table is not None:
            label = next(b.label for b in pressable(screens.table) if b.payload == next_deal)
            buttons.append(MoveButton(0, label, next_deal))
        elif over:
            buttons.append(MoveButton(0, self._("Leave"), ""))
            self._status(self._("The match is over."))
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

    def _note(self, text: str) -> None:
        self.query_one("#log", MoveLog).note(text)

    def _status(self, text: str) -> None:
        self.query_one("#status", Static).update(text)

    def _panel(self, text: str) -> None:
        self.query_one("#panel-text", Static).update(text)
        self.query_one("#panel").add_class("shown")

    # -- the player's input -----------------------------------------------------------

    @on(Button.Pressed)
    async def pressed(self, event: Button.Pressed) -> None:
        button = event.button
        if not isinstance(button, MoveButton):
            return
        if not button.payload:  # the match is over
            self._leave(0, "")
            return
        self._status("")
        await self.press(button.payload)

    @on(Input.Submitted, "#prompt")
    async def typed(self, event: Input.Submitted) -> None:
        event.input.value = ""
        text = event.value.strip()
        word = (text.split() or [""])[0].lower()
        hand = self.table.screens.to_move()
        self._status("")
        if word in QUIT_WORDS:
            self.action_leave()
            return
        if help_word(word):
            self._panel(self._(HELP))
            return
        buttons = hand.buttons if hand else []
        obeyed = await obey(self._, text, buttons, self._command, self.export_dir)
        if obeyed is not None:
            self._status(" ".join(obeyed.told))
            self._carry_out(list(obeyed.replies))
            if obeyed.leaving is not None:
                self._leave(0, obeyed.leaving)
        elif word == "table":
            pass  # the table is always in view
        elif word == "" and self.table.screens.next_deal() is not None:
            await self.press(self.table.screens.next_deal() or "")
        elif hand is None:
            self._status(self._("It is not your turn: wait, or type help."))
        elif word:
            await self._press_typed(hand, text)

    async def _press_typed(self, hand: Hand, text: str) -> None:
        payload = press_for(self._, text, hand.buttons)
        if isinstance(payload, Refusal):
            self._status(payload.text)
        else:
            await self.press(payload)

    async def action_press_number(self, number: int) -> None:
        hand = self.table.screens.to_move()
        if hand is not None and not self._handing_over:
            await self._press_typed(hand, str(number))

    def action_step(self, step: int) -> None:
        buttons = [b for b in self.query(MoveButton) if not (b.disabled or b.gone)]
        if not buttons:
            return
        at = buttons.index(self.focused) if self.focused in buttons else -step
        buttons[(at + step) % len(buttons)].focus()

    def on_key(self, event: Key) -> None:
        """Letters typed while a move is focused go to the prompt."""
        typed = event.character if event.is_printable else None
        if isinstance(self.focused, MoveButton) and typed and not typed.isdigit():
            prompt = self.query_one("#prompt", Input)
            prompt.focus()
            prompt.insert_text_at_cursor(typed)
            event.stop()

    def action_panel(self, name: str) -> None:
        if name == "help":
            self._panel(self._(HELP))
        else:
            self.run_worker(self._show_command(name))

    async def _show_command(self, name: str) -> None:
        self._carry_out(await self._command(name))

    def action_close_panel(self) -> None:
        self.query_one("#panel").remove_class("shown")

    def action_leave(self) -> None:
        if not self.is_running:
            return
        over = self.table.screens.table is None or self.table.screens.over()
        self._leave(
            0,
            "" if over or not self._started else saved_farewell(self._),
        )

    def _leave(self, status: int, farewell: str) -> None:
        self.farewell = farewell
        self.exit(status)
