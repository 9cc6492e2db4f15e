"""The terminal table: the core's screens printed, typed input turned into presses.

The console is one chat (``con:local``) where everyone at the keyboard is an
admin. It opens a table through the same commands a group would send, then
loops: a person whose hand offers moves is asked for one; a finished deal waits
for Enter; otherwise the core's timers are ticked until a computer has moved.
Which moves exist is never decided here: they are the buttons the core sent.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol, TextIO

from adapters.console.draw import WIDTH, choice_rows, note, screen_lines, sentence, table_text
from adapters.console.lines import LineSource
from adapters.console.screens import Hand, Screens, is_table
from bot.contract import (
    Answer,
    Button,
    ChatRef,
    Command,
    Document,
    Inbound,
    Notice,
    Outbound,
    Press,
    Show,
    SlotKind,
    UserRef,
)
from bot.i18n import translator
from bot.snapshot import Snapshot
from bot.typed import NotAMove, offered_moves, typed_press

PLATFORM: Final = "con"
CHAT: Final = ChatRef(PLATFORM, "local")
TITLE: Final = "this table"  # the chat's name in what the core writes about it
POLL: Final = 0.2  # seconds between two looks at the core's timers
CLEAR: Final = "\x1b[2J\x1b[H"

HELP: Final = """\
Type the number of a move, or the move itself: 6-4@L, 6-4@R, 6-4 (when it fits
one end only), 1-5x@R (across), 5-5@L+3-3@R, draw, pass, done, steal 5-1,
recover 5-5 1-1. Also:
  hint     your moves, written out
  table    show the table again
  rules    the rules of this game
  scores   this table's scoreboard
  export   save the game so far as a replay file
  quit     leave; the match is saved (domino-bot play --resume continues it)"""


class Core(Protocol):
    """The part of the core's sessions the console uses."""

    async def handle(self, inbound: Inbound) -> list[Outbound]: ...

    async def tick(self, platform: str | None = None) -> list[Outbound]: ...


@dataclass(frozen=True, slots=True)
class TableRequest:
    """What ``domino-bot play`` asked for."""

    variant: str = "tyaga"
    players: int = 2
    humans: int = 1
    level: str | None = None  # the computers' level; None: the core's default
    lang: str | None = None
    options: tuple[str, ...] = ()  # key=value words for the game
    resume: bool = False


def keyboard_users(humans: int, lang: str | None = None) -> tuple[UserRef, ...]:
    """The people at the keyboard: "You" alone, else Player 1, Player 2, … (in the
    table's language: these are the names the table shows)."""
    _ = translator(lang or "en")
    if humans == 1:
        return (UserRef(PLATFORM, "1", _("You"), lang),)
    return tuple(
        UserRef(PLATFORM, str(n), _("Player %(n)d", n=n), lang) for n in range(1, humans + 1)
    )


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
        export_dir: Path = Path("."),
    ) -> None:
        """``echo`` repeats typed lines (input that is not a terminal); ``clear_screen``
        wipes the terminal before the keyboard passes to another player."""
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
        self.screens = Screens()
        self._printed_table = ""
        self._printed_hand: dict[str, int] = {}
        self._keyboard: str | None = None  # who has the keyboard now
        self._users: dict[str, UserRef] = {}
        self._lang = "en"

    # -- the session ------------------------------------------------------------------

    async def run(self, request: TableRequest, saved: Snapshot | None = None) -> int:
        """Play until the match ends or the player leaves; the exit status."""
        self._lang = request.lang or "en"
        try:
            if not await self._sit_down(request, saved):
                return 2
            await self._play()
        except Leave as leaving:
            self._say(f"{leaving} {self._farewell()}".strip())
        finally:
            self.lines.close()
        return 0

    async def _sit_down(self, request: TableRequest, saved: Snapshot | None) -> bool:
        running = saved is not None and saved.status == "running"
        if running and (request.resume or await self._yes("A match is saved. Continue it? [Y/n] ")):
            assert saved is not None
            self._say("Continuing the saved match.")
            self._carry_out(list(saved.shows))  # the people at the keyboard are its hands' owners
            return True
        for user in keyboard_users(request.humans, request.lang):
            self._users[user.key] = user
        if saved is not None:
            await self._command(next(iter(self._users.values())), "stop")
            self._say("The saved match was stopped; a new one begins.")
        elif request.resume:
            self._say("There is no saved match: a new one begins.")
        return await self._open_table(request)

    async def _open_table(self, request: TableRequest) -> bool:
        """Open the lobby, seat everyone, start; print what went wrong if anything did."""
        host, *others = self._users.values()
        options = ("timer=off", "pings=off", *request.options)
        steps: list[tuple[UserRef, str, tuple[str, ...]]] = [
            (host, "new", (request.variant, *options))
        ]
        steps += [(user, "join", ()) for user in others]
        level = (request.level,) if request.level else ()
        steps += [(host, "add_computer", level)] * (request.players - request.humans)
        steps.append((host, "start", ()))
        for user, name, args in steps:
            replies = await self._command(user, name, *args)
            if not any(is_table(r) for r in replies):
                for reply in replies:
                    if isinstance(reply, Show | Notice):
                        self._say(" ".join(screen_lines(reply.screen, self.clock(), 10_000)))
                if name != "new":
                    await self._command(host, "cancel")
                return False
            self.screens.keep(replies)
        self._carry_out([])
        return True

    async def _play(self) -> None:
        while True:
            if self.stop.is_set():
                raise Leave("Stopped.")
            hand = self.screens.to_move()
            if hand is not None:
                await self._turn(hand)
                continue
            next_deal = self.screens.next_deal()
            if next_deal is not None:
                await self._between_deals(next_deal)
                continue
            if self.screens.over():
                self._say("The match is over. Bye!")
                return
            await self._wait_for_core()

    # -- a person's turn ------------------------------------------------------------

    async def _turn(self, hand: Hand) -> None:
        key = hand.user.key
        if self._keyboard != key:
            if len(self._users) > 1:  # nobody else may see this hand
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
        await self._read(f"Pass the keyboard to {user.name} and press Enter. ", quit_words=True)
        self._printed_table = ""
        self._printed_hand.clear()
        self._print_table()

    def _print_hand(self, hand: Hand) -> None:
        self._printed_hand[hand.user.key] = hand.version
        screen = hand.screen
        lines = screen_lines(screen, self.clock(), self.width)[1:]  # the heading is the table's
        self._write("\n".join(lines) + "\n")
        rows = choice_rows([[b for b in row if b.payload] for row in screen.buttons])
        if rows:
            self._write("\n".join(rows) + "\n")

    async def _typed(self, hand: Hand, text: str) -> None:
        word = text.lower()
        buttons = hand.buttons
        if word in ("quit", "exit", "q"):
            raise Leave("")
        if word in ("help", "?", "h"):
            self._write(HELP + "\n")
        elif word == "":
            self._print_hand(hand)
        elif word == "hint":
            moves = ", ".join(str(o.press.move) for o in offered_moves(buttons))
            self._say(f"Your moves: {moves}" if moves else "You have no move to make now.")
        elif word == "table":
            self._printed_table = ""
            self._print_table()
        elif word in ("rules", "scores", "export"):
            self._carry_out(await self._command(hand.user, word))
        elif word.isdigit():
            await self._press_number(hand, buttons, int(word))
        else:
            await self._press_text(hand, buttons, text)

    async def _press_number(self, hand: Hand, buttons: Sequence[Button], number: int) -> None:
        if not 1 <= number <= len(buttons):
            self._say(f"There is no choice {number}: type 1 to {len(buttons)}, or help.")
            return
        payload = buttons[number - 1].payload
        assert payload is not None
        await self._press(hand.user, payload)

    async def _press_text(self, hand: Hand, buttons: Sequence[Button], text: str) -> None:
        try:
            payload = typed_press(translator(self._lang), text, buttons)
        except NotAMove as exc:
            self._say(f"{sentence(str(exc))} Type a number, a move like 6-4@L, or help.")
            return
        await self._press(hand.user, payload)

    async def _press(self, user: UserRef, payload: str) -> None:
        press = Press(CHAT, user, payload, is_admin=True, chat_title=TITLE)
        self._carry_out(await self.core.handle(press))

    # -- between deals and while computers move -----------------------------------------

    async def _between_deals(self, payload: str) -> None:
        self._print_table()
        await self._read("Press Enter for the next deal (or type quit). ", quit_words=True)
        if self.screens.next_deal() == payload:  # not dealt meanwhile
            presser = self._users.get(self._keyboard or "") or next(iter(self._users.values()))
            await self._press(presser, payload)

    async def _wait_for_core(self) -> None:
        replies = await self.core.tick(PLATFORM)
        if replies:
            self._carry_out(replies)
        else:
            await self.sleep(POLL)

    # -- what the core sent ---------------------------------------------------------

    def _carry_out(self, replies: list[Outbound]) -> None:
        """Remember the screens, print what is public at once (the table, summaries,
        notices, answers); hands wait for their owner's turn."""
        self.screens.keep(replies)
        for hand in self.screens.hands.values():
            self._users.setdefault(hand.user.key, hand.user)
        for reply in replies:
            if isinstance(reply, Answer):
                if reply.text:
                    self._say(reply.text)
            elif isinstance(reply, Show):
                self._show(reply)
            elif isinstance(reply, Notice):
                self._write("\n".join(screen_lines(reply.screen, self.clock(), self.width)) + "\n")
            elif isinstance(reply, Document):
                self._save(reply)
        self._print_table()

    def _show(self, show: Show) -> None:
        kind = show.slot.kind
        if kind in (SlotKind.SUMMARY, SlotKind.INFO):
            self._print_table()  # the table before the summary that follows it
            if kind is SlotKind.INFO:
                text = "\n".join(screen_lines(show.screen, self.clock(), self.width))
            else:
                text = "\n" + table_text(show.screen, self.clock(), self.width)
            self._write(text + "\n")

    def _print_table(self) -> None:
        table = self.screens.table
        if table is None:
            return
        text = table_text(table, self.clock(), self.width)
        if text != self._printed_table:
            self._printed_table = text
            self._write("\n" + text + "\n")

    def _save(self, document: Document) -> None:
        path = self.export_dir / document.filename
        try:
            path.write_bytes(document.data)
        except OSError as exc:
            self._say(f"Could not write {path}: {exc.strerror or exc}")
            return
        self._say(f"{document.caption}: {path}")

    def _farewell(self) -> str:
        if self.screens.table is None or self.screens.over():
            return "Bye!"
        return "The match is saved: domino-bot play --resume continues it."

    # -- input and output -----------------------------------------------------------

    async def _command(self, user: UserRef, name: str, *args: str) -> list[Outbound]:
        return await self.core.handle(
            Command(CHAT, user, name, args, is_admin=True, chat_title=TITLE)
        )

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
            raise Leave("Stopped.")
        line = reading.result()
        if line is None:
            self._write("\n")
            raise Leave("End of input.")
        if self.echo:
            self._write(line + "\n")
        if quit_words and line.strip().lower() in ("quit", "exit", "q"):
            raise Leave("")
        return line

    async def _yes(self, question: str) -> bool:
        answer = (await self._read(question)).strip().lower()
        return answer in ("", "y", "yes")

    def _say(self, text: str) -> None:
        self._write(note(text) + "\n")

    def _write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()
