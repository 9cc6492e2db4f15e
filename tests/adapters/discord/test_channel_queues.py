"""A channel's queue: while an edit is being sent, newer versions of its slot
waiting behind it are merged into the newest, which alone is sent after it."""

from __future__ import annotations

import asyncio

from adapters.discord.channel_queues import ChannelQueues
from bot.model.contract import ChatRef, Outbound, Screen, Show, Slot, SlotKind

CHAT = ChatRef("dc", "1")
TABLE = Slot(SlotKind.TABLE, CHAT, "g1")


def version(number: int) -> Show:
    return Show(TABLE, Screen(((f"version {number}",),)), number)


async def test_versions_waiting_behind_an_edit_are_merged_into_the_newest() -> None:
    sent: list[int] = []
    first_sending = asyncio.Event()
    let_through = asyncio.Event()

    async def send(outbound: Outbound) -> None:
        assert isinstance(outbound, Show)
        first_sending.set()
        await let_through.wait()  # the channel is rate-limited for a while
        sent.append(outbound.version)

    def refused(outbound: Outbound, exc: Exception) -> None:
        raise AssertionError("nothing is refused here")

    queues = ChannelQueues(send, refused)
    queues.put(CHAT.key, version(1))
    await first_sending.wait()
    for number in (2, 3, 4):
        queues.put(CHAT.key, version(number))
    let_through.set()
    await queues.drain()
    assert sent == [1, 4]
