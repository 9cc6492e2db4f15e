"""The full-screen terminal table, drawn with Textual.

The table stays in place and changes as the game goes: the line of play with the
last move marked, the seats, whose turn it is, a log of recent moves, and the
hand of the person at the keyboard as buttons (click one, or move with the
arrows and press Enter, or type its number and Enter). The prompt below takes
the same words as the line mode (``6-4@L``, ``draw``, ``hint``, ``export`` …);
whatever is typed goes there whole, even while a move has the keyboard and
however fast it comes, so a typed word never presses a button. F1, F2 and F3
show the help, the rules and the scoreboard. With several people at one
keyboard, a hand-over screen covers everything between two of them.

As in the line mode, which moves exist is never decided here: the buttons are
the core's, and computers move through the core's timers, ticked while nobody
else has to act.
"""

from __future__ import annotations

import asyncio

from textual import on, work
from textual.events import Key
from textual.widgets import Button, Input

from adapters.console.choosing import choose_match
from adapters.console.saved import Saved
from adapters.console.screens import Hand
from adapters.console.shades import MoveButton
from adapters.console.tableview import TableView
from adapters.console.words import (
    QUIT_WORDS,
    Refusal,
    help_text,
    help_word,
    obey,
    press_for,
    saved_farewell,
    tables_taken,
)


class TableApp(TableView):
    """The table at the keyboard: sitting down at a new or saved match, what the
    player presses and types, and leaving."""

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
        self.title_parts()
        self.sit_down()

    @work(exclusive=True, group="sit")
    async def sit_down(self) -> None:
        chosen = await choose_match(self, self._, self.request, self.tables, self._note)
        if isinstance(chosen, Saved):
            self.speak(chosen.lang)  # the core draws the match in its own language
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
        self._poller = self.set_interval(self.poll, self._tick)

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
        self._typing = False
        text = event.value.strip()
        word = (text.split() or [""])[0].lower()
        hand = self.table.screens.to_move()
        self._status("")
        if word in QUIT_WORDS:
            self.action_leave()
            return
        if help_word(word):
            self._panel(help_text(self._))
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

    def moves_have_the_keyboard(self) -> None:
        self._typing = False  # the player chose a move: Enter is for it now

    def action_step(self, step: int) -> None:
        buttons = [b for b in self.query(MoveButton) if not (b.disabled or b.gone)]
        if not buttons:
            return
        at = buttons.index(self.focused) if self.focused in buttons else -step
        buttons[(at + step) % len(buttons)].focus()

    async def typed_on_a_move(self, key: str, character: str | None, printable: bool) -> bool:
        """Whether a key that reached a move button was the prompt's, and so taken there.

        A character goes to the prompt, which takes the keyboard at once; keys
        already on their way to the move in a burst (fast typing, a paste), the rest
        of a word and the Enter after it, still reach the move: while the typing goes
        on they are the prompt's too, and Enter sends what was typed instead of
        pressing the move."""
        prompt = self.query_one("#prompt", Input)
        if printable and character:
            self._typing = True
            prompt.insert_text_at_cursor(character)
            prompt.screen.set_focus(prompt)  # now, not once the keys queued are served
            return True
        if not (self._typing and prompt.value):
            return False
        if key == "enter":
            await prompt.action_submit()
        elif key == "backspace":
            prompt.action_delete_left()
        else:
            return False
        return True

    async def on_key(self, event: Key) -> None:
        """A key that reached the table with nothing taking it (the log of moves or the
        side panel had the keyboard, or nothing had, as after a move while computers
        play) is the prompt's, as on a move: ``quit`` typed then must not be lost. Enter
        and Backspace that come here while the prompt has the keyboard are its own
        bindings' already."""
        if not self.screen.query("#prompt"):
            return  # a choice or a hand-over covers the table
        if not event.is_printable and isinstance(self.focused, Input):
            return
        if await self.typed_on_a_move(event.key, event.character, event.is_printable):
            event.stop()

    async def pasted_on_a_move(self, text: str) -> None:
        """Pasted text goes to the prompt; a line break in it sends the line before it."""
        line, newline, _rest = text.partition("\n")
        await self.typed_on_a_move("", line.rstrip("\r"), True)
        if newline:
            await self.typed_on_a_move("enter", None, False)

    def action_panel(self, name: str) -> None:
        if name == "help":
            self._panel(help_text(self._))
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
        self.leaving = True
        if self._poller is not None:
            self._poller.pause()
        self.run_worker(self._exit_when_idle(status), group="leave", exclusive=True)

    async def _exit_when_idle(self, status: int) -> None:
        """Exit once the core has finished what it is doing for the table (a computer's
        move, a press). Leaving cancels the table's timer, and a cancel that reached the
        store's client in the middle of a request could be taken for that request's
        and lost, which left the timer running and the program waiting for it for ever."""
        async with self._busy:
            self.exit(status)
