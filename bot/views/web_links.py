"""The buttons that open the web table: the table's "Open the table" (a pass to watch,
naming nobody) and a hand's "Play in the web table" (a pass naming its player).

A pass carries its expiry, so the screens that show one depend on the time. Passes are
made for one moment per drawing (:class:`WebLinks`), and that moment is rounded up to
a whole hour (:func:`pass_expiry`): a screen drawn again within the hour is the same
screen, and the chats, which skip a screen that did not change, send nothing for it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Final

from bot.model import web_pass
from bot.model.contract import Button, ChatRef, Screen, Style
from bot.model.gamedoc import RUNNING, GameDoc
from bot.views.i18n import Translator

HOUR: Final = 3600


def pass_expiry(now: float, hours: float) -> int:
    """When a pass made at ``now`` to last ``hours`` expires: rounded up to the next
    whole hour, so every pass made within one hour is the same."""
    return math.ceil((now + hours * HOUR) / HOUR) * HOUR


@dataclass(frozen=True, slots=True)
class WebLinks:
    """Signs the passes of one drawing: with ``secret``, all expiring at ``expires``."""

    secret: str
    expires: int

    def pass_for(self, chat: ChatRef, user_key: str | None) -> str:
        """A pass to ``chat``'s table for ``user_key`` (``None``: to watch)."""
        return web_pass.sign(self.secret, chat, user_key, self.expires)


def watch_button(_: Translator, links: WebLinks, chat: ChatRef) -> Button:
    """A button that opens ``chat``'s table to watch."""
    return Button(_("Open the table"), web=links.pass_for(chat, None))


def with_table_link(_: Translator, screen: Screen, doc: GameDoc, links: WebLinks | None) -> Screen:
    """The table's ``screen`` with a row that opens it on the web, while the game is
    played (a lobby or an ended match has none)."""
    if links is None or doc.status != RUNNING:
        return screen
    return replace(screen, buttons=(*screen.buttons, (watch_button(_, links, doc.chat),)))


def with_hand_link(
    _: Translator, screen: Screen, doc: GameDoc, seat: int, links: WebLinks | None
) -> Screen:
    """``seat``'s hand ``screen`` with a row that opens the table on the web as him,
    while the game is played."""
    user = doc.seats[seat].user
    if links is None or user is None or doc.status != RUNNING:
        return screen
    button = Button(
        _("Play in the web table"), web=links.pass_for(doc.chat, user.key), style=Style.PLAIN
    )
    return replace(screen, buttons=(*screen.buttons, (button,)))
