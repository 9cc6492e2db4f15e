"""A booted bot against the fake API: the real client logged in, a guild connected,
and helpers that press what the bot actually sent, the way a person would."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import redis.asyncio as aredis

from adapters.discord.adapter import Core, DiscordAdapter
from adapters.discord.client import DominoClient, build_client
from adapters.discord.components import parse_custom_id
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.discord.fake_api import EPHEMERAL, FakeDiscord, InteractionRecord, Json
from tests.adapters.discord.gateway import Gateway, Person

GUILD_ID = 4_100_000_000_000_000_001
CHANNEL_ID = 4_100_000_000_000_000_002
THREAD_ID = 4_100_000_000_000_000_003
OTHER_CHANNEL_ID = 4_100_000_000_000_000_004
TOKEN = "fake-bot-token"
SELECT = 3  # a string select menu's component type


@dataclass
class Bot:
    """One running bot process, as far as the tests are concerned."""

    fake: FakeDiscord
    client: DominoClient
    adapter: DiscordAdapter
    gateway: Gateway
    people: list[Person] = field(default_factory=list)
    # For each interaction, how many REST requests had been made once it was served.
    served: dict[int, int] = field(default_factory=dict)

    @classmethod
    async def boot(
        cls,
        fake: FakeDiscord,
        core: Core,
        redis: aredis.Redis,
        people: list[Person],
        **options: Any,
    ) -> Bot:
        # The channels' send budget waits on a clock that jumps to the end of each wait.
        options.setdefault("pacing", VirtualClock())
        client, adapter = build_client(core, redis, shard_ids=[0], shard_count=1, **options)
        if adapter.delivery.liveness is not None:
            await adapter.delivery.liveness.start()
        client.guild_ready_timeout = 0.01  # type: ignore[attr-defined]
        await client.login(TOKEN)
        gateway = Gateway(fake, client, GUILD_ID)
        for channel in (CHANNEL_ID, OTHER_CHANNEL_ID):
            gateway.add_channel(channel)
        gateway.add_channel(THREAD_ID, thread_of=CHANNEL_ID)
        gateway.connect(people)
        return cls(fake, client, adapter, gateway, list(people))

    async def close(self) -> None:
        await self.adapter.drain()
        await self.stop()

    async def stop(self) -> None:
        """Stop at once, whatever is still queued: the process is gone, and says so."""
        await self.adapter.delivery.close()
        await self.client.close()
        if self.adapter.delivery.liveness is not None:
            await self.adapter.delivery.liveness.stop()

    # -- acting ---------------------------------------------------------------------

    async def command(
        self, person: Person, sub: str, *, channel: int = CHANNEL_ID, **options: Any
    ) -> InteractionRecord:
        record = self.gateway.command(person, channel, sub, options)
        await self.finish(record)
        return record

    async def press(
        self, person: Person, message: Json, custom_id: str, *, channel: int | None = None
    ) -> InteractionRecord:
        buttons = {b["custom_id"] for b in buttons_of(message) if "custom_id" in b}
        assert custom_id in buttons, f"{custom_id!r} is not on the message"
        record = self.gateway.component(person, message, custom_id, channel_id=channel)
        await self.finish(record)
        return record

    async def press_label(
        self, person: Person, message: Json, label: str, **kwargs: Any
    ) -> InteractionRecord:
        button = find_button(message, lambda b: b.get("label") == label)
        assert button is not None, f"no button {label!r} in {labels_of(message)}"
        return await self.press(person, message, button["custom_id"], **kwargs)

    async def choose(self, person: Person, message: Json, value: str) -> InteractionRecord:
        """Choose the option ``value`` in the message's select menu that offers it."""
        menus = [c for c in buttons_of(message) if c.get("type") == SELECT]
        menu = next((m for m in menus if value in {o["value"] for o in m["options"]}), None)
        assert menu is not None, f"no select menu of the message offers {value!r}"
        record = self.gateway.component(person, message, menu["custom_id"], values=[value])
        await self.finish(record)
        return record

    async def tick(self) -> None:
        """A timer round, and everything it queued for the channels sent."""
        await self.adapter.tick()
        await self.adapter.drain()

    async def finish(
        self, record: InteractionRecord, timeout: float = 5.0, *, channels: bool = True
    ) -> None:
        """Wait until the interaction is answered and everything it caused is sent
        (without ``channels``: all but what waits in the channels' queues)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not record.callbacks:
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"interaction {record.id} was never answered")
            await asyncio.sleep(0.005)
        await self.adapter.drain(channels=channels)
        self.served[record.id] = len(self.fake.requests)

    # -- looking --------------------------------------------------------------------

    def message(self, message_id: int) -> Json:
        return self.fake.messages[message_id]

    def reply_to(self, record: InteractionRecord) -> Json:
        """The message an interaction's response made or updated."""
        message_id = record.followup_ids[-1] if record.followup_ids else record.original_id
        assert message_id is not None, "the interaction made no message"
        return self.fake.messages[message_id]

    def owned_ephemeral(self, person: Person) -> list[Json]:
        """Ephemeral messages only ``person`` sees, oldest first."""
        found: list[int] = []
        for record in self.fake.interactions.values():
            if record.user_id != person.id:
                continue
            for message_id in (record.original_id, *record.followup_ids):
                message = self.fake.messages.get(message_id or 0)
                if message and message["flags"] & EPHEMERAL and message_id not in found:
                    found.append(int(message["id"]))
        return [self.fake.messages[m] for m in sorted(found)]


def buttons_of(message: Json) -> list[Json]:
    return [c for row in message.get("components", []) for c in row.get("components", [])]


def labels_of(message: Json) -> list[str]:
    return [b.get("label", "") for b in buttons_of(message)]


def payloads_of(message: Json) -> list[str]:
    """The core payloads of the message's pressable buttons and menu options."""
    found = []
    for button in buttons_of(message):
        if button.get("type") == SELECT:
            found += [o["value"] for o in button["options"]]
            continue
        parsed = parse_custom_id(button.get("custom_id", ""))
        if parsed is not None and not button.get("disabled"):
            found.append(parsed.payload)
    return found


def find_button(message: Json, wanted: Callable[[Json], bool]) -> Json | None:
    return next((b for b in buttons_of(message) if wanted(b)), None)
