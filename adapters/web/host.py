"""The web table served inside a chat bot's process, beside its chats.

Where the bot offers the web table (its public address and its secret set, as the core
reads them), the process that runs the chats serves the table's page and socket on
``WEB_LISTEN:WEB_PORT``. A press made on a page goes through the core as a chat's button
would, and what the core then says to the chats (the group's table, the players' hands,
the pings) is carried by the delivery of the platform the table lives on: each chat
adapter adds its own to :class:`Deliveries` once it runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Sequence

import redis.asyncio as aredis
from aiohttp import web

from adapters.web.app import WebTable, web_app
from adapters.web.moves import Core, Deliver
from bot.app.config import Settings
from bot.model.contract import Delete, Document, Notice, Outbound, Response, Show

log = logging.getLogger(__name__)


class Deliveries:
    """Each platform's delivery of the core's instructions, by the platform's tag
    (``tg``, ``dc``). An instruction for a platform that has none here is dropped: its
    page has shown the move already, and its chat's screens catch up at the adapter's
    next look at the table."""

    def __init__(self) -> None:
        self.by_platform: dict[str, Deliver] = {}

    async def __call__(self, outbounds: Sequence[Outbound]) -> None:
        grouped: dict[str, list[Outbound]] = {}
        for outbound in outbounds:
            grouped.setdefault(platform_of(outbound), []).append(outbound)
        for platform, told in grouped.items():
            deliver = self.by_platform.get(platform)
            if deliver is None:
                log.debug("no delivery for %d instructions to %r", len(told), platform)
                continue
            await deliver(told)


def platform_of(outbound: Outbound) -> str:
    """The platform whose chat ``outbound`` goes to (``""``: none, as for an answer)."""
    if isinstance(outbound, Show | Delete):
        return outbound.slot.chat.platform
    if isinstance(outbound, Notice | Response | Document):
        return outbound.chat.platform
    return ""


def hosted_table(
    settings: Settings, core: Core, redis: aredis.Redis, deliver: Deliver
) -> WebTable | None:
    """The web table this process serves, or ``None`` where the bot offers none. The
    Telegram token, when set, checks the Mini App's initData."""
    if not settings.web_public_url or settings.web_secret is None:
        return None
    token = settings.telegram_token.get_secret_value() if settings.telegram_token else None
    return WebTable(
        core,
        redis,
        secret=settings.web_secret.get_secret_value(),
        bot_token=token,
        deliver=deliver,
        default_lang=settings.default_lang,
    )


@contextlib.asynccontextmanager
async def serving(table: WebTable, host: str, port: int) -> AsyncIterator[int]:
    """Serve ``table`` on ``host:port`` while the block runs; yields the port it listens
    on (the one the system chose, for port 0)."""
    runner = web.AppRunner(web_app(table), handle_signals=False)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound = next(
            (int(a[1]) for a in runner.addresses if isinstance(a, tuple) and len(a) >= 2), port
        )
        log.info("the web table listens on %s:%d", host, bound)
        yield bound
    finally:
        await runner.cleanup()


async def serve_web(table: WebTable, host: str, port: int, stop: asyncio.Event) -> None:
    """Serve ``table`` until ``stop`` is set."""
    async with serving(table, host, port):
        await stop.wait()
