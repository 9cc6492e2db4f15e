"""The core's buttons that open the web table, made Discord link buttons to the table's
page with their pass, where the core's instructions enter the adapter.

Discord renders a screen in a dozen places (a reply, an edit, an ephemeral hand, a
queued channel message), none of which knows the bot's settings: a button's pass is
turned into its link once, here, so every one of them renders a plain link button.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import replace

from adapters.discord.adapter import Core, DiscordAdapter
from adapters.web_address import WebAddress
from bot.model.contract import (
    Answer,
    Button,
    ChatRef,
    Inbound,
    Notice,
    Outbound,
    Response,
    Screen,
    Show,
)
from bot.table.redraw import Drawn


class WebLinked:
    """``core`` as the Discord adapter sees it: each button with a pass to the web table
    a link to the table's page at ``web``."""

    def __init__(self, core: Core, web: WebAddress) -> None:
        self._core = core
        self._web = web

    async def handle(self, inbound: Inbound) -> list[Outbound]:
        return linked(await self._core.handle(inbound), self._web)

    async def tick(self, platform: str) -> list[Outbound]:
        return linked(await self._core.tick(platform), self._web)

    def tables_on_demand(self, platform: str) -> None:
        self._core.tables_on_demand(platform)

    async def redraw(self, chat: ChatRef, slot_keys: Collection[str] = ()) -> Drawn | None:
        drawn = await self._core.redraw(chat, slot_keys)
        if drawn is None:
            return None
        screens = tuple(_show(show, self._web) for show in drawn.screens)
        return replace(drawn, screens=screens)


def page_delivery(
    adapter: DiscordAdapter, web: WebAddress | None
) -> Callable[[Sequence[Outbound]], Awaitable[None]]:
    """``adapter``'s delivery of what a press on the web table's page says to Discord's
    channels, its passes made links as the adapter's own core's are."""

    async def deliver(outbounds: Sequence[Outbound]) -> None:
        await adapter.delivery.carry_out(outbounds if web is None else linked(outbounds, web))

    return deliver


def linked(outbounds: Sequence[Outbound], web: WebAddress) -> list[Outbound]:
    """``outbounds`` with each web table button a link to the table's page."""
    return [_outbound(outbound, web) for outbound in outbounds]


def _outbound(outbound: Outbound, web: WebAddress) -> Outbound:
    if isinstance(outbound, Show):
        return _show(outbound, web)
    if isinstance(outbound, Answer) and outbound.screen is not None:
        return replace(outbound, screen=link_screen(outbound.screen, web))
    if isinstance(outbound, Notice | Response):
        return replace(outbound, screen=link_screen(outbound.screen, web))
    return outbound


def _show(show: Show, web: WebAddress) -> Show:
    return replace(show, screen=link_screen(show.screen, web))


def link_screen(screen: Screen, web: WebAddress) -> Screen:
    """``screen`` with its web table buttons made links (the same screen if it has none),
    a row of them put first: a message that has more rows than Discord shows keeps its
    last row (a hand's draw or pass) as buttons, and its first ones, while the rest go
    into select menus, which cannot hold a link."""
    if not any(b.web is not None for row in screen.buttons for b in row):
        return screen
    rows = [tuple(_link(button, web) for button in row) for row in screen.buttons]
    links = [row for row in rows if all(b.url is not None for b in row)]
    rest = [row for row in rows if not all(b.url is not None for b in row)]
    return replace(screen, buttons=(*links, *rest))


def _link(button: Button, web: WebAddress) -> Button:
    if button.web is None:
        return button
    return replace(button, web=None, url=web.page(button.web))
