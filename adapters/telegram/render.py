"""Screens as Telegram messages: HTML text and an inline keyboard.

HTML parse mode is used because MarkdownV2 treats ``|``, ``[``, ``]``, ``-`` and
``.`` as markup, so every tile (``[6|4]``) would need escaping. Here each piece of
text is escaped once, and only mentions add markup.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.constants import KeyboardButtonStyle

from adapters.telegram.conversion import TELEGRAM_NAMES
from adapters.web_address import WebAddress
from bot.model.contract import (
    Button,
    ChatRef,
    CommandRef,
    Deadline,
    Mention,
    Screen,
    Segment,
    Style,
    TextLine,
    isolated,
    segment_text,
)

CALLBACK_DATA_LIMIT = 64  # bytes, Telegram's limit for callback_data
TEXT_LIMIT = 4096  # characters of visible text in one message
ALERT_LIMIT = 200  # characters in a callback answer
DEEP_LINK_PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")
# A button that leads nowhere (a disabled label) still needs callback data; the
# adapter answers its presses itself, with nothing.
INERT_DATA = "-"

_STYLES = {Style.PRIMARY: KeyboardButtonStyle.PRIMARY, Style.DANGER: KeyboardButtonStyle.DANGER}


@dataclass(frozen=True, slots=True)
class Rendered:
    text: str
    markup: InlineKeyboardMarkup | None


class Renderer:
    """Turns a :class:`Screen` into what ``sendMessage``/``editMessageText`` take.

    ``bot_username`` builds deep links; ``wall`` gives Unix seconds for deadlines;
    ``web`` is where the web table is (``None``: its buttons are left out).
    """

    def __init__(
        self,
        bot_username: str,
        wall: Callable[[], float] = time.time,
        web: WebAddress | None = None,
    ) -> None:
        self.bot_username = bot_username
        self._wall = wall
        self._web = web

    def render(self, screen: Screen, chat: ChatRef | None = None) -> Rendered:
        """``screen`` as a message in ``chat`` (a private chat's buttons may open the web
        table inside Telegram; a group's cannot)."""
        private = chat is not None and is_private_chat(chat)
        return Rendered(self.text(screen.lines), self.keyboard(screen.buttons, private))

    def text(self, lines: Sequence[TextLine]) -> str:
        """The lines as HTML, cut at whole lines if the visible text would be too long."""
        now = self._wall()
        out: list[str] = []
        visible = 0
        for line in lines:
            markup = "".join(_segment_html(segment, now) for segment in line)
            length = sum(len(_segment_plain(segment, now)) for segment in line) + 1
            if visible + length > TEXT_LIMIT - 2:
                out.append("…")
                break
            out.append(markup)
            visible += length
        text = "\n".join(out)
        return text if text.strip() else "…"

    def plain(self, lines: Sequence[TextLine]) -> str:
        now = self._wall()
        return "\n".join("".join(_segment_plain(s, now) for s in line) for line in lines)

    def keyboard(
        self, rows: Sequence[Sequence[Button]], private: bool = False
    ) -> InlineKeyboardMarkup | None:
        shown = [[b for b in row if b.web is None or self._web is not None] for row in rows]
        keyboard = [[self.button(b, private) for b in row] for row in shown if row]
        return InlineKeyboardMarkup(keyboard) if keyboard else None

    def button(self, button: Button, private: bool = False) -> InlineKeyboardButton:
        style = _STYLES.get(button.style) if button.enabled else None
        if button.web is not None and self._web is not None:
            return self.web_button(button.label, button.web, private)
        if button.payload is not None:
            return InlineKeyboardButton(
                button.label, callback_data=callback_data(button.payload), style=style
            )
        if button.deep_link is not None:
            return InlineKeyboardButton(
                button.label, url=self.deep_link(button.deep_link), style=style
            )
        if button.url is not None:
            return InlineKeyboardButton(button.label, url=button.url, style=style)
        return InlineKeyboardButton(button.label, callback_data=INERT_DATA)

    def web_button(self, label: str, token: str, private: bool) -> InlineKeyboardButton:
        """A button that opens the web table with the pass ``token``: in a private chat
        inside Telegram (a ``web_app`` button, which Telegram allows there alone, and
        over HTTPS alone); in a group, the Mini App's direct link where it has a short
        name, else the table's page."""
        assert self._web is not None
        page = self._web.page(token)
        if private and self._web.secure:
            return InlineKeyboardButton(label, web_app=WebAppInfo(url=page))
        mini_app = None if private else self._web.mini_app(self.bot_username, token)
        return InlineKeyboardButton(label, url=mini_app or page)

    def deep_link(self, payload: str) -> str:
        if not DEEP_LINK_PAYLOAD.fullmatch(payload):
            raise ValueError(f"deep-link payload {payload!r} is not 1-64 of A-Z a-z 0-9 _ -")
        return f"https://t.me/{self.bot_username}?start={payload}"


def is_private_chat(chat: ChatRef) -> bool:
    """``chat`` is a person's private chat with the bot: Telegram's groups and channels
    have negative ids."""
    return not chat.chat_id.startswith("-")


def callback_data(payload: str) -> str:
    """The payload as callback data; a payload over Telegram's limit is a bug upstream."""
    size = len(payload.encode())
    if size > CALLBACK_DATA_LIMIT:
        raise ValueError(f"button payload {payload!r} is {size} bytes, over {CALLBACK_DATA_LIMIT}")
    return payload


def alert_text(text: str) -> str:
    """A callback answer's text, cut to what Telegram shows."""
    return text if len(text) <= ALERT_LIMIT else text[: ALERT_LIMIT - 1] + "…"


def time_left(seconds: float) -> str:
    """Whole seconds left, e.g. ``45s`` or ``2m05s``; never negative."""
    left = max(0, int(seconds + 0.999))
    minutes, rest = divmod(left, 60)
    return f"{minutes}m{rest:02d}s" if minutes else f"{rest}s"


def _segment_html(segment: Segment, now: float) -> str:
    if isinstance(segment, Mention):
        name = html.escape(isolated(segment.user.name), quote=False)
        if segment.user.user_id.isdigit():
            return f'<a href="tg://user?id={segment.user.user_id}">{name}</a>'
        return name  # a computer seat or a chat speaking as itself: no one to link
    if isinstance(segment, Deadline):
        # Clients that know date-time entities show a live, localised "in 45 seconds";
        # older ones show the time left when the message was rendered.
        left = time_left(segment.at - now)
        return f'<tg-time unix="{int(segment.at)}" format="r">{left}</tg-time>'
    if isinstance(segment, CommandRef):
        return html.escape(command_text(segment), quote=False)
    return html.escape(segment, quote=False)


def _segment_plain(segment: Segment, now: float) -> str:
    return segment_text(segment, lambda at: time_left(at - now), command_text)


def command_text(command: CommandRef) -> str:
    """A command as typed in Telegram, by its Telegram name (``/newgame tyaga``)."""
    name = "/" + TELEGRAM_NAMES.get(command.name, command.name)
    return f"{name} {command.args}" if command.args else name
