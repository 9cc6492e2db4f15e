"""One terminal match on the core, whichever screen shows it.

The line mode and the full-screen table both open a table through the commands
a group would send, continue a saved one from its screens, and turn the
player's choices into presses; they differ only in how they show the result.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Final, Protocol

from adapters.console.draw import screen_lines
from adapters.console.saved import ALL_TABLES, PLATFORM, Saved, free_table, saved_matches
from adapters.console.screens import Screens, is_table
from bot.model.contract import (
    ChatRef,
    Command,
    Delete,
    Document,
    Inbound,
    Notice,
    Outbound,
    Press,
    Response,
    Show,
    UserRef,
)
from bot.model.hand import HandView
from bot.storage.store import Store
from bot.table import privacy
from bot.views.catalog import variant as variant_info
from bot.views.i18n import translator
from engine import DominoError

TITLE: Final = "this table"  # the chat's name in what the core writes about it
OF_THIS_GAME: Final = frozenset({"rules", "scores"})  # alone, they are about the table's game


class Core(Protocol):
    """The part of the core's sessions the console uses."""

    async def handle(self, inbound: Inbound) -> list[Outbound]: ...

    async def tick(self, platform: str | None = None) -> list[Outbound]: ...

    def share_boards(self, chats: Collection[ChatRef]) -> None: ...

    def draws_tables(self, platform: str) -> None: ...

    def no_deal_pictures(self, platform: str) -> None: ...


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


@dataclass(frozen=True, slots=True)
class Tables:
    """The terminal's tables when ``play`` starts: the saved matches, newest first,
    and a free table for a new one (with whether a stale lobby must go first)."""

    saved: tuple[Saved, ...] = ()
    free: tuple[ChatRef, bool] | None = None

    def like(self, request: TableRequest) -> Saved | None:
        """The newest saved match of the game, seats and people ``request`` names."""
        try:
            name = variant_info(request.variant).name
        except DominoError:
            return None
        for saved in self.saved:
            same_table = saved.players == request.players and saved.humans == request.humans
            if saved.variant == name and same_table:
                return saved
        return None


async def look_around(store: Store) -> Tables:
    """The terminal's tables as they are now."""
    return Tables(tuple(await saved_matches(store)), await free_table(store))


def keyboard_users(humans: int, lang: str | None = None) -> tuple[UserRef, ...]:
    """The people at the keyboard: "You" alone, else Player 1, Player 2, … (in the
    table's language: these are the names the table shows)."""
    _ = translator(lang or "en")
    if humans == 1:
        return (UserRef(PLATFORM, "1", _("You"), lang),)
    return tuple(
        UserRef(PLATFORM, str(n), _("Player %(n)d", n=n), lang) for n in range(1, humans + 1)
    )


class Table:
    """A match in one of the terminal's chats: the latest screens and who plays."""

    def __init__(self, core: Core, chat: ChatRef) -> None:
        # The terminal shows a deal's end in the table: the core need not draw it.
        core.no_deal_pictures(PLATFORM)
        self.core = core
        # The terminal is one place to its player: its boards span all its tables.
        core.share_boards(ALL_TABLES)
        self.chat = chat
        core.draws_tables(chat.platform)  # the terminal draws from the table's model
        self.screens = Screens()
        self.users: dict[str, UserRef] = {}
        self.game_id: str | None = None
        self.variant: str | None = None  # the game played here, as it was asked for

    def keep(self, replies: list[Outbound]) -> list[Outbound]:
        """Remember this match's screens; the replies that are this match's (the
        timers of the terminal's other tables may answer too)."""
        ours = [reply for reply in replies if self._ours(reply)]
        self.screens.keep(ours)
        for hand in self.screens.hands.values():
            self.users.setdefault(hand.user.key, hand.user)
        return ours

    def _ours(self, reply: Outbound) -> bool:
        if isinstance(reply, Notice | Response | Document):
            # What the core sends a player here alone (a kept match's replay) is his too.
            mine = {ChatRef(self.chat.platform, u.user_id) for u in self.users.values()}
            return reply.chat == self.chat or reply.chat in mine
        if not isinstance(reply, Show | Delete):
            return True
        slot = reply.slot
        if is_table(reply):
            if slot.chat == self.chat and slot.game_id is not None:
                self.game_id = slot.game_id
            return slot.chat == self.chat
        return slot.game_id is None or self.game_id in (None, slot.game_id)

    def resume(self, saved: Saved) -> list[Outbound]:
        """The saved match's screens; the people at the keyboard are its hands' owners."""
        self.chat = saved.chat
        self.game_id = saved.snapshot.game_id
        self.variant = saved.variant
        return self.keep(list(saved.snapshot.shows))

    async def open(self, request: TableRequest, stale_lobby: bool) -> str | None:
        """Open the lobby, seat everyone and start; what went wrong, if anything did
        (the lobby is then closed again)."""
        users = keyboard_users(request.humans, request.lang)
        self.variant = request.variant
        for user in users:
            self.users[user.key] = user
        host, *others = users
        if stale_lobby:
            await self.command(host, "cancel")
        options = ("timer=off", "pings=off", *request.options)
        steps: list[tuple[UserRef, str, tuple[str, ...]]] = [
            (host, "new", (request.variant, *options))
        ]
        steps += [(user, "join", ()) for user in others]
        level = (request.level,) if request.level else ()
        steps += [(host, "add_computer", level)] * (request.players - request.humans)
        steps.append((host, "start", ()))
        for user, name, args in steps:
            replies = await self.command(user, name, *args)
            if not any(is_table(r) for r in replies):
                if name != "new":
                    await self.command(host, "cancel")
                _ = translator(request.lang or "en")
                return " ".join(_said(replies)) or _("The table could not be opened.")
        return None

    @property
    def host(self) -> UserRef:
        return next(iter(self.users.values()))

    @property
    def you(self) -> UserRef | None:
        """The one person at the keyboard, whom the table calls "You"; ``None`` while
        several share it, and so the screen."""
        return self.host if len(self.users) == 1 else None

    @property
    def your_hand(self) -> HandView | None:
        """The model of the one person's hand (which says his seat), if he is alone at
        the keyboard and has one."""
        you = self.you
        hand = self.screens.hands.get(you.key) if you is not None else None
        return hand.model if hand is not None else None

    async def command(self, user: UserRef, name: str, *args: str) -> list[Outbound]:
        if name in OF_THIS_GAME and not args and self.variant is not None:
            args = (self.variant,)  # this table's game, also once its match is over
        # What is kept of a person, and his results, are answered as to him alone: the
        # terminal is his own.
        private = name in privacy.COMMANDS or name == "stats"
        command = Command(
            self.chat, user, name, args, is_admin=True, private=private, chat_title=TITLE
        )
        return self.keep(await self.core.handle(command))

    async def press(self, user: UserRef, payload: str) -> list[Outbound]:
        press = Press(self.chat, user, payload, is_admin=True, chat_title=TITLE)
        return self.keep(await self.core.handle(press))

    async def tick(self) -> list[Outbound]:
        return self.keep(await self.core.tick(PLATFORM))


def _said(replies: list[Outbound]) -> list[str]:
    return [
        " ".join(screen_lines(reply.screen, 0.0, 10_000))
        for reply in replies
        if isinstance(reply, Show | Notice | Response)
    ]
