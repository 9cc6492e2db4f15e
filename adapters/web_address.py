"""Where the web table is, as the chat adapters link to it: a button of the core's with a
signed pass (:attr:`bot.model.contract.Button.web`) becomes a link to the table's page
with that pass, or, in a Telegram group, to the bot's Mini App carrying it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias
from urllib.parse import quote

from bot.app.config import Settings
from bot.model import web_pass
from bot.model.contract import Outbound

PageDeliveries: TypeAlias = MutableMapping[str, Callable[[Sequence[Outbound]], Awaitable[None]]]
"""Where a chat adapter puts its delivery, under its platform's tag, for what the core
says to its chats after a press made on the web table's page."""


@dataclass(frozen=True, slots=True)
class WebAddress:
    """The web table's public address, and the short name of the Telegram Mini App that
    opens it (``None``: no Mini App is registered)."""

    public_url: str
    app_short_name: str | None = None

    @property
    def secure(self) -> bool:
        """Served over HTTPS, as Telegram wants of a page it opens inside its app."""
        return self.public_url.startswith("https://")

    def page(self, token: str) -> str:
        """The table's page, opened with the pass ``token``."""
        return f"{self.public_url.rstrip('/')}/?pass={quote(token, safe='')}"

    def mini_app(self, bot_username: str, token: str) -> str | None:
        """The Mini App's direct link carrying ``token`` (``None`` without a short name or
        the bot's username): Telegram opens it inside the app, in a group too."""
        if not self.app_short_name or not bot_username:
            return None
        param = web_pass.start_param(token)
        return f"https://t.me/{bot_username}/{self.app_short_name}?startapp={param}"


def web_address(settings: Settings) -> WebAddress | None:
    """The web table's address where the bot offers it (as the core does: with both its
    address and its secret set), else ``None``."""
    if not settings.web_public_url or settings.web_secret is None:
        return None
    return WebAddress(settings.web_public_url, settings.web_app_short_name or None)
