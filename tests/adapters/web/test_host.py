"""The web table in a chat bot's process: served only where the bot offers it, and what
a page's press says to the chats goes to the delivery of each chat's platform."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import redis.asyncio as aredis

from adapters.web.host import Deliveries, hosted_table
from bot.app.config import Settings
from bot.model.contract import Answer, ChatRef, Notice, Outbound, Screen, Show, Slot, SlotKind
from bot.storage.store import Store
from bot.table.sessions import Sessions
from tests.bot.conftest import redis_client  # noqa: F401  (shared fixture)

SCREEN = Screen((("Deal 1",),))


def test_a_bot_without_its_web_address_and_secret_serves_no_web_table(
    redis_client: aredis.Redis,  # noqa: F811
) -> None:
    bare = Settings(_env_file=None)
    sessions = Sessions(Store(redis_client), bare)
    assert hosted_table(bare, sessions, redis_client, Deliveries()) is None
    full = Settings(_env_file=None, web_public_url="https://domino.example", web_secret="w" * 32)
    assert hosted_table(full, Sessions(Store(redis_client), full), redis_client, Deliveries())


async def test_each_instruction_goes_to_its_chats_platform() -> None:
    got: dict[str, list[Outbound]] = {"tg": [], "dc": []}

    def collector(platform: str) -> Callable[[Sequence[Outbound]], Awaitable[None]]:
        async def deliver(outbounds: Sequence[Outbound]) -> None:
            got[platform] += outbounds

        return deliver

    pages = Deliveries()
    pages.by_platform.update({p: collector(p) for p in got})
    table = Show(Slot(SlotKind.TABLE, ChatRef("tg", "-100"), "g"), SCREEN)
    hand = Show(Slot(SlotKind.HAND, ChatRef("dc", "7"), "g"), SCREEN)
    elsewhere = Notice(ChatRef("web", "local-1"), SCREEN)
    await pages([Answer("taken"), table, hand, elsewhere])
    assert got == {"tg": [table], "dc": [hand]}
