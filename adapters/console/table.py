"""The terminal table in plain lines: the core's screens printed, typed input
turned into presses. It is the table for pipes, scripts and screen readers (and
for ``--plain``); an interactive terminal gets the full-screen one.

The console is a chat of its own (``con:local``, or another of the terminal's
tables while matches are saved) where everyone at the keyboard is an admin. It
opens a table through the same commands a group would send, then loops: a
person whose hand offers moves is asked for one; a finished deal waits for
Enter; otherwise the core's timers are ticked until a computer has moved.
Which moves exist is never decided here: they are the buttons the core sent.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Final, TextIO

from adapters.console.draw import (
    WIDTH,
    choice_rows,
    framed,
    note,
    readable,
    screen_lines,
    wrap,
)
from adapters.console.lines import LineSource
from adapters.console.reading import TableReader, read_table
from adapters.console.saved import CHAT, Saved
from adapters.console.screens import Hand, Screens
from adapters.console.seating import Core, Table, TableRequest, Tables
from adapters.console.words import (
    QUIT_WORDS,
    Refusal,
    export_file,
    help_text,
    help_word,
    obey,
    others_saved,
    press_for,
    saved_farewell,
    tables_taken,
)
from bot.model.contract import (
    Answer,
    Document,
    Notice,
    Outbound,
    Response,
    UserRef,
    isolated,
)
from bot.views.i18n import Translator, translator

POLL: Final = 0.2  # seconds between two looks at the core's timers
CLEAR: Final = "\x1b[H\x1b[2J\x1b[3J"  # home, clear the screen, clear the scrollback


class Leave(Exception):
    """Stop playing: the player quit, the input ended, or the process is stopping."""


class ConsoleAdapter:
    def __init__(
        self,
        core: Core,
        lines: LineSource,
        out: TextIO,
        *,
        stop: asyncio.Event | None = None,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        echo: bool = False,
        clear_screen: bool = False,
        width: int = WIDTH,
        export_dir: Path = Path("exports"),
    ) -> None:
        """``echo`` repeats typed lines (input that is not a terminal); ``clear_screen``
        wipes the terminal and its scrollback before the keyboard passes to another
        player."""
        self.core = core
        self.lines = lines
        self.out = out
        self.stop = stop or asyncio.Event()
        self.clock = clock
        self.sleep = sleep
        self.echo = echo
        self.clear_screen = clear_screen
        self.width = width
        self.export_dir = export_dir
        self.table = Table(core, CHAT)
        self._printed_table = ""
        self._printed_hand: dict[str, int] = {}
        self._reader: TableReader | None = None  # reads the table's shows in turn
        self._keyboard: str | None = None  # who has the keyboard now
        self._lang = "en"

    @property
    def screens(self) -> Screens:
        return self.table.screens

    # -- the session ------------------------------------------------------------------

    @property
    def _(self) -> Translator:
        """The table's language, for what the terminal says besides the core's screens."""
        return translator(self._lang)

    async def run(self, request: TableRequest, tables: Tables | None = None) -> int:
        """Play until the match ends or the player leaves; the exit status. ``tables``
        are the terminal's tables as :func:`look_around` found them (none: the first
        table, free)."""
        self._lang = request.lang or "en"
        try:
            if not await self._sit_down(request, tables or Tables(free=(CHAT, False))):
                return 2
            await self._play()
        except Leave as leaving:
            self._say(f"{leaving} {self._farewell()}".strip())
        finally:
            self.lines.close()
        return 0

    async def _sit_down(self, request: TableRequest, tables: Tables) -> bool:
        """Continue a saved match or open a new table; a saved match is never thrown
        away here, whatever the answer and whether or not the new table opens."""
        chosen = await self._choose(request, tables)
        if chosen is not None:
            # The core draws the match in its own language: what is said around it too.
            self._lang = chosen.lang
            title = chosen.title(self._lang)
            self._say(self._("Continuing the saved match: %(match)s.", match=title))
            self._carry_out(self.table.resume(chosen))
            return True
        if tables.free is None:
            self._say(
                tables_taken(
                    self._,
                    len(tables.saved),
                )
            )
            return False
        self.table.chat, stale_lobby = tables.free
        problem = await self.table.open(request, stale_lobby)
        if problem is not None:
            self._say(problem)
            return False
        self._carry_out([])
        return True

    async def _choose(self, request: TableRequest, tables: Tables) -> Saved | None:
        """The saved match to continue, if the player wants one."""
        saved = tables.saved
        if request.resume:
            if not saved:
                self._say(self._("There is no saved match: a new one begins."))
                return None
            if len(saved) == 1:
                return saved[0]
            self._write(self._("Saved matches:") + "\n")
            self._write("".join(f"  {n}) {s.title(self._lang)}\n" for n, s in enumerate(saved, 1)))
            while True:
                answer = (
                    await self._read(self._("Which one? [1-%(n)d] ", n=len(saved)), quit_words=True)
                ).strip()
                if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= len(saved):
                    return saved[int(answer) - 1]
        like = tables.like(request)
        if like is not None:
            self._say(self._("A match is saved: %(match)s.", match=like.title(self._lang)))
            while True:
                asked = await self._read(self._("Continue it? [Y/n] "), quit_words=True)
                answer = asked.strip().lower()
                # Enter alone continues it: the capital letter says so, and a new match
                # would not replace it anyway.
                if answer in ("", "y", "yes", self._("y"), self._("yes")):
                    return like
                if answer in ("n", "no", self._("n"), self._("no")):
                    break
        if saved:
            self._say(others_saved(self._, len(saved)))
        return None

    async def _play(self) -> None:
        while True:
            if self.stop.is_set():
                raise Leave(self._("Stopped."))
            hand = self.screens.to_move()
            if hand is not None:
                await self._turn(hand)
                continue
            next_deal = self.screens.next_deal()
            if next_deal is not None:
                await self._between_deals(next_deal)
                continue
            if self.screens.over():
                self._say(self._("Bye!"))  # the table above says the match is over
                return
            await self._wait_for_core()

    # -- a person's turn ------------------------------------------------------------

    async def _turn(self, hand: Hand) -> None:
        key = hand.user.key
        if self._keyboard != key:
            if len(self.table.users) > 1:  # nobody else may see this hand
                await self._pass_keyboard(hand.user)
            self._keyboard = key
        if self._printed_hand.get(key) != hand.version:
            self._print_hand(hand)
        text = (await self._read(f"{hand.user.name}> ")).strip()
        await self._typed(hand, text)

    async def _pass_keyboard(self, user: UserRef) -> None:
        if self.clear_screen:
            self._write(CLEAR)
        else:
            self._write("\n" * 3)
        prompt = self._("Pass the keyboard to %(name)s and press Enter. ", name=isolated(user.name))
        await self._read(prompt, quit_words=True)
        self._printed_table = ""
        self._printed_hand.clear()
        self._print_table()

    def _print_hand(self, hand: Hand) -> None:
        self._printed_hand[hand.user.key] = hand.version
        screen = hand.screen
        lines = screen_lines(screen, self.clock(), self.width)[1:]  # the heading is the table's
        self._write("\n".join(lines) + "\n")
        rows = choice_rows([[b for b in row if b.payload and b.enabled] for row in screen.buttons])
        if rows:
            self._write("\n".join(rows) + "\n")

    async def _typed(self, hand: Hand, text: str) -> None:
        first, *rest = text.split() or [""]
        word = first.lower()
        if word in QUIT_WORDS:
            raise Leave("")
        if help_word(word):
            self._write(help_text(self._) + "\n")
            return
        if word == "":
            self._print_hand(hand)
            return
        if word == "table" and not rest:
            self._printed_table = ""
            self._print_table()
            return
        ask = partial(self.table.command, hand.user)
        obeyed = await obey(self._, text, hand.buttons, ask, self.export_dir)
        if obeyed is not None:
            for said in obeyed.told:
                self._say(said)
            self._carry_out(list(obeyed.replies))
            if obeyed.leaving is not None:
                raise Leave(obeyed.leaving)
            return
        payload = press_for(self._, text, hand.buttons)
        if isinstance(payload, Refusal):
            self._say(payload.text)
        else:
            await self._press(hand.user, payload)

    async def _press(self, user: UserRef, payload: str) -> None:
        self._carry_out(await self.table.press(user, payload))

    # -- between deals and while computers move -----------------------------------------

    async def _between_deals(self, payload: str) -> None:
        self._print_table()
        await self._read(self._("Press Enter for the next deal (or type quit). "), quit_words=True)
        if self.screens.next_deal() == payload:  # not dealt meanwhile
            users = self.table.users
            presser = users.get(self._keyboard or "") or self.table.host
            await self._press(presser, payload)

    async def _wait_for_core(self) -> None:
        replies = await self.table.tick()
        if replies:
            self._carry_out(replies)
        else:
            await self.sleep(POLL)

    # -- what the core sent ---------------------------------------------------------

    def _carry_out(self, replies: list[Outbound]) -> None:
        """Print what is public at once (the table, summaries, notices, answers);
        hands wait for their owner's turn. The screens are already kept."""
        for reply in replies:
            if isinstance(reply, Answer):
                if reply.text:
                    self._say(reply.text)
            elif isinstance(reply, Response):
                self._print_table()  # the table before the answer that follows it
                self._write("\n".join(screen_lines(reply.screen, self.clock(), self.width)) + "\n")
            elif isinstance(reply, Notice) and reply.screen.picture is None:
                # A picture's caption only names it; the table shows the deal's end.
                self._write("\n".join(screen_lines(reply.screen, self.clock(), self.width)) + "\n")
            elif isinstance(reply, Document):
                self._say(export_file(self.export_dir, reply, self._))
        self._print_table()

    def _print_table(self) -> None:
        if self.screens.table is None:
            return
        if self._reader is None or self._reader._ is not self._:
            self._reader = TableReader(self._)
        # Its recent moves and its deal's end told from the model, to its one player
        # as to him.
        texts = read_table(self._reader, self.table, self.clock()).lines
        lines = [part for text in texts for part in wrap(text, self.width - 4)]
        text = framed(lines, self.width)
        if text != self._printed_table:
            self._printed_table = text
            self._write("\n" + text + "\n")

    def _farewell(self) -> str:
        if self.screens.table is None or self.screens.over():
            return self._("Bye!")
        return saved_farewell(self._)

    # -- input and output -----------------------------------------------------------

    async def _read(self, prompt: str, *, quit_words: bool = False) -> str:
        """The next typed line; :class:`Leave` at the end of input or on a stop."""
        self._write(prompt)
        reading = asyncio.ensure_future(self.lines.readline())
        stopping = asyncio.ensure_future(self.stop.wait())
        try:
            await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
            if not reading.done():
                reading.cancel()
        if self.stop.is_set():  # a stop wins over a line that came at the same moment
            self._write("\n")
            raise Leave(self._("Stopped."))
        line = reading.result()
        if line is None:
            self._write("\n")
            raise Leave(self._("End of input."))
        if self.echo:
            self._write(line + "\n")
        if quit_words and line.strip().lower() in QUIT_WORDS:
            raise Leave("")
        return line

    def _say(self, text: str) -> None:
        self._write(note(text) + "\n")

    def _write(self, text: str) -> None:
        self.out.write(readable(text, self.out))
        self.out.flush()
